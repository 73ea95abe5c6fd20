/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd/fit/fit.h - memcgsim fit: the project's calibration rule as a
 * command (doc/design.md section 9: a scenario may calibrate one key, usually
 * a workload's work_ns, against a measured value, and nothing else).
 *
 *	memcgsim fit SCENARIO --key KEY --to VARIANT=VALUE
 *		[--metric M] [--range LO,HI] [-r N] [--steps N]
 *		[--set KEY=VALUE]... [--seed N] [--write FILE] [-q]
 *
 * Theory of operation: the value of KEY (applied as --set KEY=X to the
 * whole scenario) for which VARIANT's metric M (default throughput)
 * equals VALUE is found by bisection, each point run with N replications
 * (default 3). The metric must move one way over [LO, HI] (default: a
 * tenth to ten times KEY's value in the file); the ends are run first and
 * must bracket VALUE. Each step halves the bracket, keeping the half
 * whose ends lie on either side of VALUE, until it is narrower than 0.1%
 * of its middle or --steps (default 16) are done. The answer is the
 * linear interpolation between the bracket's ends. Its interval: the
 * values of KEY whose metric lies within the 95% confidence interval of
 * the metric there, through the slope across the first bracket
 * (x +- ci95 / |slope|), widened by half the last bracket.
 *
 * --write FILE writes a copy of the scenario with KEY's value replaced
 * in place (comments and layout kept); KEY must be written in the file,
 * and FILE must not be the scenario itself.
 *
 * Two observables (--key2 KEY2 --to2 VARIANT=VALUE --metric2 M
 * [--range2 LO,HI], issue 30 item 6): KEY2 is bisected on M as above,
 * each of its points first fitting KEY by its own bisection (nested),
 * then KEY once more at KEY2's answer, so that the pair printed (and
 * written) is one point that matches both. Fitting each in turn, the
 * other held, drifts out of range when each key moves both metrics (as
 * work_ns and lru_folio_ns move throughput and lru_lock_share); the
 * nested search cannot, given ranges where both metrics move one way.
 *
 * Exit status: 0 when fitted, 1 when VALUE is outside what [LO, HI]
 * gives, 2 on bad input.
 *
 * Layering: cmd/; runs scenarios through cmd/run/run.h.
 */
#ifndef CMD_FIT_H
#define CMD_FIT_H

/* memcgsim fit ARGS (argv[0] is "fit"); @datadir: the shipped data. */
int cmd_fit(int argc, char **argv, const char *datadir);

#endif /* CMD_FIT_H */
