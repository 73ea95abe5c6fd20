#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-sweep.sh - `memcgsim sweep`, its --plan and `memcgsim merge`.
#
#  1. A sweep of tests/data/small.yaml (6 points) gives byte-identical
#     sweep.csv and sweep.yaml with -j 1 and -j 3; sweep.csv has a row
#     per point and variant; a point's files are what `memcgsim run` with
#     the point's --set options writes.
#  2. --plan writes DIR/sweep.meta and prints a line per point; the lines run through GNU parallel
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
#  7. Hostile values: see the section.
#  8. Untrusted point files, refused by merge and run again by a resume.
#  9. A resume after the scenario or its machine profile was edited.
# 10. The --plan lines read DIR/sweep.meta, not the --vary lists.
# 11. sweep.csv and sweep.yaml carry the sweep's provenance, and compare
#     of two sweeps says what differs in it before any number.
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
top=$(cd "$top_srcdir" && pwd)
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
# the rows of sweep.csv FILE, without its "# KEY: VALUE" provenance
rows_of()
{
	grep -v '^#' "$1"
}
rows_of j1/sweep.csv | head -n 1 | grep -q '^point,workloads\.0\.think_ns,workloads\.0\.counters,variant,throughput,' ||
	fail "sweep.csv header: $(rows_of j1/sweep.csv | head -n 1)"
rows=$(($(rows_of j1/sweep.csv | wc -l) - 1))
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
# The lines read the sweep from DIR/sweep.meta, which --plan writes.
test -f plan/sweep.meta || fail "--plan did not write plan/sweep.meta"
test -n "$(ls plan/points)" && fail "--plan ran points"
grep -q -- "--vary" plan.txt && fail "--plan lines repeat the --vary lists"
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
# A variant's own set: of a varied key wins over the point's value (issue
# 16, 3): charge-batch-2022's +C and +A+B+C set kernel.charge_batch: 64, so
# sweep.csv says 64 on their rows in every point, and the point's value on
# the others'.
cb=$top/scenarios/validation/charge-batch-2022.yaml
rm -rf cbsweep
"$MEMCGSIM" sweep "$cb" --vary kernel.charge_batch=16,128 \
	--set duration_ms=0.05 --set warmup_ms=0.01 --out cbsweep -q ||
	fail "sweep of a key two variants set: failed"
got=$(rows_of cbsweep/sweep.csv | cut -d, -f1-3 | tr '\n' ' ')
want="point,kernel.charge_batch,variant 0,16,root 0,16,6.0-rc1 0,16,+A 0,16,+B 0,64,+C 0,64,+A+B+C 1,128,root 1,128,6.0-rc1 1,128,+A 1,128,+B 1,64,+C 1,64,+A+B+C "
[ "$got" = "$want" ] || fail "sweep.csv's varied key, row by row: '$got'"
# ... and a setting no one column value describes is refused before it runs
# (+A, the first, sets a key inside the varied kernel map; line 48 col 53)
rm -rf badout
rc=0
"$MEMCGSIM" sweep "$cb" --vary 'kernel={charge_batch: 16},{charge_batch: 32}' \
	--set duration_ms=0.05 --out badout >out.txt 2>"$tmp/err" || rc=$?
test "$rc" -eq 2 || fail "a variant's set: inside a varied map: exit status $rc"
grep -q "charge-batch-2022.yaml:53:53: error: key 'variants.2.set.kernel.protected_usage_update': variant '+A' sets 'kernel.protected_usage_update', which the sweep varies (--vary kernel), and sweep.csv could not say what its rows ran with" "$tmp/err" ||
	fail "a variant's set: inside a varied map: got: $(cat "$tmp/err")"
test -e badout && fail "a variant's set: inside a varied map: created badout"
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
# A SIGTERM may land after the merge renamed sweep.csv into place and
# before the process exited (seen under load): then sweep.csv is whole,
# every point ran, and the rerun below verifies it. What must never be
# is a partial one: any sweep.csv the killed sweep left is full's.
if test -e killed/sweep.csv; then
	same killed/sweep.csv full/sweep.csv "the killed sweep's sweep.csv"
fi
# shellcheck disable=SC2086
sweep "$s" $slow -j 2 --out killed || true
same full/sweep.csv killed/sweep.csv "killed sweep, rerun"
same full/sweep.yaml killed/sweep.yaml "killed sweep, rerun"

# 7. Hostile values (issue 14, item 1). Quotes, $(...), backquotes,
#    backslashes and blanks in a --set value and in --out round-trip
#    through the plan's quoting: run by GNU parallel, by `xargs -L 1 env`
#    and by `sh -c` line by line, the plan gives the local sweep's bytes
#    and runs nothing else. A control character (newline, carriage
#    return, ESC, tab) in a --vary value, a --set value, --out or the
#    scenario path is refused: exit 2, one line on stderr with the
#    character escaped, nothing on stdout, no directory.
evil="description=it's \$(touch PWNED1); \`touch PWNED2\` \"q\" \\ x; touch PWNED3"
hvary="--vary workloads.0.think_ns=10,20"
mkdir hostile
cd hostile
# shellcheck disable=SC2086
sweep "$s" $hvary --set "$evil" --out "lo'cal dir" || true
for runner in parallel xargs sh; do
	out="$tmp/hostile/pl'an $runner"
	# shellcheck disable=SC2086
	"$MEMCGSIM" sweep "$s" $hvary --set "$evil" --out "$out" --plan \
		>"plan-$runner.txt" 2>"$tmp/err" || fail "hostile --plan: exit status $?"
	test "$(wc -l <"plan-$runner.txt")" -eq 2 ||
		fail "hostile --plan: $(wc -l <"plan-$runner.txt") lines, expected 2"
	case $runner in
	parallel)
		command -v parallel >/dev/null 2>&1 || continue
		parallel --will-cite -j 2 <"plan-$runner.txt" ||
			fail "hostile plan through parallel: exit status $?"
		;;
	xargs)
		xargs -L 1 env <"plan-$runner.txt" ||
			fail "hostile plan through xargs -L 1: exit status $?"
		;;
	sh)
		while IFS= read -r line; do
			sh -c "$line" || fail "hostile plan line through sh -c: exit status $?"
		done <"plan-$runner.txt"
		;;
	esac
	"$MEMCGSIM" merge "$out" 2>"$tmp/err" || fail "hostile merge ($runner): exit status $?"
	same "lo'cal dir/sweep.csv" "$out/sweep.csv" "hostile plan through $runner"
	same "lo'cal dir/sweep.yaml" "$out/sweep.yaml" "hostile plan through $runner"
done
left=$(find . -name 'PWNED*')
test -z "$left" || fail "the hostile plan ran commands of its values: $left"
cd "$tmp"
nl='
'
cr=$(printf '\r')
esc=$(printf '\033')
tab=$(printf '\t')
cp "$s" "sc${nl}x.yaml"
# refused WHAT SCENARIO ARGS...: exit 2, one line on stderr, nothing else.
refused()
{
	what=$1
	shift
	rm -rf hostile-out
	rc=0
	"$MEMCGSIM" sweep "$@" >out.txt 2>"$tmp/err" || rc=$?
	test "$rc" -eq 2 || fail "$what: exit status $rc, expected 2"
	test -s out.txt && fail "$what: printed on stdout: $(head -c 200 out.txt)"
	test "$(wc -l <"$tmp/err")" -eq 1 ||
		fail "$what: not one line on stderr: $(cat "$tmp/err")"
	grep -q 'holds a control character' "$tmp/err" ||
		fail "$what: $(cat "$tmp/err")"
	if grep -q "$esc" "$tmp/err"; then fail "$what: ESC reached stderr raw"; fi
	test -e hostile-out && fail "$what: created its output directory"
	ls | grep -q '^sweep-' && fail "$what: created a sweep- directory"
	return 0
}
for plan in --plan ""; do
	refused "newline in a --vary value $plan" "$s" $plan --out hostile-out \
		--vary "workloads.0.think_ns=10,20${nl}touch PWNED"
	refused "CR in a --vary value $plan" "$s" $plan --out hostile-out \
		--vary "workloads.0.think_ns=10,20${cr}"
	refused "ESC in a --vary key $plan" "$s" $plan --out hostile-out \
		--vary "workloads.0.think_ns${esc}[2J=10,20"
	refused "newline in a --set value $plan" "$s" $plan --out hostile-out \
		$hvary --set "description=a${nl}touch PWNED"
	refused "tab in a --set value $plan" "$s" $plan --out hostile-out \
		$hvary --set "description=a${tab}b"
	refused "newline in --out $plan" "$s" $plan $hvary \
		--out "hostile-out${nl}touch PWNED"
	refused "newline in the scenario path $plan" "sc${nl}x.yaml" $plan \
		$hvary --out hostile-out
done
test -z "$(find . -name 'PWNED*')" || fail "a refused sweep ran something"
# The memcgsim program itself at a path with a newline: --plan refuses.
mkdir "bin${nl}dir"
cp "$MEMCGSIM" "bin${nl}dir/memcgsim"
rm -rf hostile-out
rc=0
MEMCGSIM_DATADIR="$data/../../scenarios" "$tmp/bin${nl}dir/memcgsim" sweep "$s" $hvary --out hostile-out --plan \
	>out.txt 2>"$tmp/err" || rc=$?
test "$rc" -eq 2 || fail "--plan by a memcgsim at a path with a newline: exit status $rc"
grep -qF 'bin\ndir/memcgsim'"' holds a control character" "$tmp/err" ||
	fail "--plan by a memcgsim at a path with a newline: $(cat "$tmp/err")"
test -s out.txt && fail "--plan by a memcgsim at a path with a newline: printed lines"
test -e hostile-out && fail "--plan by a memcgsim at a path with a newline: created its directory"

# 8. Untrusted point files (issue 14, item 2). In a copy of the finished
#    sweep j1 (its sweep.csv removed), each of these is refused by merge
#    with exit status 2, the point's file named, "run the point again",
#    and no sweep.csv: a CSV cut after its header, a CSV cut inside its
#    last line, an empty YAML, a symbolic link to another sweep's point
#    file, a point of another sweep (--seed 5), point 4's files as point
#    3's, and a YAML that is not the CSV's (point 4's YAML as point 5's).
#    Then a resumed sweep runs the point again and gives j1's bytes.
# shellcheck disable=SC2086
sweep "$s" $vary --seed 5 -j 2 --out other || true
# corrupt NAME EXPECTED POINT: damaged/ with point POINT broken by $how.
corrupt()
{
	name=$1
	expected=$2
	point=$3
	rm -rf damaged
	cp -R j1 damaged
	rm damaged/sweep.csv damaged/sweep.yaml
	eval "$how"
	rc=0
	"$MEMCGSIM" merge damaged >out.txt 2>"$tmp/err" || rc=$?
	test "$rc" -eq 2 || fail "merge, $name: exit status $rc, expected 2"
	grep -q "points/$point\..*$expected" "$tmp/err" ||
		fail "merge, $name: expected '$point.*$expected', got: $(cat "$tmp/err")"
	grep -q "run the point again" "$tmp/err" ||
		fail "merge, $name: no advice: $(cat "$tmp/err")"
	grep -q "Input/output" "$tmp/err" && fail "merge, $name: $(cat "$tmp/err")"
	test -e damaged/sweep.csv && fail "merge, $name: wrote sweep.csv"
	# shellcheck disable=SC2086
	sweep "$s" $vary -j 2 --out damaged || true
	same j1/sweep.csv damaged/sweep.csv "resume after $name"
	same j1/sweep.yaml damaged/sweep.yaml "resume after $name"
	test -L "damaged/points/$point.csv" && fail "resume after $name kept a link"
	return 0
}
how='head -n 1 j1/points/0001.csv >damaged/points/0001.csv'
corrupt "a CSV cut after its header" "CSV report has changed" 0001
how='head -c -5 j1/points/0002.csv >damaged/points/0002.csv'
corrupt "a CSV cut inside its last line" "CSV report has changed" 0002
how=': >damaged/points/0000.yaml'
corrupt "an empty YAML" "YAML report has changed" 0000
how='rm damaged/points/0002.csv && ln -s "$tmp/other/points/0002.csv" damaged/points/0002.csv'
corrupt "a symbolic link" "symbolic link" 0002
how='for e in yaml csv sum; do cp other/points/0003.$e damaged/points/0003.$e; done'
corrupt "a point of another sweep" "another sweep" 0003
how='for e in yaml csv sum; do cp j1/points/0004.$e damaged/points/0003.$e; done'
corrupt "point 4 as point 3" "point 4's, not point 3's" 0003
how='cp j1/points/0004.yaml damaged/points/0005.yaml'
corrupt "a YAML that is not the CSV's" "YAML report has changed" 0005

# 9. A resume after the scenario or its machine profile changed (issue
#    14, item 3) is refused: exit status 2, "was edited", and no point
#    runs. The scenario is a copy of small.yaml naming a copy of its
#    profile by path; each edit is one appended comment line.
mkdir edit
cp "$top/scenarios/machines/skx-2s-72.yaml" edit/m.yaml
sed 's|^machine: skx-2s-72$|machine: m.yaml|' "$s" >edit/sc.yaml
grep -q '^machine: m.yaml$' edit/sc.yaml || fail "edit/sc.yaml names no m.yaml"
# shellcheck disable=SC2086
sweep edit/sc.yaml $vary --out edit/out || true
rm edit/out/points/0001.*
# edited FILE WHAT: refuse a resume after FILE got a comment line.
edited()
{
	cp "$1" "$1.orig"
	echo "# $2" >>"$1"
	for how in "" "--point 1" "--plan"; do
		rc=0
		# shellcheck disable=SC2086
		"$MEMCGSIM" sweep edit/sc.yaml $vary --out edit/out $how \
			>out.txt 2>"$tmp/err" || rc=$?
		test "$rc" -eq 2 || fail "$2, resumed ${how:-locally}: exit status $rc, expected 2"
		grep -q "holds another sweep: $3 was edited since the sweep began" "$tmp/err" ||
			fail "$2, resumed ${how:-locally}: $(cat "$tmp/err")"
		test -s out.txt && fail "$2, resumed ${how:-locally}: printed on stdout"
		test -e edit/out/points/0001.csv && fail "$2, resumed ${how:-locally}: ran point 1"
	done
	# A --plan line, which reads the sweep from its sweep.meta.
	rc=0
	"$MEMCGSIM" sweep edit/out/sweep.meta --point 1 >out.txt 2>"$tmp/err" || rc=$?
	test "$rc" -eq 2 || fail "$2, a plan line: exit status $rc, expected 2"
	grep -q "holds another sweep: $3 was edited since the sweep began" "$tmp/err" ||
		fail "$2, a plan line: $(cat "$tmp/err")"
	test -e edit/out/points/0001.csv && fail "$2, a plan line: ran point 1"
	mv "$1.orig" "$1"
}
edited edit/sc.yaml "the scenario edited" "the scenario file"
edited edit/m.yaml "the machine profile edited" "a machine profile the scenario names"
# shellcheck disable=SC2086
sweep edit/sc.yaml $vary --out edit/out || true
test -f edit/out/points/0001.sum || fail "the unedited resume did not run point 1"

# 10. The --plan lines do not repeat the --vary lists (issue 14, item 7):
#     60 x 50 values make 3000 lines of `EXE sweep DIR/sweep.meta --point
#     I`, each as long as the paths and the point number make it (with
#     the lists, each line was over 400 bytes longer). A sweep run from its
#     sweep.meta takes none of the options that are in it.
rc=0
"$MEMCGSIM" sweep "$s" --vary "workloads.0.think_ns=$(seq -s, 1 60)" \
	--vary "workloads.0.counters=$(seq -s, 1 50)" --out "$tmp/big" --plan \
	>big.txt 2>"$tmp/err" || rc=$?
test "$rc" -eq 0 || fail "--plan of 3000 points: exit status $rc: $(cat "$tmp/err")"
test "$(wc -l <big.txt)" -eq 3000 || fail "--plan of 3000 points: $(wc -l <big.txt) lines"
longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' big.txt)
exe_len=$(printf '%s' "$MEMCGSIM" | wc -c)
dir_len=$(printf '%s' "$tmp/big/sweep.meta" | wc -c)
# EXE ' sweep ' META ' --point ' NNNN, and two quotes for each path.
test "$longest" -le $((exe_len + dir_len + 4 + 7 + 9 + 4)) ||
	fail "--plan of 3000 points: a line of $longest bytes: $(head -n 1 big.txt)"
sed -n 2999p big.txt | grep -q -- "--point 2998\$" ||
	fail "--plan of 3000 points: line 2999 is $(sed -n 2999p big.txt)"
sh -c "$(sed -n 2999p big.txt)" 2>"$tmp/err" ||
	fail "--plan of 3000 points: line 2999: $(cat "$tmp/err")"
test -f "$tmp/big/points/2998.sum" || fail "--plan line 2999 did not run point 2998"
for opt in "--set duration_ms=1" "--seed 3" "--replications 2" "--out x" \
	"--vary workloads.0.think_ns=1"; do
	rc=0
	# shellcheck disable=SC2086
	"$MEMCGSIM" sweep "$tmp/big/sweep.meta" $opt --point 1 >out.txt 2>"$tmp/err" || rc=$?
	test "$rc" -eq 2 || fail "sweep DIR/sweep.meta $opt: exit status $rc, expected 2"
done

# 10. sweep --variant NAME runs that variant alone at every point, and
#     says so in sweep.meta; the same DIR swept without it is another
#     sweep (refused, exit 2). small.yaml has batch1 and batch4: 2 points
#     of batch4 are 2 rows, both batch4.
rc=0
"$MEMCGSIM" sweep "$s" --vary seed=1,2 --variant batch4 -o onevar -q \
	>/dev/null 2>"$tmp/err" || rc=$?
test "$rc" -eq 0 || fail "sweep --variant batch4: exit status $rc: $(cat "$tmp/err")"
test "$(rows_of onevar/sweep.csv | cut -d, -f3 | sed 1d | sort | uniq -c |
	awk '{ print $1, $2 }')" = "2 batch4" ||
	fail "sweep --variant batch4: rows $(cut -d, -f3 onevar/sweep.csv | tr '\n' ' ')"
grep -q '^variant: "batch4"$' onevar/sweep.meta ||
	fail "sweep --variant batch4: sweep.meta does not say so"
rc=0
"$MEMCGSIM" sweep "$s" --vary seed=1,2 -o onevar -q >/dev/null 2>&1 || rc=$?
test "$rc" -eq 2 || fail "sweep of onevar/ without --variant: exit status $rc, expected 2"

# 11. Provenance in the merged files (issue 32, item 2). j1 is small.yaml
#     swept over think_ns and counters, with no --set: its points all run
#     on skx-2s-72 (small.yaml's machine:, its one profile, so the
#     profiles' digest is that file's sha256; 2 sockets of 18 cores, the
#     SMT siblings numbered after all first threads), 0.02 ms after 0.002 ms,
#     seed 1, one replication. The sweep's --set options (none) stand for
#     the points' own (which hold the varied keys), and each --vary is
#     said as it was given. A second sweep with --set duration_ms=0.01
#     differs in two provenance lines, which compare prints first.
sha()
{
	sha256sum "$1" | cut -d' ' -f1
}
want="# scenario: small
# seed: 1
# replications: 1
# memcgsim: $("$MEMCGSIM" --version | sed -n '1s/^memcgsim //p')
# scenario_digest: sha256:$(sha "$s")
# profiles_digest: sha256:$(sha "$top/scenarios/machines/skx-2s-72.yaml")
# machine: skx-2s-72
# socket_cpus: 0-17,36-53; 18-35,54-71
# duration_ms: 0.02
# warmup_ms: 0.002
# vary: workloads.0.think_ns=10,20,30
# vary: workloads.0.counters=1,2"
test "$(grep '^#' j1/sweep.csv)" = "$want" ||
	fail "sweep.csv's provenance: $(grep '^#' j1/sweep.csv | tr '\n' '|')"
grep -qx "  set: \[\]" j1/sweep.yaml ||
	fail "sweep.yaml's provenance: a set: other than [] (the points' own?)"
grep -qx "  vary: \['workloads.0.think_ns=10,20,30', 'workloads.0.counters=1,2'\]" \
	j1/sweep.yaml || fail "sweep.yaml's provenance: no vary: list"
# shellcheck disable=SC2086
sweep "$s" $vary --set duration_ms=0.01 --out short || true
"$MEMCGSIM" compare j1 short >out.txt 2>&1 || true
want="compare: provenance differs (OLD -> NEW):
  duration_ms: 0.02 -> 0.01
  set: (none) -> duration_ms=0.01"
test "$(head -n 3 out.txt)" = "$want" ||
	fail "compare of two sweeps' CSV: $(head -n 3 out.txt | tr '\n' '|')"
"$MEMCGSIM" compare j1/sweep.yaml short/sweep.yaml >out.txt 2>&1 || true
test "$(head -n 3 out.txt)" = "$want" ||
	fail "compare of two sweeps' YAML: $(head -n 3 out.txt | tr '\n' '|')"

if test "$failures" -ne 0; then
	echo "run-sweep.sh: $failures failure(s)"
	exit 1
fi
exit 0
