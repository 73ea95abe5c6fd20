#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-plots.sh - `memcgsim plot` and the default experiment's plots
# (cmd/plot/plot.h, plots/*.gp).
#
#  1. The run YAML of validation/charge-batch-2022.yaml (shortened with
#     --set) gives functions, validation and a heat map per variant with
#     hot lines; a teaching scenario's (false-sharing) gives its heat maps;
#     the sweep.csv fixtures in tests/data/plots give throughput-vs-KEY,
#     one per varied key but seed, the other keys as panels, seeds
#     averaged with confidence intervals, --metric and --x picking one
#     picture, also from a sweep directory. Every picture, in
#     PNG and SVG, is checked: a PNG starts with the PNG signature, its
#     IHDR has the size the script sets, its image data inflates to the
#     size IHDR promises, and it is more than a few KB; an SVG parses as
#     XML, has an <svg> root of the script's size and many drawn elements.
#     With python3, the first PNG of each kind is decoded (filters undone)
#     and must have many colours, none covering nearly all of it; the heat
#     maps of 6.0-rc1 and of false-sharing's packed (a single hot line)
#     must be mostly drawn, not white. The files memcgsim lists are the
#     files in the directory, and drawing twice gives the same bytes.
#  2. Bad input: a missing file, a scenario (not results), a run's CSV,
#     text, a directory without sweep.csv, a broken sweep.csv: exit 2,
#     the file named on stderr, no output directory.
#  3. gnuplot missing (MEMCGSIM_GNUPLOT=/nonexistent): exit 1, a message
#     that says how to install it, nothing written; gnuplot failing
#     (MEMCGSIM_GNUPLOT=false): exit 1, no picture and no temporary file;
#     a hung one is killed after MEMCGSIM_GNUPLOT_TIMEOUT, the same.
#  4. The default experiment (no command, shortened with --set) writes
#     memcgsim-plots/{functions,validation,heatmap-6.0-rc1}.{png,svg} and
#     says so in one line on stderr; its stdout is the same bytes as with
#     --no-plots; without gnuplot it says how to install it and exits 0.
#
# Skipped (exit 77) when gnuplot is not installed.
#
# Environment: MEMCGSIM (the program) and top_srcdir, both set by
# `make check`. Quiet on success; each failure is explained on stdout.
set -eu

: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "SKIP: gnuplot is not installed (apt-get install gnuplot-nox)"
	exit 77
fi

case $MEMCGSIM in
/*) ;;
*) MEMCGSIM=$(pwd)/$MEMCGSIM ;;
esac
top=$(cd "$top_srcdir" && pwd)
data=$top/tests/data/plots
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-plots.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
unset MEMCGSIM_GNUPLOT MEMCGSIM_PLOTSDIR
if command -v python3 >/dev/null 2>&1; then
	python=python3
else
	python=
fi

failures=0
fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

short="--set duration_ms=0.5 --set warmup_ms=0.1"

# sim ARGS...: memcgsim ARGS in $tmp; sets $rc, fills $tmp/out, $tmp/err.
sim()
{
	rc=0
	(cd "$tmp" && "$MEMCGSIM" "$@") >"$tmp/out" 2>"$tmp/err" || rc=$?
}

# ---- the picture checker ----

# size KIND DATA: the picture size the script of KIND sets, "WIDTH
# HEIGHT". A sweep's picture of N panels of L lines (its data file says)
# is its panels above its legend: one panel 960 x 560; else a grid of N
# in a row up to 3, then 2, 3 or 4 columns, 420 x 300 a panel plus
# 120 x 80, at least 960 x 520; the legend 40 more, and 20 a row of at
# most 4 variants.
size()
{
	case $1 in
	functions) echo "1000 640" ;;
	validation) echo "720 720" ;;
	summary) echo "960 600" ;;
	heatmap-*) echo "960 480" ;;
	*-vs-*)
		n=$(sed -n 's/^# \([0-9]*\) panel(s) x .*/\1/p' "$2")
		l=$(sed -n 's/^# [0-9]* panel(s) x \([0-9]*\) line(s).*/\1/p' "$2")
		n=${n:-1}
		keyh=$((40 + 20 * ((${l:-1} + 3) / 4)))
		if test "$n" -le 1; then
			echo "960 $((560 + keyh))"
			return
		fi
		if test "$n" -le 3; then cols=$n
		elif test "$n" -le 4; then cols=2
		elif test "$n" -le 9; then cols=3
		else cols=4; fi
		rows=$(((n + cols - 1) / cols))
		w=$((420 * cols + 120)); test $w -ge 960 || w=960
		h=$((300 * rows + 80)); test $h -ge 520 || h=520
		echo "$w $((h + keyh))"
		;;
	*) echo "0 0" ;;
	esac
}

cat >"$tmp/check.py" <<'EOF'
# check.py KIND WIDTH HEIGHT FILE DECODE: one picture; prints what is wrong.
# DECODE 1: decode a PNG and count its colours; 2: also, the picture is
# mostly drawn (white is less than 60% of it: a heat map full of transfers).
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

kind, width, height, path, decode = sys.argv[1:6]
width, height = int(width), int(height)


def png():
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return "no PNG signature"
    if len(data) < 4096:
        return "only %d bytes" % len(data)
    pos, idat, ihdr = 8, [], None
    while pos + 8 <= len(data):
        n, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if typ == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif typ == b"IDAT":
            idat.append(body)
    if not ihdr:
        return "no IHDR"
    w, h, depth, ctype, _, _, interlace = ihdr
    if (w, h) != (width, height):
        return "IHDR says %dx%d, the script sets %dx%d" % (w, h, width,
                                                          height)
    if depth != 8 or ctype not in (2, 6) or interlace:
        return "unexpected PNG format (depth %d, colour type %d)" % (depth,
                                                                     ctype)
    bpp = 3 if ctype == 2 else 4
    stride = w * bpp
    raw = zlib.decompress(b"".join(idat))
    if len(raw) != h * (stride + 1):
        return "image data inflates to %d bytes, not %d" % (
            len(raw), h * (stride + 1))
    if decode == "0":
        return None
    # Undo the filters (PNG spec 9.2) and count the colours.
    prev = bytearray(stride)
    counts = {}
    for y in range(h):
        f = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                row[i] = (row[i] + row[i - bpp]) & 255
        elif f == 2:
            row = bytearray((a + b) & 255 for a, b in zip(row, prev))
        elif f == 3:
            for i in range(stride):
                a = row[i - bpp] if i >= bpp else 0
                row[i] = (row[i] + ((a + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = row[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                row[i] = (row[i] + pr) & 255
        for px in zip(*(row[k::bpp] for k in range(bpp))):
            counts[px] = counts.get(px, 0) + 1
        prev = row
    top = max(counts.values())
    if len(counts) < 16:
        return "only %d colours" % len(counts)
    if top > 0.99 * w * h:
        return "one colour covers %.1f%% of the picture" % (
            100.0 * top / (w * h))
    white = counts.get((255, 255, 255), 0) + counts.get((255, 255, 255, 255), 0)
    if decode == "2" and white > 0.6 * w * h:
        return "white covers %.1f%% of the picture: nothing drawn?" % (
            100.0 * white / (w * h))
    return None


def svg():
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        return "not XML: %s" % e
    if root.tag.split("}")[-1] != "svg":
        return "the root is <%s>, not <svg>" % root.tag
    if (root.get("width"), root.get("height")) != (str(width), str(height)):
        return "<svg> is %sx%s, the script sets %dx%d" % (
            root.get("width"), root.get("height"), width, height)
    drawn = sum(1 for e in root.iter()
                if e.tag.split("}")[-1] in ("path", "polyline", "polygon",
                                            "rect", "line", "circle", "use"))
    if drawn < 20:
        return "only %d drawn elements" % drawn
    return None


problem = png() if path.endswith(".png") else svg()
if problem:
    print(problem)
EOF

# Without python3: the signature, IHDR's size and the file's size of a
# PNG; the root element and some paths of an SVG.
check_sh()
{
	set -- $(size "$1") "$2"
	case $3 in
	*.png)
		sig=$(od -An -tx1 -N8 "$3" | tr -d ' \n')
		test "$sig" = 89504e470d0a1a0a || { echo "no PNG signature"; return; }
		dims=$(od -An -tu1 -j16 -N8 "$3" | tr -s ' ' ' ' | sed 's/^ //')
		set -- "$1" "$2" "$3" $dims
		w=$(($4 * 16777216 + $5 * 65536 + $6 * 256 + $7))
		h=$(($8 * 16777216 + $9 * 65536 + ${10} * 256 + ${11}))
		test "$w $h" = "$1 $2" || echo "IHDR says ${w}x$h, the script sets ${1}x$2"
		test "$(wc -c <"$3")" -gt 4096 || echo "only $(wc -c <"$3") bytes"
		;;
	*.svg)
		grep -q "<svg" "$3" || echo "no <svg>"
		grep -q "width=\"$1\" height=\"$2\"" "$3" || echo "not ${1}x$2"
		test "$(grep -c '<path' "$3")" -gt 20 || echo "few paths"
		;;
	esac
}

decoded=" "
# picture WHAT FILE [filled]: check one picture; a missing one is a
# failure. "filled": decode it and check that it is mostly drawn.
picture()
{
	base=${2##*/}
	stem=${base%.*}
	if ! test -s "$2"; then
		fail "$1: no $base"
		return
	fi
	kind=${stem%%-*}
	decode=0
	case $base in
	*.png)
		case $decoded in
		*" $kind "*) ;;
		*) decode=1; decoded="$decoded$kind " ;;
		esac
		test "${3-}" != filled || decode=2
		;;
	esac
	if test -n "$python"; then
		why=$($python "$tmp/check.py" "$stem" $(size "$stem" "${2%.*}.dat") "$2" $decode 2>&1) ||
			why="the checker failed: $why"
	else
		why=$(check_sh "$stem" "$2")
	fi
	test -z "$why" || fail "$1: $base: $why"
}

# plotted WHAT DIR STEM...: the listing in $tmp/out names exactly the
# files in DIR, which has STEM.{dat,png,svg} for each STEM, all good.
plotted()
{
	what=$1
	dir=$2
	shift 2
	if test "$rc" -ne 0; then
		fail "$what: exit status $rc"
		sed 's/^/	/' "$tmp/err"
		return
	fi
	(cd "$tmp" && ls "$dir" | sed "s|^|$dir/|" | sort) >"$tmp/ls"
	sort "$tmp/out" >"$tmp/listed"
	cmp -s "$tmp/ls" "$tmp/listed" || {
		fail "$what: the files listed are not the files written:"
		diff "$tmp/listed" "$tmp/ls" | sed 's/^/	/'
	}
	for s in "$@"; do
		test -s "$tmp/$dir/$s.dat" || fail "$what: no $s.dat"
		picture "$what" "$tmp/$dir/$s.png"
		picture "$what" "$tmp/$dir/$s.svg"
	done
}

# ---- 1. pictures ----

cb=$top/scenarios/validation/charge-batch-2022.yaml
sim run "$cb" $short -f yaml -o cb.yaml --quiet
test "$rc" -eq 0 || fail "run charge-batch-2022.yaml: exit status $rc"
sim plot cb.yaml --out cb
plotted "plot charge-batch-2022" cb summary functions validation \
	heatmap-6.0-rc1 heatmap-+A heatmap-+B heatmap-+C heatmap-+A+B+C
# Every line went to every CPU: a full heat map.
picture "plot charge-batch-2022" "$tmp/cb/heatmap-6.0-rc1.png" filled
test -e "$tmp/cb/heatmap-root.dat" &&
	fail "plot charge-batch-2022: a heat map of root, which has no hot lines"
grep -q '^-51.68.* "6.0-rc1"$' "$tmp/cb/validation.dat" ||
	fail "plot charge-batch-2022: validation.dat has no published -51.68% for 6.0-rc1"

# The same bytes again, into the default directory plots-NAME.
sim plot cb.yaml
if test "$rc" -ne 0; then
	fail "plot charge-batch-2022 (default --out): exit status $rc"
else
	for f in "$tmp"/cb/*; do
		cmp -s "$f" "$tmp/plots-charge-batch-2022/${f##*/}" ||
			fail "plot charge-batch-2022: ${f##*/} differs the second time"
	done
fi

fs=$top/scenarios/teaching/false-sharing.yaml
sim run "$fs" -f yaml -o fs.yaml --quiet
test "$rc" -eq 0 || fail "run false-sharing.yaml: exit status $rc"
sim plot fs.yaml --out fs
plotted "plot false-sharing" fs summary heatmap-padded heatmap-packed \
	heatmap-padded-store heatmap-packed-store
# The bar chart every run gets: a bar per variant in the run's order, the
# baseline (padded) labelled so and the others with their change.
awk '!/^#/ { n++; name[n] = $4; lab[n] = $0 }
	END { exit !(n == 4 && name[1] == "\"padded\"" &&
		lab[1] ~ /\(baseline\)"$/ && name[2] == "\"packed\"" &&
		lab[2] ~ /\(-[0-9.]+%\)"$/) }' "$tmp/fs/summary.dat" ||
	fail "plot false-sharing: summary.dat is not 4 bars, padded the baseline: $(cat "$tmp/fs/summary.dat")"
# One line (a single row) moving between 8 CPUs: a full heat map.
picture "plot false-sharing" "$tmp/fs/heatmap-packed.png" filled
test -e "$tmp/fs/functions.dat" &&
	fail "plot false-sharing: functions, but the scenario has none"

# Socket boundaries (issue 32): atomic-counter's 72cpus variant runs on
# every CPU of skx-2s-72, 2 sockets x 18 cores x 2 threads numbered
# threads_last, so its results' socket_cpus is "0-17,36-53; 18-35,54-71"
# and its heat map's 72 columns run socket 0, 1, 0, 1 in blocks of 18:
# three dashed boundaries (at 17.5, 35.5, 53.5) and four "socket N"
# labels, two of each. A result without socket_cpus (an older file) or
# with a broken one still draws, without them.
ac=$top/scenarios/teaching/atomic-counter.yaml
sim run "$ac" --set duration_ms=0.05 -v 72cpus -f yaml -o ac.yaml --quiet
test "$rc" -eq 0 || fail "run atomic-counter.yaml: exit status $rc"
grep -qx "  socket_cpus: '0-17,36-53; 18-35,54-71'" "$tmp/ac.yaml" ||
	fail "run atomic-counter: no socket_cpus 0-17,36-53; 18-35,54-71 in the provenance"
sim plot ac.yaml --out ac --format svg
svg=$tmp/ac/heatmap-72cpus.svg
test "$(grep -o '>socket [0-9]<' "$svg" | sort | uniq -c | tr -s ' ' | tr '\n' '|')" = \
	" 2 >socket 0<| 2 >socket 1<|" ||
	fail "plot atomic-counter: heatmap-72cpus.svg does not label socket 0, 1, 0, 1"
for bad in "'0-17; x'" "'0-17,36-53'" "'0-99999999999; 5'" '"0-17,36-53; 18-35,54-71, 0-35; 36-71"'; do
	sed "s/^  socket_cpus: .*/  socket_cpus: $bad/" "$tmp/ac.yaml" >"$tmp/acbad.yaml"
	rm -rf "$tmp/acbad"
	sim plot acbad.yaml --out acbad --format svg
	test "$rc" -eq 0 || fail "plot with socket_cpus $bad: exit status $rc"
	grep -q '>socket [0-9]<' "$tmp/acbad/heatmap-72cpus.svg" &&
		fail "plot with socket_cpus $bad: socket labels drawn"
done

# Panels in value order and tic labels from every value: the first row
# is a variant that sets both keys itself (kernel.charge_batch=64, layout
# v6.1), which used to put the 64 panel first and leave the 16 panel's
# v6.0 tic unlabelled (ux-review-3 finding 7). Expect panel 0 to be
# charge_batch=16 (a's line there: 1 at v6.0, 2 at v6.1) and a last block
# "(tics)" holding both labels.
printf '%s\n' 'point,kernel.charge_batch,kernel.page_counter_layout,variant,throughput,unit' \
	'0,64,v6.1,fixed,5,x' '0,16,v6.0,a,1,x' '1,16,v6.1,a,2,x' \
	'2,64,v6.0,a,3,x' '3,64,v6.1,a,4,x' >"$tmp/order.csv"
sim plot order.csv --out order --x kernel.page_counter_layout
d="$tmp/order/throughput-vs-kernel.page_counter_layout.dat"
awk 'BEGIN { RS = "\n\n\n" } NR == 2' "$d" | tr '\n' ' ' |
	grep -q '^"a" 0 1 0 "v6.0" 1 2 0 "v6.1" $' ||
	fail "plot order.csv: panel 0 is not charge_batch=16: $(cat "$d")"
awk 'BEGIN { RS = "\n\n\n" } NR == 5' "$d" | tr '\n' ' ' |
	grep -q '^"(tics)" 0 nan 0 "v6.0" 1 nan 0 "v6.1"' ||
	fail "plot order.csv: no (tics) block of both values: $(cat "$d")"

sim plot "$data/sweep.csv" --out sweep
plotted "plot sweep.csv" sweep throughput-vs-kernel.charge_batch
grep -q '^8 3595' "$tmp/sweep/throughput-vs-kernel.charge_batch.dat" ||
	fail "plot sweep.csv: no point (8, 3595...) in the data"

sim plot "$data/sweep-2keys.csv" --out sweep2 --format svg
if test "$rc" -ne 0; then
	fail "plot sweep-2keys.csv --format svg: exit status $rc"
else
	for s in throughput-vs-kernel.charge_batch \
		throughput-vs-kernel.page_counter_layout; do
		picture "plot sweep-2keys.csv" "$tmp/sweep2/$s.svg"
		test -e "$tmp/sweep2/$s.png" &&
			fail "plot sweep-2keys.csv --format svg: wrote $s.png"
	done
	# The other key makes the panels: 2 values, 2 panels of the 3
	# variants (root, 6.0-rc1, +A+B+C); 6.0-rc1's line of the second
	# panel (kernel.charge_batch=64) is block 1 * 3 + 1 = 4.
	d="$tmp/sweep2/throughput-vs-kernel.page_counter_layout.dat"
	grep -qx '# 2 panel(s) x 3 line(s): block F \* 3 + V is panel F.s line V' "$d" ||
		fail "plot sweep-2keys.csv: not 2 panels of 3 lines: $(sed -n 2p "$d")"
	awk 'BEGIN { RS = "\n\n\n" } NR == 5' "$d" | head -1 |
		grep -qx '"6.0-rc1"' ||
		fail "plot sweep-2keys.csv: block 4 is not 6.0-rc1's"
	# The legend below the panels, not beside them (ux-review-3
	# finding 18): 2 panels in a row, 960 x (520 + 40 + 20) for one
	# legend row of 3 variants; the panels take y 0-520, so both x axis
	# labels sit above 520 and the legend's "root" in 520-580.
	awk '/translate\(/ { y = $0; sub(/.*translate\([^,]*,/, "", y)
			sub(/\).*/, "", y) }
		/<text>kernel.page_counter_layout<\/text>/ && y >= 520 { bad = 1 }
		/<text>kernel.page_counter_layout<\/text>/ { nx++ }
		/<text>root<\/text>/ { r = y; nr++ }
		END { exit !(nx == 2 && nr == 1 && r > 520 && r < 580 && !bad) }' \
		"$tmp/sweep2/throughput-vs-kernel.page_counter_layout.svg" ||
		fail "plot sweep-2keys.csv: the legend is not below the panels"
fi

# Units on every metric's axis: sweep.csv has a unit for throughput only,
# so a sweep's latency_p99 (ns in its sweep.yaml) was drawn without one.
# A sweep of small.yaml, plotted with --metric latency_p99, labels its y
# axis "latency_p99 (ns)"; a misspelt --metric gets "did you mean" (from
# a sweep or a run), exit 2 and nothing written; a run's --metric draws
# the bar chart of that metric.
rc=0
(cd "$tmp" && "$MEMCGSIM" sweep "$top/tests/data/small.yaml" -q \
	--vary workloads.0.think_ns=10,20 --out sw >/dev/null 2>&1) || rc=$?
test "$rc" -eq 0 || fail "sweep small.yaml: exit status $rc"
sim plot sw --metric latency_p99 --out swl --format svg
test "$rc" -eq 0 || fail "plot sw --metric latency_p99: exit status $rc"
grep -q '<text>latency_p99 (ns)</text>' \
	"$tmp/swl/latency_p99-vs-workloads.0.think_ns.svg" ||
	fail "plot sw --metric latency_p99: no y label 'latency_p99 (ns)'"
for f in sw ac.yaml; do
	sim plot $f --metric thruput --out typo
	test "$rc" -eq 2 || fail "plot $f --metric thruput: exit status $rc"
	grep -q "did you mean 'throughput'?" "$tmp/err" ||
		fail "plot $f --metric thruput: no 'did you mean': $(cat "$tmp/err")"
	test -e "$tmp/typo" && fail "plot $f --metric thruput: wrote typo/"
done
sim plot ac.yaml --metric latency_p99 --out acl --format svg
grep -q '<text>latency_p99 (ns)</text>' "$tmp/acl/summary.svg" ||
	fail "plot ac.yaml --metric latency_p99: the bars are not latency_p99's"

# Three keys, one a seed (tests/data/plots/sweep-seeds.csv): a picture
# per key but the seed, the other key's values as panels, each point the
# mean over the seeds with its 95% confidence interval. At a=1, b=x,
# variant v the seeds give 10 and 14: mean 12, s = sqrt(((10-12)^2 +
# (14-12)^2) / 1) = 2.828, CI = t(0.975, 1 df) s / sqrt(2) = 12.706 x 2 =
# 25.412; where the seeds agree the CI is 0. --metric and --x pick one
# picture of any column against one key: latency_p99 against b spans 2 to
# 8000 (a log y axis), with b's values as categories (x = rank 0, 1); at
# a=1, b=x, v the seeds give 1 and 3: mean 2, CI 12.706 x 1.414 / 1.414.
sim plot "$data/sweep-seeds.csv" --out seeds
plotted "plot sweep-seeds.csv" seeds throughput-vs-a throughput-vs-b
test -e "$tmp/seeds/throughput-vs-seed.dat" &&
	fail "plot sweep-seeds.csv: the seed was drawn as an axis"
grep -qx '1 12 25.412 "1"' "$tmp/seeds/throughput-vs-a.dat" ||
	fail "plot sweep-seeds.csv: no mean 12 +- 25.412 at a=1 (b=x, v)"
grep -qx '8 50 0 "8"' "$tmp/seeds/throughput-vs-a.dat" ||
	fail "plot sweep-seeds.csv: no mean 50 +- 0 at a=8 (b=x, v)"
sim plot "$data/sweep-seeds.csv" --out seeds2 --metric latency_p99 --x b
plotted "plot sweep-seeds.csv --metric latency_p99 --x b" seeds2 \
	latency_p99-vs-b
test "$(ls "$tmp/seeds2" | wc -l)" = 3 ||
	fail "plot --metric latency_p99 --x b: not one picture: $(ls "$tmp/seeds2")"
grep -qx '0 2 12.706 "x"' "$tmp/seeds2/latency_p99-vs-b.dat" ||
	fail "plot --metric latency_p99 --x b: no category x at 0: mean 2 +- 12.706 (1 and 3)"
for bad in "--metric nosuch" "--x seedx" "--x variant"; do
	sim plot "$data/sweep-seeds.csv" --out seeds3 $bad
	test "$rc" = 2 || fail "plot $bad: exit status $rc, expected 2"
	test ! -e "$tmp/seeds3" || fail "plot $bad: wrote $tmp/seeds3"
done

# A sweep directory, named like `memcgsim sweep` names it.
mkdir "$tmp/sweep-charge-batch-2022"
cp "$data/sweep.csv" "$tmp/sweep-charge-batch-2022/"
sim plot sweep-charge-batch-2022 --format png
if test "$rc" -ne 0; then
	fail "plot DIR: exit status $rc"
	sed 's/^/	/' "$tmp/err"
else
	# plots-NAME/, NAME the sweep's less "sweep-", and in the title
	picture "plot DIR" \
		"$tmp/plots-charge-batch-2022/throughput-vs-kernel.charge_batch.png"
	head -1 "$tmp/plots-charge-batch-2022/throughput-vs-kernel.charge_batch.dat" |
		grep -q 'kernel.charge_batch, charge-batch-2022;' ||
		fail "plot DIR: the sweep is not named charge-batch-2022"
fi

# ---- 2. bad input ----

# refused WHAT NAME ARGS...: exit 2, NAME on stderr, no --out directory.
refused()
{
	what=$1
	name=$2
	shift 2
	sim plot "$@" --out refused
	if test "$rc" -ne 2; then
		fail "$what: exit status $rc, expected 2"
		sed 's/^/	/' "$tmp/err"
	elif ! grep -q -- "$name" "$tmp/err"; then
		fail "$what: the message does not name $name:"
		sed 's/^/	/' "$tmp/err"
	fi
	test -e "$tmp/refused" && fail "$what: wrote refused/ on bad input"
	rm -rf "$tmp/refused"
}

refused "plot a missing file" missing.yaml missing.yaml
cp "$fs" "$tmp/scenario.yaml"
refused "plot a scenario" scenario.yaml scenario.yaml
sim run "$fs" -f csv -o run.csv --quiet
refused "plot a run's CSV" run.csv run.csv
printf 'hello\n' >"$tmp/text.yaml"
refused "plot text" text.yaml text.yaml
mkdir "$tmp/empty"
refused "plot a directory without sweep.csv" empty empty
printf 'point,kernel.charge_batch,variant,throughput,unit\n0,8,root,fast,Mbit/s\n' \
	>"$tmp/bad.csv"
refused "plot a sweep.csv with a bad throughput" bad.csv bad.csv
printf 'point,kernel.charge_batch,variant,throughput,unit\n0,8,root\n' \
	>"$tmp/short.csv"
refused "plot a sweep.csv with a short row" short.csv short.csv

# ---- 3. no gnuplot, or a failing one ----

rc=0
(cd "$tmp" && MEMCGSIM_GNUPLOT=/nonexistent/gnuplot "$MEMCGSIM" plot \
	cb.yaml --out nognuplot) >"$tmp/out" 2>"$tmp/err" || rc=$?
test "$rc" -eq 1 || fail "plot without gnuplot: exit status $rc, expected 1"
grep -q 'apt-get install gnuplot-nox' "$tmp/err" ||
	fail "plot without gnuplot: the message does not say how to install it"
test -e "$tmp/nognuplot" && fail "plot without gnuplot: wrote nognuplot/"

rc=0
(cd "$tmp" && MEMCGSIM_GNUPLOT=false "$MEMCGSIM" plot cb.yaml \
	--out failed) >"$tmp/out" 2>"$tmp/err" || rc=$?
test "$rc" -eq 1 || fail "plot with a failing gnuplot: exit status $rc, expected 1"
left=$(cd "$tmp" && ls failed 2>/dev/null | grep -v '\.dat$' || :)
if test -n "$left"; then
	fail "plot with a failing gnuplot: left" $left
fi

# A gnuplot that hangs (issue 14, item 11): killed after
# MEMCGSIM_GNUPLOT_TIMEOUT seconds, exit 1, a message that says so, no
# picture and no temporary picture left (before: memcgsim waited as long
# as gnuplot did, here 30 s).
printf '#!/bin/sh\nsleep 30\n' >"$tmp/hung-gnuplot"
chmod +x "$tmp/hung-gnuplot"
rc=0
start=$(date +%s)
(cd "$tmp" && MEMCGSIM_GNUPLOT="$tmp/hung-gnuplot" \
	MEMCGSIM_GNUPLOT_TIMEOUT=1 "$MEMCGSIM" plot cb.yaml \
	--out hung) >"$tmp/out" 2>"$tmp/err" || rc=$?
took=$(($(date +%s) - start))
test "$rc" -eq 1 || fail "plot with a hung gnuplot: exit status $rc, expected 1"
test "$took" -lt 10 || fail "plot with a hung gnuplot: took $took s, limit 1 s"
grep -q 'did not finish within 1 s' "$tmp/err" ||
	fail "plot with a hung gnuplot: $(cat "$tmp/err")"
left=$(cd "$tmp" && ls -a hung 2>/dev/null | grep -v '\.dat$' | grep -v '^\.\.*$' || :)
if test -n "$left"; then
	fail "plot with a hung gnuplot: left" $left
fi

# ---- 4. the default experiment ----

mkdir "$tmp/default" "$tmp/noplots" "$tmp/nognuplot-default"
rc=0
(cd "$tmp/default" && "$MEMCGSIM" $short) >"$tmp/default.out" \
	2>"$tmp/default.err" || rc=$?
rc2=0
(cd "$tmp/noplots" && "$MEMCGSIM" $short --no-plots) >"$tmp/noplots.out" \
	2>"$tmp/noplots.err" || rc2=$?
if test "$rc" -ne 0 || test "$rc2" -ne 0; then
	fail "memcgsim (the default experiment): exit status $rc, with --no-plots $rc2"
	sed 's/^/	/' "$tmp/default.err" "$tmp/noplots.err"
else
	cmp -s "$tmp/default.out" "$tmp/noplots.out" ||
		fail "memcgsim: stdout is not the same with and without --no-plots"
	for s in functions validation heatmap-6.0-rc1; do
		picture "memcgsim (the default experiment)" \
			"$tmp/default/memcgsim-plots/$s.png"
		picture "memcgsim (the default experiment)" \
			"$tmp/default/memcgsim-plots/$s.svg"
	done
	if test "$(wc -l <"$tmp/default.err")" -ne 1 ||
		! grep -q 'memcgsim-plots/' "$tmp/default.err"; then
		fail "memcgsim: expected one line on stderr naming memcgsim-plots/, found:"
		sed 's/^/	/' "$tmp/default.err"
	fi
	test -e "$tmp/noplots/memcgsim-plots" &&
		fail "memcgsim --no-plots: wrote memcgsim-plots/"
	test -s "$tmp/noplots.err" && fail "memcgsim --no-plots: wrote to stderr"
fi
rc=0
(cd "$tmp/nognuplot-default" && MEMCGSIM_GNUPLOT=/nonexistent/gnuplot \
	"$MEMCGSIM" $short) >"$tmp/ng.out" 2>"$tmp/ng.err" || rc=$?
test "$rc" -eq 0 || fail "memcgsim without gnuplot: exit status $rc, expected 0"
grep -q 'apt-get install gnuplot-nox' "$tmp/ng.err" ||
	fail "memcgsim without gnuplot: stderr does not say how to install it"
cmp -s "$tmp/ng.out" "$tmp/noplots.out" ||
	fail "memcgsim without gnuplot: stdout differs from --no-plots'"

if test "$failures" -gt 0; then
	echo "$failures failure(s) in $0"
	exit 1
fi
exit 0
