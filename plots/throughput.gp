# SPDX-License-Identifier: GPL-2.0-only
#
# plots/throughput.gp - throughput against a swept key (a `memcgsim
# sweep`): the key's values along x, throughput along y (from 0), one
# line per variant. When the sweep varied more than one key, there is one
# picture per key, and one line per variant and combination of the other
# keys' values ("6.0-rc1 kernel.page_counter_layout=v6.1").
#
# `memcgsim plot SWEEP` writes the data file and runs this script; to
# draw it again by hand:
#
#	gnuplot -e "data='throughput-vs-kernel.charge_batch.dat'; \
#		out='x.png'; xlabel='kernel.charge_batch'" plots/throughput.gp
#
# Variables (set with gnuplot -e before the script):
#   data     the data file (required)
#   out      the picture to write (required)
#   term     'png' (default) or 'svg'
#   title    the title (default: "Throughput")
#   xlabel   the swept key (default: "value")
#   ylabel   the y axis (default: "throughput")
#   logx     1: a logarithmic x axis (memcgsim sets it for numbers that
#            span a factor of 8 or more, such as batch sizes); 0 (default)
#   categories  1: the values are not numbers, x is their rank (memcgsim
#            sets it); 0 (default)
#
# Data: one block per line, blocks separated by two blank lines. A
# block's first line is the line's title in double quotes; then one line
# per point, in order along x: the x coordinate (the key's value when it
# is a number, else its rank among the values), the throughput, and the
# label of the x tic in double quotes.
#
#	"6.0-rc1"
#	8 3595.38 "8"
#	16 8570.88 "16"
#
# Picture: 960 x 600 pixels (PNG; SVG the same size in points).

if (!exists("data") || !exists("out")) {
	exit error "throughput.gp: set data='FILE' and out='PICTURE' with gnuplot -e"
}
if (!exists("term")) term = 'png'
if (!exists("title")) title = 'Throughput'
if (!exists("xlabel")) xlabel = 'value'
if (!exists("ylabel")) ylabel = 'throughput'
if (!exists("logx")) logx = 0
if (!exists("categories")) categories = 0

if (term eq 'svg') {
	set terminal svg size 960,600 fixed font 'sans,12' background rgb 'white'
} else {
	if (term ne 'png') {
		exit error "throughput.gp: term: expected 'png' or 'svg', found '".term."'"
	}
	if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
		set terminal pngcairo size 960,600 font 'sans,10' background rgb 'white'
	} else {
		set terminal png size 960,600 background rgb 'white'
	}
}
set termoption noenhanced
set output out

stats data using (1) nooutput
nlines = STATS_blocks
stats data using 1:2 nooutput
xlo = STATS_min_x
xhi = STATS_max_x

# Ten colours and seven point types: lines stay apart by colour first.
array colours[10] = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', \
	'#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf']
array points[7] = [7, 5, 9, 11, 13, 15, 3]

set title title
set xlabel xlabel
set ylabel ylabel
set yrange [0:*]
set grid
set key outside right top Left reverse samplen 3
if (logx) {
	set logscale x 2
	set xrange [xlo / 1.15:xhi * 1.15]
} else {
	pad = categories || xhi <= xlo ? 0.5 : (xhi - xlo) * 0.05
	set xrange [xlo - pad:xhi + pad]
}

# The x tics are the swept values themselves (third column).
plot for [i=0:nlines-1] data index i using 1:2:xtic(3) \
	with linespoints title columnheader(1) lw 2 ps 1.3 \
	lc rgb colours[i % 10 + 1] pt points[i % 7 + 1] dt i / 10 % 4 + 1
