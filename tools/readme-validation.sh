#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tools/readme-validation.sh - the README's validation table.
#
#	tools/readme-validation.sh MEMCGSIM README [--update]
#
# Runs `MEMCGSIM validate --markdown` on the shipped validation scenarios
# and compares its output with the part of README between the lines
# "<!-- validation:begin -->" and "<!-- validation:end -->" (exit 1 on a
# difference, with the diff); with --update, rewrites that part instead
# (`make validate`). Misses are part of the table: validate's exit status
# 1 (a prediction outside its tolerance) is not an error here, 2 is.
set -eu

memcgsim=${1:?usage: $0 MEMCGSIM README [--update]}
readme=${2:?usage: $0 MEMCGSIM README [--update]}
update=${3-}
dir=$(dirname "$readme")/scenarios/validation

tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgsim-validation.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

status=0
"$memcgsim" validate --markdown -q "$dir" > "$tmp/table" || status=$?
if [ "$status" -gt 1 ]; then
	echo "readme-validation: memcgsim validate failed (status $status)" >&2
	exit 2
fi

# README = head, begin marker, table, end marker, tail
awk -v part=head '
	/^<!-- validation:begin -->$/ { print; exit }
	{ print }' "$readme" > "$tmp/head"
awk '
	/^<!-- validation:end -->$/ { on = 1 }
	on { print }' "$readme" > "$tmp/tail"
if ! grep -q '^<!-- validation:begin -->$' "$tmp/head" ||
   ! [ -s "$tmp/tail" ]; then
	echo "readme-validation: $readme has no validation:begin/end markers" >&2
	exit 2
fi
cat "$tmp/head" "$tmp/table" "$tmp/tail" > "$tmp/readme"

if [ "$update" = --update ]; then
	if cmp -s "$tmp/readme" "$readme"; then
		echo "readme-validation: $readme is up to date"
	else
		cat "$tmp/readme" > "$readme"
		echo "readme-validation: updated the table in $readme"
	fi
	exit 0
fi
if ! cmp -s "$tmp/readme" "$readme"; then
	echo "FAIL: the validation table in README.md is not what the model predicts;"
	echo "      after a deliberate model change run 'make validate' and commit it:"
	diff -u "$readme" "$tmp/readme" || true
	exit 1
fi
echo "PASS: README.md's validation table matches the predictions"
