# SPDX-License-Identifier: GPL-2.0-only
# models/workloads/: what the simulated CPUs run: the workload interface and
# registry, and one file per workload. Includes only models/kernel/,
# models/hw/ and sim/.
libsim_a_SOURCES += \
	%reldir%/workload.h \
	%reldir%/registry.c \
	%reldir%/teaching.c %reldir%/reader_chain.c \
	%reldir%/netperf.c %reldir%/netperf_internal.h \
	%reldir%/netperf_sctp.c %reldir%/netperf_report.c \
	%reldir%/page_fault.c \
	%reldir%/fallocate.c \
	%reldir%/tlb_flush.c \
	%reldir%/hackbench.c \
	%reldir%/stat_reader.c \
	%reldir%/kmalloc.c
