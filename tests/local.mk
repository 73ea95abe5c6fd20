# SPDX-License-Identifier: GPL-2.0-only
# One Check suite per module: tests/check_<module>.c
TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
TEST_LDADD = $(LDADD) $(CHECK_LIBS)
