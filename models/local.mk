# SPDX-License-Identifier: GPL-2.0-only
# models/: what is simulated.
libsim_a_SOURCES += \
	%reldir%/machine.c %reldir%/machine.h
