#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-cli.sh - what every command shares on its command line (issue
# 32, ux-review-3 findings 5 and 14):
#
# 1. --no-plots: every command but plot accepts it and draws none, so
#    each gives the exit status and stdout it gives without it (the
#    commands that parse their own options, calibrate and fit, as much as
#    the others: their --help after it exits 0); plot, which draws
#    nothing else, refuses it with exit 2, nothing on stdout and one
#    message.
# 2. --max-time bounds the whole of sweep and validate, as it bounds run:
#    charge-batch-2022 costs about 1.4 s of CPU a run of its 6 variants
#    (memcgsim check's estimate, 1.7e7 events), so 4 points of it are
#    over 5 s and cannot finish in 0.5 s on any machine. The sweep stops
#    with exit 1, a message naming --max-time, fewer than 4 points done
#    and no sweep.csv. validate of two scenarios stops
#    at the first with exit 2, its run's message and one line saying how
#    many scenarios it did.
#
# Environment: MEMCGSIM (the program) and top_srcdir, both set by
# `make check`. Quiet on success; each failure is explained on stdout.
set -eu

: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"

. "$(cd "$top_srcdir" && pwd)/tests/lib.sh"
test_setup cli
top=$(cd "$top_srcdir" && pwd)
small=$top/tests/data/small.yaml
cb=$top/scenarios/validation/charge-batch-2022.yaml

# ---- 1. --no-plots ----
run "$tmp" run "$small" -f csv -o a.csv -q
test "$rc" -eq 0 || fail "run small.yaml: exit status $rc"

# same WHAT ARGS...: memcgsim ARGS and ARGS --no-plots alike.
same()
{
	what=$1
	shift
	run "$tmp" "$@"
	rc1=$rc
	cp "$tmp/out" "$tmp/out1"
	run "$tmp" "$@" --no-plots
	if test "$rc" -ne "$rc1"; then
		fail "$what --no-plots: exit status $rc, $rc1 without it: $(head -2 "$tmp/err")"
	elif ! cmp -s "$tmp/out" "$tmp/out1"; then
		fail "$what --no-plots: stdout differs from without it"
	fi
	test -e "$tmp/memcgsim-plots" && fail "$what --no-plots: drew plots"
	return 0
}

same "run" run "$small" -q
same "check" check "$small"
same "explain" explain "$small" -q
same "validate" validate "$top/scenarios/validation/af-unix-kmem-2016.yaml" \
	--set duration_ms=0.2
same "compare" compare a.csv a.csv
same "sweep --dry-run" sweep "$small" --vary seed=1,2 -n
same "list" list
same "help" help
same "help run" help run
same "host-run --help" host-run --help
for c in calibrate fit; do
	run "$tmp" "$c" --no-plots --help
	test "$rc" -eq 0 || fail "$c --no-plots --help: exit status $rc: $(head -1 "$tmp/err")"
done
run "$tmp" plot a.csv --no-plots
test "$rc" -eq 2 || fail "plot --no-plots: exit status $rc, expected 2"
test -s "$tmp/out" && fail "plot --no-plots: wrote to stdout"
test "$(sed -n 1p "$tmp/err")" = "memcgsim: error: plot: --no-plots asks for no plots, and plot draws nothing else (every other command accepts it and draws none)" ||
	fail "plot --no-plots: $(sed -n 1p "$tmp/err")"

# ---- 2. --max-time ----
run "$tmp" sweep "$cb" --vary kernel.charge_batch=16,32,64,128 -q \
	--max-time 0.5 -o sw
test "$rc" -eq 1 || fail "sweep --max-time 0.5: exit status $rc, expected 1"
grep -q -- "--max-time" "$tmp/err" ||
	fail "sweep --max-time 0.5: no message of it: $(cat "$tmp/err")"
done=0
for f in "$tmp"/sw/points/*.sum; do
	test -e "$f" && done=$((done + 1))
done
test "$done" -lt 4 || fail "sweep --max-time 0.5: all 4 points done"
test -e "$tmp/sw/sweep.csv" && fail "sweep --max-time 0.5: wrote sweep.csv"
run "$tmp" validate --max-time 0.5 "$cb" "$cb"
test "$rc" -eq 2 || fail "validate --max-time 0.5: exit status $rc, expected 2"
grep -q "stopped at --max-time after" "$tmp/err" ||
	fail "validate --max-time 0.5: no run stopped: $(cat "$tmp/err")"
test "$(tail -n 1 "$tmp/err")" = "memcgsim: error: validate: stopped at --max-time after 0 of 2 scenarios; raise --max-time" ||
	fail "validate --max-time 0.5: $(tail -n 1 "$tmp/err")"

if test "$failures" -ne 0; then
	echo "run-cli.sh: $failures failure(s)"
	exit 1
fi
exit 0
