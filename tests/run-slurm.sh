#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-slurm.sh - contrib/slurm-sweep.sh without Slurm: its array
# tasks are run here one by one, with SLURM_ARRAY_TASK_ID set as Slurm
# would, from a build tree (no `make install`), with --vary values that
# hold spaces.
#
# The sweep: tests/data/netperf-small.yaml (2 variants, 0.2 ms) with
#   --vary 'cgroups./a/b={memory.max: 64K},{memory.max: 1M}'  (spaces)
#   --vary kernel.charge_batch=16,64
# 2 x 2 = 4 points, numbered 0-3.
#
# 1. Outside an array the script counts: "4 points to run: sbatch
#    --array=0-3 ...", and creates nothing.
# 2. Tasks 0 and 2 run (each says which point); the count is then
#    "2 points to run: sbatch --array=1,3".
# 3. Tasks 1 and 3 run; memcgsim merge gives sweep.csv and sweep.yaml
#    byte for byte as `memcgsim sweep -j 1` with the same options.
# 4. The same options as the script's arguments instead of VARY: the same
#    count.
# 5. The defaults, from a build tree: MEMCGSIM and SCENARIO unset, sbatch
#    "run" from the directory that holds memcgsim (SLURM_SUBMIT_DIR):
#    that memcgsim and its source tree's charge-batch-2022, 8 x 4 x 2 = 64
#    points: "64 points to run: sbatch --array=0-63".
#
# Environment: MEMCGSIM (the program) and top_srcdir, both set by
# `make check`. Quiet on success; each failure is explained on stdout.
set -eu

: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-slurm.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

failures=0
fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

top=$(cd "$top_srcdir" && pwd)
script="$top/contrib/slurm-sweep.sh"
scenario="$top/tests/data/netperf-small.yaml"
export MEMCGSIM
export SCENARIO="$scenario"
export VARY="--vary 'cgroups./a/b={memory.max: 64K},{memory.max: 1M}' --vary kernel.charge_batch=16,64"
export SETS=
export OUT="$tmp/out"
unset SLURM_ARRAY_TASK_ID SLURM_SUBMIT_DIR OFFSET || true

# count [ARG...]: the script outside an array, its output's first words.
count()
{
	sh "$script" "$@" 2>&1 | sed 's/ \(\/\|[^ ]*slurm-sweep.sh\).*//'
}

# ---- 1. count ----
got=$(count)
[ "$got" = "4 points to run: sbatch --array=0-3" ] ||
	fail "count: '$got', expected '4 points to run: sbatch --array=0-3'"
# counting is `sweep --plan`, which writes OUT/sweep.meta and an empty
# OUT/points, nothing else
[ "$(ls "$OUT" | tr "\n" " ")" = "points sweep.meta " ] && [ -z "$(ls "$OUT/points")" ] ||
	fail "counting wrote more than $OUT/sweep.meta"

# ---- 2. two tasks, then the count of the rest ----
for i in 0 2; do
	SLURM_ARRAY_TASK_ID=$i sh "$script" >"$tmp/task$i.out" 2>&1 ||
		fail "task $i: $(cat "$tmp/task$i.out")"
	grep -qxF "slurm-sweep.sh: point $i of $scenario into $OUT" \
		"$tmp/task$i.out" || fail "task $i said: $(cat "$tmp/task$i.out")"
done
got=$(count)
[ "$got" = "2 points to run: sbatch --array=1,3" ] ||
	fail "count after tasks 0 and 2: '$got'"

# ---- 3. the rest, merge, and the same as a sweep on one job ----
for i in 1 3; do
	SLURM_ARRAY_TASK_ID=$i sh "$script" >"$tmp/task$i.out" 2>&1 ||
		fail "task $i: $(cat "$tmp/task$i.out")"
done
"$MEMCGSIM" merge "$OUT" >/dev/null 2>"$tmp/merge.err" ||
	fail "merge: $(cat "$tmp/merge.err")"
"$MEMCGSIM" sweep "$scenario" -q -j 1 --out "$tmp/ref" \
	--vary 'cgroups./a/b={memory.max: 64K},{memory.max: 1M}' \
	--vary kernel.charge_batch=16,64 >/dev/null 2>"$tmp/ref.err" ||
	fail "reference sweep: $(cat "$tmp/ref.err")"
for f in sweep.csv sweep.yaml; do
	cmp -s "$tmp/ref/$f" "$OUT/$f" ||
		fail "$f of the array differs from sweep -j 1's"
done
grep -q '^3,{memory.max: 1M},64,' "$OUT/sweep.csv" ||
	fail "sweep.csv has no point 3 with the value '{memory.max: 1M}'"

# ---- 4. the options as arguments ----
rm -rf "$OUT"
got=$(VARY= count --vary 'cgroups./a/b={memory.max: 64K},{memory.max: 1M}' \
	--vary kernel.charge_batch=16,64)
[ "$got" = "4 points to run: sbatch --array=0-3" ] ||
	fail "count with the options as arguments: '$got'"

# ---- 5. the defaults, from a build tree ----
rm -rf "$OUT"
got=$(cd "$tmp" && env -u MEMCGSIM -u SCENARIO -u VARY -u SETS \
	SLURM_SUBMIT_DIR="$(cd "$(dirname "$MEMCGSIM")" && pwd)" \
	sh "$script" 2>&1 | sed 's/ \/.*//')
[ "$got" = "64 points to run: sbatch --array=0-63" ] ||
	fail "the defaults from a build tree: '$got'"
[ "$(ls "$OUT" | tr "\n" " ")" = "points sweep.meta " ] && [ -z "$(ls "$OUT/points")" ] ||
	fail "counting with the defaults wrote more than $OUT/sweep.meta"

[ "$failures" = 0 ] || exit 1
