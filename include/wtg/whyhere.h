/* whyhere.h: why this machine's figures are far from the essay's: the reasons' shape and the
 * sentence of the first that holds (src/experiments/whyhere.c). */
#ifndef WTG_WHYHERE_H
#define WTG_WHYHERE_H

#include <stdbool.h>
#include <stddef.h>

struct wtg_experiment;
struct wtg_machine;
struct wtg_table;

/* What a reason for "why here" reads: the run, the machine it was measured on, and how far the run's
 * figure is from the essay's. */
struct wtg_why_in {
	const struct wtg_table *t;
	const struct wtg_machine *m;	/* the run's machine (a saved run's own); never NULL */
	double here;			/* the run's figure set beside the essay's (NAN: none) */
	double essay;			/* the essay's (NAN: none) */
	double factor;			/* here / essay, NAN when either is unknown */
	bool apart;			/* factor beyond WTG_WHY_APART either way */
};
#define WTG_WHY_APART 3.0
/* What a reason fills into its sentence: {0} .. {3} numbers, {a} {b} words (escaped when filled). */
struct wtg_why_vals {
	double n[4];
	char s[2][48];
};
/* A likely reason this machine's figures are far from the essay's (more than 3x, or pointing the other
 * way): a predicate over the run and its machine, and the sentence it fills with the measured numbers. */
struct wtg_why {
	bool (*holds)(const struct wtg_why_in *in, struct wtg_why_vals *v);
	const char *say;	/* "{0}x the essay's: page-table isolation on a {a} virtual machine"; NULL ends */
};
/* The likely reason this machine's run t of e (measured on m, NULL: unknown) differs from the essay:
 * the sentence of the first of e's reasons that holds, with its numbers, in buf. Returns its length,
 * 0 when none holds (the figures agree, or wtg cannot say why). */
int wtg_why_here(const struct wtg_experiment *e, const struct wtg_table *t, const struct wtg_machine *m, char *buf,
		 size_t len);

#endif
