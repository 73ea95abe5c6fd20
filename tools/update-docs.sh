#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tools/update-docs.sh - the sample outputs in the documents and man
# pages, made by the program itself, and the documents' tables of
# contents.
#
#	tools/update-docs.sh MEMCGSIM SRCDIR [--update]
#
# Each sample is a command's output, trimmed where the docs show a part
# ("..." marks a cut), between marker lines:
#
#	*.md:         <!-- sample NAME -->  a fenced block  <!-- sample end -->
#	doc/*.[15]:   .\" sample NAME       .EX ... .EE     .\" sample end
#
# The Markdown files are README.md, HACKING.md, doc/*.md and
# doc/model/*.md; the man pages doc/memcgsim*.1 and doc/memcgsim*.5. A
# file without sample markers is left alone. In a Markdown file, the
# lines between "<!-- toc -->" and "<!-- toc end -->" become the list of
# its "##" and "###" headings, linked as GitHub makes their anchors.
#
# Without --update, compare every sample with what MEMCGSIM prints now and
# exit 1 on a difference, with the diff (tests/run-docs.sh, in make
# check); with --update (make update-docs), rewrite the blocks that
# changed. The samples and their commands are the functions sample_NAME
# below; the text around a sample names the command, so change both
# together. A sample's command runs in a scratch directory; nothing is
# written in SRCDIR but the two files, and only with --update.
set -eu

memcgsim=${1:?usage: $0 MEMCGSIM SRCDIR [--update]}
srcdir=${2:?usage: $0 MEMCGSIM SRCDIR [--update]}
update=${3:-}
case $memcgsim in
/*) ;;
*) memcgsim=$(pwd)/$memcgsim ;;
esac
srcdir=$(cd "$srcdir" && pwd)
sc=$srcdir/scenarios

tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-docs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
mkdir "$tmp/run"

# m ARGS...: memcgsim in the scratch directory, without progress lines.
m()
{
	(cd "$tmp/run" && "$memcgsim" "$@")
}

# The default experiment's table (README, The default run; user guide,
# Quick tour): the first rows,
# the charge stock's, and the first two hot lines of 6.0-rc1.
sample_default()
{
	m --no-plots -q | awk '
		!d { print; if (/^published /) { d = 1; print "..." }; next }
		/^stock_hit_rate / && !s { s = 1; print; next }
		s == 1 && /^page_counter_charges_per_op / {
			print; getline; print; print "..."; s = 2; next
		}
		/^hot lines: 6\.0-rc1$/ { h = 1 }
		h == 1 && /^  memcg/ && ++n > 2 { h = 2 }
		h == 1 && /./ { print }
		h == 1 && !/./ { h = 2 }'
}

# explain's time by kernel function (user guide, Quick tour): its heading,
# column names and first eight functions.
sample_explain()
{
	m explain "$sc/validation/charge-batch-2022.yaml" --variant 6.0-rc1 -q |
		awk '/^Time by kernel function/ { n = 1 }
			n && n <= 10 { print; n++; next }
			n == 11 { print "..."; n++ }'
}

# explain on a teaching scenario (user guide, Running scenarios): the packed
# line's first lines and the first four of its verdict.
sample_false_sharing()
{
	m explain "$sc/teaching/false-sharing.yaml" --variant packed -q |
		awk '/^1\. packed line 0:/ { n = 1 }
			n == 1 || n == 2 { print; n++; if (n == 3) print "  ..."; next }
			n >= 3 && /^  Why:/ { w = 1 }
			w && w <= 4 { print; w++ }'
}

# check (user guide, Running scenarios): the table of the default
# experiment's costs, its first row and its total, the scenario named as
# from the top of the tree.
sample_check()
{
	m check "$sc/validation/charge-batch-2022.yaml" |
		sed "s|^$sc/|scenarios/|" |
		awk 'NR <= 3 { print; next } NR == 4 { print "  ..." }
			/^  all / { print }'
}

# run -f csv (user guide, Running scenarios): the provenance lines
# ("# KEY: VALUE"), the header and two rows.
sample_run_csv()
{
	m run "$sc/teaching/atomic-counter.yaml" -f csv -o results.csv -q
	head -n 13 "$tmp/run/results.csv"
}

# A sweep's sweep.csv (user guide, Sweeps): its provenance lines, its
# first columns up to published, the first three rows and point 1's first.
sample_sweep_csv()
{
	m sweep "$sc/validation/charge-batch-2022.yaml" \
		--vary kernel.charge_batch=16,32,64,128 \
		--vary workloads.0.instances=8,16,36 --set duration_ms=1 \
		-j 2 -q -o sw >/dev/null 2>&1
	awk -F, '
		/^#/ { print; next }
		++r == 1 { for (p = 1; p < NF && $p != "published"; p++); }
		r <= 4 || (r > 4 && $1 == "1" && !one) {
			if (r > 4) { print "..."; one = 1 }
			line = $1
			for (i = 2; i <= p; i++)
				line = line "," $i
			print line ",..."
		}' "$tmp/run/sw/sweep.csv"
}

# compare (user guide, Comparing results; memcgsim-compare(1)): fix A
# applied to every variant of the default experiment, at 1%: the base
# variant's first rows and its charges_per_op, then the summary.
sample_compare()
{
	cb=$sc/validation/charge-batch-2022.yaml
	m run "$cb" -f yaml -o old.yaml -q
	m run "$cb" -f yaml -o new.yaml -q \
		--set kernel.protected_usage_update=if_changed
	st=0
	m compare old.yaml new.yaml --tolerance 1 >"$tmp/compare" || st=$?
	test "$st" -le 1 || return "$st"
	awk 'NR <= 7 { print; next }
		NR == 8 { print "..." }
		/^  charges_per_op / && !c { c = 1; print; print "..." }
		/^compare:/ { print }' "$tmp/compare"
}

# teach SCENARIO: a teaching run's variant names and throughput rows
# (doc/teaching.md): each block's header line and its throughput line.
teach()
{
	m run "$sc/teaching/$1.yaml" -q | awk '
		/^hot lines/ { exit }
		/^                    / { head = $0; next }
		/^throughput / { if (n++) print ""; print head; print }'
}

sample_teach_atomic()
{
	teach atomic-counter
}

sample_teach_false_sharing()
{
	teach false-sharing
}

sample_teach_batching()
{
	teach batching
}

sample_teach_adjacent_line()
{
	teach adjacent-line
}

sample_teach_reader_chain()
{
	teach reader-chain
}

# the throughput, then explain's walks a message by caller and ACKs a
# message, a variant a line
sample_teach_tcp_window()
{
	teach tcp-window
	echo
	m explain "$sc/teaching/tcp-window.yaml" -q | awk '
		/^== variant / { v = $3; sub(/:$/, "", v) }
		/^  __tcp_select_window\(\)/ { sw = $3 }
		/^  tcp_check_space\(\)/ { cs = $3 }
		/^netserver.s ACKs per message:/ {
			printf "%-18s a message: walks in __tcp_select_window() %s, tcp_check_space() %s; ACKs %s\n", v, sw, cs, $5
		}'
}

samples='default explain false_sharing check run_csv sweep_csv compare
	teach_atomic teach_false_sharing teach_batching teach_adjacent_line
	teach_reader_chain teach_tcp_window'

for name in $samples; do
	# MEMCGSIM_DOCS_CACHE=DIR: keep each sample's text in DIR and use it
	# when it is there (tests/run-docs.sh checks its bad cases this way)
	cache=${MEMCGSIM_DOCS_CACHE:+$MEMCGSIM_DOCS_CACHE/$name.txt}
	if test -n "$cache" && test -s "$cache"; then
		cp "$cache" "$tmp/$name.txt"
	elif ! "sample_$name" >"$tmp/$name.txt"; then
		echo "update-docs: the command of sample $name failed" >&2
		exit 2
	fi
	if ! test -s "$tmp/$name.txt"; then
		echo "update-docs: sample $name is empty" >&2
		exit 2
	fi
	test -z "$cache" || cp "$tmp/$name.txt" "$cache"
	# the same text as roff: backslashes, minus signs, a leading dot
	sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\\([.']\\)/\\\\\\&\\1/" \
		"$tmp/$name.txt" >"$tmp/$name.man"
done

# splice FILE BEGIN END OPEN CLOSE EXT: every block between a line
# "BEGIN NAME" and a line "END" replaced by OPEN, sample NAME (as
# $tmp/NAME.EXT) and CLOSE. An unknown NAME or a missing END is an error.
splice()
{
	BEGIN=$2 END=$3 OPEN=$4 CLOSE=$5 EXT=$6 DIR=$tmp awk '
	BEGIN { b = ENVIRON["BEGIN"] " "; e = ENVIRON["END"] }
	$0 == e {
		if (!skip) {
			print FILENAME ":" FNR ": \"" e "\" without a sample" > "/dev/stderr"
			bad = 1
		}
		skip = 0
		print
		next
	}
	index($0, b) == 1 && skip {
		print FILENAME ":" at ": no \"" e "\" after it" > "/dev/stderr"
		bad = 1
		skip = 0
	}
	index($0, b) == 1 {
		name = substr($0, length(b) + 1)
		sub(/ -->$/, "", name)
		file = ENVIRON["DIR"] "/" name "." ENVIRON["EXT"]
		print
		if ((getline line < file) <= 0) {
			print FILENAME ":" FNR ": no sample named " name > "/dev/stderr"
			bad = 1
		} else {
			print ENVIRON["OPEN"]
			do print line; while ((getline line < file) > 0)
			close(file)
			print ENVIRON["CLOSE"]
		}
		skip = 1; at = FNR; n++
		next
	}
	!skip { print }
	END {
		if (skip) {
			print FILENAME ":" at ": no \"" e "\" after it" > "/dev/stderr"
			bad = 1
		}
		if (!n) {
			print FILENAME ": no samples" > "/dev/stderr"
			bad = 1
		}
		exit bad
	}' "$1"
}

# toc FILE: FILE with the lines between "<!-- toc -->" and "<!-- toc
# end -->" replaced by a list of its "##" and "###" headings (outside
# fenced blocks), each linked to its GitHub anchor: lower case, spaces
# to hyphens, punctuation but hyphens and underscores dropped, a repeated
# anchor numbered -1, -2, ...
toc()
{
	awk '
	function anchor(t,   a) {
		a = tolower(t)
		gsub(/[^a-z0-9 _-]/, "", a)
		gsub(/ /, "-", a)
		if (a in seen)
			a = a "-" (++seen[a])
		else
			seen[a] = 0
		return a
	}
	/^```/ { fence = !fence }
	!fence && /^##+ / {
		level = index($0, " ") - 1
		if (level <= 3) {
			t = substr($0, level + 2)
			n++; lv[n] = level; title[n] = t; id[n] = anchor(t)
		}
	}
	{ line[++nl] = $0 }
	END {
		for (i = 1; i <= nl; i++) {
			if (line[i] == "<!-- toc end -->")
				skip = 0
			if (skip)
				continue
			print line[i]
			if (line[i] == "<!-- toc -->") {
				for (j = 1; j <= n; j++) {
					t = title[j]
					gsub(/`/, "", t)
					printf "%s- [%s](#%s)\n",
						(lv[j] == 3 ? "  " : ""), t, id[j]
				}
				skip = 1
			}
		}
	}' "$1"
}

status=0
cd "$srcdir"
for f in README.md HACKING.md doc/*.md doc/model/*.md \
	doc/memcgsim*.1 doc/memcgsim*.5; do
	test -f "$f" || continue
	new=$tmp/new/$f
	mkdir -p "$(dirname "$new")"
	case $f in
	*.md)
		cp "$f" "$new"
		if grep -q '^<!-- sample ' "$f"; then
			splice "$f" '<!-- sample' '<!-- sample end -->' \
				'```' '```' txt >"$new" || exit 2
		fi
		if grep -q '^<!-- toc -->$' "$new"; then
			toc "$new" >"$new.toc" && mv "$new.toc" "$new"
		fi ;;
	*)
		grep -q '^\.\\" sample ' "$f" || continue
		splice "$f" '.\" sample' '.\" sample end' \
			'.EX' '.EE' man >"$new" || exit 2 ;;
	esac
	if cmp -s "$f" "$new"; then
		continue
	fi
	if test "$update" = --update; then
		cat "$new" >"$f"
		echo "update-docs: updated the samples or contents of $f"
	else
		echo "FAIL: the sample outputs or the contents in $f are not what memcgsim prints now;"
		echo "run 'make update-docs' and review the diff:"
		diff -u "$f" "$new" || :
		status=1
	fi
done
test "$status" = 0 && test "$update" != --update &&
	echo "PASS: the sample outputs and contents of the documents are what memcgsim prints"
exit $status
