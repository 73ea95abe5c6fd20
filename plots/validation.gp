# SPDX-License-Identifier: GPL-2.0-only
#
# plots/validation.gp - predicted against published change, per variant
# of a validation scenario: one point per variant at (published change,
# predicted change), both in percent against the variant's baseline, in a
# colour and marker of its own (the legend names them) and labelled; and
# the diagonal y = x where a prediction equals what the real
# machine measured. A dashed segment joins each point to the diagonal: its
# length is the error in percentage points (the `error` column of
# `memcgsim validate`). Points above the diagonal predict less harm (or
# more gain) than was published.
#
# `memcgsim plot RESULTS` writes the data file and runs this script; to
# draw it again by hand:
#
#	gnuplot -e "data='validation.dat'; out='validation.svg'; term='svg'" \
#		plots/validation.gp
#
# Variables (set with gnuplot -e before the script):
#   data     the data file (required)
#   out      the picture to write (required)
#   term     'png' (default) or 'svg'
#   title    the title (default: "Predicted against published change")
#   metric   what changes (default: 'throughput'), for the axis labels
#
# Data: one block per variant, blocks separated by two blank lines: the
# variant's name in double quotes, then one line with the published
# change, the predicted change (in percent) and the name again.
#
#	"6.0-rc1"
#	-51.68 -26.76 "6.0-rc1"
#
# Picture: 720 x 720 pixels (PNG; SVG the same size in points); both axes
# have the same range, so the diagonal is at 45 degrees.

if (!exists("data") || !exists("out")) {
	exit error "validation.gp: set data='FILE' and out='PICTURE' with gnuplot -e"
}
if (!exists("term")) term = 'png'
if (!exists("title")) title = 'Predicted against published change'
if (!exists("metric")) metric = 'throughput'

if (term eq 'svg') {
	set terminal svg size 720,720 fixed font 'sans,12' background rgb 'white'
} else {
	if (term ne 'png') {
		exit error "validation.gp: term: expected 'png' or 'svg', found '".term."'"
	}
	if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
		set terminal pngcairo size 720,720 font 'sans,10' background rgb 'white'
	} else {
		set terminal png size 720,720 background rgb 'white'
	}
}
set termoption noenhanced
set output out

stats data using (1) nooutput
nvariants = STATS_blocks
# One range for both axes: every point and 0, with a margin.
stats data using 1:2 nooutput
lo = STATS_min_x < STATS_min_y ? STATS_min_x : STATS_min_y
hi = STATS_max_x > STATS_max_y ? STATS_max_x : STATS_max_y
lo = lo > 0 ? 0 : lo
hi = hi < 0 ? 0 : hi
pad = (hi - lo) * 0.12 + 1
lo = lo - pad
hi = hi + pad

set title title
set xlabel 'published change in '.metric.' (%)'
set ylabel 'predicted change in '.metric.' (%)'
set xrange [lo:hi]
set yrange [lo:hi]
set size ratio -1
set grid
set xzeroaxis lt 1 lc rgb '#a0a0a0'
set yzeroaxis lt 1 lc rgb '#a0a0a0'
set key top left box opaque samplen 2 Left reverse

# Ten colours and seven markers: variants stay apart by colour first.
array colours[10] = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', \
	'#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf']
array points[7] = [7, 5, 9, 11, 13, 15, 3]

# Labels at 30 degrees, so that those of neighbouring points do not run
# into each other.
plot x title 'y = x (prediction = published)' lw 1.5 lc rgb '#808080', \
	data using 1:2:(0):($1 - $2) with vectors nohead dt 2 lw 1.5 \
		lc rgb '#d62728' title 'error (percentage points)', \
	for [i=0:nvariants-1] data index i using 1:2 with points \
		pt points[i % 7 + 1] ps 1.6 lc rgb colours[i % 10 + 1] \
		title columnheader(1), \
	data using 1:2:3 with labels left rotate by 30 \
		offset char 0.8, char 0.4 notitle
