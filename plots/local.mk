# SPDX-License-Identifier: GPL-2.0-only
# plots/: the gnuplot scripts `memcgsim plot` runs (cmd/plot/plot.h), one per
# kind of picture, installed in $(pkgdatadir)/plots. memcgsim run from its
# build tree finds them in the source tree (cli/memcgsim.c, plots_dir()).
plotsdir = $(pkgdatadir)/plots
dist_plots_DATA = \
	%reldir%/functions.gp \
	%reldir%/heatmap.gp \
	%reldir%/summary.gp \
	%reldir%/throughput.gp \
	%reldir%/validation.gp

# make plots: the default experiment's pictures (time by kernel function,
# predicted against published change, a heat map per variant) and the
# teaching scenarios' heat maps, each in $(builddir)/plots/NAME/ beside
# the run's YAML (plots/NAME.yaml).
PLOTS_SCENARIOS = scenarios/validation/charge-batch-2022.yaml \
	$(dist_teaching_DATA)
plots: memcgsim$(EXEEXT)
	$(AM_V_GEN)set -e; $(MKDIR_P) plots; \
	for f in $(PLOTS_SCENARIOS); do \
		n=`basename "$$f" .yaml`; \
		./memcgsim$(EXEEXT) run "$(srcdir)/$$f" --quiet -f yaml \
			-o "plots/$$n.yaml"; \
		./memcgsim$(EXEEXT) plot "plots/$$n.yaml" --out "plots/$$n"; \
	done

# What `make plots` and a default run in the build directory (`./memcgsim`
# writes memcgsim-plots/) leave behind; never the scripts, which are in
# plots/ too when building in the source tree.
clean-local: clean-plots
clean-plots:
	-rm -rf memcgsim-plots
	-for f in $(PLOTS_SCENARIOS); do \
		n=`basename "$$f" .yaml`; \
		rm -rf "plots/$$n" "plots/$$n.yaml"; \
	done

.PHONY: plots clean-plots
