# SPDX-License-Identifier: GPL-2.0-only
# cli/: the program's main (memcgsim.c: the command table) with its
# option tables and parser (options.c) and its help texts (help.c). The commands themselves live
# in cmd/, one folder each (cmd/local.mk). May include every layer below
# it; nothing below includes cli/.
memcgsim_SOURCES = %reldir%/memcgsim.c %reldir%/options.c %reldir%/options.h \
	%reldir%/check.c %reldir%/check.h %reldir%/help.c %reldir%/help.h \
	%reldir%/default.c %reldir%/default.h \
	%reldir%/host_run.c %reldir%/host_run.h
