/* paired.c: a condition's effect measured in pairs (see wtg/paired.h): --versus's condition, the
 * switch between the arms, what a paired run keeps, and the paired reading of its headline figures. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "wtg/figure.h"
#include "wtg/gate.h"
#include "wtg/layout.h"
#include "wtg/paired.h"

int wtg_versus_parse(const char *arg, int ncpu, struct wtg_versus *v, char *why, size_t len)
{
	static const struct {
		const char *name;
		enum wtg_versus_cond c;
	} plain[] = { { "same", WTG_VS_SAME }, { "background", WTG_VS_BACKGROUND },
		      { "uncached", WTG_VS_UNCACHED }, { "cold", WTG_VS_COLD } };
	memset(v, 0, sizeof *v);
	if (len)
		why[0] = '\0';
	for (size_t i = 0; i < WTG_ARRAY_LEN(plain); i++)
		if (strcmp(arg, plain[i].name) == 0) {
			v->cond = plain[i].c;
			return 0;
		}
	if (strncmp(arg, "burn", 4) != 0 || (arg[4] && arg[4] != '=' && arg[4] != ':'))
		return -1;
	v->cond = WTG_VS_BURN;
	v->burn = ncpu > 0 ? ncpu : 1;
	v->burn_kind = WTG_BURN_SPIN;
	const char *p = arg + 4, *colon = strchr(p, ':');
	if (colon) {
		int k = wtg_burn_kind_parse(colon + 1);
		if (k < 0)
			return -1;
		v->burn_kind = (enum wtg_burn_kind)k;
	}
	if (*p == '=') {
		size_t n = colon ? (size_t)(colon - p - 1) : strlen(p + 1);
		char num[32];
		char *end;
		snprintf(num, sizeof num, "%.*s", (int)(n < sizeof num ? n : sizeof num - 1), p + 1);
		errno = 0;
		long c = strtol(num, &end, 10);
		if (!num[0] || *end || errno || c < 1 || c > wtg_burner_max()) {
			snprintf(why, len, "--versus: burn's count must be a whole number from 1 to %d, not '%s'",
				 wtg_burner_max(), num);
			return -2;
		}
		v->burn = (int)c;
	}
	return 0;
}

void wtg_versus_words(const struct wtg_versus *v, char *buf, size_t len)
{
	switch (v->cond) {
	case WTG_VS_BURN:
		snprintf(buf, len, "burners %d %s", v->burn, wtg_burn_kind_name(v->burn_kind));
		break;
	case WTG_VS_BACKGROUND:
		snprintf(buf, len, "background policy");
		break;
	case WTG_VS_UNCACHED:
		snprintf(buf, len, "uncached I/O");
		break;
	case WTG_VS_COLD:
		snprintf(buf, len, "cold cache");
		break;
	case WTG_VS_SAME:
		snprintf(buf, len, "the same conditions (A/A)");
		break;
	default:
		snprintf(buf, len, "none");
		break;
	}
}



void wtg_arm_state_words(const struct wtg_arm_state *st, char *buf, size_t len)
{
	const struct wtg_cond_snapshot c = { .burners = st->burn, .burn_kind = st->kind, .background = st->background,
					     .uncached = st->uncached };
	wtg_lay_cond_words(buf, len, &c);
	size_t n = strlen(buf);
	if (st->cold && strcmp(buf, "quiet") == 0)
		snprintf(buf, len, "cold cache");
	else if (st->cold && n < len)
		snprintf(buf + n, len - n, ", cold cache");
}

void wtg_arms_keep(struct wtg_arms *a)
{
	if (!a->preset) {
		wtg_arm_state_now(&a->st[0], false);
		a->st[1] = a->st[0];
		struct wtg_arm_state *b = &a->st[1];
		if (a->vs.cond == WTG_VS_BURN) {
			b->burn = a->vs.burn;
			b->kind = a->vs.burn_kind;
		}
		b->background |= a->vs.cond == WTG_VS_BACKGROUND;
		b->uncached |= a->vs.cond == WTG_VS_UNCACHED;
		b->cold |= a->vs.cond == WTG_VS_COLD;
	}
	a->arm = 0;
	a->used = true;
	a->nrounds = 0;
	a->settles = a->settle_late = 0;
	a->settle_ms = a->settle_max_ms = 0;
}

void wtg_arms_begin(struct wtg_ctx *ctx)
{
	struct wtg_arms *a = ctx->arms;
	wtg_arms_keep(a);
	a->apply_self = true;
	if (a->st[0].burn != a->st[1].burn)
		wtg_burner_hold(true);	/* the arm without burners parks them: resuming is cheaper than starting */
	a->arm = 1;	/* arm A put in force whatever holds now */
	(void)wtg_arms_enter(ctx, 0);
	struct wtg_table *t = ctx->t;
	pthread_mutex_lock(&t->lock);
	int n = t->ncols, col = wtg_table_col(t, "arm");
	struct wtg_column cols[WTG_MAX_COLS];
	memcpy(cols, t->cols, (size_t)n * sizeof *cols);
	pthread_mutex_unlock(&t->lock);
	if (col < 0 && n < WTG_MAX_COLS) {
		cols[n] = (struct wtg_column){ "arm", "", WTG_T_TEXT, 0 };
		wtg_table_set_columns(t, cols, n + 1);
		col = wtg_table_col(t, "arm");
	}
	a->col = col;
}

bool wtg_arms_b_first(struct wtg_ctx *ctx, int round)
{
	struct wtg_arms *a = ctx->arms;
	bool b = wtg_rng_below(&ctx->rng, 2) == 1;
	if (round < 0)
		return b;
	if ((size_t)round >= a->caprounds) {
		size_t cap = (size_t)round + 16;
		double *o = realloc(a->order, cap * sizeof *o);
		if (!o)
			return b;
		a->order = o;
		a->caprounds = cap;
	}
	a->order[round] = b;
	if ((size_t)round + 1 > a->nrounds)
		a->nrounds = (size_t)round + 1;
	return b;
}

/* Burners started or resumed: wait until each reports a batch of its steady work done, at most
 * WTG_PAIRED_SETTLE_MAX_MS; the wait kept in a. Returns true when cancelled. */
static bool settle(struct wtg_ctx *ctx, struct wtg_arms *a)
{
	bool going = false;
	double ms = wtg_burners_settle(ctx, WTG_PAIRED_SETTLE_MAX_MS, &going);
	if (ms < 0)
		return true;
	a->settles++;
	a->settle_ms += ms;
	if (ms > a->settle_max_ms)
		a->settle_max_ms = ms;
	a->settle_late += !going;
	return false;
}

/* The data file read once through the page cache (a cold arm B left it evicted; arm A reads warm). */
static void read_back(const struct wtg_datafile *df)
{
	const size_t len = 1u << 20;
	char *buf = malloc(len);
	int fd = df && buf ? open(df->path, O_RDONLY | O_CLOEXEC) : -1;
	while (fd >= 0 && read(fd, buf, len) > 0)
		;
	if (fd >= 0)
		close(fd);
	free(buf);
}

int wtg_arms_enter(struct wtg_ctx *ctx, int arm)
{
	struct wtg_arms *a = ctx->arms;
	if (!a || arm == a->arm)
		return WTG_OK;
	const struct wtg_arm_state *to = &a->st[arm];
	a->arm = arm;
	if (wtg_burner_count() != to->burn || (to->burn > 0 && wtg_burner_kind() != to->kind)) {
		if (wtg_burner_set_kind(to->burn, to->kind) != to->burn) {
			wtg_table_fail(ctx->t, "cannot start %d burners for arm %c", to->burn, arm ? 'B' : 'A');
			return WTG_ERR;
		}
		if (to->burn > 0 && settle(ctx, a))
			return WTG_CANCELLED;
	}
	if (wtg_policy_requested() != to->background || a->vs.cond == WTG_VS_BACKGROUND) {
		wtg_policy_request(to->background);
		if (a->apply_self && wtg_policy_apply_self() != (to->background ? 1 : 0))
			a->policy_bad++;
	}
	wtg_uncached_request(to->uncached);
	if (to->cold && wtg_datafile_evict(ctx->df) < 0) {
		wtg_table_fail(ctx->t, "cannot evict the data file from the page cache (a cold arm)");
		return WTG_ERR;
	}
	if (ctx->cold && !to->cold)
		read_back(ctx->df);	/* a cold arm left it evicted: the other reads it warm */
	ctx->cold = to->cold;
	return wtg_ctx_cancelled(ctx) ? WTG_CANCELLED : WTG_OK;
}

int wtg_arms_tag(const struct wtg_ctx *ctx, struct wtg_value *vals, int n, int arm)
{
	const struct wtg_arms *a = ctx->arms;
	if (!a || a->col < 0)
		return n;
	for (int c = n; c < a->col; c++)
		vals[c] = WTG_NA;
	vals[a->col] = WTG_TEXT(arm ? "B" : "A");
	return n > a->col + 1 ? n : a->col + 1;
}

void wtg_arms_record(struct wtg_ctx *ctx, int row_a, const char *unit, const double *a, const double *b, size_t n)
{
	char name[48];
	snprintf(name, sizeof name, "row %d arm A", row_a + 1);
	wtg_table_add_series(ctx->t, name, unit ? unit : "", a, n);
	snprintf(name, sizeof name, "row %d arm B", row_a + 1);
	wtg_table_add_series(ctx->t, name, unit ? unit : "", b, n);
}

void wtg_arms_end(struct wtg_ctx *ctx, int rc)
{
	struct wtg_arms *a = ctx->arms;
	if (!a || !a->used)
		return;
	(void)wtg_arms_enter(ctx, a->preset ? 1 : 0);	/* the conditions as the run found them */
	wtg_burner_hold(false);
	if (rc != WTG_OK)
		return;
	wtg_table_add_series(ctx->t, "arm order", "flag", a->order, a->nrounds);
	size_t bfirst = 0;
	for (size_t i = 0; i < a->nrounds; i++)
		bfirst += a->order[i] != 0;
	char wa[96], wb[96];
	wtg_arm_state_words(&a->st[0], wa, sizeof wa);
	wtg_arm_state_words(&a->st[1], wb, sizeof wb);
	double lo, hi, cov;
	size_t k = 0;
	double *zero = calloc(a->nrounds ? a->nrounds : 1, sizeof *zero);	/* the ranks depend on n alone */
	bool ci = zero && wtg_sign_test_median_ci(zero, a->nrounds, WTG_BOOTSTRAP_CONF, &lo, &hi, &cov, &k) == 0;
	free(zero);
	wtg_table_note(ctx->t,
		       "paired: arm A %s, arm B %s%s; %zu rounds, each measuring every "
		       "row once in each arm, the arms' order drawn per round from the seeded generator (B first "
		       "in %zu; series 'arm order'), the condition switched between them; the rows of arm B follow "
		       "those of arm A (column arm), each row's per-round figures in the series 'row N arm A' and "
		       "'row N arm B'",
		       wa, wb, a->vs.cond == WTG_VS_SAME ? " (an A/A control: the same conditions)" : "", a->nrounds,
		       bfirst);
	if (ci)
		wtg_table_note(ctx->t,
			       "a paired figure: the median of the %zu per-round ratios B/A (of the differences B - A "
			       "where a figure is not positive), its 95%% interval the sign-test one (order statistics "
			       "%zu and %zu of the per-round figures: exact coverage %.1f%% whatever their "
			       "distribution); verdicts as the gate's, threshold %.0f%%",
			       a->nrounds, k, a->nrounds + 1 - k, 100 * cov, 100 * WTG_PAIRED_THRESHOLD);
	if (a->settles > 0)
		wtg_table_note(ctx->t,
			       "burners: parked (asleep) in the arm without them and resumed in the other; after each "
			       "of the %d starts or resumes the arm waited until every burner reported a batch of its "
			       "work done: %.1f ms on average, %.1f ms at most%s",
			       a->settles, a->settle_ms / a->settles, a->settle_max_ms,
			       a->settle_late ? "" : " (all reported)");
	if (a->settle_late)
		wtg_table_warn(ctx->t, "settle",
			       "%d of %d times the burners had not all reported running after %d ms; the arm went on",
			       a->settle_late, a->settles, WTG_PAIRED_SETTLE_MAX_MS);
	if (a->vs.cond == WTG_VS_BACKGROUND)
		wtg_table_check(ctx->t, "policy", a->policy_bad == 0,
				"the measuring thread %s the policy of each arm (SCHED_IDLE in B) in every round%s",
				a->policy_bad ? "did not get" : "got", a->policy_bad ? ": the arms may not differ" : "");
}


int wtg_paired_stat(const double *a, const double *b, size_t n, bool difference, struct wtg_paired_stat *out)
{
	memset(out, 0, sizeof *out);
	out->value = out->lo = out->hi = NAN;
	double *r = malloc((n ? n : 1) * sizeof *r);
	if (!r)
		return -1;
	size_t m = 0;	/* the rounds with both figures */
	for (size_t i = 0; i < n; i++)
		if (isfinite(a[i]) && isfinite(b[i])) {
			difference = difference || !(a[i] > 0) || !(b[i] > 0);
			m++;
		}
	for (size_t i = 0, j = 0; i < n; i++)
		if (isfinite(a[i]) && isfinite(b[i]))
			r[j++] = difference ? b[i] - a[i] : b[i] / a[i];
	out->n = m;
	out->difference = difference;
	int rc = -1;
	if (m > 0) {
		out->value = wtg_quantile(r, m, 0.5);
		rc = wtg_sign_test_median_ci(r, m, WTG_BOOTSTRAP_CONF, &out->lo, &out->hi, &out->coverage, &out->k);
	}
	free(r);
	return rc;
}

bool wtg_table_paired(const struct wtg_table *t)
{
	return wtg_table_col(t, "arm") >= 0;
}

const char *wtg_paired_skipped(const struct wtg_table *t)
{
	static const char prefix[] = "not paired: ";
	for (int i = 0; i < t->nnotes; i++)
		if (strncmp(t->notes[i], prefix, sizeof prefix - 1) == 0)
			return t->notes[i] + sizeof prefix - 1;
	return NULL;
}

/* The series called name, NULL when none. */
static const struct wtg_series *series_of(const struct wtg_table *t, const char *name)
{
	for (int i = t->nseries - 1; i >= 0; i--)
		if (strcmp(t->series[i].name, name) == 0)
			return &t->series[i];
	return NULL;
}

/* The arm B row that matches arm A's row ra: its key column reads the same (h keyless: the last
 * arm B row); -1 when none. */
static int arm_b_row(const struct wtg_headline *h, const struct wtg_table *t, int ra)
{
	int kc = h->key_col ? wtg_table_col(t, h->key_col) : -1;
	for (int r = t->nrows - 1; r >= 0; r--) {
		if (!wtg_row_arm_b(t, r))
			continue;
		if (kc < 0)
			return h->key_col ? -1 : r;
		const struct wtg_value *x = &t->rows[r].v[kc], *y = &t->rows[ra].v[kc];
		if (x->type == y->type && ((x->type == WTG_T_TEXT && strcmp(x->s, y->s) == 0) ||
					   (x->type == WTG_T_INT && x->i == y->i) ||
					   (x->type == WTG_T_REAL && x->r == y->r)))
			return r;
	}
	return -1;
}

int wtg_paired_entries(const struct wtg_table *t, struct wtg_paired_entry *out, int max)
{
	if (!wtg_table_paired(t))
		return 0;
	int nh = 0, n = 0;
	const struct wtg_headline *h = wtg_headlines_of(t->exp, &nh);
	for (int i = 0; i < nh && n < max; i++) {
		int row = wtg_headline_row(&h[i], t);
		char name[48];
		snprintf(name, sizeof name, "row %d arm A", row + 1);
		const struct wtg_series *sa = row >= 0 ? series_of(t, name) : NULL;
		snprintf(name, sizeof name, "row %d arm B", row + 1);
		const struct wtg_series *sb = row >= 0 ? series_of(t, name) : NULL;
		if (!sa || !sb || sa->n != sb->n || sa->n == 0)
			continue;
		struct wtg_paired_entry *e = &out[n++];
		memset(e, 0, sizeof *e);
		e->figure = h[i].figure;
		e->unit = h[i].unit;
		e->higher_better = h[i].higher_better;
		wtg_paired_stat(sa->v, sb->v, sa->n, false, &e->s);
		/* each arm's own figure, as its row holds it (in the headline's unit) */
		struct wtg_figure fa, fb;
		wtg_figure_read_row(&h[i], t, row, &fa);
		wtg_figure_read_row(&h[i], t, arm_b_row(&h[i], t, row), &fb);
		e->a = fa.found ? fa.value : NAN;
		e->b = fb.found ? fb.value : NAN;
		/* a difference is weighed against arm A's figure for the verdict's words, never shown as a ratio */
		double k = e->s.difference ? fabs(e->a) : 1, base = e->s.difference ? 1 : 0;
		if (e->s.difference && !(k > 0))
			e->verdict = wtg_verdict_name(WTG_V_NONE);
		else
			e->verdict = wtg_verdict_name(wtg_verdict_of(base + e->s.value / k, base + e->s.lo / k,
								     base + e->s.hi / k, e->higher_better,
								     WTG_PAIRED_THRESHOLD));
	}
	return n;
}

void wtg_paired_fmt(const struct wtg_paired_entry *e, char *buf, size_t len)
{
	const struct wtg_paired_stat *s = &e->s;
	if (s->difference)
		snprintf(buf, len, "%+.4g %s [%.4g, %.4g] %s, %zu rounds", s->value, e->unit, s->lo, s->hi,
			 e->verdict, s->n);
	else
		snprintf(buf, len, "x%.3f [%.3f-%.3f] %s, %zu rounds", s->value, s->lo, s->hi, e->verdict, s->n);
}

/* The arms' conditions in words, from the note wtg_arms_end wrote ("paired: arm A quiet, arm B
 * burners 2 spin; ..."); false when t has none. */
static bool arm_words(const struct wtg_table *t, char *a, char *b, size_t len, bool *aa)
{
	static const char pa[] = "paired: arm A ", pb[] = ", arm B ";
	for (int i = 0; i < t->nnotes; i++) {
		const char *n = t->notes[i], *m = strncmp(n, pa, sizeof pa - 1) == 0 ? strstr(n, pb) : NULL;
		if (!m)
			continue;
		const char *x = n + sizeof pa - 1, *y = m + sizeof pb - 1, *end = y + strcspn(y, ";(");
		while (end > y && end[-1] == ' ')
			end--;
		snprintf(a, len, "%.*s", (int)(m - x), x);
		snprintf(b, len, "%.*s", (int)(end - y), y);
		*aa = strstr(n, "(an A/A control") != NULL;
		return true;
	}
	return false;
}

void wtg_paired_line(const struct wtg_table *t, const char *dash, char *buf, size_t len)
{
	struct wtg_paired_entry pe[WTG_MAX_HEADLINES];
	int n = wtg_paired_entries(t, pe, WTG_MAX_HEADLINES);
	char a[96], b[96];
	bool aa = false;
	buf[0] = '\0';
	if (n == 0 || !arm_words(t, a, b, sizeof a, &aa))
		return;
	size_t k = (size_t)snprintf(buf, len, "%s vs %s%s, paired over %zu rounds:", a, b, aa ? " (A/A)" : "",
				    pe[0].s.n);
	for (int i = 0; i < n && k < len; i++) {
		const struct wtg_paired_stat *s = &pe[i].s;
		char fig[96];
		snprintf(fig, sizeof fig, "%.*s", (int)strcspn(pe[i].figure, "("), pe[i].figure);
		size_t f = strlen(fig);
		while (f > 0 && fig[f - 1] == ' ')
			fig[--f] = '\0';
		/* an A/A run's arms are the same conditions: its interval says how often noise alone moves
		 * the figure, never that anything is faster or slower */
		bool hold = s->difference ? s->lo <= 0 && 0 <= s->hi : s->lo <= 1 && 1 <= s->hi;
		const char *word = !aa ? pe[i].verdict : hold ? "holds 1" : "excludes 1 (noise does so 1 in 20)";
		if (aa && s->difference)
			word = hold ? "holds 0" : "excludes 0 (noise does so 1 in 20)";
		if (s->difference)
			k += (size_t)snprintf(buf + k, len - k, "%s %+.3g %s [%.3g%s%.3g] %s: %s", i ? ";" : "", s->value,
					      pe[i].unit, s->lo, dash, s->hi, word, fig);
		else if (isfinite(s->lo))
			k += (size_t)snprintf(buf + k, len - k, "%s x%.2f [%.2f%s%.2f] %s: %s", i ? ";" : "", s->value,
					      s->lo, dash, s->hi, word, fig);
		else
			k += (size_t)snprintf(buf + k, len - k, "%s x%.2f: %s", i ? ";" : "", s->value, fig);
	}
}
