/* paired.h: a condition's effect measured in pairs (--versus=COND).
 *
 * A paired run measures every row in two arms: arm A under the run's conditions, arm B under one
 * changed condition (COND). Every round runs each row once in each arm, the two arms in an order the
 * seeded generator draws afresh per round (kept in the series "arm order": 0 A first, 1 B first),
 * the condition switched between them: burners started or stopped and given time to settle, the
 * measuring thread's policy set, the file reopened with or without O_DIRECT (every pass opens it
 * as the I/O mode says), the file evicted before each of arm B's passes (cold) and read back once
 * before arm A's. Each round yields a pair per row; the row's paired ratio is the median of the
 * per-round ratios B/A, its 95% interval the sign-test (order-statistic) interval of those ratios:
 * exact and distribution-free, its coverage at least 95% whatever the ratios' distribution, as long
 * as the rounds are independent (random arm order per round makes a ratio's sign a fair coin when
 * the condition does nothing, however the machine drifts between rounds). A figure whose per-round
 * values are not all positive (a difference, such as a fault's cost over a baseline) is paired as
 * the median of the differences B - A, with the same interval.
 *
 * In the table: every row carries the column "arm" (A or B), the A rows first; the per-round
 * figures of the row the A row at 1-based index N names are the series "row N arm A" and
 * "row N arm B"; headline figures read the A rows (wtg_figure_read). */
#ifndef WTG_PAIRED_H
#define WTG_PAIRED_H

#include <stdbool.h>
#include <stddef.h>

#include "wtg/arms.h"
#include "wtg/conditions.h"
#include "wtg/stats.h"

struct wtg_ctx;
struct wtg_table;
struct wtg_value;
struct wtg_experiment;
struct wtg_headline;

/* Parse COND (ncpu: burn's default count). Returns 0; -1 for an unknown condition; -2 for a burner
 * count out of 1 .. wtg_burner_max() (why in buf). */
int wtg_versus_parse(const char *arg, int ncpu, struct wtg_versus *v, char *why, size_t len);

/* Arm B's condition in words: "burners 2 spin", "background policy", "uncached I/O", "cold cache",
 * "the same conditions". */
void wtg_versus_words(const struct wtg_versus *v, char *buf, size_t len);

/* An arm's conditions in words: "quiet", "burners 2 spin", "background, uncached", "cold cache". */
void wtg_arm_state_words(const struct wtg_arm_state *st, char *buf, size_t len);

/* The arms' conditions fixed (unless preset: arm A those in force now, arm B with vs applied),
 * a->used set; no table column (compare). */
void wtg_arms_keep(struct wtg_arms *a);

/* Arm A's conditions kept, the table's columns with "arm" appended (before the first row; sets
 * a->col) and a->used set: called by a design that alternates, as it starts measuring. */
void wtg_arms_begin(struct wtg_ctx *ctx);
/* Round r's arm order, drawn from the ctx's generator and kept: true when B goes first. */
bool wtg_arms_b_first(struct wtg_ctx *ctx, int round);
/* Put arm (0 A, 1 B) in force: burners set (and given WTG_PAIRED_SETTLE_MS when they start), the
 * policy requested (and applied with a->apply_self), uncached I/O requested, or cold: ctx->cold
 * set and the file evicted for B, read back into the page cache for A. Returns WTG_OK,
 * WTG_CANCELLED or WTG_ERR (after wtg_table_fail). */
int wtg_arms_enter(struct wtg_ctx *ctx, int arm);
/* Row values vals[0..n) tagged with the arm: padded to the arm column, which gets "A" or "B".
 * Returns the new count. */
int wtg_arms_tag(const struct wtg_ctx *ctx, struct wtg_value *vals, int n, int arm);
/* The per-round figures of the row whose arm-A row is table row row_a (0-based): a[i], b[i] of round i. */
void wtg_arms_record(struct wtg_ctx *ctx, int row_a, const char *unit, const double *a, const double *b,
		     size_t n);
/* The conditions the run found in force again (arm A's; preset, arm B's: the dashboard's now), the
 * order series and the notes (what B changed, how the figures pair). */
void wtg_arms_end(struct wtg_ctx *ctx, int rc);

/* The paired statistic of n rounds' a[i], b[i]: the median of b/a (or of b - a when difference or
 * a value is not positive) and its sign-test interval at 95% (k-th smallest to k-th largest). */
struct wtg_paired_stat {
	double value, lo, hi;		/* NAN when n is too small */
	double coverage;		/* the interval's exact coverage */
	size_t n, k;
	bool difference;
};
int wtg_paired_stat(const double *a, const double *b, size_t n, bool difference, struct wtg_paired_stat *out);

/* A headline figure's paired reading from a paired table. */
struct wtg_paired_entry {
	const char *figure;		/* the headline's words */
	const char *unit;
	struct wtg_paired_stat s;
	double a, b;			/* each arm's own figure, as its row holds it (NAN: none) */
	const char *verdict;		/* wtg_verdict_name of the ratio (or the difference's relative form) */
	bool higher_better;
};
/* The paired entries of t's headline figures (at most max); 0 when t is not paired. */
int wtg_paired_entries(const struct wtg_table *t, struct wtg_paired_entry *out, int max);
/* Whether t was measured in arms (it has the "arm" column). */
bool wtg_table_paired(const struct wtg_table *t);
/* Why t ran unpaired under --versus (a note "not paired: ..."), NULL when it did not say. */
const char *wtg_paired_skipped(const struct wtg_table *t);
/* A paired table's line for the dashboard, above its view: "quiet vs burners 2 spin, paired over 15
 * rounds: x0.62 [0.55-0.70] slower: FIGURE; ..."; a control, never faster or slower: "quiet vs quiet
 * (A/A), paired over 15 rounds: x1.01 [0.97-1.03] holds 1: FIGURE"; dash between the bounds; ""
 * when t has no paired entry yet. */
void wtg_paired_line(const struct wtg_table *t, const char *dash, char *buf, size_t len);
/* One entry in words: "x0.62 [0.55-0.70] slower, 15 rounds" or "+12.3 ns [3.1-20.5] slower". */
void wtg_paired_fmt(const struct wtg_paired_entry *e, char *buf, size_t len);

#endif
