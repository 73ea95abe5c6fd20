# SPDX-License-Identifier: GPL-2.0-only
#
# tests/lib.sh - what the script tests that run memcgsim on bad or costly
# input share (run-bad.sh, run-check.sh). Sourced, after the script has
# checked that MEMCGSIM and top_srcdir are set:
#
#	. "$top_srcdir/tests/lib.sh"
#	test_setup NAME
#
# test_setup NAME makes MEMCGSIM absolute, a scratch directory $tmp
# (memcgsim-NAME.XXXXXX, removed on exit) and sets $limit (a 20 s
# timeout(1) prefix when there is one) and failures=0. fail WHAT counts a
# failure and says it; run DIR ARGS... runs memcgsim in DIR under the
# limit, setting $rc and filling $tmp/out and $tmp/err.

test_setup()
{
	case $MEMCGSIM in
	/*) ;;
	*) MEMCGSIM=$(pwd)/$MEMCGSIM ;;
	esac
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-$1.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 1' HUP INT TERM
	if command -v timeout >/dev/null 2>&1; then
		limit="timeout 20"
	else
		limit=
	fi
	failures=0
}

fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# run DIR ARGS...: run memcgsim in DIR; sets $rc, fills $tmp/out, $tmp/err.
run()
{
	dir=$1
	shift
	rc=0
	(cd "$dir" && $limit "$MEMCGSIM" "$@") >"$tmp/out" 2>"$tmp/err" || rc=$?
}
