#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-recipes.sh - every teaching scenario ships its scaling-curve
# sweep recipe in its header (issue 32 item 4), and the recipe is a sweep
# memcgsim accepts: each "#	memcgsim sweep ..." command (with its "\"
# continuation lines) is run with --dry-run, which checks every point and
# variant without running them, and must exit 0. A teaching scenario
# without a recipe fails.
#
# Environment: MEMCGSIM (the program) and top_srcdir, both set by
# `make check`. Quiet on success; each failure is explained on stdout.
set -eu

: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"
top=$(cd "$top_srcdir" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-recipes.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

failures=0
fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

for sc in "$top"/scenarios/teaching/*.yaml; do
	name=${sc##*/}
	# The recipe: from "#<tab>memcgsim sweep" through its last "\" line.
	sed -n '/^#	memcgsim sweep /,/[^\\]$/p' "$sc" |
		sed 's/^#	*//; s/\\$//' | tr '\n' ' ' >"$tmp/recipe"
	if ! grep -q '^memcgsim sweep scenarios/teaching/' "$tmp/recipe"; then
		fail "$name: no '#	memcgsim sweep scenarios/teaching/...' recipe"
		continue
	fi
	# Run from the top, as the README's commands are, with this memcgsim.
	rc=0
	(cd "$top" && eval "\"\$MEMCGSIM\" $(sed 's/^memcgsim //' "$tmp/recipe") -n -q") \
		>"$tmp/out" 2>&1 || rc=$?
	test "$rc" -eq 0 || {
		fail "$name: its recipe exits $rc under --dry-run:"
		sed 's/^/	/' "$tmp/out"
	}
	grep -q '^memcgsim: warning' "$tmp/out" &&
		fail "$name: its recipe warns: $(grep warning "$tmp/out")"
done

if test "$failures" -gt 0; then
	echo "$failures failure(s) in $0"
	exit 1
fi
exit 0
