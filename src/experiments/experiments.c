/* experiments.c: the ordered registry (the tabs, --list, --run=all). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#include "wtg/compare.h"
#include "wtg/experiment.h"
#include "wtg/figure.h"
#include "wtg/modes.h"
#include "wtg/util.h"

/* Every experiment, in order: a file of its own defines wtg_exp_NAME. */
#define WTG_EXPERIMENT_LIST(X) \
	X(bytewise) \
	X(syscall) \
	X(valley) \
	X(kernels) \
	X(mmap) \
	X(pagecache) \
	X(zerofill) \
	X(faultbase) \
	X(wss) \
	X(threads) \
	X(roofline) \
	X(uncached) \
	X(readcost) \
	X(clock) \
	X(tail) \
	X(passes) \
	X(compare) \
	X(ceiling)

#define DECLARE(n) extern const struct wtg_experiment wtg_exp_##n;
#define ENTRY(n) &wtg_exp_##n,
WTG_EXPERIMENT_LIST(DECLARE)

const struct wtg_experiment *const wtg_experiments[] = { WTG_EXPERIMENT_LIST(ENTRY) };
const int wtg_nexperiments = (int)(sizeof wtg_experiments / sizeof wtg_experiments[0]);

const char *wtg_experiment_runs(const struct wtg_experiment *e, bool quick, char *buf, size_t len)
{
	if (!e->runs_with || len == 0)
		return e->runs;
	e->runs_with(quick, buf, len);
	return buf;
}

int wtg_verdict_busy_note(const struct wtg_experiment *e, const struct wtg_table *t, char *buf, size_t len)
{
	const struct wtg_headline *h = &e->headline[0];
	if (len)
		buf[0] = '\0';
	if (!len || !h->figure)
		return 0;
	double busy = wtg_verdict_value(t, h->key_col, h->key, "contended");
	double all = wtg_verdict_value(t, h->key_col, h->key, "samples");
	if (!isfinite(all))
		all = wtg_verdict_value(t, h->key_col, h->key, "batches");
	if (!isfinite(busy) || busy < 1 || !isfinite(all))
		return 0;
	int k = snprintf(buf, len, " (%.0f of %.0f samples waited for a CPU)", busy, all);
	return k < 0 ? 0 : k >= (int)len ? (int)len - 1 : k;
}

/* The verdict's figure measured on a busy machine says so: wtg_verdict_busy_note after the verdict
 * (n long), unless the verdict put it beside its figure itself. Returns the new length. */
static int busy_suffix(const struct wtg_experiment *e, const struct wtg_table *t, char *buf, size_t len, int n)
{
	if (n <= 0 || (size_t)n >= len - 1 || strstr(buf, " samples waited for a CPU)"))
		return n;
	return n + wtg_verdict_busy_note(e, t, buf + n, len - (size_t)n);
}

/* "; 85 ns (60%) and 103 ns (40%): two regimes" after the verdict (n long) when the first headline's
 * samples fall into two separated clusters (a difference's, of two passes, are not states): the
 * median is never the figure alone. Returns the new length. */
static int regimes_suffix(const struct wtg_experiment *e, const struct wtg_table *t, char *buf, size_t len, int n)
{
	const struct wtg_headline *h = &e->headline[0];
	struct wtg_figure f;
	struct wtg_modes m;
	if (!h->figure || h->difference || n <= 0 || (size_t)n >= len - 1)
		return n;
	wtg_figure_read(h, t, &f);
	if (!f.found || !f.samples || wtg_two_modes(f.samples, f.nsamples, &m) < 0 || !m.two)
		return n;
	char words[160], moved[256], sn[96];
	wtg_modes_words(words, sizeof words, &m, h->unit);
	/* steal and MHz per sample where the run kept them beside the samples ("batch 1000 steal",
	 * "batch 1000 mhz"), else the run's */
	struct wtg_figure fs[2] = { { 0 }, { 0 } };
	for (int i = 0; i < 2 && h->series; i++) {
		snprintf(sn, sizeof sn, "%s %s", h->series, i ? "mhz" : "steal");
		wtg_figure_series(t, sn, &fs[i]);
		if (fs[i].nsamples != f.nsamples)
			fs[i].samples = NULL;
	}
	struct wtg_modes_state st;
	wtg_modes_state_of(&m, f.samples, fs[0].samples, fs[1].samples, f.nsamples, h->unit, t->steal_pct, t->mhz_min,
			   t->mhz_max, &st);
	wtg_modes_state_words(moved, sizeof moved, &st);
	int k = snprintf(buf + n, len - (size_t)n, "; %s; %s", words, moved);
	return k < 0 ? n : n + k >= (int)len ? (int)len - 1 : n + k;
}

int wtg_experiment_verdict(const struct wtg_experiment *e, const struct wtg_table *t, char *buf, size_t len)
{
	if (!len)
		return 0;
	buf[0] = '\0';
	if (!e || !t || t->nrows == 0)
		return 0;
	if (e->verdict)
		return regimes_suffix(e, t, buf, len, busy_suffix(e, t, buf, len, e->verdict(t, buf, len)));
	for (int i = 0; i < WTG_MAX_HEADLINES && e->headline[i].figure; i++) {
		struct wtg_figure f;
		wtg_figure_read(&e->headline[i], t, &f);
		if (!f.found || !isfinite(f.value))
			continue;
		char v[32];
		snprintf(v, sizeof v, "%.3g", f.value);
		int n = snprintf(buf, len, "%s: %s %s", e->headline[i].figure, v, e->headline[i].unit);
		n = busy_suffix(e, t, buf, len, n < 0 ? 0 : n >= (int)len ? (int)len - 1 : n);
		return regimes_suffix(e, t, buf, len, n);
	}
	return 0;
}

double wtg_verdict_value(const struct wtg_table *t, const char *key_col, const char *key, const char *col)
{
	struct wtg_headline h = { .figure = "", .key_col = key_col, .key = key, .col = col, .series = col ? NULL : key };
	struct wtg_figure f;
	wtg_figure_read(&h, t, &f);
	return f.found ? f.value : NAN;
}

double wtg_verdict_extreme(const struct wtg_table *t, const char *key_col, const char *key, const char *col,
			   int most, int *row)
{
	int kc = key_col ? wtg_table_col(t, key_col) : -1, c = wtg_table_col(t, col);
	double best = NAN;
	if (row)
		*row = -1;
	if (c < 0 || (key_col && kc < 0))
		return NAN;
	for (int r = 0; r < t->nrows; r++) {
		if (wtg_row_arm_b(t, r))
			continue;	/* a paired run: arm A's rows */
		if (kc >= 0) {
			const struct wtg_value *v = &t->rows[r].v[kc];
			if (v->type != WTG_T_TEXT || !v->s || strcmp(v->s, key) != 0)
				continue;
		}
		double x = wtg_table_num(t, r, c);
		if (isfinite(x) && (isnan(best) || (most > 0 ? x > best : x < best))) {
			best = x;
			if (row)
				*row = r;
		}
	}
	return best;
}

/* Row r's figure: column col, its CI columns, the series called name (when there is one). */
static void row_figure(const struct wtg_table *t, int r, const char *col, const char *name, struct wtg_figure *f)
{
	char lo[64], hi[64];
	snprintf(lo, sizeof lo, "%s_ci_low", col);
	snprintf(hi, sizeof hi, "%s_ci_high", col);
	int c = wtg_table_col(t, col), cl = wtg_table_col(t, lo), ch = wtg_table_col(t, hi);
	memset(f, 0, sizeof *f);
	f->value = c >= 0 && r >= 0 && r < t->nrows ? wtg_table_num(t, r, c) : NAN;
	f->lo = cl >= 0 && ch >= 0 && isfinite(f->value) ? wtg_table_num(t, r, cl) : NAN;
	f->hi = cl >= 0 && ch >= 0 && isfinite(f->value) ? wtg_table_num(t, r, ch) : NAN;
	f->found = isfinite(f->value);
	wtg_figure_series(t, name, f);
}

double wtg_verdict_ratio(const struct wtg_table *t, int rn, int rd, const char *col, const char *sn,
			 const char *sd, double *lo, double *hi)
{
	struct wtg_figure num, den;
	row_figure(t, rn, col, sn, &num);
	row_figure(t, rd, col, sd, &den);
	double ratio;
	const char *method;
	wtg_ratio_ci(&den, &num, 1, &ratio, lo, hi, &method);
	return ratio;
}

int wtg_verdict_fmt(char *buf, size_t len, bool ok, const char *fmt, ...)
{
	if (!len)
		return 0;
	buf[0] = '\0';
	if (!ok)
		return 0;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 ? 0 : n >= (int)len ? (int)len - 1 : n;
}

int wtg_experiment_find(const char *name)
{
	for (int i = 0; i < wtg_nexperiments; i++)
		if (strcmp(wtg_experiments[i]->name, name) == 0)
			return i;
	return -1;
}

const char *wtg_view_name(enum wtg_view v)
{
	switch (v) {
	case WTG_VIEW_SWEEP: return "sweep";
	case WTG_VIEW_BARS: return "bars";
	case WTG_VIEW_HISTOGRAM: return "histogram";
	case WTG_VIEW_COUNTERS: return "counters";
	}
	return "?";
}

static int bad(char *why, size_t len, const char *fmt, ...) WTG_PRINTF(3, 4);
static int bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* Each name in names (n of them, NULLs skipped) must be a declared column of e. */
static int check_cols(const struct wtg_experiment *e, const char *what, const char *const *names, int n,
		      char *why, size_t len)
{
	for (int i = 0; i < n; i++)
		if (names[i] && wtg_experiment_col(e, names[i]) < 0)
			return bad(why, len, "%s: %s names '%s', not a declared column", e->name, what, names[i]);
	return 0;
}

/* Column name of e, when declared, must hold text (text) or numbers (!text). */
static int check_type(const struct wtg_experiment *e, const char *what, const char *name, bool text, char *why,
		      size_t len)
{
	int c = wtg_experiment_col(e, name);
	if (c < 0 || (e->cols[c].type == WTG_T_TEXT) == text)
		return 0;
	return bad(why, len, "%s: %s '%s' must be a %s column", e->name, what, name, text ? "text" : "numeric");
}

/* The declared view's spec names only declared columns, and the view has what it needs. */
static int check_view(const struct wtg_experiment *e, char *why, size_t len)
{
	const struct wtg_sweep_spec *s = &e->sweep;
	const struct wtg_bars_spec *b = &e->bars;
	const char *sw[] = { s->x, s->y[0], s->y[1], s->y[2], s->group };
	const char *ba[] = { b->label[0], b->label[1], b->value, b->extra, b->ci[0], b->ci[1] };
	const char *hi[] = { e->hist.label }, *co[] = { e->counters.counter };
	if (check_cols(e, "the sweep", sw, 5, why, len) || check_cols(e, "the bars", ba, 6, why, len) ||
	    check_cols(e, "the histogram", hi, 1, why, len) || check_cols(e, "the counters", co, 1, why, len))
		return -1;
	if (check_type(e, "the sweep's x", s->x, false, why, len) ||
	    check_type(e, "the sweep's y", s->y[0], false, why, len) ||
	    check_type(e, "the sweep's group", s->group, true, why, len) ||
	    check_type(e, "the bars' value", b->value, false, why, len) ||
	    check_type(e, "the histogram's label", e->hist.label, true, why, len) ||
	    check_type(e, "the counters' counter", e->counters.counter, false, why, len))
		return -1;
	switch (e->view) {
	case WTG_VIEW_SWEEP:
		if (!s->x || !s->y[0] || !s->xtitle)
			return bad(why, len, "%s: a sweep without its x, y or x title", e->name);
		break;
	case WTG_VIEW_BARS:
		if (!b->label[0] || !b->value)
			return bad(why, len, "%s: bars without a label or a value", e->name);
		break;
	case WTG_VIEW_HISTOGRAM:
		if (!e->hist.label)
			return bad(why, len, "%s: a histogram without its label column", e->name);
		break;
	case WTG_VIEW_COUNTERS:
		break;
	default:
		return bad(why, len, "%s: no such view %d", e->name, (int)e->view);
	}
	return 0;
}

/* A headline names declared columns, numeric ones where numbers are read, in the unit it says. */
static int check_headline(const struct wtg_experiment *e, const struct wtg_headline *h, char *why, size_t len)
{
	const char *names[] = { h->key_col, h->col, h->lo_col, h->hi_col, h->per_col, h->work_col };
	if (check_cols(e, "a headline", names, 6, why, len) ||
	    check_type(e, "a headline", h->col, false, why, len) ||
	    check_type(e, "a headline's CI", h->lo_col, false, why, len) ||
	    check_type(e, "a headline's CI", h->hi_col, false, why, len))
		return -1;
	if (!h->unit || (!h->col && !h->series) || (!h->key_col != !h->key) || (!h->lo_col != !h->hi_col))
		return bad(why, len, "%s: headline '%s' lacks its unit, value, key or one end of its CI", e->name,
			   h->figure);
	if (h->per_col && !(h->per_scale > 0))
		return bad(why, len, "%s: headline '%s' is per %s without a scale", e->name, h->figure, h->per_col);
	int c = wtg_experiment_col(e, h->col);
	if (c >= 0 && !h->per_col && strcmp(e->cols[c].unit, h->unit) != 0)
		return bad(why, len, "%s: headline '%s' says %s, its column '%s' is in %s", e->name, h->figure,
			   h->unit, h->col, e->cols[c].unit);
	return 0;
}

int wtg_experiment_check(const struct wtg_experiment *e, char *why, size_t len)
{
	if (!e->name || !e->name[0] || !e->question || !e->runs)
		return bad(why, len, "an experiment without a name, question or description");
	if (!e->run)
		return bad(why, len, "%s: no run function", e->name);
	if (!e->cols || e->ncols < 1 || e->ncols > WTG_MAX_COLS)
		return bad(why, len, "%s: %d columns declared (1 to %d)", e->name, e->ncols, WTG_MAX_COLS);
	for (int c = 0; c < e->ncols; c++) {
		if (!e->cols[c].name || !e->cols[c].name[0] || !e->cols[c].unit)
			return bad(why, len, "%s: column %d without a name or unit", e->name, c + 1);
		if (wtg_experiment_col(e, e->cols[c].name) != c)
			return bad(why, len, "%s: column '%s' declared twice", e->name, e->cols[c].name);
	}
	if (check_view(e, why, len))
		return -1;
	for (int i = 0; i < WTG_MAX_HEADLINES && e->headline[i].figure; i++)
		if (check_headline(e, &e->headline[i], why, len))
			return -1;
	if (e->compare.fn && (!e->compare.col || !e->compare.what))
		return bad(why, len, "%s: a compare pairing without its column or words", e->name);
	if (check_cols(e, "the compare pairing", &e->compare.col, 1, why, len) ||
	    check_type(e, "the compare pairing", e->compare.col, false, why, len))
		return -1;
	return 0;
}

const struct wtg_experiment *wtg_compare_target(const char *name)
{
	int i = wtg_experiment_find(name);
	return i >= 0 && wtg_experiments[i]->compare.fn ? wtg_experiments[i] : NULL;
}

void wtg_compare_choices(char *buf, size_t len, const char *sep)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < wtg_nexperiments; i++) {
		if (!wtg_experiments[i]->compare.fn)
			continue;
		int k = snprintf(buf + o, len - o, "%s%s", o ? sep : "", wtg_experiments[i]->name);
		if (k < 0 || (size_t)k >= len - o) {
			buf[o] = '\0';	/* whole words only */
			return;
		}
		o += (size_t)k;
	}
}

const char *wtg_compare_default(void)
{
	const char *first = NULL;
	for (int i = 0; i < wtg_nexperiments; i++)
		if (wtg_experiments[i]->compare.fn) {
			if (wtg_experiments[i]->compare.is_default)
				return wtg_experiments[i]->name;
			if (!first)
				first = wtg_experiments[i]->name;
		}
	return first;
}
