# SPDX-License-Identifier: GPL-2.0-only
#
# plots/functions.gp - where the time went, by kernel function, per
# variant: one stacked bar per variant, one segment per function (its
# self time, as `perf report --no-children` shows it), the kernel
# functions in colour at the bottom and the pseudo-functions ([send work],
# [receive work], [idle], [other], [no task]: a listed CPU that runs no
# task) in greys on top. Each bar adds up to
# (about) 100% of the CPUs' time. Below it, a second panel shows the
# kernel functions alone, on their own scale, since the work of the
# benchmark itself is often most of the time.
#
# `memcgsim plot RESULTS` writes the data file and runs this script; to
# draw it again by hand:
#
#	gnuplot -e "data='functions.dat'; out='functions.png'; term='png'" \
#		plots/functions.gp
#
# Variables (set with gnuplot -e before the script):
#   data     the data file (required)
#   out      the picture to write (required)
#   term     'png' (default) or 'svg'
#   title    the title (default: "Time by kernel function")
#   nkernel  how many of the data file's blocks, from the first, are
#            kernel functions (drawn in colour); the rest are
#            pseudo-functions (drawn in greys). Default: all of them.
#   kmax     the tallest stack of kernel functions, in percent: the top
#            of the lower panel's scale (default: gnuplot's autoscale)
#
# Data: one block per function, blocks separated by two blank lines. A
# block's first line is the function's name in double quotes; then one
# line per variant, in the same order in every block: the variant's name
# in double quotes and the function's self time in percent.
#
#	"page_counter_try_charge"
#	"root" 0
#	"6.0-rc1" 4.41
#
# Picture: 1000 x 640 pixels (PNG; SVG the same size in points).

if (!exists("data") || !exists("out")) {
	exit error "functions.gp: set data='FILE' and out='PICTURE' with gnuplot -e"
}
if (!exists("term")) term = 'png'
if (!exists("title")) title = 'Time by kernel function'

if (term eq 'svg') {
	set terminal svg size 1000,640 fixed font 'sans,12' background rgb 'white'
} else {
	if (term ne 'png') {
		exit error "functions.gp: term: expected 'png' or 'svg', found '".term."'"
	}
	if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
		set terminal pngcairo size 1000,640 font 'sans,10' background rgb 'white'
	} else {
		set terminal png size 1000,640 background rgb 'white'
	}
}
set termoption noenhanced
set output out

stats data using (1) nooutput
nblocks = STATS_blocks
stats data index 0 using 2 nooutput
nvariants = STATS_records
if (!exists("nkernel")) nkernel = nblocks

# Twenty colours for kernel functions (Tableau 20), four greys for the rest.
array colours[20] = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', \
	'#9467bd', '#8c564b', '#e377c2', '#5254a3', '#bcbd22', '#17becf', \
	'#aec7e8', '#ffbb78', '#98df8a', '#ff9896', '#c5b0d5', '#c49c94', \
	'#f7b6d2', '#dbdb8d', '#9edae5', '#393b79']
array greys[4] = ['#f0f0f0', '#d0d0d0', '#b0b0b0', '#e4e4e4']
colour(i) = i < nkernel ? colours[i % 20 + 1] : greys[(i - nkernel) % 4 + 1]

set style data histograms
set style histogram rowstacked
set style fill solid 1.0 border rgb '#404040'
set boxwidth 0.7
set xtics nomirror
set xrange [-0.6:nvariants - 0.4]
set grid ytics
# Both panels keep the same margins, so that their bars line up; the
# legend, in the right margin, lists the segments top to bottom as they
# are stacked.
set lmargin 10
set rmargin 40
set key at screen 0.99, screen 0.93 right top invert Left reverse samplen 2 \
	title 'function (self time)'

set multiplot title title
# Top: every segment, out of 100%.
if (nkernel > 0 && nkernel < nblocks) {
	set size 1, 0.56
	set origin 0, 0.40
} else {
	set size 1, 0.94
	set origin 0, 0
}
set ylabel '% of CPU time'
set yrange [0:100]
set ytics 20
plot for [i=0:nblocks-1] data index i using 2:xtic(1) \
	title columnheader(1) lc rgb colour(i)

# Bottom: the kernel functions alone, on their own scale.
if (nkernel > 0 && nkernel < nblocks) {
	set size 1, 0.42
	set origin 0, 0
	unset key
	set ylabel '% (kernel functions only)'
	if (exists("kmax") && kmax > 0) {
		set yrange [0:kmax * 1.08]
	} else {
		set yrange [0:*]
	}
	set ytics autofreq
	# (columnheader: the first line of each block is its name, not a bar)
	plot for [i=0:nkernel-1] data index i using 2:xtic(1) \
		title columnheader(1) lc rgb colour(i)
}
unset multiplot
