/* replicate.c: runs of one machine and one set of options side by side: per headline figure each
 * run's median with its 95% CI, the spread between the runs, and how many of the other runs' medians
 * each CI holds (the 'replication' check: ok when every CI holds most of them); the runs pooled, the
 * interval a next run should fall in (four runs or more), and, with five or more, each run's median
 * against the interval the other runs predict for it (the confirmation a next run gives). --replicate=N makes
 * the runs (each pass in a seeded order, each kept whole as its JSON report); several --load files
 * give the same table. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/figure.h"
#include "wtg/replicate.h"
#include "wtg/report.h"
#include "wtg/stats.h"
#include "wtg/util.h"

#define RMAX 32	/* runs in one table at most */

/* One headline figure across the runs. */
struct fig {
	const char *exp;
	const struct wtg_headline *h;
	int nruns;
	double v[RMAX], lo[RMAX], hi[RMAX];
	int holds[RMAX], others[RMAX];	/* other runs' values inside this run's CI, of how many */
	int with_ci, holding_most;	/* runs with a CI; those holding more than half of the others */
	double min, max, median, spread_pct;
	struct wtg_pooled pooled;	/* the runs pooled across them (k < 2: none) */
	/* each run's median against the next-run interval of the other runs pooled (four of them or
	 * more): 1 inside, 0 outside, -1 not judged; how many were judged, how many inside */
	signed char predicted[RMAX];
	int next_of, next_held;
};

/* Run r's value and CI of h (a CI bootstrapped from the raw samples when the table has none). */
static void read_one(struct fig *g, int r, const struct wtg_gate_run *run, int idx, uint64_t seed)
{
	g->v[r] = g->lo[r] = g->hi[r] = NAN;
	if (!run->tables[idx] || run->tables[idx]->nrows == 0)
		return;
	struct wtg_figure f;
	wtg_figure_read_ci(g->h, run->tables[idx], seed, &f);
	if (!f.found)
		return;
	g->v[r] = f.value;
	g->lo[r] = f.lo;
	g->hi[r] = f.hi;
}

/* Each run as the next one: its median against the interval the other runs, pooled, give a next run
 * (wtg_pool_runs' next_lo .. next_hi; four other runs with a CI or more). */
static void predict_each(struct fig *g)
{
	g->next_of = g->next_held = 0;
	for (int r = 0; r < g->nruns; r++) {
		g->predicted[r] = -1;
		if (!isfinite(g->v[r]))
			continue;
		double v[RMAX], lo[RMAX], hi[RMAX];
		int k = 0;
		for (int o = 0; o < g->nruns; o++)
			if (o != r) {
				v[k] = g->v[o];
				lo[k] = g->lo[o];
				hi[k++] = g->hi[o];
			}
		struct wtg_pooled p;
		if (wtg_pool_runs(v, lo, hi, k, WTG_BOOTSTRAP_CONF, &p) < 0 || !isfinite(p.next_lo))
			continue;
		g->predicted[r] = g->v[r] >= p.next_lo && g->v[r] <= p.next_hi;
		g->next_of++;
		g->next_held += g->predicted[r];
	}
}

/* The holds, the spread and the counts, from the values and CIs. */
static void judge(struct fig *g)
{
	double vals[RMAX];
	int nv = 0;
	g->with_ci = g->holding_most = 0;
	for (int r = 0; r < g->nruns; r++)
		if (isfinite(g->v[r]))
			vals[nv++] = g->v[r];
	for (int r = 0; r < g->nruns; r++) {
		g->holds[r] = g->others[r] = 0;
		if (!isfinite(g->v[r]) || !isfinite(g->lo[r]) || !isfinite(g->hi[r]))
			continue;
		for (int o = 0; o < g->nruns; o++) {
			if (o == r || !isfinite(g->v[o]))
				continue;
			g->others[r]++;
			g->holds[r] += g->v[o] >= g->lo[r] && g->v[o] <= g->hi[r];
		}
		if (g->others[r] == 0)
			continue;
		g->with_ci++;
		g->holding_most += 2 * g->holds[r] > g->others[r];
	}
	wtg_sort(vals, (size_t)nv);
	g->min = nv ? vals[0] : NAN;
	g->max = nv ? vals[nv - 1] : NAN;
	g->median = nv ? wtg_quantile_sorted(vals, (size_t)nv, 0.5) : NAN;
	/* a difference (mmap's ns per fault) may sit about 0: no spread as a share of it */
	g->spread_pct = nv > 1 && g->median != 0 && !g->h->difference ? 100.0 * (g->max - g->min) / fabs(g->median) : NAN;
	wtg_pool_runs(g->v, g->lo, g->hi, g->nruns, WTG_BOOTSTRAP_CONF, &g->pooled);
	predict_each(g);
}

/* I^2 in words (as printed, to the percent): how much of the spread between the runs their own CIs
 * leave unexplained. */
static const char *i2_words(double i2_pct)
{
	return i2_pct >= 49.5 ? "most of the spread between the runs lies beyond their CIs: the machine changed "
			      "between them in a way no run's replicas saw" :
	       i2_pct >= 0.5 ? "the runs' CIs account for most of the spread between them" :
			      "the runs' CIs account for the spread between them";
}

static const char *status_of(const struct fig *g)
{
	return g->with_ci == 0 ? "none" : g->holding_most == g->with_ci ? "ok" : "warn";
}

/* Every headline figure any run holds; returns the count (*out to free), -1 when out of memory. */
static int collect(const struct wtg_gate_run *runs, int n, uint64_t seed, struct fig **out)
{
	int nf = 0;
	struct fig *g = NULL;
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++) {
		int nh;
		const struct wtg_headline *h = wtg_headlines_of(wtg_experiments[i], &nh);
		for (int k = 0; wtg_gate_any_table(runs, n, i) && k < nh; k++) {
			struct fig *grown = realloc(g, (size_t)(nf + 1) * sizeof *g);
			if (!grown) {
				free(g);
				return -1;
			}
			g = grown;
			struct fig *x = &g[nf++];
			memset(x, 0, sizeof *x);
			x->exp = wtg_experiments[i]->name;
			x->h = &h[k];
			x->nruns = n;
			for (int r = 0; r < n; r++)
				read_one(x, r, &runs[r], i, seed);
			judge(x);
		}
	}
	*out = g;
	return nf;
}

/* "; a next run [lo, hi]" when the runs give one, else "". */
static const char *next_words(const struct fig *g)
{
	static char buf[96];
	buf[0] = '\0';
	if (isfinite(g->pooled.next_lo))
		snprintf(buf, sizeof buf, "; a next run [%.4g, %.4g]", g->pooled.next_lo, g->pooled.next_hi);
	return buf;
}

static void check_line(FILE *f, const struct fig *g)
{
	fprintf(f, "warn    replication: %s, %s: %d of %d runs' CIs hold most of the other runs' medians (",
		g->exp, g->h->figure, g->holding_most, g->with_ci);
	if (g->pooled.k < 2)
		fputs("the runs differ by more than one run's CI says)\n", f);
	else
		fprintf(f, "%s, I^2 %.0f%%; across the runs %.4g [%.4g, %.4g]%s)\n",
			g->pooled.i2_pct >= 49.5 ? "the runs differ by more than their CIs allow: a change between runs" :
						 "their CIs together account for the spread, each run's alone does not",
			g->pooled.i2_pct, g->pooled.value, g->pooled.lo, g->pooled.hi, next_words(g));
}

static void text_fig(FILE *f, const struct fig *g, const struct wtg_gate_run *runs)
{
	fprintf(f, "\n%s: %s (%s%s%s is better)\n", g->exp, g->h->figure, g->h->unit, g->h->unit[0] ? ", " : "",
		g->h->higher_better ? "higher" : "lower");
	fprintf(f, "  %-16s %12s  %-27s %s\n", "run", "median", "95% CI", "holds");
	for (int r = 0; r < g->nruns; r++) {
		char val[32] = "-", ci[64] = "", holds[32] = "";
		if (isfinite(g->v[r]))
			snprintf(val, sizeof val, "%.4g", g->v[r]);
		if (isfinite(g->lo[r]))
			snprintf(ci, sizeof ci, "[%.4g, %.4g]", g->lo[r], g->hi[r]);
		if (g->others[r])
			snprintf(holds, sizeof holds, "%d of %d", g->holds[r], g->others[r]);
		char label[20];
		wtg_strlcpy(label, runs[r].meta->label, sizeof label);
		fprintf(f, "  %-16s %12s  %-27s %s\n", label, val, ci, holds);
	}
	if (isfinite(g->spread_pct))
		fprintf(f, "  between runs: %.4g to %.4g, a spread of %.1f%% of their median %.4g; CIs holding "
			   "most of the other medians: %d of %d\n",
			g->min, g->max, g->spread_pct, g->median, g->holding_most, g->with_ci);
	if (g->pooled.k >= 2)
		fprintf(f, "  across the %d runs: %.4g [%.4g, %.4g] (random effects); I^2 %.0f%%: %s\n", g->pooled.k,
			g->pooled.value, g->pooled.lo, g->pooled.hi, g->pooled.i2_pct, i2_words(g->pooled.i2_pct));
	if (isfinite(g->pooled.next_lo))
		fprintf(f, "  a next run: [%.4g, %.4g] (95%% prediction: the spread between these runs, the pooled "
			   "figure's error and a run's own)\n",
			g->pooled.next_lo, g->pooled.next_hi);
	else if (g->pooled.k == 3)
		fputs("  a next run: four runs or more say where it should fall (three leave Student's t one degree of "
		      "freedom, 12.7)\n", f);
	if (g->next_of)
		fprintf(f, "  each run as the next one: %d of %d medians inside the interval the other runs give it\n",
			g->next_held, g->next_of);
}

static int text_report(FILE *f, const struct fig *g, int nf, const struct wtg_gate_run *runs, int n)
{
	fprintf(f, "replication: %d runs, each run's 95%% CI against the other runs' medians\n", n);
	int warned = 0, judged = 0;
	for (int i = 0; i < nf; i++)
		text_fig(f, &g[i], runs);
	fputc('\n', f);
	for (int i = 0; i < nf; i++) {
		judged += strcmp(status_of(&g[i]), "none") != 0;
		if (!strcmp(status_of(&g[i]), "warn")) {
			check_line(f, &g[i]);
			warned++;
		}
	}
	if (!warned)
		fprintf(f, "%s replication: %s\n", judged ? "ok     " : "none   ",
			judged ? "every run's CI holds most of the other runs' medians" :
				 "no figure has a CI in two runs");
	int held = 0, of = 0, cis = 0, holding = 0;
	for (int i = 0; i < nf; i++) {
		held += g[i].next_held;
		of += g[i].next_of;
		for (int r = 0; r < g[i].nruns; r++) {
			cis += g[i].others[r];
			holding += g[i].holds[r];
		}
	}
	if (of)
		fprintf(f, "\neach run's CI held %d of %d other runs' medians (%.0f%%); each run's median lay inside "
			   "the interval the other runs gave a next run %d of %d times (%.0f%%)\n",
			holding, cis, cis ? 100.0 * holding / cis : 0.0, held, of, 100.0 * held / of);
	return warned;
}

static void json_fig(FILE *f, const struct fig *g, const struct wtg_gate_run *runs)
{
	fprintf(f, "{\"experiment\": \"%s\", \"figure\": ", g->exp);
	wtg_json_string(f, g->h->figure);
	fprintf(f, ", \"unit\": \"%s\", \"better\": \"%s\", \"runs\": [", g->h->unit,
		g->h->higher_better ? "higher" : "lower");
	for (int r = 0; r < g->nruns; r++) {
		fputs(r ? ", {\"label\": " : "{\"label\": ", f);
		wtg_json_string(f, runs[r].meta->label);
		wtg_json_member(f, "value", g->v[r]);
		wtg_json_member(f, "ci_low", g->lo[r]);
		wtg_json_member(f, "ci_high", g->hi[r]);
		fprintf(f, ", \"holds\": %d, \"others\": %d, \"in_next\": %s}", g->holds[r], g->others[r],
			g->predicted[r] < 0 ? "null" : g->predicted[r] ? "true" : "false");
	}
	fputc(']', f);
	wtg_json_member(f, "min", g->min);
	wtg_json_member(f, "max", g->max);
	wtg_json_member(f, "median", g->median);
	wtg_json_member(f, "spread_pct", g->spread_pct);
	fprintf(f, ", \"pooled\": {\"runs\": %d", g->pooled.k);
	wtg_json_member(f, "value", g->pooled.value);
	wtg_json_member(f, "ci_low", g->pooled.lo);
	wtg_json_member(f, "ci_high", g->pooled.hi);
	wtg_json_member(f, "i2_pct", g->pooled.i2_pct);
	wtg_json_member(f, "tau", g->pooled.tau);
	wtg_json_member(f, "q", g->pooled.q);
	wtg_json_member(f, "next_low", g->pooled.next_lo);
	wtg_json_member(f, "next_high", g->pooled.next_hi);
	fputc('}', f);
	fprintf(f, ", \"next_held\": %d, \"next_of\": %d", g->next_held, g->next_of);
	fprintf(f, ", \"with_ci\": %d, \"holding_most\": %d, \"status\": \"%s\"}", g->with_ci, g->holding_most,
		status_of(g));
}

static int json_report(FILE *f, const struct fig *g, int nf, const struct wtg_gate_run *runs, int n)
{
	int warned = 0;
	fprintf(f, "{\"runs\": %d, \"figures\": [", n);
	for (int i = 0; i < nf; i++) {
		fputs(i ? ",\n    " : "\n    ", f);
		json_fig(f, &g[i], runs);
		warned += !strcmp(status_of(&g[i]), "warn");
	}
	fprintf(f, "%s], \"status\": \"%s\"}", nf ? "\n  " : "", warned ? "warn" : "ok");
	return warned;
}

int wtg_replication_report(FILE *f, enum wtg_format fmt, const struct wtg_gate_run *runs, int n, uint64_t seed)
{
	if (n > RMAX)
		n = RMAX;
	struct fig *g = NULL;
	int nf = collect(runs, n, seed, &g);
	if (nf < 0) {
		errno = ENOMEM;
		return -1;
	}
	locale_t old = wtg_report_locale_begin();
	int warned = fmt == WTG_FMT_JSON ? json_report(f, g, nf, runs, n) : text_report(f, g, nf, runs, n);
	wtg_report_locale_end(old);
	free(g);
	return ferror(f) ? -1 : warned;
}

int wtg_replicas_init(struct wtg_replicas *rp)
{
	memset(rp, 0, sizeof *rp);
	rp->l = calloc(WTG_MAX_REPLICATES, sizeof *rp->l);
	return rp->l ? 0 : -1;
}

void wtg_replicas_free(struct wtg_replicas *rp)
{
	for (int r = 0; r < rp->n; r++) {
		free(rp->json[r]);
		wtg_loaded_free(&rp->l[r]);
	}
	free(rp->l);
	memset(rp, 0, sizeof *rp);
}

int wtg_replicas_take(struct wtg_replicas *rp, struct wtg_session *s, const bool *selected, const int *order,
		      int norder, char *err, size_t errlen)
{
	if (rp->n == WTG_MAX_REPLICATES) {
		snprintf(err, errlen, "at most %d runs", WTG_MAX_REPLICATES);
		return -1;
	}
	int r = rp->n;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f || wtg_report_write(f, WTG_FMT_JSON, s, selected) < 0 || fclose(f) != 0) {
		snprintf(err, errlen, "run %d: keeping its report: %s", r + 1, strerror(errno ? errno : ENOMEM));
		free(buf);
		return -1;
	}
	char name[32];
	snprintf(name, sizeof name, "run %d", r + 1);
	if (wtg_load_buffer(buf, len, name, &rp->l[r], err, errlen) < 0) {
		free(buf);
		return -1;
	}
	/* "run 2", or "quiet 2" under --label=quiet: the table tells the runs apart */
	struct wtg_run_meta *m = &rp->l[r].meta;
	if (s->opt->label)
		snprintf(m->label_buf, sizeof m->label_buf, "%.100s %d", s->opt->label, r + 1);
	else
		wtg_strlcpy(m->label_buf, name, sizeof m->label_buf);
	m->label = m->label_buf;
	rp->json[r] = buf;
	rp->len[r] = len;
	size_t k = 0;
	rp->order[r][0] = '\0';
	for (int i = 0; i < norder && k < sizeof rp->order[r]; i++)
		k += (size_t)snprintf(rp->order[r] + k, sizeof rp->order[r] - k, "%s%s", i ? ", " : "",
				      wtg_experiments[order[i]]->name);
	rp->n++;
	return 0;
}

static void runs_of(const struct wtg_replicas *rp, struct wtg_gate_run *runs)
{
	for (int r = 0; r < rp->n; r++) {
		memset(&runs[r], 0, sizeof runs[r]);
		runs[r].meta = &rp->l[r].meta;
		for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++)
			runs[r].tables[i] = rp->l[r].present[i] ? &rp->l[r].tables[i] : NULL;
	}
}

int wtg_replicas_write(FILE *f, enum wtg_format fmt, const struct wtg_replicas *rp, uint64_t seed)
{
	struct wtg_gate_run runs[WTG_MAX_REPLICATES];
	runs_of(rp, runs);
	if (fmt == WTG_FMT_JSON) {
		fprintf(f, "{\n  \"tool\": \"wtg\",\n  \"replicates\": %d,\n  \"runs\": [\n", rp->n);
		for (int r = 0; r < rp->n; r++) {
			size_t len = rp->len[r];
			while (len && rp->json[r][len - 1] == '\n')
				len--;
			fwrite(rp->json[r], 1, len, f);
			fputs(r + 1 < rp->n ? ",\n" : "\n", f);
		}
		fputs("  ],\n  \"order\": [", f);
		for (int r = 0; r < rp->n; r++) {
			fputs(r ? ", " : "", f);
			wtg_json_string(f, rp->order[r]);
		}
		fputs("],\n  \"replication\": ", f);
		int w = wtg_replication_report(f, fmt, runs, rp->n, seed);
		fputs("\n}\n", f);
		return ferror(f) ? -1 : w;
	}
	for (int r = 0; r < rp->n; r++) {
		struct wtg_report_meta m;
		const struct wtg_table *tables[WTG_MAX_EXP];
		wtg_loaded_report_meta(&rp->l[r], &m, tables);
		fprintf(f, "=== run %d of %d (in this order: %s) ===\n\n", r + 1, rp->n, rp->order[r]);
		if (wtg_report_write_meta(f, WTG_FMT_TEXT, &m, tables) < 0)
			return -1;
		fputc('\n', f);
	}
	return wtg_replication_report(f, fmt, runs, rp->n, seed);
}
