# SPDX-License-Identifier: GPL-2.0-only
# models/hw/: the machine: profiles (topology, latencies) and the coherence
# model. Includes only sim/.
libsim_a_SOURCES += \
	%reldir%/machine.c %reldir%/machine.h \
	%reldir%/cache.c %reldir%/cache.h \
	%reldir%/coh_law.c %reldir%/coh_law.h \
	%reldir%/coh_priv.h %reldir%/coh_trace.c %reldir%/coh_place.c \
	%reldir%/coh_serve.c %reldir%/coh_serve.h %reldir%/coh_announce.c \
	%reldir%/coh_create.c %reldir%/coh_stats.c \
	%reldir%/coh_share.c
