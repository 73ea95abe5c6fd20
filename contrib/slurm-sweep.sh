#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# contrib/slurm-sweep.sh - a memcgsim sweep as a Slurm job array: one array
# task per point, each running `memcgsim sweep ... --point I` (the same
# point as the line `memcgsim sweep ... --plan` prints for it, which reads
# the sweep from OUT/sweep.meta instead).
#
#  1. Say what to sweep: edit the defaults below, or pass SCENARIO, VARY,
#     SETS, OUT and MEMCGSIM in the environment (sbatch exports it), or
#     give the sweep's options as the script's arguments, after its name
#     (they replace VARY and SETS):
#         sbatch --array=0-11 contrib/slurm-sweep.sh \
#                 --vary 'cgroups./top/mid={memory.max: 64M},{}' \
#                 --vary kernel.charge_batch=16,32,64,128 --set duration_ms=1
#     VARY and SETS are read as a shell reads a command line, so a value
#     with spaces is quoted inside them:
#         VARY="--vary 'cgroups./top/mid={memory.max: 64M},{}'"
#     OUT must be on a filesystem that every node sees, and so must
#     SCENARIO and memcgsim. memcgsim is, unless MEMCGSIM says otherwise,
#     the one in the directory sbatch was run from (a build tree: the
#     README's build), else the one in PATH (`make install`); SCENARIO is
#     by default charge-batch-2022 from that memcgsim's own scenarios
#     (its source tree's, or the installed ones).
#  2. Count the points: run this script outside a job array, with the
#     same settings and arguments; it prints the number of points not done
#     yet and the sbatch line for them, and writes only OUT/sweep.meta and an empty
#     OUT/points (as --plan does):
#         sh contrib/slurm-sweep.sh
#         64 points to run: sbatch --array=0-63 contrib/slurm-sweep.sh ...
#     (--array on the command line wins over the #SBATCH line below).
#  3. When every task has ended, join the results, by hand or as a job
#     that waits for the array:
#         memcgsim merge "$OUT"
#         sbatch --dependency=afterok:JOBID --wrap "memcgsim merge $OUT"
#     merge names the points that are missing, if any; resubmit the array
#     (a task whose point is done exits at once) or run their --plan lines.
#
# Each task prints the point it runs, to its memcgsim-sweep-JOB_TASK.out.
# Clusters cap array indices (MaxArraySize, often 1001): for more points,
# submit several arrays with OFFSET=1000, 2000, ... exported; task I runs
# point OFFSET + I.
#
#SBATCH --job-name=memcgsim-sweep
#SBATCH --array=0-63
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --time=00:30:00
#SBATCH --output=memcgsim-sweep-%A_%a.out
set -eu

# Slurm runs a copy of this script from its spool directory, so $0 says
# nothing about where memcgsim is: look where sbatch was run.
here=${SLURM_SUBMIT_DIR:-$PWD}
if test -z "${MEMCGSIM-}"; then
	if test -x "$here/memcgsim"; then
		MEMCGSIM=$here/memcgsim
	else
		MEMCGSIM=memcgsim
	fi
fi
if test -z "${SCENARIO-}"; then
	# memcgsim list's first line names its data directory.
	data=$("$MEMCGSIM" list | sed -n '1s/^Machine profiles in \(.*\)\/machines (.*/\1/p')
	if test -z "$data"; then
		echo "slurm-sweep.sh: cannot find memcgsim's scenarios with '$MEMCGSIM list'; set SCENARIO" >&2
		exit 2
	fi
	SCENARIO=$data/validation/charge-batch-2022.yaml
fi
# 8 x 4 x 2 = 64 points of charge-batch-2022, each all six variants for
# 1 ms of simulated time.
: "${VARY=--vary kernel.charge_batch=16,32,48,64,96,128,192,256 --vary workloads.0.instances=8,16,24,36 --vary seed=1,2}"
: "${SETS=--set duration_ms=1}" # SETS= for none
: "${OUT:=$HOME/memcgsim-sweep}"
: "${OFFSET:=0}"

# The sweep's options: the arguments, else VARY and SETS read as a shell
# command line (quotes and all).
if test "$#" = 0; then
	eval "set -- $VARY $SETS"
fi

if test -z "${SLURM_ARRAY_TASK_ID-}"; then
	# The points not done yet, from the --plan lines' --point N, as
	# ranges: "0-9,12,20-63".
	"$MEMCGSIM" sweep "$SCENARIO" "$@" --out "$OUT" --plan >"${TMPDIR:-/tmp}/slurm-sweep.$$" || {
		rm -f "${TMPDIR:-/tmp}/slurm-sweep.$$"
		exit 2
	}
	# shellcheck disable=SC2046
	set -- $(sed -n 's/.* --point \([0-9][0-9]*\)$/\1/p' "${TMPDIR:-/tmp}/slurm-sweep.$$" |
		awk 'NR == 1 { a = b = $1; next }
		     $1 == b + 1 { b = $1; next }
		     { printf "%s%s ", a, a == b ? "" : "-" b; a = b = $1 }
		     END { if (NR) printf "%s%s %d\n", a, a == b ? "" : "-" b, NR }')
	rm -f "${TMPDIR:-/tmp}/slurm-sweep.$$"
	if test "$#" = 0; then
		echo "every point is done: $MEMCGSIM merge $OUT"
	else
		eval "n=\${$#}"
		ranges=$(echo "$*" | sed 's/ [0-9]*$//; s/ /,/g')
		echo "$n points to run: sbatch --array=$ranges $0 (with the same settings and arguments)"
	fi
	exit 0
fi
point=$((OFFSET + SLURM_ARRAY_TASK_ID))
echo "slurm-sweep.sh: point $point of $SCENARIO into $OUT"
exec "$MEMCGSIM" sweep "$SCENARIO" "$@" --out "$OUT" --point "$point" --quiet
