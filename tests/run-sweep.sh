#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-sweep.sh - `memcgsim sweep`, its --plan and `memcgsim merge`.
#
#  1. A sweep of tests/data/small.yaml (6 points) gives byte-identical
#     sweep.csv and sweep.yaml with -j 1 and -j 3; sweep.csv has a row
#     per point and variant; a point's files are what `memcgsim run` with
#     the point's --set options writes.
#  2. --plan prints a line per point; the lines run through GNU parallel
#     (skipped, with a message, when `parallel` is not installed) and
#     through sh one by one, then merge, give the local sweep's bytes; so
#     do the tasks of contrib/slurm-sweep.sh, run as a job array would.
#  3. Resume: after one point's files are removed, a rerun runs that point
#     only (it says so; the other files keep their bytes and mtimes) and
#     gives the same bytes again.
#  4. Bad input is refused with exit status 2, a message, and no output
#     directory: an unknown key (with "did you mean"), a bad value, empty
#     values, a key given twice, no '=', too many points without --force,
#     another sweep into an existing directory.
#  5. A point that fails (a combination of valid values, here two tasks on
#     one CPU) fails the sweep with exit status 1 and the point named, with
#     -j 1 and -j 2; the other points keep their files; merge then names
#     the missing point and writes nothing.
#  6. A sweep killed with SIGTERM (-j 2, slower points) leaves no temporary
#     file, and every point file it left is complete: the same bytes as in
#     a full sweep. Rerun, it completes to the full sweep's bytes.
#
# Environment: MEMCGSIM (the program) and top_srcdir, both set by
# `make check`. Quiet on success.
set -eu

: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"

case $MEMCGSIM in
/*) ;;
*) MEMCGSIM=$(pwd)/$MEMCGSIM ;;
esac
data=$(cd "$top_srcdir/tests/data" && pwd)
contrib=$(cd "$top_srcdir/contrib" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-sweep.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
cd "$tmp"

failures=0
fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# sweep ARGS...: memcgsim sweep ARGS, which must succeed.
sweep()
{
	rc=0
	"$MEMCGSIM" sweep "$@" 2>"$tmp/err" || rc=$?
	if test "$rc" -ne 0; then
		fail "memcgsim sweep $*: exit status $rc"
		sed 's/^/	/' "$tmp/err"
		return 1
	fi
}

# same A B WHAT: files A and B have the same bytes.
same()
{
	if ! cmp -s "$1" "$2"; then
		fail "$3: $1 and $2 differ"
		diff -u "$1" "$2" | head -n 20 | sed 's/^/	/'
	fi
}

s=$data/small.yaml
vary="--vary workloads.0.think_ns=10,20,30 --vary workloads.0.counters=1,2"

# 1. -j 1 and -j 3
# shellcheck disable=SC2086
sweep "$s" $vary -j 1 --out j1 || true
# shellcheck disable=SC2086
sweep "$s" $vary -j 3 --out j3 || true
same j1/sweep.csv j3/sweep.csv "-j 1 and -j 3"
same j1/sweep.yaml j3/sweep.yaml "-j 1 and -j 3"
head -n 1 j1/sweep.csv | grep -q '^point,workloads\.0\.think_ns,workloads\.0\.counters,variant,throughput,' ||
	fail "sweep.csv header: $(head -n 1 j1/sweep.csv)"
rows=$(($(wc -l <j1/sweep.csv) - 1))
test "$rows" -eq 12 || fail "sweep.csv: $rows rows, expected 6 points x 2 variants"
grep -q '^3,20,2,batch4,' j1/sweep.csv || fail "sweep.csv: no row 3,20,2,batch4"
"$MEMCGSIM" run "$s" --set workloads.0.think_ns=20 --set workloads.0.counters=2 \
	--format yaml --quiet >run3.yaml
same run3.yaml j1/points/0003.yaml "point 3 against memcgsim run"
"$MEMCGSIM" run "$s" --set workloads.0.think_ns=20 --set workloads.0.counters=2 \
	--format csv --quiet >run3.csv
same run3.csv j1/points/0003.csv "point 3 against memcgsim run"
if ! grep -q '^points:' j1/sweep.yaml || ! grep -q '^vary:' j1/sweep.yaml; then
	fail "sweep.yaml lacks vary: or points:"
fi
test "$(grep -c '^- point: ' j1/sweep.yaml)" -eq 6 || fail "sweep.yaml: not 6 points"

# 2. --plan, through GNU parallel and through sh
# shellcheck disable=SC2086
"$MEMCGSIM" sweep "$s" $vary --out plan --plan >plan.txt 2>"$tmp/err" ||
	fail "--plan: exit status $?"
test "$(wc -l <plan.txt)" -eq 6 || fail "--plan: $(wc -l <plan.txt) lines, expected 6"
grep -q -- "--point 5\$" plan.txt || fail "--plan: no line for point 5"
test -e plan && fail "--plan created its output directory"
if command -v parallel >/dev/null 2>&1; then
	parallel --will-cite -j 3 <plan.txt || fail "parallel: exit status $?"
	"$MEMCGSIM" merge plan 2>"$tmp/err" || fail "merge: exit status $?"
	same j1/sweep.csv plan/sweep.csv "parallel + merge against the local sweep"
	same j1/sweep.yaml plan/sweep.yaml "parallel + merge against the local sweep"
else
	echo "run-sweep.sh: GNU parallel is not installed; skipping its part (apt-get install parallel)"
fi
# shellcheck disable=SC2086
"$MEMCGSIM" sweep "$s" $vary --out plansh --plan >plansh.txt
sh -e plansh.txt || fail "the --plan lines run by sh: exit status $?"
"$MEMCGSIM" merge plansh 2>"$tmp/err" || fail "merge: exit status $?"
same j1/sweep.csv plansh/sweep.csv "plan run by sh + merge"
same j1/sweep.yaml plansh/sweep.yaml "plan run by sh + merge"
# shellcheck disable=SC2086
"$MEMCGSIM" sweep "$s" $vary --out plansh --plan >plan2.txt 2>"$tmp/err"
test -s plan2.txt && fail "--plan of a finished sweep printed lines"
# contrib/slurm-sweep.sh, as the tasks of a job array would run it
for i in 0 1 2 3 4 5; do
	SLURM_ARRAY_TASK_ID=$i MEMCGSIM=$MEMCGSIM SCENARIO=$s VARY=$vary SETS='' \
		OUT=$tmp/slurm sh "$contrib/slurm-sweep.sh" ||
		fail "contrib/slurm-sweep.sh, task $i: exit status $?"
done
"$MEMCGSIM" merge slurm 2>"$tmp/err" || fail "merge: exit status $?"
same j1/sweep.csv slurm/sweep.csv "contrib/slurm-sweep.sh + merge"

# 3. resume
rm j3/points/0002.yaml j3/points/0002.csv
# stamps FILE...: name, size and modification time of each but point 2's
stamps()
{
	for f in "$@"; do
		case $f in
		*/0002.*) ;;
		*) stat -c '%n %s %y' "$f" ;;
		esac
	done
}
stamps j3/points/* >before.txt
cp -R j3/points saved
sleep 1
# shellcheck disable=SC2086
sweep "$s" $vary -j 3 --out j3 || true
grep -q ' 5 done, 1 to run ' "$tmp/err" || fail "resume: $(cat "$tmp/err")"
for f in saved/*; do
	same "$f" "j3/points/${f#saved/}" "resume"
done
stamps j3/points/* >after.txt
same before.txt after.txt "resume: files other than point 2's"
same j1/sweep.csv j3/sweep.csv "resumed sweep"
same j1/sweep.yaml j3/sweep.yaml "resumed sweep"

# 4. bad input: bad EXPECTED ARGS...
bad()
{
	expected=$1
	shift
	rm -rf badout
	rc=0
	"$MEMCGSIM" sweep "$s" "$@" --out badout >out.txt 2>"$tmp/err" || rc=$?
	test "$rc" -eq 2 || fail "sweep $*: exit status $rc, expected 2"
	grep -q -- "$expected" "$tmp/err" ||
		fail "sweep $*: expected '$expected', got: $(cat "$tmp/err")"
	test -s out.txt && fail "sweep $*: printed on stdout"
	test -e badout && fail "sweep $*: created its output directory"
	return 0
}
bad "^--vary: error: unknown key 'thnk_ns' in 'workloads.0'; did you mean 'think_ns'?" \
	--vary workloads.0.thnk_ns=1,2
bad "^--vary: error: unknown key 'charge_bach' in 'kernel'; did you mean 'charge_batch'?" \
	--vary workloads.0.think_ns=1,2 --vary kernel.charge_bach=1
bad "^--vary: error: key 'workloads.0.think_ns': expected a duration" \
	--vary workloads.0.think_ns=1,abc
bad "has no values" --vary workloads.0.think_ns=
bad "empty value" --vary workloads.0.think_ns=1,,2
bad "empty value" --vary workloads.0.think_ns=1,
bad "given twice" --vary workloads.0.think_ns=1 --vary workloads.0.think_ns=2
bad "expected KEY=V1,V2" --vary workloads.0.think_ns
bad "more than the limit of 10000; use --force" \
	--vary "workloads.0.think_ns=$(seq -s, 1 101)" \
	--vary "workloads.0.counters=$(seq -s, 1 100)"
bad "no --vary" --seed 1
rc=0
"$MEMCGSIM" sweep "$s" --vary workloads.0.think_ns=1,2 --out j1 \
	>out.txt 2>"$tmp/err" || rc=$?
test "$rc" -eq 2 || fail "another sweep into j1: exit status $rc, expected 2"
grep -q "holds another sweep" "$tmp/err" ||
	fail "another sweep into j1: $(cat "$tmp/err")"
same j1/sweep.csv j3/sweep.csv "j1 after another sweep was refused"
rc=0
"$MEMCGSIM" merge "$tmp" 2>"$tmp/err" || rc=$?
test "$rc" -eq 2 || fail "merge of a non-sweep directory: exit status $rc"

# 5. a failing point
clash="--vary workloads.0.cpus=0-1,0-2 --vary workloads.1.cpus=4-5,2-3"
for j in 1 2; do
	rc=0
	# shellcheck disable=SC2086
	"$MEMCGSIM" sweep "$data/sweep-small.yaml" $clash -j $j --out clash$j \
		2>"$tmp/err" || rc=$?
	test "$rc" -eq 1 || fail "failing point, -j $j: exit status $rc, expected 1"
	grep -q "point 3 (workloads.0.cpus=0-2 workloads.1.cpus=2-3): .*CPU 2 already runs" \
		"$tmp/err" || fail "failing point, -j $j: $(cat "$tmp/err")"
	for p in 0000 0001 0002; do
		if ! test -f clash$j/points/$p.yaml ||
		   ! test -f clash$j/points/$p.csv; then
			fail "failing point, -j $j: point $p lost"
		fi
	done
	test -e clash$j/sweep.csv && fail "failing point, -j $j: sweep.csv written"
done
rc=0
"$MEMCGSIM" merge clash2 2>"$tmp/err" || rc=$?
test "$rc" -eq 1 || fail "merge with a missing point: exit status $rc, expected 1"
grep -q "1 of 4 points missing in clash2/points: 3;" "$tmp/err" ||
	fail "merge with a missing point: $(cat "$tmp/err")"
test -e clash2/sweep.csv && fail "merge with a missing point wrote sweep.csv"

# 6. a killed sweep: slower points (about 0.15 s each, more under ASan)
slow="--set duration_ms=10 --vary workloads.0.think_ns=1,2,3,4,5,6,7,8"
# shellcheck disable=SC2086
sweep "$s" $slow -j 2 --out full || true
# shellcheck disable=SC2086
"$MEMCGSIM" sweep "$s" $slow -j 2 --out killed 2>"$tmp/err" &
pid=$!
sleep 0.3
kill -TERM "$pid" 2>/dev/null || true
rc=0
wait "$pid" || rc=$?
case $rc in
0 | 143) ;;
*) fail "killed sweep: exit status $rc, expected 143 (or 0 if it was done)" ;;
esac
sleep 0.2	# any orphan would still be writing
if test -d killed/points; then
	left=$(find killed -name '*.tmp*')
	test -z "$left" || fail "killed sweep left temporary files: $left"
	for f in killed/points/*; do
		test -e "$f" || continue
		same "$f" "full/points/${f#killed/points/}" "a point file of the killed sweep"
	done
fi
test -e killed/sweep.csv && test "$rc" -ne 0 &&
	fail "killed sweep wrote sweep.csv"
# shellcheck disable=SC2086
sweep "$s" $slow -j 2 --out killed || true
same full/sweep.csv killed/sweep.csv "killed sweep, rerun"
same full/sweep.yaml killed/sweep.yaml "killed sweep, rerun"

if test "$failures" -ne 0; then
	echo "run-sweep.sh: $failures failure(s)"
	exit 1
fi
exit 0
