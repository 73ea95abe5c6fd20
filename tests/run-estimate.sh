#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-estimate.sh - the estimate of memory holds what memcgsim(1)
# promises, on every shipped scenario (issue 34, item 10): for each one,
# `memcgsim check` prints the peak memory it estimates (the "all" row:
# the largest of its variants, which run one after the other), and the
# whole run's peak resident set, measured with /usr/bin/time -f %M, must
# be within a factor of ESTIMATE_FACTOR (2) of it either way.
#
# The promise was "within some 20%"; measured on the shipped scenarios
# (this machine, 2026-12), the estimate ran from half the real peak
# (multi-memcg-stock) to 1.6 times it (the teaching scenarios, whose
# operations' latency samples were overestimated): a factor of 2.5. With
# the samples of operations that charge nothing at 16 bytes, not 48, it
# ran from 0.55 (multi-memcg-stock: 13.7 MiB estimated, 24 measured,
# the five variants in one process) to 1.31 (kmalloc-obj-stock), 22 of
# the 27 scenarios within 0.8-1.25; the man page says a factor of 2.
# Once the percentiles stopped copying every sample (2026-12-03), 8
# bytes, not 16: from 0.55 to 1.40 (kmalloc-obj-stock: 18.0 MiB
# estimated, 12.9 measured; at 16 bytes it was 26.0, 2.02x), 22 of the
# 28 within 0.8-1.25.
#
# The work (issue 34, item 2): for each variant, the units of work
# `memcgsim check` estimates (its "work" column: operations, loop
# iterations, pages charged) against the units the run counted
# (MEMCGSIM_COUNTS=1: a line per variant on stderr), within a factor of
# WORK_FACTOR (8) either way. Measured (2026-12): from 0.36 (atomic-counter
# 1cpu) to 5.5 (multi-memcg-stock slots-1-fair) times the real count
# over the 130 variants, half of them within 1.0-2.55
# (cmd/run/estimate.c says more).
#
# Skipped when /usr/bin/time is missing, and under a sanitizer build
# (ASan's shadow memory makes the resident set mean nothing).
#
# Environment: MEMCGSIM (the program) and top_srcdir, both set by
# `make check`. Quiet on success; each failure is explained on stdout.
set -eu

: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"

ESTIMATE_FACTOR=2
WORK_FACTOR=8

if ! test -x /usr/bin/time; then
	echo "run-estimate.sh: no /usr/bin/time; skipping"
	exit 77
fi
if nm -D "$MEMCGSIM" 2>/dev/null | grep -q __asan_init ||
	ldd "$MEMCGSIM" 2>/dev/null | grep -q libasan; then
	echo "run-estimate.sh: a sanitizer build; skipping"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-est.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

failures=0
fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# bytes N UNIT: N in bytes ("14.1 MiB").
bytes()
{
	awk -v n="$1" -v u="$2" 'BEGIN {
		m = u == "GiB" ? 2^30 : u == "MiB" ? 2^20 : u == "KiB" ? 2^10 : 1
		printf "%.0f\n", n * m }'
}

nr=0
for f in "$top_srcdir"/scenarios/*/*.yaml; do
	case $f in */machines/*) continue ;; esac
	"$MEMCGSIM" check "$f" >"$tmp/check" 2>&1 || {
		fail "check $f: $(head -c 300 "$tmp/check")"
		continue
	}
	set -- $(awk '/^  all / { print $(NF - 3), $(NF - 2) }' "$tmp/check")
	est=$(bytes "$1" "$2")
	MEMCGSIM_COUNTS=1 /usr/bin/time -f '%M' -o "$tmp/rss" \
		"$MEMCGSIM" run "$f" -q --format csv --max-events 0 \
		>/dev/null 2>"$tmp/err" || {
		fail "run $f: $(head -c 300 "$tmp/err")"
		continue
	}
	# "memcgsim: counts: variant 'NAME': E events, W work" against
	# check's row "  NAME RUNS EVENTS WORK MEMORY UNIT WALL UNIT"
	awk -v k="$WORK_FACTOR" -v f="${f#"$top_srcdir"/}" '
		FNR == NR {
			if (/^  / && $1 != "variant" && $1 != "all")
				est[$1] = $4
			next
		}
		/^memcgsim: counts: variant / {
			v = $4
			gsub(/^\047|\047:$/, "", v)
			real = $7
			n++
			if (!(v in est)) {
				print f ": variant " v ": no estimate"
				bad++
			} else if (real > 0 && (est[v] > k * real ||
						real > k * est[v])) {
				print f ": variant " v ": work estimated " \
					est[v] ", counted " real \
					": more than a factor of " k " apart"
				bad++
			}
		}
		END {
			if (!n) {
				print f ": no counts line"
				bad++
			}
			exit bad > 0
		}' "$tmp/check" "$tmp/err" >"$tmp/work" ||
		fail "$(cat "$tmp/work")"
	real=$(($(tail -n 1 "$tmp/rss") * 1024))
	nr=$((nr + 1))
	awk -v e="$est" -v r="$real" -v k="$ESTIMATE_FACTOR" \
		'BEGIN { exit !(e <= k * r && r <= k * e) }' ||
		fail "${f#"$top_srcdir"/}: estimated $1 $2, measured $((real >> 20)) MiB: more than a factor of $ESTIMATE_FACTOR apart"
done
test "$nr" -gt 0 || fail "no shipped scenario found"

[ "$failures" = 0 ] || exit 1
