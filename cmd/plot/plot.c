// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/plot/plot.c - pictures of results, drawn by gnuplot (plot.h): planning,
 * and the command's entry points; drawing is in cmd/plot/draw.c.
 *
 * Two phases. Planning reads the results and turns them into a list of
 * jobs: for each picture, the text of its data file and the gnuplot
 * variables its script needs beyond data, out and term. Any problem with
 * the input is found here, before anything is written. Drawing then
 * creates the output directory, writes each data file and runs gnuplot
 * once per picture and format:
 *
 *	results.yaml --plan--> functions   "try_charge_memcg" / "6.0-rc1" 0.73
 *	                       validation  "6.0-rc1" / -51.68 -26.76 "6.0-rc1"
 *	                       heatmap-V   "memcg(/top) line 1" 112 35 ...
 *	sweep.csv    --plan--> throughput-vs-K  "6.0-rc1" / 8 3595.4 "8"
 *
 *	each job --draw--> DIR/STEM.dat (sim_write_atomic())
 *	                   gnuplot -e "data=...; out=TMP; term=png" STEM.gp
 *	                   rename TMP DIR/STEM.png (and .svg)
 *
 * The data formats are described at the top of each script, which is the
 * one place a reader of a data file looks.
 */
#define _XOPEN_SOURCE 700 /* POSIX 2008 and realpath() */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cmd/plot/plot.h"
#include "cmd/plot/internal.h"
#include "sim/csv.h"
#include "sim/file.h"
#include "sim/scenario.h"

/* ---- text: files built in memory ---- */

int plot__text_open(struct text *t)
{
	t->buf = NULL;
	t->len = 0;
	t->f = open_memstream(&t->buf, &t->len);
	return t->f ? 0 : -ENOMEM;
}

/* Finish @t; on failure its buffer is freed. */
int plot__text_close(struct text *t)
{
	int ret = 0;

	if (ferror(t->f))
		ret = -ENOMEM;
	if (fclose(t->f))
		ret = -ENOMEM;
	t->f = NULL;
	if (ret) {
		free(t->buf);
		t->buf = NULL;
	}
	return ret;
}

void plot__text_discard(struct text *t)
{
	if (t->f)
		fclose(t->f);
	free(t->buf);
	t->f = NULL;
	t->buf = NULL;
}

int plot__texts_open(struct text *data, struct text *gp, struct sim_error *err)
{
	if (plot__text_open(data))
		goto out_nomem;
	if (plot__text_open(gp)) {
		plot__text_discard(data);
		goto out_nomem;
	}
	return 0;

out_nomem:
	sim_error_set(err, "", 0, 0, "out of memory");
	return -ENOMEM;
}

void plot__texts_discard(struct text *data, struct text *gp)
{
	plot__text_discard(data);
	plot__text_discard(gp);
}

/*
 * A string in a data file: in double quotes, which gnuplot data files
 * cannot escape, so a double quote becomes a single one; control
 * characters become spaces.
 */
void plot__put_data_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		fputc(c == '"' ? '\'' : c < ' ' ? ' ' : c, f);
	}
	fputc('"', f);
}

/*
 * A string in a gnuplot command: in single quotes, a quote doubled; a
 * control character a space in a text shown (@raw false), kept in a file
 * name (@raw: gnuplot takes every byte of a single-quoted string as it
 * is, and the command is an argument, never a shell line).
 */
static void put_gp_str(FILE *f, const char *s, bool raw)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc((unsigned char)*s < ' ' && !raw ? ' ' : *s, f);
	}
	fputc('\'', f);
}

/* "name='value'; " */
void plot__put_gp_var(FILE *f, const char *name, const char *value)
{
	fprintf(f, "%s=", name);
	put_gp_str(f, value, false);
	fputs("; ", f);
}

void plot__put_gp_path(FILE *f, const char *name, const char *path)
{
	fprintf(f, "%s=", name);
	put_gp_str(f, path, true);
	fputs("; ", f);
}

/* @s with every character but [A-Za-z0-9._+-] replaced by '_'. */
void plot__safe_name(char *dst, size_t size, const char *s)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < size; i++) {
		char c = s[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '.' || c == '_' ||
			  c == '+' || c == '-';

		dst[i] = ok ? c : '_';
	}
	dst[i] = '\0';
}

static bool stem_taken(const struct plot_plan *p, const char *stem)
{
	unsigned int i;

	for (i = 0; i < p->nr; i++)
		if (!strcmp(p->jobs[i].stem, stem))
			return true;
	return false;
}

/*
 * plan_add() - append a job; takes the responsibility for @data and @vars
 * (freed even if this fails). A stem already taken (two variants whose
 * names differ only in characters plot__safe_name() replaces) gets "-2", "-3".
 */
static int plan_add(struct plot_plan *p, enum plot_kind kind,
		    const char *prefix, const char *name, struct text *data,
		    struct text *vars)
{
	struct plot_job *jobs, *job;
	char stem[256], safe[200];
	unsigned int n = 1;

	plot__safe_name(safe, sizeof(safe), name);
	snprintf(stem, sizeof(stem), "%s%s", prefix, safe);
	while (stem_taken(p, stem))
		snprintf(stem, sizeof(stem), "%s%s-%u", prefix, safe, ++n);
	jobs = realloc(p->jobs, (p->nr + 1) * sizeof(*jobs));
	if (!jobs) {
		free(data->buf);
		free(vars->buf);
		return -ENOMEM;
	}
	p->jobs = jobs;
	job = &jobs[p->nr++];
	job->kind = kind;
	snprintf(job->stem, sizeof(job->stem), "%s", stem);
	job->data = data->buf;
	job->len = data->len;
	job->vars = vars->buf;
	data->buf = NULL;
	vars->buf = NULL;
	return 0;
}

static void plan_release(struct plot_plan *p)
{
	unsigned int i;

	for (i = 0; i < p->nr; i++) {
		free(p->jobs[i].data);
		free(p->jobs[i].vars);
	}
	free(p->jobs);
	p->jobs = NULL;
	p->nr = 0;
}

/* Close both texts and add the job, or discard both. */
int plot__plan_finish(struct plot_plan *p, enum plot_kind kind,
		      const char *prefix, const char *name, struct text *data,
		      struct text *vars, struct sim_error *err)
{
	int ret = plot__text_close(data);

	if (plot__text_close(vars))
		ret = -ENOMEM;
	if (!ret)
		ret = plan_add(p, kind, prefix, name, data, vars);
	else {
		free(data->buf);
		free(vars->buf);
	}
	if (ret)
		sim_error_set(err, "", 0, 0, "out of memory");
	return ret;
}

/* ---- the results of a run (YAML) ---- */

static size_t len_of(const struct scenario_node *n)
{
	return n ? scenario_len(n) : 0;
}

static const struct scenario_node *seq_at(const struct scenario_node *map,
					  const char *key)
{
	const struct scenario_node *n = scenario_get(map, key);

	return n && scenario_kind(n) == SCENARIO_SEQ ? n : NULL;
}

static const char *str_at(const struct scenario_node *map, const char *key)
{
	const struct scenario_node *n = scenario_get(map, key);

	return n && scenario_kind(n) == SCENARIO_SCALAR ? scenario_scalar(n) :
							  NULL;
}

/*
 * A number of the results: decimal, or .nan, .inf, -.inf as the report
 * writes non-finite values. Return 0, or -EINVAL with @err at @n.
 */
/*
 * The largest magnitude a plotted value may have. memcgsim's numbers stay
 * far below it (1e15 ops/s would be a million per picosecond); beyond
 * about 1e300 gnuplot's autoscaling overflows and it fails ("all points y
 * value undefined") after the data file is written. Refused before.
 */

static int number(const struct scenario_node *n, double *v,
		  struct sim_error *err)
{
	const char *s =
		scenario_kind(n) == SCENARIO_SCALAR ? scenario_scalar(n) : NULL;
	char *end;

	if (s && !strcmp(s, ".nan")) {
		*v = NAN;
		return 0;
	}
	if (s && (!strcmp(s, ".inf") || !strcmp(s, "-.inf"))) {
		*v = s[0] == '-' ? -INFINITY : INFINITY;
		return 0;
	}
	if (s && *s) {
		errno = 0;
		*v = strtod(s, &end);
		if (!*end && !errno && fabs(*v) <= PLOT_MAX_VALUE)
			return 0;
	}
	scenario_error(err, n, "expected a number from %g to %g, found '%s'",
		       -PLOT_MAX_VALUE, PLOT_MAX_VALUE,
		       s ? s : "a map or sequence");
	return -EINVAL;
}

/* As number(), and a count or a rate: not negative. */
static int count(const struct scenario_node *n, double *v,
		 struct sim_error *err)
{
	if (number(n, v, err))
		return -EINVAL;
	if (*v < 0) {
		scenario_error(err, n,
			       "expected a count from 0 to %g, found '%s'",
			       PLOT_MAX_VALUE, scenario_scalar(n));
		return -EINVAL;
	}
	return 0;
}

/* @key of @map as a number; absent is NAN. */
static int number_at(const struct scenario_node *map, const char *key,
		     double *v, struct sim_error *err)
{
	const struct scenario_node *n = scenario_get(map, key);

	*v = NAN;
	return n ? number(n, v, err) : 0;
}

/*
 * Is @root the YAML of `memcgsim run`? A map with scenario and variants,
 * every variant a map with a name and metrics.
 */
static int check_results(const struct scenario_node *root,
			 struct sim_error *err)
{
	const struct scenario_node *vars = seq_at(root, "variants");
	size_t i;

	if (scenario_kind(root) != SCENARIO_MAP || !str_at(root, "scenario") ||
	    !vars) {
		scenario_error(
			err, root,
			"not memcgsim results: expected what `memcgsim run -f yaml` writes (scenario:, variants:) or a sweep.csv");
		return -EINVAL;
	}
	for (i = 0; i < len_of(vars); i++) {
		const struct scenario_node *v = scenario_item(vars, i);
		const struct scenario_node *m = scenario_get(v, "metrics");

		if (!str_at(v, "name") || !m ||
		    scenario_kind(m) != SCENARIO_MAP) {
			scenario_error(
				err, v,
				"not memcgsim results: a variant without name and metrics (a scenario? run it first: memcgsim run %s -f yaml -o results.yaml)",
				scenario_file(root));
			return -EINVAL;
		}
	}
	return 0;
}

/* Index of @s in @names[@n], or -1. */
static int name_index(const char *const *names, unsigned int n, const char *s)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return (int)i;
	return -1;
}

/* One function's block: "name", then each variant's self time. */
static int put_function(FILE *f, const struct scenario_node *vars,
			const char *fn, struct sim_error *err)
{
	size_t i, j;

	plot__put_data_str(f, fn);
	fputc('\n', f);
	for (i = 0; i < len_of(vars); i++) {
		const struct scenario_node *v = scenario_item(vars, i);
		const struct scenario_node *fns = seq_at(v, "functions");
		double self = 0;

		if (!len_of(fns))
			continue;
		for (j = 0; j < len_of(fns); j++) {
			const struct scenario_node *e = scenario_item(fns, j);
			const char *name = str_at(e, "name");

			if (name && !strcmp(name, fn)) {
				if (number_at(e, "self_pct", &self, err))
					return -EINVAL;
				break;
			}
		}
		plot__put_data_str(f, str_at(v, "name"));
		fprintf(f, " %.6g\n", isfinite(self) ? self : 0.0);
	}
	return 0;
}

/* The most self time of the kernel functions (not [...]) of a variant. */
static double kernel_most(const struct scenario_node *vars)
{
	double most = 0;
	size_t i, j;

	for (i = 0; i < len_of(vars); i++) {
		const struct scenario_node *fns =
			seq_at(scenario_item(vars, i), "functions");
		struct sim_error ignored;
		double sum = 0, self;

		for (j = 0; j < len_of(fns); j++) {
			const struct scenario_node *e = scenario_item(fns, j);
			const char *name = str_at(e, "name");

			if (name && name[0] != '[' &&
			    !number_at(e, "self_pct", &self, &ignored) &&
			    self > 0)
				sum += self;
		}
		if (sum > most)
			most = sum;
	}
	return most;
}

/*
 * plan_functions() - time by kernel function: every function with self
 * time in some variant, kernel functions first (in the order the results
 * list them), then the pseudo-functions ([send work], [idle], ...).
 */
static int plan_functions(struct plot_plan *p, const struct scenario_node *root,
			  struct sim_error *err)
{
	char esc[1][512]; /* names for a comment line, escaped */
	const struct scenario_node *vars = seq_at(root, "variants");
	const char **names = NULL;
	unsigned int nr = 0, nkernel = 0, pass, k;
	struct text data, gp;
	char title[512];
	size_t i, j;
	int ret = -ENOMEM;

	for (i = 0; i < len_of(vars); i++) {
		const struct scenario_node *fns =
			seq_at(scenario_item(vars, i), "functions");

		for (j = 0; j < len_of(fns); j++) {
			const struct scenario_node *e = scenario_item(fns, j);
			const char *name = str_at(e, "name");
			const char **grown;
			double self;

			if (!name) {
				scenario_error(
					err, e,
					"expected a map with name, self_pct, children_pct, calls_per_op");
				ret = -EINVAL;
				goto out;
			}
			if (number_at(e, "self_pct", &self, err)) {
				ret = -EINVAL;
				goto out;
			}
			if (!(self > 0) || name_index(names, nr, name) >= 0)
				continue;
			grown = realloc(names, (nr + 1) * sizeof(*names));
			if (!grown)
				goto out_nomem;
			names = grown;
			names[nr++] = name;
			nkernel += name[0] != '[';
		}
	}
	if (!nr) {
		ret = 0;
		goto out;
	}
	if (plot__texts_open(&data, &gp, err)) {
		ret = -ENOMEM;
		goto out;
	}
	fprintf(data.f,
		"# memcgsim plot: time by kernel function (self %%) of %s; plots/functions.gp\n",
		sim_escape(esc[0], sizeof(esc[0]), p->name));
	/* Pass 0: kernel functions; pass 1: pseudo-functions. */
	for (pass = 0, k = 0; pass < 2; pass++) {
		for (j = 0; j < nr; j++) {
			if ((names[j][0] == '[') != (pass == 1))
				continue;
			if (k++)
				fputs("\n\n", data.f);
			if (put_function(data.f, vars, names[j], err)) {
				plot__texts_discard(&data, &gp);
				ret = -EINVAL;
				goto out;
			}
		}
	}
	snprintf(title, sizeof(title), "%s: time by kernel function", p->name);
	plot__put_gp_var(gp.f, "title", title);
	fprintf(gp.f, "nkernel=%u; kmax=%.6g; ", nkernel, kernel_most(vars));
	ret = plot__plan_finish(p, PLOT_FUNCTIONS, "functions", "", &data, &gp,
				err);
	goto out;

out_nomem:
	sim_error_set(err, "", 0, 0, "out of memory");
out:
	free(names);
	return ret;
}

/* @v in three significant digits and an SI prefix: "18.7 M", "412". */
static void si_text(char *buf, size_t size, double v)
{
	static const char *const prefix[] = { "", " k", " M", " G", " T" };
	unsigned int i = 0;

	while (fabs(v) >= 1000 && i < 4) {
		v /= 1000;
		i++;
	}
	snprintf(buf, size, "%.3g%s", v, prefix[i]);
}

/*
 * Refuse --metric @want that no variant of @vars has, naming the nearest
 * metric they have ("did you mean"). Return -EINVAL with @err set.
 */
static int no_metric(const struct scenario_node *vars, const char *want,
		     struct sim_error *err)
{
	const char *names[256];
	unsigned int n = 0, k;
	const char *near;
	size_t i, j;

	for (i = 0; i < len_of(vars); i++) {
		const struct scenario_node *m =
			scenario_get(scenario_item(vars, i), "metrics");

		for (j = 0; j < len_of(m) && n < 256; j++) {
			for (k = 0; k < n; k++)
				if (!strcmp(names[k], scenario_key(m, j)))
					break;
			if (k == n)
				names[n++] = scenario_key(m, j);
		}
	}
	near = sim_nearest(want, names, n);
	sim_error_set(err, scenario_file(vars), 0, 0,
		      "--metric: no variant has a metric '%s'%s%s%s", want,
		      near ? "; did you mean '" : "", near ? near : "",
		      near ? "'?" : "");
	return -EINVAL;
}

/*
 * plan_summary() - the headline (first) metric of every variant, or
 * metric @want when not NULL (--metric), as a bar, labelled with its
 * value and its change against its baseline: the picture every run gets.
 */
static int plan_summary(struct plot_plan *p, const struct scenario_node *root,
			const char *want, struct sim_error *err)
{
	char esc[1][512]; /* names for a comment line, escaped */
	const struct scenario_node *vars = seq_at(root, "variants");
	const char *metric = NULL, *unit = NULL;
	char title[512], label[128], num[64];
	bool errorbars = false;
	struct text data, gp;
	unsigned int rows = 0;
	size_t i;

	if (plot__texts_open(&data, &gp, err))
		return -ENOMEM;
	fprintf(data.f,
		"# memcgsim plot: the headline metric per variant of %s; plots/summary.gp\n"
		"# rank value ci95 \"variant\" \"label\"\n",
		sim_escape(esc[0], sizeof(esc[0]), p->name));
	for (i = 0; i < len_of(vars); i++) {
		const struct scenario_node *v = scenario_item(vars, i);
		const struct scenario_node *m = scenario_get(v, "metrics");
		const struct scenario_node *e;
		double val, ci, pct;

		/* The primary metric is the first (sim/report.h). */
		if (!len_of(m))
			continue;
		e = want ? scenario_get(m, want) : scenario_item(m, 0);
		if (!e)
			continue;
		if (number_at(e, "value", &val, err) ||
		    number_at(e, "ci95", &ci, err) ||
		    number_at(e, "change_pct", &pct, err)) {
			plot__texts_discard(&data, &gp);
			return -EINVAL;
		}
		if (!isfinite(val))
			continue;
		if (!metric) {
			metric = want ? want : scenario_key(m, 0);
			unit = str_at(e, "unit");
		}
		si_text(num, sizeof(num), val);
		if (isfinite(pct))
			snprintf(label, sizeof(label), "%s (%+.1f%%)", num,
				 pct);
		else
			snprintf(label, sizeof(label), "%s (baseline)", num);
		errorbars |= isfinite(ci) && ci > 0;
		fprintf(data.f, "%u %.9g %.6g ", rows++, val,
			isfinite(ci) ? ci : 0);
		plot__put_data_str(data.f, str_at(v, "name"));
		fputc(' ', data.f);
		plot__put_data_str(data.f, label);
		fputc('\n', data.f);
	}
	if (!rows) {
		plot__texts_discard(&data, &gp);
		return want ? no_metric(vars, want, err) : 0;
	}
	snprintf(title, sizeof(title), "%s: %s per variant", p->name, metric);
	plot__put_gp_var(gp.f, "title", title);
	snprintf(title, sizeof(title), "%s (%s)", metric,
		 unit && *unit ? unit : "no unit");
	plot__put_gp_var(gp.f, "ylabel", title);
	fprintf(gp.f, "errorbars=%d; ", errorbars);
	return plot__plan_finish(p, PLOT_SUMMARY, "summary", "", &data, &gp,
				 err);
}

/* Is @name the scenario's baseline or some variant's? */
static bool is_baseline(const struct scenario_node *root, const char *name)
{
	const struct scenario_node *vars = seq_at(root, "variants");
	const char *b = str_at(root, "baseline");
	size_t i;

	if (b && !strcmp(b, name))
		return true;
	for (i = 0; i < len_of(vars); i++) {
		b = str_at(scenario_item(vars, i), "baseline");
		if (b && !strcmp(b, name))
			return true;
	}
	return false;
}

/*
 * plan_validation() - predicted against published change: each variant
 * (not a baseline) whose primary metric and `published` both have a
 * change against its baseline.
 */
static int plan_validation(struct plot_plan *p,
			   const struct scenario_node *root,
			   struct sim_error *err)
{
	char esc[1][512]; /* names for a comment line, escaped */
	const struct scenario_node *vars = seq_at(root, "variants");
	const char *metric = NULL;
	struct text data, gp;
	unsigned int rows = 0;
	char title[512];
	size_t i;

	if (plot__texts_open(&data, &gp, err))
		return -ENOMEM;
	fprintf(data.f,
		"# memcgsim plot: predicted against published change of %s; plots/validation.gp\n"
		"# a block per variant: \"variant\", then published_pct predicted_pct \"variant\"\n",
		sim_escape(esc[0], sizeof(esc[0]), p->name));
	for (i = 0; i < len_of(vars); i++) {
		const struct scenario_node *v = scenario_item(vars, i);
		const struct scenario_node *m = scenario_get(v, "metrics");
		const char *name = str_at(v, "name");
		double pub, pred;

		/* The primary metric is the first (sim/report.h). */
		if (!len_of(m) || is_baseline(root, name))
			continue;
		if (number_at(scenario_get(m, "published"), "change_pct", &pub,
			      err) ||
		    number_at(scenario_item(m, 0), "change_pct", &pred, err)) {
			plot__texts_discard(&data, &gp);
			return -EINVAL;
		}
		if (!isfinite(pub) || !isfinite(pred))
			continue;
		metric = scenario_key(m, 0);
		if (rows++)
			fputs("\n\n", data.f);
		plot__put_data_str(data.f, name);
		fprintf(data.f, "\n%.6g %.6g ", pub, pred);
		plot__put_data_str(data.f, name);
		fputc('\n', data.f);
	}
	if (!rows) {
		plot__texts_discard(&data, &gp);
		return 0;
	}
	snprintf(title, sizeof(title), "%s: predicted against published change",
		 p->name);
	plot__put_gp_var(gp.f, "title", title);
	plot__put_gp_var(gp.f, "metric", metric);
	return plot__plan_finish(p, PLOT_VALIDATION, "validation", "", &data,
				 &gp, err);
}

/*
 * The CPUs that received a transfer of some hot line of some variant: 1 +
 * the highest such CPU, or 0 when there was none; and the most transfers
 * of a line to a CPU. Heat maps show these CPUs only (the same columns for
 * every variant), so that a teaching scenario on 8 CPUs of a 72-CPU
 * machine is not mostly white, and share one colour scale, up to @most.
 */
static int cpus_used(const struct scenario_node *root, unsigned int *used,
		     double *most, struct sim_error *err)
{
	const struct scenario_node *vars = seq_at(root, "variants");
	size_t i, j, c;

	*used = 0;
	*most = 0;
	for (i = 0; i < len_of(vars); i++) {
		const struct scenario_node *lines =
			seq_at(scenario_item(vars, i), "lines");

		for (j = 0; j < len_of(lines); j++) {
			const struct scenario_node *t = seq_at(
				scenario_item(lines, j), "transfers_to_cpu");

			for (c = 0; c < len_of(t); c++) {
				double x;

				if (count(scenario_item(t, c), &x, err))
					return -EINVAL;
				if (x != 0 && c + 1 > *used)
					*used = (unsigned int)(c + 1);
				if (x > *most)
					*most = x;
			}
		}
	}
	return 0;
}

/* The most CPUs a heat map tells the sockets of. */
#define HEATMAP_MAX_CPUS 4096

/*
 * The socket of each CPU 0..@n-1 into @sock, from the provenance's
 * socket_cpus of @root ("0-17,36-53; 18-35,54-71": the cpulist of socket
 * 0, of socket 1, ...; cmd/run/provenance.c). False, and no socket
 * boundaries drawn, when there is none (an older result), the variants
 * ran on machines of different topologies ("A, B"), or it leaves a CPU
 * out or does not parse.
 */
static bool socket_map(const struct scenario_node *root, unsigned char *sock,
		       unsigned int n)
{
	const char *map =
		str_at(scenario_get(root, "provenance"), "socket_cpus");
	unsigned long a, b, s = 0, c;
	const char *q;
	char *end;

	if (!map || strstr(map, ", "))
		return false;
	memset(sock, 0xff, n);
	for (q = map; *q;) {
		if (*q < '0' || *q > '9')
			return false;
		a = strtoul(q, &end, 10);
		b = a;
		if (*end == '-') {
			q = end + 1;
			if (*q < '0' || *q > '9')
				return false;
			b = strtoul(q, &end, 10);
		}
		if (b < a || s >= 0xff || b > HEATMAP_MAX_CPUS)
			return false;
		for (c = a; c <= b && c < n; c++)
			sock[c] = (unsigned char)s;
		q = end;
		if (*q == ',') {
			q++;
		} else if (*q == ';' && q[1] == ' ') {
			q += 2;
			s++;
		} else if (*q) {
			return false;
		}
	}
	for (c = 0; c < n; c++)
		if (sock[c] == 0xff)
			return false;
	return true;
}

/*
 * The gnuplot variables of the socket boundaries among the heat map's
 * first @n CPUs: bounds, the x of each change of socket ('17.5 35.5');
 * socks, the socket of each run of CPUs between them ('0 1 0').
 */
static void put_sockets(FILE *f, const struct scenario_node *root,
			unsigned int n)
{
	static unsigned char sock[HEATMAP_MAX_CPUS];
	char bounds[2048], socks[1024];
	size_t lb = 0, ls;
	unsigned int c;

	if (!n || n > HEATMAP_MAX_CPUS || !socket_map(root, sock, n))
		return;
	bounds[0] = '\0';
	ls = (size_t)snprintf(socks, sizeof(socks), "%u", sock[0]);
	for (c = 1; c < n && lb < sizeof(bounds) && ls < sizeof(socks); c++) {
		if (sock[c] == sock[c - 1])
			continue;
		lb += (size_t)snprintf(bounds + lb, sizeof(bounds) - lb,
				       "%s%u.5", lb ? " " : "", c - 1);
		ls += (size_t)snprintf(socks + ls, sizeof(socks) - ls, " %u",
				       sock[c]);
	}
	if (lb >= sizeof(bounds) || ls >= sizeof(socks))
		return; /* too many to draw */
	plot__put_gp_var(f, "bounds", bounds);
	plot__put_gp_var(f, "socks", socks);
}

/* One variant's heat map; nothing when it has no hot lines. */
static int plan_heatmap(struct plot_plan *p, const struct scenario_node *root,
			const struct scenario_node *v, unsigned int used,
			struct sim_error *err)
{
	char esc[2][512]; /* names for a comment line, escaped */
	const struct scenario_node *lines = seq_at(v, "lines");
	const char *name = str_at(v, "name");
	unsigned int cols = 0, shown;
	char title[512], xlabel[160];
	struct text data, gp;
	size_t j, c;

	for (j = 0; j < len_of(lines); j++) {
		const struct scenario_node *t =
			seq_at(scenario_item(lines, j), "transfers_to_cpu");

		if (len_of(t) > cols)
			cols = (unsigned int)len_of(t);
	}
	if (!cols)
		return 0;
	shown = used && used < cols ? used : cols;
	if (plot__texts_open(&data, &gp, err))
		return -ENOMEM;
	fprintf(data.f,
		"# memcgsim plot: transfers of each hot line to CPUs 0-%u, %s %s; plots/heatmap.gp\n",
		shown - 1, sim_escape(esc[0], sizeof(esc[0]), p->name),
		sim_escape(esc[1], sizeof(esc[1]), name));
	for (j = 0; j < len_of(lines); j++) {
		const struct scenario_node *l = scenario_item(lines, j);
		const struct scenario_node *t = seq_at(l, "transfers_to_cpu");
		const char *lname = str_at(l, "name");

		if (!t)
			continue;
		plot__put_data_str(data.f, lname ? lname : "?");
		for (c = 0; c < shown; c++) {
			double x = 0;

			if (c < len_of(t) &&
			    number(scenario_item(t, c), &x, err)) {
				plot__texts_discard(&data, &gp);
				return -EINVAL;
			}
			fprintf(data.f, " %.6g", isfinite(x) ? x : 0.0);
		}
		fputc('\n', data.f);
	}
	snprintf(title, sizeof(title),
		 "%s, %s: transfers of each hot line to each CPU", p->name,
		 name);
	if (shown < cols)
		snprintf(xlabel, sizeof(xlabel),
			 "CPU (of %u; CPUs %u-%u had no transfers, not shown)",
			 cols, shown, cols - 1);
	else
		snprintf(xlabel, sizeof(xlabel), "CPU");
	plot__put_gp_var(gp.f, "title", title);
	plot__put_gp_var(gp.f, "xlabel", xlabel);
	put_sockets(gp.f, root, shown);
	/*
	 * Each variant on its own colour scale: on one shared scale, the
	 * 2-CPU variants' 33,000 transfers a CPU left the 72-CPU variant's
	 * 40 as blank as no transfers at all (ux-review-3 finding 1).
	 */
	return plot__plan_finish(p, PLOT_HEATMAP, "heatmap-", name, &data, &gp,
				 err);
}

bool plot__wanted(const struct plot_opts *o, enum plot_kind kind)
{
	return !o->kinds || (o->kinds & (1u << kind));
}

/* plan_run() - every picture the results of a run support. */
static int plan_run(struct plot_plan *p, const struct scenario_node *root,
		    const struct plot_opts *o, struct sim_error *err)
{
	const struct scenario_node *vars;
	unsigned int used;
	bool found;
	double most;
	size_t i;
	int ret;

	ret = check_results(root, err);
	if (ret)
		return ret;
	snprintf(p->name, sizeof(p->name), "%s", str_at(root, "scenario"));
	vars = seq_at(root, "variants");
	if (plot__wanted(o, PLOT_SUMMARY)) {
		ret = plan_summary(p, root, o->metric, err);
		if (ret)
			return ret;
	}
	if (plot__wanted(o, PLOT_FUNCTIONS)) {
		ret = plan_functions(p, root, err);
		if (ret)
			return ret;
	}
	if (plot__wanted(o, PLOT_VALIDATION)) {
		ret = plan_validation(p, root, err);
		if (ret)
			return ret;
	}
	if (!plot__wanted(o, PLOT_HEATMAP))
		return 0;
	ret = cpus_used(root, &used, &most, err);
	if (ret)
		return ret;
	for (i = 0, found = false; i < len_of(vars); i++) {
		const struct scenario_node *v = scenario_item(vars, i);

		if (o->heatmap_variant &&
		    strcmp(str_at(v, "name"), o->heatmap_variant))
			continue;
		found = true;
		ret = plan_heatmap(p, root, v, used, err);
		if (ret)
			return ret;
	}
	if (!found) {
		scenario_error(err, vars, "no variant '%s' in the results",
			       o->heatmap_variant);
		return -EINVAL;
	}
	return 0;
}

/* Plan and draw the results of a run, @root. */
static int plot_tree(const struct scenario_node *root,
		     const struct plot_opts *o, struct sim_error *err)
{
	struct plot_plan p = { .nr = 0 };
	int ret;

	ret = plan_run(&p, root, o, err);
	if (!ret && !p.nr && !o->kinds) {
		scenario_error(
			err, root,
			"nothing to plot: no variant has functions, a published change or hot lines");
		ret = -EINVAL;
	}
	if (!ret)
		ret = plot__draw_plan(&p, o, err);
	plan_release(&p);
	return ret;
}

/**
 * plot_results() - draw the pictures that results on file support.
 * @path: a run's YAML, a sweep.csv, or a directory holding a sweep.csv
 * @o: what to draw and where
 * @err: filled on failure
 *
 * Return: 0, -EINVAL (bad input), -ENOENT (no gnuplot) or -EIO (a file
 * could not be written, or gnuplot failed); see plot.h.
 */
int plot_results(const char *path, const struct plot_opts *o,
		 struct sim_error *err)
{
	struct scenario_node *root;
	char csv[1200];
	struct stat st;
	size_t len = strlen(path);
	bool dir;
	int ret;

	if (stat(path, &st)) {
		sim_error_set(err, path, 0, 0, "cannot read: %s",
			      strerror(errno));
		return -EINVAL;
	}
	dir = S_ISDIR(st.st_mode);
	if (dir || (len > 4 && !strcmp(path + len - 4, ".csv"))) {
		struct plot_plan p = { .nr = 0 };

		snprintf(csv, sizeof(csv), dir ? "%s/sweep.csv" : "%s", path);
		if (dir && access(csv, R_OK)) {
			sim_error_set(
				err, path, 0, 0,
				"not a sweep directory: no sweep.csv in it");
			return -EINVAL;
		}
		plot__sweep_name(p.name, sizeof(p.name), path, dir);
		ret = plot__plan_sweep(&p, csv, o, err);
		if (!ret && !p.nr && !o->kinds) {
			sim_error_set(
				err, csv, 0, 0,
				"nothing to plot: no throughput in any row");
			ret = -EINVAL;
		}
		if (!ret)
			ret = plot__draw_plan(&p, o, err);
		plan_release(&p);
		return ret;
	}
	root = scenario_load_named(path, "results", err);
	if (!root)
		return -EINVAL;
	ret = plot_tree(root, o, err);
	scenario_free(root);
	return ret;
}

static int write_yaml(FILE *out, const struct report *r)
{
	return report_write(r, REPORT_YAML, out);
}

/**
 * plot_report() - draw the pictures that results in memory support.
 * @r: the report of a run
 * @o: what to draw and where
 * @err: filled on failure
 *
 * The report is rendered as YAML and read back, so that it is plotted
 * exactly as `memcgsim run -f yaml` output would be.
 *
 * Return: as plot_results().
 */
int plot_report(const struct report *r, const struct plot_opts *o,
		struct sim_error *err)
{
	struct scenario_node *root;
	struct text t;
	int ret;

	if (plot__text_open(&t)) {
		sim_error_set(err, "", 0, 0, "out of memory");
		return -EIO;
	}
	if (write_yaml(t.f, r) || plot__text_close(&t)) {
		plot__text_discard(&t);
		sim_error_set(err, "", 0, 0, "cannot render the results");
		return -EIO;
	}
	root = scenario_parse_buffer("results", t.buf, t.len, err);
	free(t.buf);
	if (!root)
		return -EIO;
	ret = plot_tree(root, o, err);
	scenario_free(root);
	return ret;
}
