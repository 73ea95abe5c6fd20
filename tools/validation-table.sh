#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tools/validation-table.sh - doc/validation.md's validation table.
#
#	tools/validation-table.sh MEMCGSIM SRCDIR [--update]
#
# Runs `MEMCGSIM validate --markdown` on the shipped validation scenarios
# (SRCDIR/scenarios/validation) and compares its output with the part of
# SRCDIR/doc/validation.md between the lines
# "<!-- validation:begin -->" and "<!-- validation:end -->" (exit 1 on a
# difference, with the diff); with --update, rewrites that part instead
# (`make validate`). Misses are part of the table: validate's exit status
# 1 (a prediction outside its tolerance) is not an error here, 2 is.
set -eu

memcgsim=${1:?usage: $0 MEMCGSIM SRCDIR [--update]}
srcdir=${2:?usage: $0 MEMCGSIM SRCDIR [--update]}
update=${3-}
dir=$srcdir/scenarios/validation
doc=$srcdir/doc/validation.md

tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-validation.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

status=0
"$memcgsim" validate --markdown -q "$dir" > "$tmp/table" || status=$?
if [ "$status" -gt 1 ]; then
	echo "validation-table: memcgsim validate failed (status $status)" >&2
	exit 2
fi

# the file = head, begin marker, table, end marker, tail
awk -v part=head '
	/^<!-- validation:begin -->$/ { print; exit }
	{ print }' "$doc" > "$tmp/head"
awk '
	/^<!-- validation:end -->$/ { on = 1 }
	on { print }' "$doc" > "$tmp/tail"
if ! grep -q '^<!-- validation:begin -->$' "$tmp/head" ||
   ! [ -s "$tmp/tail" ]; then
	echo "validation-table: $doc has no validation:begin/end markers" >&2
	exit 2
fi
cat "$tmp/head" "$tmp/table" "$tmp/tail" > "$tmp/doc"

if [ "$update" = --update ]; then
	if cmp -s "$tmp/doc" "$doc"; then
		echo "validation-table: $doc is up to date"
	else
		cat "$tmp/doc" > "$doc"
		echo "validation-table: updated the table in $doc"
	fi
	exit 0
fi
if ! cmp -s "$tmp/doc" "$doc"; then
	echo "FAIL: the validation table in doc/validation.md is not what the model predicts;"
	echo "      after a deliberate model change run 'make validate' and commit it:"
	diff -u "$doc" "$tmp/doc" || true
	exit 1
fi
echo "PASS: doc/validation.md's validation table matches the predictions"
