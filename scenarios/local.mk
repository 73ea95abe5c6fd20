# SPDX-License-Identifier: GPL-2.0-only
# scenarios/: shipped machine profiles and experiments, installed under
# $(pkgdatadir) with their subdirectory (scenarios/machines/x.yaml becomes
# $(pkgdatadir)/machines/x.yaml), which is where cmd/run/run.c looks for a
# bare `machine: NAME` and cli/memcgsim.c for `memcgsim list`.
#
# One variable pair per subdirectory. A new subdirectory (validation/, ...)
# gets its own:
#	validationdir = $(pkgdatadir)/validation
#	dist_validation_DATA = %reldir%/validation/foo.yaml

machinesdir = $(pkgdatadir)/machines
dist_machines_DATA = \
	%reldir%/machines/desktop-4c8t.yaml \
	%reldir%/machines/epyc-2s-256.yaml \
	%reldir%/machines/skx-2s-44.yaml \
	%reldir%/machines/skx-2s-72.yaml \
	%reldir%/machines/xeon-8176-8s.yaml \
	%reldir%/machines/xeon-w2145.yaml

calibrationdir = $(pkgdatadir)/calibration
dist_calibration_DATA = \
	%reldir%/calibration/contended-add-skl.yaml \
	%reldir%/calibration/contended-cas-w2145.yaml \
	%reldir%/calibration/perfbook-8176.yaml

teachingdir = $(pkgdatadir)/teaching
dist_teaching_DATA = \
	%reldir%/teaching/adjacent-line.yaml \
	%reldir%/teaching/atomic-counter.yaml \
	%reldir%/teaching/batching.yaml \
	%reldir%/teaching/false-sharing.yaml \
	%reldir%/teaching/reader-chain.yaml \
	%reldir%/teaching/tcp-window.yaml

validationdir = $(pkgdatadir)/validation
dist_validation_DATA = \
	%reldir%/validation/af-unix-kmem-2016.yaml \
	%reldir%/validation/charge-batch-2022.yaml

experimentsdir = $(pkgdatadir)/experiments
dist_experiments_DATA = \
	%reldir%/experiments/hackbench-objects.yaml \
	%reldir%/experiments/kmalloc-obj-stock.yaml \
	%reldir%/experiments/lru-lock-stats.yaml \
	%reldir%/experiments/multi-memcg-stock.yaml \
	%reldir%/experiments/netperf-sctp.yaml \
	%reldir%/experiments/netperf-smt.yaml \
	%reldir%/experiments/netperf-wakeup.yaml \
	%reldir%/experiments/page-counter-layouts.yaml \
	%reldir%/experiments/page-fault-batch.yaml \
	%reldir%/experiments/sk-forward-alloc-2022.yaml \
	%reldir%/experiments/stat-flush-contention.yaml \
	%reldir%/experiments/stat-read-1000.yaml \
	%reldir%/experiments/stats-threshold-netperf.yaml \
	%reldir%/experiments/stats-threshold-page-fault.yaml \
	%reldir%/experiments/will-it-scale-fallocate.yaml \
	%reldir%/experiments/will-it-scale-page-fault.yaml \
	%reldir%/experiments/will-it-scale-tlb-flush.yaml

# `pahole -C STRUCT` text of Debian 12's Linux 6.1 vmlinux
# (tools/extract-layouts.sh): scenarios read page_counter's layout from it,
# tests/check_memcontrol.c checks the model's v6.1 offsets against all
layoutsdir = $(pkgdatadir)/layouts
dist_layouts_DATA = \
	%reldir%/layouts/page_counter-v6.1.txt \
	%reldir%/layouts/mem_cgroup-v6.1.txt \
	%reldir%/layouts/cgroup_subsys_state-v6.1.txt \
	%reldir%/layouts/mem_cgroup_per_node-v6.1.txt \
	%reldir%/layouts/memcg_vmstats-v6.1.txt \
	%reldir%/layouts/memcg_vmstats_percpu-v6.1.txt \
	%reldir%/layouts/lruvec_stats-v6.1.txt \
	%reldir%/layouts/lruvec_stats_percpu-v6.1.txt \
	%reldir%/layouts/obj_cgroup-v6.1.txt \
	%reldir%/layouts/memcg_stock_pcp-v6.1.txt \
	%reldir%/layouts/sock-v6.1.txt
