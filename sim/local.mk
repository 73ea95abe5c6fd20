# SPDX-License-Identifier: GPL-2.0-only
# sim/: the model-agnostic core. Includes nothing from models/.
libsim_a_SOURCES += \
	%reldir%/error.c %reldir%/error.h \
	%reldir%/engine.c %reldir%/engine.h %reldir%/co.h \
	%reldir%/stats.c %reldir%/stats.h \
	%reldir%/scenario.c %reldir%/scenario.h \
	%reldir%/report.c %reldir%/report.h \
	%reldir%/compare.c %reldir%/compare.h \
	%reldir%/trace.c %reldir%/trace.h
