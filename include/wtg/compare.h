/* compare.h: what compare can pair (struct wtg_compare_pair is the engine's, wtg/ctx.h) and the choices it offers
 * (src/experiments/compare.c; the registry's side in src/experiments/experiments.c). */
#ifndef WTG_COMPARE_H
#define WTG_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "wtg/ctx.h"

struct wtg_experiment;
struct wtg_options;

/* The experiment called name if compare can pair it, else NULL. */
const struct wtg_experiment *wtg_compare_target(const char *name);
/* The experiments compare can pair, in registry order, joined by sep. */
void wtg_compare_choices(char *buf, size_t len, const char *sep);
/* The experiment compare pairs when none is chosen. */
const char *wtg_compare_default(void);
/* Whether compare can toggle the condition called name; the conditions it can, joined by sep
 * (src/experiments/compare.c). */
bool wtg_compare_condition(const char *name);
void wtg_compare_conditions(char *buf, size_t len, const char *sep);
/* The pair --compare chose (o NULL or without one: wtg_compare_default() with burn). */
void wtg_compare_pair_of(const struct wtg_options *o, struct wtg_compare_pair *p);
/* The pair after p: p's experiment with the next condition, after the last condition the next
 * experiment compare can pair with the first (the dashboard's v). */
void wtg_compare_next(struct wtg_compare_pair *p);

#endif
