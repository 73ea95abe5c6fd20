#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# contrib/slurm-sweep.sh - a memcgsim sweep as a Slurm job array: one array
# task per point, each running `memcgsim sweep ... --point I` (the same
# point as the line `memcgsim sweep ... --plan` prints for it, which reads
# the sweep from OUT/sweep.meta instead).
#
#  1. Say what to sweep: edit the defaults below, or pass SCENARIO, VARY,
#     SETS, OUT and MEMCGSIM in the environment (sbatch exports it). OUT
#     must be on a filesystem that every node sees, and so must SCENARIO
#     (and memcgsim, installed or by the same path everywhere).
#  2. Count the points: the product of the numbers of values, or
#         memcgsim sweep "$SCENARIO" $VARY --out "$OUT" --plan | wc -l
#     (which counts the points not done yet, and writes OUT/sweep.meta),
#     and submit one task each:
#         sbatch --array=0-63 contrib/slurm-sweep.sh
#     (--array on the command line wins over the #SBATCH line below).
#  3. When every task has ended, join the results, by hand or as a job
#     that waits for the array:
#         memcgsim merge "$OUT"
#         sbatch --dependency=afterok:JOBID --wrap "memcgsim merge $OUT"
#     merge names the points that are missing, if any; resubmit the array
#     (a task whose point is done exits at once) or run their --plan lines.
#
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

# 8 x 4 x 2 = 64 points of the installed charge-batch-2022, each all six
# variants for 1 ms of simulated time.
: "${MEMCGSIM:=memcgsim}"
: "${SCENARIO:=/usr/local/share/memcgsim/validation/charge-batch-2022.yaml}"
: "${VARY:=--vary kernel.charge_batch=16,32,48,64,96,128,192,256 --vary workloads.0.instances=8,16,24,36 --vary seed=1,2}"
: "${SETS=--set duration_ms=1}"	# SETS= for none
: "${OUT:=$HOME/memcgsim-sweep}"
: "${OFFSET:=0}"

if test -z "${SLURM_ARRAY_TASK_ID-}"; then
	echo "slurm-sweep.sh: not in a job array; submit it with sbatch --array=0-N" >&2
	exit 2
fi
# VARY and SETS are lists of options: split them into words.
# shellcheck disable=SC2086
exec "$MEMCGSIM" sweep "$SCENARIO" $VARY $SETS --out "$OUT" \
	--point "$((OFFSET + SLURM_ARRAY_TASK_ID))" --quiet
