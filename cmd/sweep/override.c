// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd/sweep/override.c - the values a sweep's rows really ran with.
 *
 * A point applies its --vary values to the scenario as written, and then
 * each variant applies its own set:, which wins (cmd/run/run.c). A variant
 * whose set: names a varied key therefore runs every point with its own
 * value, whatever the point says: charge-batch-2022's +C runs at
 * kernel.charge_batch 64 in every point of a sweep of the batch. sweep.csv
 * must not say otherwise, so its key columns hold, row by row, the value
 * the row ran with: the variant's where it sets the key, the point's
 * elsewhere.
 *
 * Only a scalar set to exactly the varied path can be recorded that way. A
 * variant that sets a map containing a varied key, a key inside a varied
 * map, or a varied key to a map is refused before the sweep runs
 * (sweep_check()), since no one column value would be true.
 */
#define _POSIX_C_SOURCE 200809L /* strdup, sigset_t */

#include <stdlib.h>
#include <string.h>

#include "cmd/sweep/internal.h"
#include "sim/scenario.h"

/* Does one of the dotted paths @a and @b name a node inside the other? */
static bool paths_nest(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = la < lb ? la : lb;

	return la != lb && !strncmp(a, b, n) && (la < lb ? b : a)[n] == '.';
}

static int add(struct sweep__overrides *ov, const char *variant,
	       unsigned int key, const char *value)
{
	struct sweep__override *o;

	o = realloc(ov->o, (ov->nr + 1) * sizeof(*o));
	if (!o)
		return -1;
	ov->o = o;
	o[ov->nr].variant = strdup(variant);
	o[ov->nr].key = key;
	o[ov->nr].value = strdup(value);
	if (!o[ov->nr].variant || !o[ov->nr].value) {
		free(o[ov->nr].variant);
		free(o[ov->nr].value);
		return -1;
	}
	ov->nr++;
	return 0;
}

/* Variant @vn's set: against the varied keys of @s. */
static int variant_overrides(const struct sweep *s,
			     const struct scenario_node *vn,
			     struct sweep__overrides *ov, struct sim_error *err)
{
	const struct scenario_node *name = scenario_get(vn, "name");
	const struct scenario_node *set = scenario_get(vn, "set");
	const char *variant = name ? scenario_scalar(name) : NULL;
	unsigned int k;
	size_t i;

	if (!variant || !set || scenario_kind(set) != SCENARIO_MAP)
		return 0; /* the run refuses these, with their location */
	if (s->variant && strcmp(s->variant, variant))
		return 0; /* sweep --variant: the others do not run */
	for (i = 0; i < scenario_len(set); i++) {
		const char *key = scenario_key(set, i);
		const struct scenario_node *val = scenario_item(set, i);

		for (k = 0; k < s->nr_keys; k++) {
			const char *varied = s->keys[k].key;

			if (paths_nest(key, varied) ||
			    (!strcmp(key, varied) && !scenario_scalar(val))) {
				scenario_error(
					err, val,
					"variant '%s' sets '%s', which the sweep varies (--vary %s), and sweep.csv could not say what its rows ran with; set a single key with a plain value, or vary another key",
					variant, key, varied);
				return -1;
			}
			if (!strcmp(key, varied) &&
			    add(ov, variant, k, scenario_scalar(val))) {
				sim_error_set(err, "", 0, 0, "out of memory");
				return -1;
			}
		}
	}
	return 0;
}

int sweep__overrides_load(const struct sweep *s, struct sweep__overrides *ov,
			  struct sim_error *err)
{
	const struct scenario_node *variants;
	struct scenario_node *root;
	struct sim_error ignored;
	size_t i;
	int ret = 0;

	memset(ov, 0, sizeof(*ov));
	root = scenario_load_file(s->scenario, err);
	if (!root)
		return -1;
	/* the variants the points run: --set may replace them */
	for (i = 0; i < s->nr_sets; i++)
		scenario_set_arg(root, s->sets[i], &ignored);
	variants = scenario_get(root, "variants");
	if (variants && scenario_kind(variants) == SCENARIO_SEQ)
		for (i = 0; i < scenario_len(variants) && !ret; i++)
			ret = variant_overrides(s, scenario_item(variants, i),
						ov, err);
	scenario_free(root);
	if (ret)
		sweep__overrides_free(ov);
	return ret;
}

const char *sweep__override(const struct sweep__overrides *ov,
			    const char *variant, unsigned int key)
{
	unsigned int i;

	for (i = 0; variant && i < ov->nr; i++)
		if (ov->o[i].key == key && !strcmp(ov->o[i].variant, variant))
			return ov->o[i].value;
	return NULL;
}

void sweep__overrides_free(struct sweep__overrides *ov)
{
	unsigned int i;

	for (i = 0; i < ov->nr; i++) {
		free(ov->o[i].variant);
		free(ov->o[i].value);
	}
	free(ov->o);
	memset(ov, 0, sizeof(*ov));
}
