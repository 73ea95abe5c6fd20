# SPDX-License-Identifier: GPL-2.0-only
#
# plots/throughput.gp - a metric against a swept key (a `memcgsim sweep`):
# the key's values along x, the metric along y, one line per variant. When
# the sweep varied other keys, each combination of their values gets a
# panel of its own (small multiples, titled "kernel.charge_batch=64"),
# all on the same axes; a varied seed is not a key but replications: each
# point is the mean over the seeds, with its 95% confidence interval as an
# error bar.
#
# `memcgsim plot SWEEP [--metric M] [--x KEY]` writes the data file and
# runs this script; to draw it again by hand:
#
#	gnuplot -e "data='throughput-vs-kernel.charge_batch.dat'; \
#		out='x.png'; xlabel='kernel.charge_batch'" plots/throughput.gp
#
# Variables (set with gnuplot -e before the script):
#   data       the data file (required)
#   out        the picture to write (required)
#   term       'png' (default) or 'svg'
#   title      the title (default: "Throughput")
#   xlabel     the swept key (default: "value")
#   ylabel     the y axis (default: "throughput")
#   logx       1: a logarithmic x axis (memcgsim sets it for numbers that
#              span a factor of 8 or more, such as batch sizes); 0 (default)
#   logy       1: a logarithmic y axis (memcgsim sets it when the values
#              above 0 span a factor of 100 or more; zeros are not drawn),
#              from ypos (the smallest value above 0); 0 (default): from 0
#   categories 1: the values are not numbers, x is their rank (memcgsim
#              sets it); 0 (default)
#   errorbars  1: draw the third column as error bars; 0 (default)
#   nfacets    the number of panels (default 1)
#   nseries    the lines per panel (default: every block but the last,
#              one panel)
#   facet1, facet2, ...  each panel's title (default: none)
#
# Data: one block per panel and line, blocks separated by two blank lines,
# panel F's line V (from 0) is block F * nseries + V; then a last block,
# "(tics)", of every x value with y nan, whose labels make the x tics of
# every panel (a line's own points would leave out the values it lacks). A block's first line
# is the line's title in double quotes; then one line per point, in order
# along x: the x coordinate (the key's value when it is a number, else its
# rank among the values), the mean, the half-width of its 95% confidence
# interval (0 with one seed), and the label of the x tic in double quotes.
# A line with no point in a panel is the single point "nan nan 0 """.
#
#	"6.0-rc1"
#	8 3595.38 0 "8"
#	16 8570.88 0 "16"
#
# Picture (PNG; SVG the same size in points): the panels, then the
# legend below them, across the whole width, at most 4 variants a row
# (ux-review-3 finding 18: a legend beside the panels took a third of a
# 2-panel figure). One panel is 960 x 560 pixels; several make a grid of 1
# to 3 in a row for up to 3 panels, else 2, 3 or 4 columns, 420 x 300
# pixels a panel and 120 x 80 more for the margins, at least 960 wide and
# 520 high. The legend adds 40 pixels and 20 a row of it.

if (!exists("data") || !exists("out")) {
	exit error "throughput.gp: set data='FILE' and out='PICTURE' with gnuplot -e"
}
if (!exists("term")) term = 'png'
if (!exists("title")) title = 'Throughput'
if (!exists("xlabel")) xlabel = 'value'
if (!exists("ylabel")) ylabel = 'throughput'
if (!exists("logx")) logx = 0
if (!exists("logy")) logy = 0
if (!exists("categories")) categories = 0
if (!exists("errorbars")) errorbars = 0

stats data using (1) nooutput
nblocks = STATS_blocks
if (!exists("nfacets")) nfacets = 1
if (!exists("nseries")) nseries = (nblocks - 1) / nfacets
# the last block: every x value once, with its tic label
tics = nfacets * nseries
stats data using 1:2 nooutput
xlo = STATS_min_x
xhi = STATS_max_x
ylo = STATS_min_y
yhi = STATS_max_y

# The panels, then the legend below them (see Picture above).
cols = nfacets <= 3 ? (nfacets < 1 ? 1 : nfacets) : (nfacets <= 4 ? 2 : \
	(nfacets <= 9 ? 3 : 4))
rows = (nfacets + cols - 1) / cols
keyrows = (nseries + 3) / 4
width = cols <= 1 ? 960 : 420 * cols + 120
if (width < 960) width = 960
gridh = nfacets <= 1 ? 560 : 300 * rows + 80
if (gridh < 520) gridh = 520
keyh = 40 + 20 * keyrows
height = gridh + keyh

if (term eq 'svg') {
	set terminal svg size width,height fixed font 'sans,12' background rgb 'white'
} else {
	if (term ne 'png') {
		exit error "throughput.gp: term: expected 'png' or 'svg', found '".term."'"
	}
	if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
		set terminal pngcairo size width,height font 'sans,10' background rgb 'white'
	} else {
		set terminal png size width,height background rgb 'white'
	}
}
set termoption noenhanced
set output out

# Ten colours and seven point types: lines stay apart by colour first.
array colours[10] = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', \
	'#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf']
array points[7] = [7, 5, 9, 11, 13, 15, 3]

set grid
if (logx) {
	set logscale x 2
	set xrange [xlo / 1.15:xhi * 1.15]
} else {
	pad = categories || xhi <= xlo ? 0.5 : (xhi - xlo) * 0.05
	set xrange [xlo - pad:xhi + pad]
}
# SI tic labels: 140.0M, not 1.4e+08 (ux-review-3 finding 18).
set format y '%.1s%c'
# Every panel on the same y axis, so that they compare at a glance.
if (logy) {
	if (!exists("ypos")) {
		ypos = ylo > 0 ? ylo : 1
	}
	set logscale y 10
	set yrange [ypos / 1.5:yhi * 1.5]
} else {
	set yrange [0:yhi * 1.08 + (yhi <= 0 ? 1 : 0)]
}

if (nfacets <= 1) {
	set title title
	set xlabel xlabel
	set ylabel ylabel
	# the legend in its strip, the x axis and its label above it
	set bmargin at screen (keyh + 60.0) / height
	set key at screen 0.5, screen 0.5 * keyh / height center center \
		horizontal maxcols 4 Left reverse samplen 3
	if (errorbars) {
		plot for [v=0:nseries-1] data index v using 1:2:3 \
			with yerrorlines title columnheader(1) lw 2 ps 1.3 \
			lc rgb colours[v % 10 + 1] pt points[v % 7 + 1], \
			data index tics using 1:2:xtic(4) with points pt -1 \
			notitle
	} else {
		plot for [v=0:nseries-1] data index v using 1:2 \
			with linespoints title columnheader(1) lw 2 ps 1.3 \
			lc rgb colours[v % 10 + 1] pt points[v % 7 + 1], \
			data index tics using 1:2:xtic(4) with points pt -1 \
			notitle
	}
	exit
}

# Small multiples: the axis labels on the outer panels, each panel placed
# by hand in the grid above the legend's strip.
titleh = 30.0 / height
keyf = 1.0 * keyh / height
pw = 1.0 / cols
ph = (1.0 - keyf - titleh) / rows
set multiplot title title
unset key
do for [f=1:nfacets] {
	name = sprintf("facet%d", f)
	set origin ((f - 1) % cols) * pw, keyf + (rows - 1 - (f - 1) / cols) * ph
	set size pw, ph
	set title (exists(name) ? value(name) : '') font ',10'
	set xlabel (f + cols > nfacets ? xlabel : '')
	set ylabel ((f - 1) % cols == 0 ? ylabel : '')
	if (errorbars) {
		plot for [v=0:nseries-1] data index (f - 1) * nseries + v \
			using 1:2:3 with yerrorlines \
			title columnheader(1) lw 1.5 ps 1 \
			lc rgb colours[v % 10 + 1] pt points[v % 7 + 1], \
			data index tics using 1:2:xtic(4) with points pt -1 \
			notitle
	} else {
		plot for [v=0:nseries-1] data index (f - 1) * nseries + v \
			using 1:2 with linespoints \
			title columnheader(1) lw 1.5 ps 1 \
			lc rgb colours[v % 10 + 1] pt points[v % 7 + 1], \
			data index tics using 1:2:xtic(4) with points pt -1 \
			notitle
	}
}
# The legend: the lines of the first panel, drawn nowhere, in the strip
# below the panels.
unset title
unset xlabel
unset ylabel
unset border
unset tics
unset grid
unset logscale
set origin 0, 0
set size 1, keyf
set xrange [0:1]
set yrange [0:1]
set key at screen 0.5, screen keyf / 2 center center horizontal maxcols 4 \
	Left reverse samplen 3 font ',11'
plot for [v=0:nseries-1] data index v using (NaN):(NaN) \
	with linespoints title columnheader(1) lw 2 ps 1.3 \
	lc rgb colours[v % 10 + 1] pt points[v % 7 + 1]
unset multiplot
