#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-list.sh - memcgsim list names every shipped machine profile and
# scenario with its one-line description and size, worked out here from
# the files themselves:
#
# 1. each profile in scenarios/machines: "NAME  N CPUs  DESCRIPTION", N =
#    sockets x cores_per_socket x threads_per_core, DESCRIPTION its
#    description: field;
# 2. each scenario (every .yaml of every other folder): its folder as a
#    heading, then "NAME  V x T ms, ..." with V its number of variants
#    (lines "  - name:" or "  - {name:"), and on the next line its
#    description: field or, without one, the start of its header comment;
# 3. a folder with no scenario (layouts/) gets no heading;
# 4. two worked examples: charge-batch-2022 is 6 variants x (4 ms + 1 ms
#    of warm-up) on the 72 CPUs of skx-2s-72 (36 netperf pairs);
#    atomic-counter is 8 variants x (0.5 + 0.05 ms) on 1 to 72 CPUs;
# 5. names and headers from the data directory are escaped.
#
# Environment: MEMCGSIM (the program) and top_srcdir, both set by
# `make check`. Quiet on success; each failure is explained on stdout.
set -eu

: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-list.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

failures=0
fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

sc="$top_srcdir/scenarios"
MEMCGSIM_DATADIR="$sc" "$MEMCGSIM" list >"$tmp/list" ||
	fail "memcgsim list failed"

# The value of top-level KEY in FILE, quotes removed.
value()
{
	sed -n "s/^$1: *//p" "$2" | sed 's/^"\(.*\)"$/\1/' | head -1
}

# ---- 1. machine profiles ----
for f in "$sc"/machines/*.yaml; do
	name=$(basename "$f" .yaml)
	cpus=$(($(value sockets "$f") * $(value cores_per_socket "$f") * $(value threads_per_core "$f")))
	desc=$(value description "$f")
	line=$(grep "^  $name " "$tmp/list" | head -1) ||
		fail "profile $name is not listed"
	echo "$line" | tr -s ' ' | grep -qxF -- " $name $cpus CPUs $desc" ||
		fail "profile $name: '$line', expected $cpus CPUs and '$desc'"
done

# ---- 2. scenarios ----
for dir in "$sc"/*/; do
	folder=$(basename "$dir")
	[ "$folder" = machines ] && continue
	set -- "$dir"*.yaml
	if [ ! -e "$1" ]; then
		# ---- 3. no heading for a folder without scenarios ----
		! grep -qx "$folder/" "$tmp/list" ||
			fail "folder $folder/ has no scenario but a heading"
		continue
	fi
	grep -qx "$folder/" "$tmp/list" || fail "no heading $folder/"
	for f in "$@"; do
		name=$(basename "$f" .yaml)
		v=$(grep -cE '^  - (\{ *)?name:' "$f" || true)
		[ "$v" -gt 0 ] || v=1
		line=$(grep -n "^  $name " "$tmp/list" | head -1)
		[ -n "$line" ] || {
			fail "scenario $folder/$name is not listed"
			continue
		}
		n=${line%%:*}
		echo "${line#*:}" | grep -qE "^  $name +$v x [0-9.]+ (ms|us)" ||
			fail "scenario $name: '${line#*:}', expected $v runs"
		desc=$(value description "$f")
		if [ -z "$desc" ]; then
			# The header's first words: its first comment line
			# after the SPDX line and empty '#' lines.
			desc=$(grep '^#' "$f" | grep -v SPDX | sed 's/^# *//' |
				grep -v '^$' | head -1 | cut -c1-30)
		fi
		sed -n "$((n + 1))p" "$tmp/list" | grep -qF -- "      $desc" ||
			fail "scenario $name: description line '$(sed -n "$((n + 1))p" "$tmp/list")', expected '$desc'"
	done
done

# ---- 4. worked examples ----
grep -qE '^  charge-batch-2022 +6 x 5 ms, 72 CPUs of skx-2s-72$' "$tmp/list" ||
	fail "charge-batch-2022: $(grep '^  charge-batch-2022 ' "$tmp/list")"
grep -qE '^  atomic-counter +8 x 0.55 ms, 1-72 CPUs of skx-2s-72$' "$tmp/list" ||
	fail "atomic-counter: $(grep '^  atomic-counter ' "$tmp/list")"

# ---- 5. names from the data directory are escaped (issue 34, item 7) ----
# A data directory whose own, profile, folder and scenario names hold
# ESC sequences (set the title, recolour): before, printed raw. Each
# appears as \x1b, and no ESC byte reaches the output. (The loader
# refuses a control character inside a file, so a description cannot.)
esc=$(printf '\033')
dd="$tmp/data${esc}[31m"
mkdir -p "$dd/machines" "$dd/t${esc}]0;x"
cp "$sc/machines/desktop-4c8t.yaml" "$dd/machines/p${esc}]0;title${esc}.yaml"
{
	echo "# Counts fast."
	sed -n '/^scenario:/,$p' "$top_srcdir/tests/data/small.yaml" |
		grep -v '^description:' | sed 's/^machine:.*/machine: desktop-4c8t/'
} >"$dd/t${esc}]0;x/s${esc}[5m.yaml"
cp "$sc/machines/desktop-4c8t.yaml" "$dd/machines/desktop-4c8t.yaml"
MEMCGSIM_DATADIR="$dd" "$MEMCGSIM" list >"$tmp/esc" 2>&1 ||
	fail "memcgsim list of an escaping data directory failed"
if grep -q "$esc" "$tmp/esc"; then
	fail "memcgsim list printed an ESC byte raw:"
	sed -n "/$esc/p" "$tmp/esc" | od -c | head -5
fi
for want in 'data\x1b[31m/machines' '  p\x1b]0;title\x1b ' 't\x1b]0;x/' \
	'  s\x1b[5m ' '      Counts fast.'; do
	grep -qF -- "$want" "$tmp/esc" || fail "memcgsim list: no '$want' in:
$(cat "$tmp/esc")"
done

[ "$failures" = 0 ] || exit 1
