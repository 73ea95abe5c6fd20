# SPDX-License-Identifier: GPL-2.0-only
# One Check suite per module: tests/check_<module>.c
TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
TEST_LDADD = $(LDADD) $(CHECK_LIBS)

check_PROGRAMS += tests/check_scenario
tests_check_scenario_SOURCES = tests/check_scenario.c
tests_check_scenario_CFLAGS = $(TEST_CFLAGS)
tests_check_scenario_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_machine
tests_check_machine_SOURCES = tests/check_machine.c
tests_check_machine_CFLAGS = $(TEST_CFLAGS)
tests_check_machine_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_report
tests_check_report_SOURCES = tests/check_report.c
tests_check_report_CFLAGS = $(TEST_CFLAGS)
tests_check_report_LDADD = $(TEST_LDADD)


check_PROGRAMS += tests/check_engine
tests_check_engine_SOURCES = tests/check_engine.c
tests_check_engine_CFLAGS = $(TEST_CFLAGS)
tests_check_engine_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/check_cache
tests_check_cache_SOURCES = tests/check_cache.c
tests_check_cache_CFLAGS = $(TEST_CFLAGS)
tests_check_cache_LDADD = $(TEST_LDADD)

TESTS += $(check_PROGRAMS)
AM_TESTS_ENVIRONMENT = top_srcdir='$(top_srcdir)'; export top_srcdir;
