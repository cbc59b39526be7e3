/* compare.c: Did the condition change it? The paired A/B the essay describes but never ran: an
 * experiment's headline figure with one condition off and on, close together in each pair, in
 * seeded random order; then the median of the paired differences, its sign-test interval (order
 * statistics of the differences: exact and distribution-free) and how many pairs went up and down.
 * A demonstration of --versus's arms (wtg/paired.h), on one figure: each pair is a round of two
 * arms, off (A) and on (B), their order drawn, the condition switched and the interval taken as a
 * paired run takes them (wtg_arms_b_first, wtg_arms_enter, wtg_paired_stat). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "crew.h"
#include "wtg/compare.h"
#include "wtg/ctx.h"
#include "wtg/plan.h"

#define PAIRS 30
#define PAIRS_QUICK 10

/* off, on, diff and the interval are in the paired experiment's unit (set when it runs) */
static const struct wtg_column cols[] = {
	{ "pair", "count", WTG_T_INT, 0 },
	{ "order", "", WTG_T_TEXT, 0 },
	{ "off", "", WTG_T_REAL, 2 },
	{ "on", "", WTG_T_REAL, 2 },
	{ "diff", "", WTG_T_REAL, 2 },
	{ "ci_low", "", WTG_T_REAL, 2 },
	{ "ci_high", "", WTG_T_REAL, 2 },
	{ "rel_pct", "%", WTG_T_REAL, 1 },
	{ "up", "count", WTG_T_INT, 0 },
	{ "down", "count", WTG_T_INT, 0 },
	{ "coverage_pct", "%", WTG_T_REAL, 1 },
	{ "sign_p", "", WTG_T_REAL, 4 },
	/* on over off; the median row's 1 + diff / off, its interval from diff's */
	{ "ratio", "", WTG_T_REAL, 3 },
	{ "ratio_ci_low", "", WTG_T_REAL, 3 },
	{ "ratio_ci_high", "", WTG_T_REAL, 3 },
};
#define NFIGURE_COLS 5 /* off .. ci_high, from column 2 */

/* The experiment being paired and its figure's unit. */
struct paired {
	const struct wtg_experiment *e;
	const char *unit;
	int decimals;
};

enum cond { COND_BURN = 0, COND_BACKGROUND, COND_UNCACHED, COND_COLD, NCONDS };
static const char *const cond_names[NCONDS] = { "burn", "background", "uncached", "cold" };

bool wtg_compare_condition(const char *name)
{
	for (int i = 0; i < NCONDS; i++)
		if (strcmp(cond_names[i], name) == 0)
			return true;
	return false;
}

void wtg_compare_conditions(char *buf, size_t len, const char *sep)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < NCONDS; i++) {
		int k = snprintf(buf + o, len - o, "%s%s", i ? sep : "", cond_names[i]);
		if (k < 0 || (size_t)k >= len - o) {
			buf[o] = '\0';	/* whole words only */
			return;
		}
		o += (size_t)k;
	}
}

void wtg_compare_pair_of(const struct wtg_options *o, struct wtg_compare_pair *p)
{
	const char *exp = o && o->compare_exp ? o->compare_exp : wtg_compare_default();
	wtg_strlcpy(p->exp, exp ? exp : "", sizeof p->exp);
	wtg_strlcpy(p->cond, o && o->compare_cond ? o->compare_cond : cond_names[COND_BURN], sizeof p->cond);
}

void wtg_compare_next(struct wtg_compare_pair *p)
{
	int e = wtg_experiment_find(p->exp), c = 0;
	for (int i = 0; i < NCONDS; i++)
		if (strcmp(cond_names[i], p->cond) == 0)
			c = i;
	if (++c >= NCONDS) {	/* the conditions in turn, then the next experiment compare can pair */
		c = 0;
		for (int k = 1; k <= wtg_nexperiments; k++) {
			int j = ((e < 0 ? -1 : e) + k + wtg_nexperiments) % wtg_nexperiments;
			if (wtg_compare_target(wtg_experiments[j]->name)) {
				e = j;
				break;
			}
		}
	}
	if (e >= 0)
		wtg_strlcpy(p->exp, wtg_experiments[e]->name, sizeof p->exp);
	wtg_strlcpy(p->cond, cond_names[c], sizeof p->cond);
}

/* The conditions as they were before the run, put back at the end whatever happens. */
struct saved {
	int burners;
	bool background, uncached;
};

/* One measurement in a fresh thread: it applies the policy requested now (so the background
 * condition reaches it, and a thread that cannot leave SCHED_IDLE is never reused). */
struct job {
	struct wtg_ctx *ctx;
	const struct paired *h;
	double value;
	int granted;
};

static void *job_main(void *arg)
{
	struct job *j = arg;
	j->granted = wtg_policy_apply_self();
	j->value = j->h->e->compare.fn(j->ctx);
	wtg_policy_unregister_self();
	return NULL;
}

/* The condition on (arm B) or off (arm A), measured once in a fresh thread. Returns the figure or
 * NAN; *granted is the policy the measuring thread reported (0 normal, 1 background); *io the I/O
 * mode in force. */
static double measure(struct wtg_ctx *ctx, const struct paired *h, bool on, int *granted, enum wtg_iomode *io,
		      bool *cancelled)
{
	int rc = wtg_arms_enter(ctx, on ? 1 : 0);
	*cancelled = rc == WTG_CANCELLED;
	if (rc != WTG_OK)
		return NAN;
	*io = wtg_iomode_effective(ctx->df);
	struct job j = { .ctx = ctx, .h = h, .value = NAN, .granted = -1 };
	pthread_t th;
	int err = wtg_crew_spawn(&th, NULL, job_main, &j);
	if (err == 0)
		pthread_join(th, NULL);
	else
		wtg_table_fail(ctx->t, "compare: cannot start a measuring thread: %s", strerror(err));
	*granted = j.granted;
	if (ctx->cancel && atomic_load(ctx->cancel))
		*cancelled = true;
	return j.value;
}

static void restore(const struct saved *sv)
{
	wtg_burner_set(sv->burners);
	wtg_policy_request(sv->background);
	wtg_uncached_request(sv->uncached);
}

/* What "on" and "off" meant for condition c. */
static void cond_note(struct wtg_ctx *ctx, enum cond c, int ncpu, enum wtg_iomode io_on)
{
	if (c == COND_BURN)
		wtg_table_note(ctx->t, "on: %d burners (one per online CPU), each measured once every burner "
				       "reported running (at most %d ms after they start); off: none", ncpu,
			       WTG_PAIRED_SETTLE_MAX_MS);
	else if (c == COND_BACKGROUND)
		wtg_table_note(ctx->t, "on: SCHED_IDLE requested for the measuring thread (a fresh thread per "
				       "measurement); off: normal policy");
	else if (c == COND_UNCACHED)
		wtg_table_note(ctx->t,
			       "on: uncached I/O (%s here); off: cached; figures without file I/O are not "
			       "expected to move",
			       wtg_iomode_name(io_on));
	else
		wtg_table_note(ctx->t, "on: the file evicted from the page cache just before the measurement; "
				       "off: the file read back into the page cache first");
}

/* The summary row: medians, the sign-test interval of the median difference, pairs up and down,
 * then the series, checks and notes. */
static void summary(struct wtg_ctx *ctx, const struct paired *h, enum cond c, const double *off,
		    const double *on, const double *diff, int npairs, int ncpu, enum wtg_iomode io_on)
{
	struct wtg_paired_stat st;	/* as a paired run takes a difference: B (on) - A (off) */
	bool have_ci = wtg_paired_stat(off, on, (size_t)npairs, true, &st) == 0;
	double med_diff = st.value, lo = st.lo, hi = st.hi, cov = st.coverage;
	size_t k = st.k;
	double med_off = wtg_quantile(off, (size_t)npairs, 0.5);
	double med_on = wtg_quantile(on, (size_t)npairs, 0.5);
	int up = 0, down = 0;
	for (int i = 0; i < npairs; i++) {
		up += diff[i] > 0;
		down += diff[i] < 0;
	}
	double p = wtg_sign_test_p((uint64_t)up, (uint64_t)down);
	double rel = med_off != 0 ? 100.0 * med_diff / med_off : NAN;
	const struct wtg_value v[] = {
		WTG_NA,
		WTG_TEXT("median"),
		WTG_REAL(med_off),
		WTG_REAL(med_on),
		WTG_REAL(med_diff),
		have_ci ? WTG_REAL(lo) : WTG_NA,
		have_ci ? WTG_REAL(hi) : WTG_NA,
		isnan(rel) ? WTG_NA : WTG_REAL(rel),
		WTG_INT(up),
		WTG_INT(down),
		WTG_REAL(100.0 * cov),
		WTG_REAL(p),
		med_off != 0 ? WTG_REAL(1 + med_diff / med_off) : WTG_NA,
		have_ci && med_off != 0 ? WTG_REAL(1 + lo / med_off) : WTG_NA,
		have_ci && med_off != 0 ? WTG_REAL(1 + hi / med_off) : WTG_NA,
	};
	wtg_table_add_row(ctx->t, v, (int)WTG_ARRAY_LEN(v), NULL);
	wtg_table_add_series(ctx->t, "off", h->unit, off, (size_t)npairs);
	wtg_table_add_series(ctx->t, "on", h->unit, on, (size_t)npairs);
	if (have_ci)
		wtg_table_check(ctx->t, "median", lo <= med_diff && med_diff <= hi,
				"the sign-test interval [%.*f, %.*f] %s (order statistics %zu and %zu of %d) "
				"holds the median paired difference %.*f %s",
				h->decimals, lo, h->decimals, hi, h->unit, k, (size_t)npairs + 1 - k, npairs,
				h->decimals, med_diff, h->unit);
	wtg_table_note(ctx->t,
		       "%s:%s: %s; %d pairs, condition off and on back to back, order per pair from the "
		       "seeded generator; one unreported warm-up measurement first",
		       h->e->name, cond_names[c], h->e->compare.what, npairs);
	if (have_ci)
		wtg_table_note(ctx->t,
			       "median paired difference (on - off): %.*f %s, sign-test interval [%.*f, %.*f] "
			       "(order statistics %zu and %zu of the %d differences, exact coverage %.1f%%); "
			       "%+.1f%% of the median 'off' figure; %s",
			       h->decimals, med_diff, h->unit, h->decimals, lo, h->decimals, hi, k,
			       (size_t)npairs + 1 - k, npairs, 100.0 * cov, rel,
			       (lo > 0 || hi < 0)
				       ? "the interval excludes zero: the figure moved with the condition in these "
					 "pairs (a 95% interval also does so by chance about 1 run in 20)"
				       : "the interval includes zero: no shift shown with these pairs");
	else
		wtg_table_note(ctx->t, "median paired difference (on - off): %.*f %s; %d pairs are too few "
				       "for a 95%% sign-test interval (n/a)",
			       h->decimals, med_diff, h->unit, npairs);
	wtg_table_note(ctx->t, "%d of %d pairs went up with the condition, %d down, %d tied; sign test "
			       "p = %.4f (the chance of a split this uneven if up and down were equally "
			       "likely)",
		       up, npairs, down, npairs - up - down, p);
	cond_note(ctx, c, ncpu, io_on);
}

/* The pairs so far, and what their measurements reported. */
struct pairs {
	double *off, *on, *diff;
	bool policy_ok;		/* every measurement ran under the policy it asked for */
	enum wtg_iomode io_on;	/* the I/O mode of the 'on' measurements */
};

/* Pair i: the condition off and on in the seeded generator's order, then its row. Returns WTG_OK,
 * WTG_CANCELLED or WTG_ERR (after wtg_table_fail). */
static int one_pair(struct wtg_ctx *ctx, const struct paired *h, enum cond c, int i, int npairs,
		    struct pairs *p)
{
	char label[48];
	snprintf(label, sizeof label, "pair %d of %d", i + 1, npairs);
	wtg_ctx_progress(ctx, i + 1, npairs + 1, label);
	if (wtg_ctx_cancelled(ctx))
		return WTG_CANCELLED;
	bool on_first = wtg_arms_b_first(ctx, i), cancelled = false;
	for (int k = 0; k < 2; k++) {
		bool cond_on = (k == 0) == on_first;
		int granted = -1;
		enum wtg_iomode io = WTG_IO_CACHED;
		double v = measure(ctx, h, cond_on, &granted, &io, &cancelled);
		if (isnan(v)) {
			if (cancelled)
				return WTG_CANCELLED;
			if (!ctx->t->error[0])
				wtg_table_fail(ctx->t, "compare: the %s headline gave no figure", h->e->name);
			return WTG_ERR;
		}
		if (c == COND_BACKGROUND && granted != (cond_on ? 1 : 0))
			p->policy_ok = false;
		if (cond_on) {
			p->on[i] = v;
			p->io_on = io;
		} else {
			p->off[i] = v;
		}
	}
	double d = p->diff[i] = p->on[i] - p->off[i];
	const struct wtg_value row[] = {
		WTG_INT(i + 1),
		WTG_TEXT(on_first ? "on,off" : "off,on"),
		WTG_REAL(p->off[i]),
		WTG_REAL(p->on[i]),
		WTG_REAL(d),
		WTG_NA,
		WTG_NA,
		p->off[i] != 0 ? WTG_REAL(100.0 * d / p->off[i]) : WTG_NA,
		WTG_INT(d > 0),
		WTG_INT(d < 0),
		WTG_NA,
		WTG_NA,
		p->off[i] != 0 ? WTG_REAL(p->on[i] / p->off[i]) : WTG_NA,
		WTG_NA,
		WTG_NA,
	};
	wtg_table_add_row(ctx->t, row, (int)WTG_ARRAY_LEN(row), NULL);
	return WTG_OK;
}

/* The experiment and condition to pair, and the table's columns in that experiment's unit.
 * Returns the condition, or -1 after wtg_table_fail(). */
static int setup(struct wtg_ctx *ctx, struct paired *h)
{
	struct wtg_compare_pair pair = ctx->compare;
	if (!pair.exp[0])
		wtg_compare_pair_of(ctx->opt, &pair);
	const char *exp = pair.exp, *cname = pair.cond;
	h->e = wtg_compare_target(exp);
	int c = -1;
	for (int i = 0; i < NCONDS; i++)
		if (strcmp(cond_names[i], cname) == 0)
			c = i;
	if (!h->e || c < 0) {
		wtg_table_fail(ctx->t, "compare: cannot pair '%s' with '%s'", exp, cname);
		return -1;
	}
	int fc = wtg_experiment_col(h->e, h->e->compare.col);
	h->unit = fc >= 0 ? h->e->cols[fc].unit : "";
	h->decimals = h->e->compare.decimals;
	struct wtg_column c2[WTG_ARRAY_LEN(cols)];
	memcpy(c2, cols, sizeof cols);
	for (int i = 2; i < 2 + NFIGURE_COLS; i++) {
		c2[i].unit = h->unit;
		c2[i].decimals = h->decimals;
	}
	wtg_table_set_columns(ctx->t, c2, (int)WTG_ARRAY_LEN(c2));
	return c;
}

/* Pairs a run measures. */
static int npairs_of(const struct wtg_options *o)
{
	return o->quick ? PAIRS_QUICK : PAIRS;
}

static int compare_run(struct wtg_ctx *ctx)
{
	struct paired hl;
	const struct paired *h = &hl;
	int c = setup(ctx, &hl);
	if (c < 0)
		return WTG_ERR;

	const int npairs = npairs_of(ctx->opt);
	const int ncpu = wtg_online_cpus();
	double *off = calloc((size_t)npairs, sizeof *off);
	double *on = calloc((size_t)npairs, sizeof *on);
	double *diff = calloc((size_t)npairs, sizeof *diff);
	if (!off || !on || !diff) {
		free(off);
		free(on);
		free(diff);
		wtg_table_fail(ctx->t, "out of memory for %d pairs", npairs);
		return WTG_ERR;
	}
	struct saved sv = { wtg_burner_count(), wtg_policy_requested(), wtg_uncached_requested() };
	/* arm A: the condition off (burners stopped, normal policy, cached I/O, as the case may be);
	 * arm B: on */
	static const enum wtg_versus_cond vs_of[NCONDS] = { WTG_VS_BURN, WTG_VS_BACKGROUND, WTG_VS_UNCACHED,
							     WTG_VS_COLD };
	struct wtg_arms arms = { .vs = { .cond = vs_of[c], .burn = ncpu, .burn_kind = WTG_BURN_SPIN }, .col = -1 };
	struct wtg_arms *outer = ctx->arms;
	if (c == COND_BURN)
		wtg_burner_set(0);
	else if (c == COND_BACKGROUND)
		wtg_policy_request(false);
	else if (c == COND_UNCACHED)
		wtg_uncached_request(false);
	wtg_arms_keep(&arms);
	ctx->arms = &arms;

	int rc = WTG_OK;
	bool cancelled = false;
	int granted = -1;
	enum wtg_iomode io = WTG_IO_CACHED;
	/* fixed warm-up rule: one unreported measurement with the condition off */
	wtg_ctx_progress(ctx, 0, npairs + 1, "warm-up");
	if (wtg_ctx_cancelled(ctx)) {
		rc = WTG_CANCELLED;
		goto out;
	}
	if (isnan(measure(ctx, h, false, &granted, &io, &cancelled))) {
		rc = cancelled ? WTG_CANCELLED : WTG_ERR;
		goto out;
	}
	struct pairs pr = { off, on, diff, true, WTG_IO_CACHED };
	for (int i = 0; i < npairs && rc == WTG_OK; i++)
		rc = one_pair(ctx, h, (enum cond)c, i, npairs, &pr);
	if (rc != WTG_OK)
		goto out;
	summary(ctx, h, (enum cond)c, off, on, diff, npairs, ncpu, pr.io_on);
	if (c == COND_BACKGROUND)
		wtg_table_check(ctx->t, "policy", pr.policy_ok,
				"every 'on' measurement ran under SCHED_IDLE and every 'off' one under "
				"SCHED_OTHER, as the kernel reported");
	wtg_ctx_progress(ctx, npairs + 1, npairs + 1, "done");
out:
	(void)wtg_arms_enter(ctx, 0);	/* the condition off, then as the run found it */
	ctx->arms = outer;
	wtg_arms_free(&arms);
	restore(&sv);
	free(off);
	free(on);
	free(diff);
	return rc;
}

/* --dry-run: npairs_of() pairs, each one measurement with the condition off and one with it on
 * (their order seeded), after one warm-up measurement. */
static void compare_plan(struct wtg_plan *p)
{
	static const char *const names[] = { "pair" };
	wtg_plan_columns(p, names, 1);
	for (int i = 0; i < npairs_of(p->opt); i++) {
		const struct wtg_value row = WTG_INT(i + 1);
		wtg_plan_row(p, &row);
	}
	p->samples = 2;
	p->warmup = 1;
}

/* The condition in words: "burners", "the background policy" ... */
static const char *cond_words(const char *name, size_t n)
{
	static const char *const words[NCONDS] = { "burners", "background policy", "uncached I/O", "evicted cache" };
	for (int i = 0; i < NCONDS; i++)
		if (strlen(cond_names[i]) == n && strncmp(cond_names[i], name, n) == 0)
			return words[i];
	return "the condition";
}

/* "syscall: burners off vs on: slower by 12.3%, CI [3.1, 20.5]%" or "...: no detectable change: the
 * CI holds 0", from the median row and the first note ("syscall:burn: ..."). */
static int compare_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	double off = wtg_verdict_value(t, "order", "median", "off");
	double lo = wtg_verdict_value(t, "order", "median", "ci_low");
	double hi = wtg_verdict_value(t, "order", "median", "ci_high");
	double diff = wtg_verdict_value(t, "order", "median", "diff");
	if (t->nnotes == 0 || !isfinite(off) || !isfinite(diff))
		return 0;
	const char *n = t->notes[0], *c1 = strchr(n, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	if (!c2)
		return 0;
	char what[96];
	snprintf(what, sizeof what, "%.*s: %s off vs on", (int)(c1 - n), n, cond_words(c1 + 1, (size_t)(c2 - c1 - 1)));
	if (!isfinite(lo) || !isfinite(hi))
		return wtg_verdict_fmt(buf, len, true, "%s: too few pairs for a CI", what);
	if (lo <= 0 && hi >= 0)
		return wtg_verdict_fmt(buf, len, true, "%s: no detectable change: the CI holds 0", what);
	int uc = wtg_table_col(t, "off");
	bool rate = uc >= 0 && t->cols[uc].unit && strstr(t->cols[uc].unit, "/s");
	bool worse = rate ? diff < 0 : diff > 0;
	double k = off != 0 ? 100.0 / fabs(off) : NAN;
	return wtg_verdict_fmt(buf, len, isfinite(k), "%s: %s by %.1f%%, CI [%.1f, %.1f]%%", what,
			       worse ? "slower" : "faster", fabs(diff) * k,
			       lo * k, hi * k);
}

const struct wtg_experiment wtg_exp_compare = {
	.name = "compare",
	.question = "Did the condition change it?",
	.runs = "paired A/B of an experiment's headline figure, condition off and on, seeded order; sign-test "
		"interval of the median difference, pairs up and down",
	.needs_datafile = true,
	.not_cold = "--compare=EXP:cold pairs cold and warm",
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_BARS,
	.bars = { .label = { "pair", "order" }, .value = "diff", .extra = "rel_pct", .named = true,
		  .ci = { "ci_low", "ci_high" },
		  .caption = "bar: the figure with the condition on minus off in one pair (measured in the order "
			     "shown); left of 0: lower when on" },
	.headline = { { "the figure on over off (the median pair)", "order", "median", "ratio", "ratio_ci_low",
			"ratio_ci_high", NULL, "", false, .is_ratio = true } },
	.typical_s = 4,
	.typical_quick_s = 1,
	.verdict = compare_verdict,
	.terms = WTG_TERMS("paired", "median", "ci", "bootstrap", "burner", "background"),
	.run = compare_run,
	.plan = compare_plan,
};
