#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tools/extract-layouts.sh - the real Linux 6.1 layouts of the structs
# memcgsim models, from Debian 12's vmlinux with DWARF (issue 13).
#
#	tools/extract-layouts.sh [VMLINUX] [OUTDIR]
#
# VMLINUX defaults to /usr/lib/debug/boot/vmlinux-6.1.* (package
# linux-image-amd64-dbg), OUTDIR to scenarios/layouts. Needs pahole
# (package dwarves). Each struct goes to OUTDIR/STRUCT-v6.1.txt: one-line
# comments with the provenance (what sim/pahole.c skips outside
# a struct), then what `pahole -C STRUCT` prints. tests/check_pahole.c
# checks the model's hand-derived v6.1 offsets against these files.
set -eu

vmlinux=${1:-$(ls /usr/lib/debug/boot/vmlinux-6.1.* | tail -n 1)}
out=${2:-scenarios/layouts}
pkg=$(dpkg-query -S "$vmlinux" 2>/dev/null | cut -d: -f1 || echo unknown)
ver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || echo unknown)
dw=$(dpkg-query -W -f='${Version}' dwarves 2>/dev/null || echo unknown)

for s in page_counter mem_cgroup cgroup_subsys_state mem_cgroup_per_node memcg_vmstats \
	memcg_vmstats_percpu lruvec_stats lruvec_stats_percpu obj_cgroup \
	memcg_stock_pcp sock; do
	{
		printf '/* pahole -C %s %s */\n' "$s" "$vmlinux"
		printf '/* pahole %s (Debian dwarves %s) */\n' \
			"$(pahole --version)" "$dw"
		printf '/* vmlinux: Debian package %s %s */\n' "$pkg" "$ver"
		printf '/* written by tools/extract-layouts.sh */\n'
		pahole -C "$s" "$vmlinux"
	} > "$out/$s-v6.1.txt.tmp"
	mv "$out/$s-v6.1.txt.tmp" "$out/$s-v6.1.txt"
done
