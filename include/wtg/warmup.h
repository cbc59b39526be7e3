/* warmup.h: the warm-up's stopping rule, fixed before anything is measured. A warm-up runs in fixed
 * windows (each experiment states their length: a number of passes or samples) and ends when the
 * medians of five consecutive windows lie within 1% of each other (largest / smallest - 1 <= 1%),
 * or when a stated maximum of windows has run. Every window's median is kept for the report. */
#ifndef WTG_WARMUP_H
#define WTG_WARMUP_H

#include <stdbool.h>
#include <stddef.h>

#define WTG_WARMUP_STABLE 5		/* consecutive windows the rule looks at */
#define WTG_WARMUP_TOLERANCE 0.01	/* their largest / smallest median - 1, at most */

enum wtg_warmup_state {
	WTG_WARMUP_GOING = 0,	/* neither: run another window */
	WTG_WARMUP_MET,		/* the last five windows lie within 1% */
	WTG_WARMUP_MAX,		/* the maximum of windows ran without the rule being met */
};

/* Whether the last WTG_WARMUP_STABLE of the n medians lie within WTG_WARMUP_TOLERANCE of each
 * other. Fewer than five, or any of them not finite or not above zero: false. */
bool wtg_warmup_stable(const double *medians, size_t n);

/* The rule's decision after n windows whose medians are given, at most max windows: met (checked
 * first, so a rule met on the last allowed window counts as met), the maximum reached, or going on. */
enum wtg_warmup_state wtg_warmup_decide(const double *medians, size_t n, size_t max);

/* "met", "max" or "going". */
const char *wtg_warmup_state_name(enum wtg_warmup_state s);

/* The spread of the last five medians (largest / smallest - 1), NAN when there are fewer or one is
 * not finite or not above zero. */
double wtg_warmup_spread(const double *medians, size_t n);

#endif
