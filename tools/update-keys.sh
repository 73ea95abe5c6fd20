#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tools/update-keys.sh - regenerate the key lists and command synopses
# of the man pages, and the user guide's key table, from the key,
# command and option tables.
#
#	tools/update-keys.sh MEMCGSIM SRCDIR
#
# In every man page (SRCDIR/doc/memcgsim*.1 and memcgsim*.5), each list
# between a line `.\" BEGIN KEYS SECTION` and `.\" END KEYS SECTION`
# becomes what `MEMCGSIM help keys SECTION --format man` prints (the
# kernel: list, between `.\" BEGIN KEYS` and `.\" END KEYS`, what `help
# keys --format man` prints); a command page's SYNOPSIS and OPTIONS,
# between `.\" BEGIN HELP NAME` and `.\" END HELP NAME`, what `help NAME
# --format man` prints, and memcgsim(1)'s list of commands, between
# `.\" BEGIN HELP` and `.\" END HELP`, what `help --format man` prints.
# Each of doc/user-guide.md's tables between `<!-- BEGIN KEYS [SECTION]
# -->` and `<!-- END KEYS [SECTION] -->` becomes what `help keys [SECTION]
# --format markdown` prints.
# tests/run-keys.sh checks the same. A file is replaced only when it
# changes.
set -eu

memcgsim=${1:?usage: $0 MEMCGSIM SRCDIR}
srcdir=${2:?usage: $0 MEMCGSIM SRCDIR}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-update-keys.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# splice FILE BEGIN END FORMAT HELP: each list of FILE between a line
# BEGIN [NAME] [-->] and a line starting with END replaced by what
# `memcgsim HELP [NAME] --format FORMAT` prints (HELP: "help keys" or
# "help"; the markers go through the environment: awk -v would eat the
# backslash of .\")
splice()
{
	BEGIN_MARK=$2 END_MARK=$3 awk -v prog="$memcgsim" -v fmt="$4" \
		-v help="$5" '
	function quote(s) { gsub(/\047/, "\047\\\047\047", s); return "\047" s "\047" }
	BEGIN { begin = ENVIRON["BEGIN_MARK"]; endm = ENVIRON["END_MARK"] }
	skip && index($0, endm) == 1 { skip = 0 }
	skip { next }
	{ print }
	index($0, begin) == 1 {
		sec = substr($0, length(begin) + 1)
		sub(/^ +/, "", sec); sub(/ *-->$/, "", sec)
		cmd = quote(prog) " " help " " (sec == "" ? "" : quote(sec)) \
			" --format " fmt
		while ((cmd | getline line) > 0)
			print line
		if (close(cmd)) {
			print "update-keys: " cmd " failed" > "/dev/stderr"
			exit 2
		}
		skip = 1
	}' "$1" >"$tmp/new"
	if ! cmp -s "$1" "$tmp/new"; then
		cat "$tmp/new" >"$1"
		echo "update-keys: $1 updated"
	fi
}

for page in "$srcdir"/doc/memcgsim*.1 "$srcdir"/doc/memcgsim*.5; do
	splice "$page" '.\" BEGIN KEYS' '.\" END KEYS' man 'help keys'
	splice "$page" '.\" BEGIN HELP' '.\" END HELP' man help
done
splice "$srcdir/doc/user-guide.md" '<!-- BEGIN KEYS' '<!-- END KEYS' markdown \
	'help keys'
