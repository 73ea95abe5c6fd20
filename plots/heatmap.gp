# SPDX-License-Identifier: GPL-2.0-only
#
# plots/heatmap.gp - where the hot cache lines went, for teaching: a line
# by CPU heat map of one variant, one row per hot line (the hottest at the
# top), one column per CPU, the colour of a cell the number of times the
# line was transferred to that CPU (fetched from another CPU's cache or
# from memory after another CPU wrote it). A line that stays in one
# CPU's cache is white; a line every CPU keeps fetching from the others
# (false sharing, a shared atomic counter) is a dark band across its
# CPUs.
#
# `memcgsim plot RESULTS` writes the data file and runs this script; to
# draw it again by hand:
#
#	gnuplot -e "data='heatmap-packed.dat'; out='heatmap-packed.png'" \
#		plots/heatmap.gp
#
# Variables (set with gnuplot -e before the script):
#   data     the data file (required)
#   out      the picture to write (required)
#   term     'png' (default) or 'svg'
#   title    the title (default: "Transfers of each hot line to each CPU")
#   xlabel   the label of the CPU axis (default: "CPU")
#   cbmax    the top of the colour scale (default: the largest count in
#            the data file: each variant on its own scale, so that 40
#            transfers a CPU among 72 CPUs do not look as blank as none
#            beside 33,000 between 2; memcgsim passes none)
#   bounds   where the socket changes between two CPU columns, as x
#            values between them ('17.5 35.5 53.5'): a dashed line each
#            (default: none; memcgsim passes them when the results say
#            which CPUs each socket has, provenance socket_cpus)
#   socks    the socket of each run of columns between the bounds
#            ('0 1 0 1'), labelled "socket N" along the top
#
# Data: one line per hot line, hottest first: its name in double quotes,
# then the transfers to CPU 0, 1, 2, ... (the same count of CPUs on every
# line).
#
#	"memcg(/top) line 1" 112 35 47 38 ...
#
# Picture: 960 x 480 pixels (PNG; SVG the same size in points).

if (!exists("data") || !exists("out")) {
	exit error "heatmap.gp: set data='FILE' and out='PICTURE' with gnuplot -e"
}
if (!exists("term")) term = 'png'
if (!exists("title")) title = 'Transfers of each hot line to each CPU'
if (!exists("xlabel")) xlabel = 'CPU'

if (term eq 'svg') {
	set terminal svg size 960,480 fixed font 'sans,12' background rgb 'white'
} else {
	if (term ne 'png') {
		exit error "heatmap.gp: term: expected 'png' or 'svg', found '".term."'"
	}
	if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
		set terminal pngcairo size 960,480 font 'sans,10' background rgb 'white'
	} else {
		set terminal png size 960,480 background rgb 'white'
	}
}
set termoption noenhanced
set output out

# The colour scale runs from 0 to cbmax or the largest count (at least 1,
# so that a variant without transfers still gets a scale).
stats data matrix rowheaders using 3 nooutput
top = exists("cbmax") ? cbmax : STATS_max
top = top > 0 ? top : 1
nrows = int(STATS_size_y)
ncpus = int(STATS_size_x)

set title title
set xlabel xlabel
set ylabel 'hot line'
set cblabel "transfers to the CPU (this variant's own scale)"
set xrange [-0.5:ncpus - 0.5]
set yrange [nrows - 0.5:-0.5]	# the hottest line at the top
set cbrange [0:top]
set xtics out nomirror
set ytics out nomirror
set mxtics 2
set palette defined (0 '#ffffff', 1 '#fff3b0', 2 '#fdae61', 3 '#d7301f', \
	4 '#67000d')
set tics front
unset key
# Socket boundaries: a dashed blue line (seen on white and on dark red)
# where the socket changes, and each run
# of CPUs named along the top (Linux numbers a socket's SMT siblings
# after every socket's first threads, so socket 0 comes back).
if (exists("bounds") && exists("socks") && words(socks) == words(bounds) + 1) {
	set x2range [-0.5:ncpus - 0.5]
	set x2tics () out nomirror scale 0
	do for [i = 1:words(socks)] {
		lo = i == 1 ? -0.5 : real(word(bounds, i - 1))
		hi = i == words(socks) ? ncpus - 0.5 : real(word(bounds, i))
		set x2tics add ("socket ".word(socks, i) (lo + hi) / 2)
	}
	do for [i = 1:words(bounds)] {
		set arrow i from first real(word(bounds, i)), graph 0 \
			to first real(word(bounds, i)), graph 1 \
			nohead front lc rgb '#1f4fd0' lw 2 dt 2
	}
}
# An all-white map says why: nothing moved between CPUs.
if (STATS_max <= 0) {
	set label 1 'no transfers: every line stayed in the cache of the CPU using it' \
		at graph 0.5, graph 0.5 center front
}

# A box per cell rather than `with image`, which draws nothing for a
# single hot line (an image needs two rows).
set style fill solid 1.0 noborder
plot data matrix rowheaders using 1:2:(0.5):(0.5):3 with boxxy fc palette
