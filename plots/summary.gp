# SPDX-License-Identifier: GPL-2.0-only
#
# plots/summary.gp - a run's headline metric per variant, as bars: the
# picture of the numbers a lesson or a changelog is about (packed 18.7 M
# ops/s against padded 296 M), each bar labelled with its value and its
# change against its baseline. `memcgsim plot RUN.yaml` draws it for every
# run; to draw it again by hand:
#
#	gnuplot -e "data='summary.dat'; out='x.png'; ylabel='throughput (ops/s)'" \
#		plots/summary.gp
#
# Variables (set with gnuplot -e before the script):
#   data       the data file (required)
#   out        the picture to write (required)
#   term       'png' (default) or 'svg'
#   title      the title (default: "Throughput per variant")
#   ylabel     the y axis, with its unit (default: "throughput")
#   errorbars  1: draw the third column as error bars (run -r N); 0
#
# Data: one line per variant, in the run's order: its rank from 0, the
# value, the half-width of its 95% confidence interval (0 with one
# replication), the variant's name and the bar's label (value and change,
# or "baseline"), both in double quotes:
#
#	0 296288000 0 "padded" "296 M (baseline)"
#	1 18684000 0 "packed" "18.7 M (-93.7%)"
#
# Picture: 960 x 600 pixels (PNG; SVG the same size in points), the y axis
# from 0 with SI tic labels (40.0M, not 4e+07).

if (!exists("data") || !exists("out")) {
	exit error "summary.gp: set data='FILE' and out='PICTURE' with gnuplot -e"
}
if (!exists("term")) term = 'png'
if (!exists("title")) title = 'Throughput per variant'
if (!exists("ylabel")) ylabel = 'throughput'
if (!exists("errorbars")) errorbars = 0

if (term eq 'svg') {
	set terminal svg size 960,600 fixed font 'sans,12' background rgb 'white'
} else {
	if (term ne 'png') {
		exit error "summary.gp: term: expected 'png' or 'svg', found '".term."'"
	}
	if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
		set terminal pngcairo size 960,600 font 'sans,10' background rgb 'white'
	} else {
		set terminal png size 960,600 background rgb 'white'
	}
}
set termoption noenhanced
set output out

stats data using 1:2 nooutput
n = STATS_records
top = STATS_max_y > 0 ? STATS_max_y * 1.15 : 1

set title title
set ylabel ylabel
set xrange [-0.6:n - 0.4]
set yrange [0:top]
set format y '%.1s%c'
set grid ytics
set style fill solid 0.8 border lc rgb '#404040'
set boxwidth 0.6
set xtics nomirror rotate by -30 left
set ytics nomirror
set key off

if (errorbars) {
	plot data using 1:2:xtic(4) with boxes lc rgb '#1f77b4', \
		data using 1:2:3 with yerrorbars lc rgb '#000000' pt -1, \
		data using 1:2:5 with labels offset char 0, char 1
} else {
	plot data using 1:2:xtic(4) with boxes lc rgb '#1f77b4', \
		data using 1:2:5 with labels offset char 0, char 1
}
