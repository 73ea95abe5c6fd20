# SPDX-License-Identifier: GPL-2.0-only
# sim/: the event core and its infrastructure (engine, coroutines,
# statistics, errors, trace, the YAML scenario tree and its key tables
# (scenario_keys: a map's keys declared once, read by one loop), the
# results table, and one owner per file format: csv (RFC 4180 reader and
# writer), pahole (`pahole -C` struct layouts), yaml_emit (the libyaml emitter), file (whole-or-nothing output,
# whole-file input)).
# Includes nothing from models/ or cli/.
libsim_a_SOURCES += \
	%reldir%/error.c %reldir%/error.h %reldir%/util.h \
	%reldir%/calendar.c %reldir%/calendar.h \
	%reldir%/engine.c %reldir%/engine.h %reldir%/engine_types.h %reldir%/co.h \
	%reldir%/stats.c %reldir%/stats.h \
	%reldir%/scenario.c %reldir%/scenario_get.c %reldir%/scenario.h \
	%reldir%/scenario_file.c \
	%reldir%/scenario_internal.h \
	%reldir%/scenario_keys.c %reldir%/scenario_keys.h \
	%reldir%/csv.c %reldir%/csv.h \
	%reldir%/sha256.c %reldir%/sha256.h \
	%reldir%/pahole.c %reldir%/pahole.h \
	%reldir%/file.c %reldir%/file.h \
	%reldir%/report.c %reldir%/report.h %reldir%/report_csv.c \
	%reldir%/report_yaml.c \
	%reldir%/report_internal.h \
	%reldir%/yaml_emit.c %reldir%/yaml_emit.h \
	%reldir%/trace.c %reldir%/trace.h
