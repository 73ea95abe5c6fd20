#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run-validation.sh - the validation scenarios run, and their
# predictions against the published results are the ones doc/validation.md
# records (tools/validation-table.sh; `make validate` re-records them
# after a deliberate model change). The exact predictions are also in
# tests/golden/validation/ (run-golden.sh).
#
# Environment: MEMCGSIM and top_srcdir, set by `make check`.
set -eu
: "${MEMCGSIM:?set MEMCGSIM to the memcgsim program (make check does)}"
: "${top_srcdir:?set top_srcdir to the source tree (make check does)}"
exec "$top_srcdir/tools/validation-table.sh" "$MEMCGSIM" "$top_srcdir"
