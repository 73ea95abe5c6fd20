#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tools/checksrc.sh - cheap source checks, in the spirit of curl's checksrc
# (HACKING.md G13). Run from anywhere: `make checksrc` or
#
#	tools/checksrc.sh [--cppcheck] [SRCDIR]
#
#  1. Banned functions, outside comments and string literals:
#     - everywhere in sim/, models/, cmd/ and cli/: sprintf, vsprintf, strcpy,
#       strcat, strtok, gets (unbounded or not reentrant: use snprintf,
#       memcpy after a length check, strtok_r);
#     - everywhere but the files that measure the host (WALLCLOCK below):
#       rand, srand, random, srandom, drand48 (randomness comes from a
#       gsl_rng stream seeded by the scenario) and time, gettimeofday,
#       clock_gettime, clock (simulated time never reads the wall clock;
#       doc/design.md section 2).
#  2. The layering (HACKING.md, "Where things are"): a folder includes only
#     itself and the layers below it,
#	sim/ <- models/hw/ <- models/kernel/ <- models/workloads/ <- cmd/ <- cli/
#  3. No source file (sim/, models/, cmd/, cli/, tests/) is over 1,500
#     lines, and one over 1,000 is named in a warning: a file holds one
#     concept; when it grows past that, split it where the concepts part
#     and name each new file after its concept (never "the rest").
#     No function in sim/, models/, cmd/ or cli/ is over 150 lines, from
#     the first line of its signature to its closing brace, but the ones
#     in LONG_FUNCTIONS below: split a long function where its steps part
#     (a kernel model keeps the kernel function's shape).
#  4. Every scenarios/*/*.yaml is listed in scenarios/local.mk, so that
#     `make install` and `make distcheck` ship it.
#  5. Every document cited in the tree ships: in the sources, tests,
#     tools, scenarios, scripts and build files, a citation of a file
#     under doc/ or of HACKING.md names a file that exists, and none cites the design,
#     style or calibration notes by the names they had outside the tree
#     (cite doc/design.md, HACKING.md and doc/calibration.md).
#  6. With --cppcheck: cppcheck --enable=warning on sim/, models/ and
#     cli/, with the reviewed false positives in
#     tools/cppcheck-suppressions.txt.
#
# Exit status: 0 clean, 1 a check failed, 2 usage or a missing tool.
set -eu

cppcheck=no
if [ "${1-}" = --cppcheck ]; then
	cppcheck=yes
	shift
fi
srcdir=${1:-$(dirname "$0")/..}
cd "$srcdir"
status=0

# Print FILE's text with comments and string/char literals blanked and
# line numbers kept, so `time()` in a comment is no offence.
strip_c() {
	perl -0777 -pe '
		s{ (/\*.*?\*/) | (//[^\n]*) | ("(?:\\.|[^"\\\n])*") | (\x27(?:\\.|[^\x27\\\n])*\x27) }
		 { my $m = $&; $m =~ s/[^\n]/ /g; $m }gsex;
	' "$1"
}

# banned FILE REGEX WHY
banned() {
	hits=$(strip_c "$1" | grep -nE "(^|[^A-Za-z0-9_.>])($2)[[:space:]]*\(" || true)
	if [ -n "$hits" ]; then
		printf '%s\n' "$hits" | while IFS= read -r hit; do
			line=${hit%%:*}
			fn=$(printf '%s\n' "$hit" | grep -oE "(^|[^A-Za-z0-9_.>])($2)[[:space:]]*\(" |
			     head -n1 | tr -dc 'A-Za-z0-9_')
			printf '%s:%s: error: banned function %s(): %s\n' \
				"$1" "$line" "$fn" "$3" >&2
		done
		return 1
	fi
	return 0
}

# The files allowed to read the wall clock: the progress line, and
# calibrate, which measures the host (its benchmarks time themselves, its
# progress line estimates the time left, and a profile is dated); the
# model side (calibrate_sim.c, _fit.c) and the files (_io.c) are not
# among them. And plot_draw.c, whose deadline bounds how long gnuplot
# may take (host time, not simulated).
# cmd/host-run/bench.c times the host's runs (CLOCK_MONOTONIC windows) and
# their CPU time (CLOCK_THREAD_CPUTIME_ID): it measures the host.
WALLCLOCK="cli/memcgsim.c cmd/calibrate/calibrate.c cmd/calibrate/bench.c cmd/plot/draw.c cmd/host-run/bench.c"

# Every C source and header of the program, in a stable order.
sources() {
	find sim models cmd cli -name '*.[ch]' | LC_ALL=C sort
}

for f in $(sources); do
	banned "$f" 'sprintf|vsprintf|strcpy|strcat|strtok|gets' \
		'unbounded or not reentrant; use snprintf, memcpy after a length check, strtok_r' ||
		status=1
	case " $WALLCLOCK " in
	*" $f "*) continue ;;
	esac
	banned "$f" 'rand|srand|random|srandom|drand48' \
		'randomness comes from a gsl_rng stream seeded by the scenario' ||
		status=1
	banned "$f" 'time|gettimeofday|clock_gettime|clock' \
		'simulated code never reads the wall clock' ||
		status=1
done

# Layering: what each folder may include, from the tree.
may_include() {
	case $1 in
	sim/*) echo 'sim/' ;;
	models/hw/*) echo 'sim/ models/hw/' ;;
	models/kernel/*) echo 'sim/ models/hw/ models/kernel/' ;;
	models/workloads/*) echo 'sim/ models/hw/ models/kernel/ models/workloads/' ;;
	cmd/*) echo 'sim/ models/ cmd/' ;;
	*) echo '' ;;
	esac
}
for f in $(sources); do
	case $f in cli/*) continue ;; esac
	allowed=$(may_include "$f")
	grep -n '^#include "' "$f" | while IFS= read -r hit; do
		inc=$(printf '%s\n' "$hit" | sed 's/.*#include "\([^"]*\)".*/\1/')
		ok=no
		for a in $allowed; do
			case $inc in "$a"*) ok=yes ;; esac
		done
		case $inc in config.h) ok=yes ;; esac
		if [ $ok = no ]; then
			printf '%s:%s: error: includes "%s": %s may include only %s\n' \
				"$f" "${hit%%:*}" "$inc" "${f%/*}/" "$allowed" >&2
			echo x
		fi
	done | grep -q x && status=1
done

# Files small enough to hold one concept each: over 1,500 lines fails,
# over 1,000 is a warning (the file is growing a second concept).
for f in $(sources) tests/*.c; do
	[ -f "$f" ] || continue
	n=$(wc -l <"$f")
	if [ "$n" -gt 1500 ]; then
		printf '%s:1: error: %s lines; a source file holds at most 1500: split it by concept\n' \
			"$f" "$n" >&2
		status=1
	elif [ "$n" -gt 1000 ]; then
		printf '%s:1: warning: %s lines; over 1000, is it still one concept?\n' \
			"$f" "$n" >&2
	fi
done

# Functions short enough to read as their steps. The exceptions: the
# coherence model's hot path, kept whole (its comments carry it, and a
# call per step costs on every access), and a model of a kernel function
# that is longer in the kernel (the model keeps its shape).
LONG_FUNCTIONS="models/hw/cache.c:access_issue
models/kernel/mm/memcontrol.c:try_charge_memcg"
# FILE:LINE NAME LINES for each function of the files named (kernel
# style: a function's braces are alone at column 0).
function_lengths() {
	awk '
	FNR == 1 { sig = 0; in_fn = 0 }
	!in_fn && /^[A-Za-z_]/ && !/;[ \t]*$/ && !sig { sig = FNR; text = "" }
	!in_fn && sig { text = text $0 " " }
	!in_fn && /^[{]$/ && sig {
		in_fn = 1
		name = text
		gsub(/__attribute__\(\([^)]*\)\)/, "", name)
		sub(/\(.*/, "", name)
		sub(/.*[ *]/, "", name)
		next
	}
	!in_fn && (/;[ \t]*$/ || /^$/ || /^#/) { sig = 0 }
	in_fn && /^[}]/ {
		print FILENAME ":" sig " " name " " FNR - sig + 1
		in_fn = 0
		sig = 0
	}' "$@"
}
long=$(function_lengths $(sources) | while read -r at name n; do
	[ "$n" -gt 150 ] || continue
	case " $(echo $LONG_FUNCTIONS) " in *" ${at%%:*}:$name "*) continue ;; esac
	printf '%s: error: %s() is %s lines; at most 150: split it at its seams\n' \
		"$at" "$name" "$n"
done)
if [ -n "$long" ]; then
	printf '%s\n' "$long" >&2
	status=1
fi

# Every shipped scenario is installed and distributed.
for f in scenarios/*/*.yaml; do
	[ -f "$f" ] || continue
	rel=${f#scenarios/}
	if ! grep -q "%reldir%/$rel\\b" scenarios/local.mk; then
		printf '%s: error: not listed in scenarios/local.mk (not installed or distributed)\n' \
			"$f" >&2
		status=1
	fi
done

# Citations of documents: every file with comments a reader follows
# (test data, golden outputs and fuzz inputs are data, not prose).
cited_files() {
	find sim models cmd cli tests tools bench scenarios fuzz contrib plots \
		.ci \( -path tests/golden -o -path tests/data -o \
		-path fuzz/corpus -o -path fuzz/regress \) -prune -o -type f \
		-print 2>/dev/null | LC_ALL=C sort
	for f in Makefile.am configure.ac .clang-format; do
		[ -f "$f" ] && echo "$f"
	done
}
# the old names, spelt so that this file does not cite them itself
old_docs='(DESIGN|STYLE|CALIBRATION)[.]md'
cited=$(cited_files)
hits=$(grep -nE "$old_docs" $cited 2>/dev/null || :)
if [ -n "$hits" ]; then
	printf '%s\n' "$hits" | while IFS= read -r hit; do
		name=$(printf '%s\n' "$hit" | grep -oE "$old_docs" | head -n1)
		printf '%s: error: cites %s, which does not ship: cite doc/design.md, HACKING.md (the style rules) or doc/calibration.md\n' \
			"$(printf '%s\n' "$hit" | cut -d: -f1-2)" "$name" >&2
	done
	status=1
fi
# A file under doc/, or HACKING.md, named in full: not a path's tail (as
# in $dir/doc/x), not a glob (doc/*.md names no one file) and not a
# pattern (doc/memcgsim-$cmd.1, doc/memcgsim-NAME.1).
hits=$(grep -noE '(^|[^A-Za-z0-9_/.$-])(doc/[A-Za-z0-9_./*$-]*[A-Za-z0-9_*]|HACKING[.]md)' \
	$cited 2>/dev/null || :)
bad=$(printf '%s\n' "$hits" | while IFS=: read -r file line doc; do
	[ -n "$file" ] || continue
	doc=$(printf '%s\n' "$doc" | sed 's/^[^Hd]*//')
	case $doc in *'*'* | *'$'*) continue ;; esac
	case $(printf '%s\n' "$doc" | sed 's/README//g') in
	*[A-Z][A-Z]*) continue ;;
	esac
	[ -e "$doc" ] && continue
	printf '%s:%s: error: cites %s, which is not in the tree\n' \
		"$file" "$line" "$doc"
done)
if [ -n "$bad" ]; then
	printf '%s\n' "$bad" >&2
	status=1
fi

if [ "$cppcheck" = yes ]; then
	if ! command -v cppcheck >/dev/null 2>&1; then
		echo "checksrc: cppcheck not found" >&2
		exit 2
	fi
	# one file a process, on every CPU: the same findings (no
	# whole-program check is enabled), a third less of CI's time
	cppcheck -j "$(nproc 2>/dev/null || echo 1)" \
		--enable=warning --error-exitcode=1 --quiet \
		--std=c11 --inline-suppr \
		--suppressions-list=tools/cppcheck-suppressions.txt \
		-I . sim models cmd cli || status=1
fi

if [ "$status" = 0 ]; then
	echo "checksrc: OK"
fi
exit "$status"
