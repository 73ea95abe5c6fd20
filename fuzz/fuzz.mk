# SPDX-License-Identifier: GPL-2.0-only
#
# fuzz/fuzz.mk - the fuzz targets, built with clang's libFuzzer and run.
# GNU make; Makefile.am's `make fuzz`, `make fuzz-smoke` and `make
# fuzz-build` call it from the build directory, passing the variables
# marked (from Makefile.am) below.
#
# Why libFuzzer (clang -fsanitize=fuzzer, Debian's clang-14 and
# libclang-rt-14-dev) and not AFL++: the harness is one C function per
# target with no fork server or instrumenting wrapper, the same function
# builds with gcc into the replay programs `make check` runs, inputs run
# in-process under ASan + UBSan + LeakSanitizer, and a time-bounded run
# (-max_total_time) for CI is one flag.
#
# Nothing here touches the normal build: the library is compiled again
# with $(FUZZ_CC), objects under fuzz/obj/, whatever CC configure chose.

# from Makefile.am
srcdir ?= .
abs_top_srcdir ?= $(abspath $(srcdir))
LIBSIM_SOURCES ?=
DEP_CFLAGS ?=
DEP_LIBS ?=

FUZZ_CC ?= clang
FUZZ_CFLAGS ?= -g -O1 -fno-omit-frame-pointer
FUZZ_SANITIZE ?= address,undefined
FUZZ_TARGETS = scenario pahole results merge measurements simulate
FUZZ_TARGET ?= $(FUZZ_TARGETS)
# empty: run until stopped (make fuzz); a number: that many seconds each
FUZZ_SECONDS ?=
# more flags for libFuzzer, e.g. FUZZ_FLAGS=-jobs=2
FUZZ_FLAGS ?=

O = fuzz/obj
LIB_SRCS = $(filter %.c,$(LIBSIM_SOURCES))
LIB_OBJS = $(LIB_SRCS:%.c=$(O)/%.o)
CPPFLAGS_ALL = -DHAVE_CONFIG_H -I. -I$(srcdir) \
	-DMEMCGSIM_DATADIR='"$(abs_top_srcdir)/scenarios"' \
	-DMEMCGSIM_SRCDIR='"$(abs_top_srcdir)"' \
	-DFUZZ_SRCDIR='"$(abs_top_srcdir)"'
SAN = -fsanitize=$(FUZZ_SANITIZE) -fno-sanitize-recover=all
CFLAGS_ALL = -std=c11 $(FUZZ_CFLAGS) $(SAN) $(DEP_CFLAGS)
# the sandbox's wrappers (fuzz/fuzz.h)
WRAP = -Wl,--wrap=open,--wrap=open64,--wrap=fopen,--wrap=fopen64
BINS = $(FUZZ_TARGET:%=fuzz/fuzz_%)

# each target's dictionary of tokens
DICT_scenario = $(srcdir)/fuzz/scenario.dict
DICT_simulate = $(srcdir)/fuzz/scenario.dict
DICT_results = $(srcdir)/fuzz/results.dict
DICT_merge = $(srcdir)/fuzz/results.dict
DICT_measurements = $(srcdir)/fuzz/measurements.dict

# each target's limit on one input, s (a hang is a finding): 10, but a
# measurement file is fitted too, some simulations of its hold window a
# point (cmd/calibrate/fit.c: up to 2 x 2048 a pass), seconds under ASan
TIMEOUT_measurements = 30

# libFuzzer's flags for every run
RUN_FLAGS = -rss_limit_mb=2048 -max_len=65536 \
	-detect_leaks=1 -print_final_stats=1 $(FUZZ_FLAGS)
SMOKE_SECONDS = $(or $(FUZZ_SECONDS),60)

all fuzz-build: $(BINS)

$(O)/%.o: $(srcdir)/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -fsanitize=fuzzer-no-link \
		-MMD -MP -c $< -o $@

$(O)/libsim.a: $(LIB_OBJS)
	rm -f $@
	ar cr $@ $(LIB_OBJS)

fuzz/fuzz_%: $(srcdir)/fuzz/fuzz_%.c $(srcdir)/fuzz/fuzz.h \
		$(O)/fuzz/sandbox.o $(O)/libsim.a
	$(FUZZ_CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) -fsanitize=fuzzer \
		-MMD -MP -MF $@.d $< $(O)/fuzz/sandbox.o $(O)/libsim.a $(DEP_LIBS) $(WRAP) -o $@

define HOWTO
Fuzzing $(FUZZ_TARGET) with libFuzzer.
  Each target T works in fuzz/run/T/: corpus/ (inputs found, grows),
  artifacts/ (findings: crash-*, leak-*, timeout-*, oom-*), log.txt.
  Reproduce a finding:   fuzz/fuzz_T fuzz/run/T/artifacts/crash-XXXX
  Shrink it:             fuzz/fuzz_T -minimize_crash=1 -runs=10000 FILE
  Keep it fixed: copy the input to $(srcdir)/fuzz/regress/T/ (make check
  replays every file there with fuzz/replay-T).
endef
export HOWTO

# Target $(1)'s command, for $(2) seconds (empty: unbounded): its run
# corpus first (new inputs go there), the committed seeds second (read
# only), and the inputs that once failed.
run_target = mkdir -p fuzz/run/$(1)/corpus fuzz/run/$(1)/artifacts && \
	fuzz/fuzz_$(1) $(RUN_FLAGS) -timeout=$(or $(TIMEOUT_$(1)),10) \
		$(if $(2),-max_total_time=$(2)) \
		$(if $(DICT_$(1)),-dict=$(DICT_$(1))) \
		-artifact_prefix=fuzz/run/$(1)/artifacts/ \
		fuzz/run/$(1)/corpus $(srcdir)/fuzz/corpus/$(1) \
		$(if $(wildcard $(srcdir)/fuzz/regress/$(1)),$(srcdir)/fuzz/regress/$(1))

# make fuzz: every target at once (one process each), until stopped or
# FUZZ_SECONDS; the status is the worst one. The loops are make's
# ($(foreach)), not the shell's: run_target's per-target variables
# (TIMEOUT_T, DICT_T, the regress directory) are looked up by name, so
# the name must be make's when it expands them.
fuzz: $(BINS)
	@echo "$$HOWTO"
	@pids=; \
	$(foreach t,$(FUZZ_TARGET),\
		echo "fuzz_$(t): log in fuzz/run/$(t)/log.txt"; \
		mkdir -p fuzz/run/$(t); \
		( $(call run_target,$(t),$(FUZZ_SECONDS)) ) \
			>fuzz/run/$(t)/log.txt 2>&1 & \
		pids="$$pids $$!";) \
	trap 'kill -INT $$pids 2>/dev/null' INT TERM; \
	status=0; for p in $$pids; do wait $$p || status=1; done; \
	$(MAKE) -s -f $(srcdir)/fuzz/fuzz.mk fuzz-report; exit $$status

# make fuzz-smoke: each target for FUZZ_SECONDS (60), one after the other;
# fails on any finding, with its report.
fuzz-smoke: $(BINS)
	@echo "$$HOWTO"
	@status=0; \
	$(foreach t,$(FUZZ_TARGET),\
		echo "=== fuzz_$(t): $(SMOKE_SECONDS) s"; \
		mkdir -p fuzz/run/$(t); \
		if ( $(call run_target,$(t),$(SMOKE_SECONDS)) ) \
			>fuzz/run/$(t)/log.txt 2>&1; then \
			grep -E '^(stat::|#[0-9]+ +DONE)' fuzz/run/$(t)/log.txt || :; \
		else \
			status=1; tail -n 80 fuzz/run/$(t)/log.txt; \
		fi;) \
	$(MAKE) -s -f $(srcdir)/fuzz/fuzz.mk fuzz-report; exit $$status

fuzz-report:
	@for t in $(FUZZ_TARGETS); do \
		test -d fuzz/run/$$t/artifacts || continue; \
		n=$$(ls fuzz/run/$$t/artifacts | wc -l); \
		echo "fuzz_$$t: $$(ls fuzz/run/$$t/corpus | wc -l) inputs in the corpus, $$n findings in fuzz/run/$$t/artifacts/"; \
		ls fuzz/run/$$t/artifacts | sed "s|^|  fuzz/fuzz_$$t fuzz/run/$$t/artifacts/|"; \
	done

.PHONY: all fuzz fuzz-build fuzz-smoke fuzz-report

-include $(LIB_OBJS:.o=.d) $(O)/fuzz/sandbox.d $(BINS:=.d)

# keep the objects make would see as intermediate
.SECONDARY:
