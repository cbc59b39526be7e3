/* gate.c: headline figures of runs side by side (saved with --load, or live), each run's ratio to
 * the first with a 95% CI, and the regression gate (--baseline): a figure regresses when it is
 * worse than the baseline's by more than --threshold and its CI excludes the threshold too; against
 * a baseline of several runs (a --replicate document), when it is worse than their pooled figure by
 * more than --threshold and falls outside where their spread says a next run falls. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/gate.h"
#include "wtg/layout.h"
#include "wtg/report.h"
#include "wtg/stats.h"
#include "wtg/util.h"

void wtg_gate_pair_drift(const struct wtg_headline *h, const struct wtg_table *base, const struct wtg_table *now,
			 uint64_t seed, double threshold, const struct wtg_drift *session, struct wtg_gate_pair *out)
{
	memset(out, 0, sizeof *out);
	out->ratio = out->lo = out->hi = out->diff = out->diff_lo = out->diff_hi = NAN;
	out->drift_ratio = out->drift_abs = NAN;
	out->method = "none";
	out->difference = h->difference;
	if (base)
		wtg_figure_read(h, base, &out->base);
	if (now)
		wtg_figure_read(h, now, &out->now);
	if (!out->base.found || !out->now.found) {
		out->v = WTG_V_MISSING;
		return;
	}
	if (!wtg_figure_comparable(h, &out->base, &out->now, out->why, sizeof out->why)) {
		out->v = WTG_V_APART;
		return;
	}
	struct wtg_drift d;
	if (session) {
		d = *session;
	} else {
		wtg_drift_init(&d);
		wtg_drift_add_run(&d, &out->base);
		wtg_drift_add_run(&d, &out->now);
	}
	out->drift_known = wtg_drift_band(&d, &out->drift_ratio, &out->drift_abs);
	if (h->difference) {
		wtg_diff_ci(&out->base, &out->now, seed, &out->diff, &out->diff_lo, &out->diff_hi, &out->method);
		out->v = wtg_verdict_sequential_diff(out->diff, out->diff_lo, out->diff_hi, h->higher_better,
						     out->drift_abs);
		return;
	}
	wtg_ratio_ci(&out->base, &out->now, seed, &out->ratio, &out->lo, &out->hi, &out->method);
	out->v = wtg_verdict_sequential(out->ratio, out->lo, out->hi, h->higher_better, threshold, out->drift_ratio);
}

void wtg_gate_pair(const struct wtg_headline *h, const struct wtg_table *base, const struct wtg_table *now,
		   uint64_t seed, double threshold, struct wtg_gate_pair *out)
{
	wtg_gate_pair_drift(h, base, now, seed, threshold, NULL, out);
}

const char *wtg_gate_pair_words(char *buf, size_t len, const struct wtg_headline *h, const struct wtg_gate_pair *p,
				const char *dash)
{
	if (p->difference)
		return wtg_verdict_words(buf, len, p->v, p->diff_lo, p->diff_hi, dash, p->diff, h->unit);
	return wtg_verdict_words(buf, len, p->v, p->lo, p->hi, dash, NAN, h->unit);
}

/* "; what 'a' vs 'b'" added to buf when a and b differ, both escaped (they come from the files). */
static void add_diff(char *buf, size_t len, const char *what, const char *a, const char *b)
{
	if (!strcmp(a, b))
		return;
	char *ea = wtg_escape_dup(a), *eb = wtg_escape_dup(b);
	size_t n = strlen(buf);
	snprintf(buf + n, len - n, "%s%s '%s' vs '%s'", n ? "; " : "", what, ea ? ea : "?", eb ? eb : "?");
	free(ea);
	free(eb);
}

static void add_diff_int(char *buf, size_t len, const char *what, int64_t a, int64_t b)
{
	char x[32], y[32];
	snprintf(x, sizeof x, "%" PRId64, a);
	snprintf(y, sizeof y, "%" PRId64, b);
	add_diff(buf, len, what, x, y);
}

int wtg_gate_warn_differences(FILE *f, const struct wtg_gate_run *runs, int nruns)
{
	int warned = 0;
	const struct wtg_run_meta *a = runs[0].meta;
	for (int r = 1; r < nruns; r++) {
		const struct wtg_run_meta *b = runs[r].meta;
		char mach[8192] = "", opts[1024] = "";
		add_diff(mach, sizeof mach, "hostname", a->machine.hostname, b->machine.hostname);
		add_diff(mach, sizeof mach, "cpu", a->machine.cpu_model, b->machine.cpu_model);
		add_diff_int(mach, sizeof mach, "cpus", a->machine.cpus, b->machine.cpus);
		add_diff(mach, sizeof mach, "kernel", a->machine.kernel, b->machine.kernel);
		if (a->opt.known && b->opt.known) {
			add_diff(opts, sizeof opts, "quick", a->opt.quick ? "yes" : "no", b->opt.quick ? "yes" : "no");
			add_diff_int(opts, sizeof opts, "size", (int64_t)a->opt.size, (int64_t)b->opt.size);
			add_diff_int(opts, sizeof opts, "threads", a->opt.threads, b->opt.threads);
			add_diff_int(opts, sizeof opts, "burn", a->opt.burn, b->opt.burn);
			add_diff(opts, sizeof opts, "background", a->opt.background ? "yes" : "no",
				 b->opt.background ? "yes" : "no");
			add_diff(opts, sizeof opts, "uncached", a->opt.uncached ? "yes" : "no",
				 b->opt.uncached ? "yes" : "no");
		}
		if (mach[0] || opts[0]) {
			fputs("wtg: warning: ", f);
			wtg_escape_put(f, a->label);
			fputs(" and ", f);
			wtg_escape_put(f, b->label);
			fprintf(f, " differ (%s%s%s%s%s): compared all the same\n", mach[0] ? "machine: " : "", mach,
				mach[0] && opts[0] ? "; " : "", opts[0] ? "options: " : "", opts);
			warned++;
		}
	}
	return warned;
}

/* One figure of one run. */
struct entry {
	const char *exp;		/* the experiment's name */
	const struct wtg_headline *h;
	int run;
	bool base;			/* a run of the baseline (the first run, or each of several): no verdict */
	int nbase;			/* the baseline's runs */
	double pooled, next_lo, next_hi;	/* nbase > 1: the baseline pooled, where a next run falls */
	struct wtg_figure f;
	double ratio, lo, hi;
	const char *method;
	enum wtg_verdict v;
	char why[128];			/* APART: "not comparable: " and what differs */
	double diff, diff_lo, diff_hi;	/* a difference headline: after - first, its CI (NAN: none) */
	double drift_pct;		/* the drift band of a sequential pair, in % (NAN: not measured) */
	char words[224];		/* the verdict in words (wtg_gate_pair_words) */
};

static int grow_entries(struct entry **e, int *cap)
{
	int want = *cap ? *cap * 2 : 16;
	struct entry *g = realloc(*e, (size_t)want * sizeof *g);
	if (!g)
		return -1;
	*e = g;
	*cap = want;
	return 0;
}

static bool has_table(const struct wtg_gate_run *run, int idx)
{
	return run->tables[idx] && run->tables[idx]->nrows > 0;
}

bool wtg_gate_any_table(const struct wtg_gate_run *runs, int nruns, int idx)
{
	bool any = false;
	for (int r = 0; r < nruns; r++)
		any = any || has_table(&runs[r], idx);
	return any;
}

/* Figure h of the nbase baseline runs pooled (experiment idx), each run's CI read as the replication
 * table reads it: the pooled value and the next-run interval, NAN where the runs give none. */
static void pool_base(const struct wtg_gate_run *runs, int nbase, int idx, const struct wtg_headline *h,
		      uint64_t seed, double *pooled, double *lo, double *hi)
{
	double v[WTG_POOL_MAX], l[WTG_POOL_MAX], u[WTG_POOL_MAX];
	int k = 0;
	for (int r = 0; r < nbase && k < WTG_POOL_MAX; r++) {
		struct wtg_figure f = { 0 };
		if (has_table(&runs[r], idx))
			wtg_figure_read_ci(h, runs[r].tables[idx], seed, &f);
		v[k] = f.found ? f.value : NAN;
		l[k] = f.found ? f.lo : NAN;
		u[k++] = f.found ? f.hi : NAN;
	}
	struct wtg_pooled p;
	wtg_pool_runs(v, l, u, k, WTG_BOOTSTRAP_CONF, &p);
	*pooled = p.value;
	*lo = p.next_lo;
	*hi = p.next_hi;
}

/* Run r of a baseline of several against it: the ratio to the pooled value, and for a later run the
 * next-run interval as ratios and its verdict (a figure the work makes incomparable stays apart). */
static void against_pool(struct entry *x, double threshold)
{
	const double p = x->pooled;
	x->ratio = x->f.found && isfinite(p) && p != 0 && !x->h->difference ? x->f.value / p : NAN;
	if (x->h->difference) {
		/* after - the pooled baseline, against where a next run of it falls */
		x->diff = x->f.found && isfinite(p) ? x->f.value - p : NAN;
		if (x->base || x->v == WTG_V_MISSING || x->v == WTG_V_APART)
			return;
		x->diff_lo = x->diff - (x->next_hi - p);
		x->diff_hi = x->diff - (x->next_lo - p);
		x->method = isfinite(x->diff_lo) ? "next run" : "none";
		x->v = wtg_verdict_diff(x->diff, x->diff_lo, x->diff_hi, x->h->higher_better);
		wtg_verdict_words(x->words, sizeof x->words, x->v, x->diff_lo, x->diff_hi, "-", x->diff, x->h->unit);
		return;
	}
	if (x->base || x->v == WTG_V_MISSING || x->v == WTG_V_APART)
		return;
	bool next = isfinite(x->next_lo) && isfinite(p) && p > 0;
	x->lo = next ? x->next_lo / p : NAN;
	x->hi = next ? x->next_hi / p : NAN;
	x->method = next ? "next run" : "none";
	x->v = wtg_verdict_next(x->ratio, x->lo, x->hi, x->h->higher_better, threshold);
	wtg_verdict_words(x->words, sizeof x->words, x->v, x->ratio / x->hi, x->ratio / x->lo, "-", NAN, x->h->unit);
}

/* Entry x (its headline, run, baseline fields set) from the first run's table and its own: a
 * baseline run's figure alone (its ratio to the pooled baseline when there are several), a later
 * run's against the pooled baseline (several) or against the first run (its ratio's CI bootstrapped
 * from both runs' samples: wtg_gate_pair). */
static void one_entry(struct entry *x, const struct wtg_table *first, const struct wtg_table *own, uint64_t seed,
		      double threshold)
{
	x->method = "none";
	x->ratio = x->lo = x->hi = x->diff = x->diff_lo = x->diff_hi = x->drift_pct = NAN;
	if (x->base || x->nbase > 1) {
		struct wtg_figure f0 = { 0 };
		if (own)
			wtg_figure_read(x->h, own, &x->f);
		if (first)
			wtg_figure_read(x->h, first, &f0);
		char why[96] = "";
		if (x->base)
			x->v = x->f.found ? WTG_V_NONE : WTG_V_MISSING;
		else if (!x->f.found || !f0.found)
			x->v = WTG_V_MISSING;
		else if (!wtg_figure_comparable(x->h, &f0, &x->f, why, sizeof why))
			x->v = WTG_V_APART;
		snprintf(x->why, sizeof x->why, "not comparable: %s", why);
		if (x->nbase > 1)
			against_pool(x, threshold);
		else
			x->ratio = x->f.found ? 1 : NAN;
		return;
	}
	struct wtg_gate_pair p;
	wtg_gate_pair(x->h, first, own, seed, threshold, &p);
	x->f = p.now;
	x->method = p.method;
	x->ratio = p.ratio;
	x->lo = p.lo;
	x->hi = p.hi;
	x->v = p.v;
	snprintf(x->why, sizeof x->why, "not comparable: %s", p.why);
	x->diff = p.diff;
	x->diff_lo = p.diff_lo;
	x->diff_hi = p.diff_hi;
	x->drift_pct = 100 * (x->h->difference ? NAN : p.drift_ratio);
	wtg_gate_pair_words(x->words, sizeof x->words, x->h, &p, "-");
	size_t k = strlen(x->words);
	bool moved = p.v == WTG_V_MOVED || p.v == WTG_V_FASTER || p.v == WTG_V_SLOWER;
	if (moved && p.drift_known && x->h->difference)
		snprintf(x->words + k, sizeof x->words - k, " (drift +-%.3g %s)", p.drift_abs, x->h->unit);
	else if (moved && p.drift_known)
		snprintf(x->words + k, sizeof x->words - k, " (drift +-%.2g%%)", x->drift_pct);
}

/* Every headline figure of every experiment any run holds, run by run (the first nbase runs the
 * baseline). Returns the count. */
static int collect(const struct wtg_gate_run *runs, int nruns, int nbase, double threshold, uint64_t seed,
		   struct entry **out)
{
	int n = 0, cap = 0;
	struct entry *e = NULL;
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++) {
		int nh;
		const struct wtg_headline *h = wtg_headlines_of(wtg_experiments[i], &nh);
		bool any = wtg_gate_any_table(runs, nruns, i);
		for (int k = 0; any && k < nh; k++) {
			double pooled = NAN, next_lo = NAN, next_hi = NAN;
			if (nbase > 1)
				pool_base(runs, nbase, i, &h[k], seed, &pooled, &next_lo, &next_hi);
			for (int r = 0; r < nruns; r++) {
				if (n == cap && grow_entries(&e, &cap) < 0)
					goto out;
				struct entry *x = &e[n++];
				memset(x, 0, sizeof *x);
				x->exp = wtg_experiments[i]->name;
				x->h = &h[k];
				x->run = r;
				x->base = r < nbase;
				x->nbase = nbase;
				x->pooled = pooled;
				x->next_lo = next_lo;
				x->next_hi = next_hi;
				one_entry(x, has_table(&runs[0], i) ? runs[0].tables[i] : NULL,
					  has_table(&runs[r], i) ? runs[r].tables[i] : NULL, seed, threshold);
			}
		}
	}
out:
	*out = e;
	return n;
}

static void num(FILE *f, double v, const char *null)
{
	char buf[64];
	wtg_report_real(buf, sizeof buf, v);
	fputs(buf[0] ? buf : null, f);
}

/* A number for people (the Markdown table): three significant figures, as the charts and tables. */
static void num3(FILE *f, double v, const char *null)
{
	char buf[64];
	if (isfinite(v))
		wtg_lay_fmt_num(buf, sizeof buf, v);
	fputs(isfinite(v) ? buf : null, f);
}

/* The verdict column: the verdict in words, or which side of the first run is missing the figure. */
static const char *missing_word(const struct entry *x)
{
	if (x->v == WTG_V_APART)
		return x->why;
	if (x->v != WTG_V_MISSING)
		return x->words[0] ? x->words : wtg_verdict_name(x->v);
	if (!x->f.found)
		return x->run == 0 ? "missing in this run" : "missing in this run";
	return "missing in the first run";
}

/* Whether x's ratio is shown: every run's but the lone baseline's (1 by definition); with several
 * baseline runs theirs too, to the pooled value. */
static bool shows_ratio(const struct entry *x)
{
	return !x->base || x->nbase > 1;
}

static void text_report(FILE *f, const struct entry *e, int n, const struct wtg_gate_run *runs, int nruns,
			int nbase, double threshold_pct)
{
	for (int r = 0; r < nruns; r++) {
		const struct wtg_run_meta *m = runs[r].meta;
		fprintf(f, "%-9s ", r == 0 ? (threshold_pct > 0 ? "baseline:" : "runs:") :
			r == nbase && threshold_pct > 0 ? "now:" : "");
		wtg_escape_put(f, m->label);
		fputs(" (", f);
		wtg_escape_put(f, m->path[0] ? m->path : "measured now");
		fputs(m->timestamp[0] ? ", " : "", f);
		wtg_escape_put(f, m->timestamp);
		fputs(m->machine.hostname[0] ? ", " : "", f);
		wtg_escape_put(f, m->machine.hostname);
		fputs(")\n", f);
	}
	if (nruns > 1 && nbase == 1)
		fprintf(f, "sequential: runs taken one after the other; faster or slower only where the interval lies "
			   "beyond the drift their replicas show, no change inside 1 +- %g%%\n",
			threshold_pct > 0 ? threshold_pct : WTG_NO_CHANGE_PCT);
	for (int i = 0; i < n; i++) {
		const struct entry *x = &e[i];
		char val[32], ratio[16] = "", ci[48] = "";
		if (x->run == 0)
			fprintf(f, "\n%s: %s (%s, %s is better%s)\n", x->exp, x->h->figure, x->h->unit,
				x->h->higher_better ? "higher" : "lower",
				x->h->difference ? "; a difference: each run minus the first, never a ratio" : "");
		if (x->run == 0 && x->nbase > 1 && isfinite(x->pooled)) {
			char next[96] = ", no next-run interval (its runs lack CIs)";
			if (isfinite(x->next_lo))
				snprintf(next, sizeof next, ", a next run [%.4g, %.4g]", x->next_lo, x->next_hi);
			fprintf(f, "  the baseline's %d runs pooled: %.4g%s; the ratios are to it\n", x->nbase, x->pooled,
				next);
		}
		snprintf(val, sizeof val, x->f.found ? "%.4g" : "-", x->f.value);
		if (shows_ratio(x) && isfinite(x->ratio))
			snprintf(ratio, sizeof ratio, "%.3f", x->ratio);
		if (!x->base && isfinite(x->lo))
			snprintf(ci, sizeof ci, "[%.3f, %.3f] %s", x->lo, x->hi, x->method);
		if (shows_ratio(x) && isfinite(x->diff))
			snprintf(ratio, sizeof ratio, "%+.4g", x->diff);
		if (!x->base && isfinite(x->diff_lo))
			snprintf(ci, sizeof ci, "[%+.4g, %+.4g] %s", x->diff_lo, x->diff_hi, x->method);
		char *label = wtg_escape_dup(runs[x->run].meta->label);
		fprintf(f, "  %-16s %10s %7s  %-28s %s\n", label ? label : "?", val, ratio, ci,
			!x->base || x->v == WTG_V_MISSING ? missing_word(x) : "");
		free(label);
	}
}

/* The comparison as one CSV table that files from several machines concatenate into: each line
 * starts with run (the run's label) and host, as a single run's CSV does; run_index is the run's
 * place (0: the first, every ratio's denominator); value, ratio and the CI hold numbers or nothing. */
static void csv_report(FILE *f, const struct entry *e, int n, const struct wtg_gate_run *runs)
{
	fputs("run,host,experiment,figure,unit,better,run_index,value,ratio,ci_low,ci_high,ci_method,verdict,"
	      "difference,diff_low,diff_high,drift_pct\n", f);
	for (int i = 0; i < n; i++) {
		const struct entry *x = &e[i];
		const struct wtg_run_meta *m = runs[x->run].meta;
		wtg_csv_field(f, m->label);
		putc(',', f);
		wtg_csv_field(f, m->machine.hostname);
		fprintf(f, ",%s,", x->exp);
		wtg_csv_field(f, x->h->figure);
		fprintf(f, ",%s,%s,%d,", x->h->unit, x->h->higher_better ? "higher" : "lower", x->run);
		num(f, x->f.found ? x->f.value : NAN, "");
		putc(',', f);
		num(f, x->ratio, "");
		putc(',', f);
		num(f, x->lo, "");
		putc(',', f);
		num(f, x->hi, "");
		fprintf(f, ",%s,", x->method);
		wtg_csv_field(f, missing_word(x));
		const double more[] = { x->diff, x->diff_lo, x->diff_hi, x->drift_pct };
		for (size_t k = 0; k < WTG_ARRAY_LEN(more); k++) {
			putc(',', f);
			num(f, more[k], "");
		}
		putc('\n', f);
	}
}

static void json_report(FILE *f, const struct entry *e, int n, const struct wtg_gate_run *runs, int nruns,
			int nbase, double threshold_pct, int regressions, uint64_t seed, wtg_gate_extra_fn extra)
{
	fprintf(f, "{\n  \"tool\": \"wtg\",\n  \"comparison\": 1,\n  \"threshold_pct\": ");
	num(f, threshold_pct > 0 ? threshold_pct : NAN, "null");
	fprintf(f, ",\n  \"regressions\": %d,\n  \"baseline_runs\": %d,\n  \"sequential\": %s,\n  \"no_change_pct\": %g,"
		   "\n  \"runs\": [", regressions, nbase, nbase == 1 ? "true" : "false",
		threshold_pct > 0 ? threshold_pct : WTG_NO_CHANGE_PCT);
	for (int r = 0; r < nruns; r++) {
		const struct wtg_run_meta *m = runs[r].meta;
		fputs(r ? ",\n    {\"label\": " : "\n    {\"label\": ", f);
		wtg_json_string(f, m->label);
		fputs(", \"path\": ", f);
		wtg_json_string(f, m->path[0] ? m->path : NULL);
		fputs(", \"timestamp\": ", f);
		wtg_json_string(f, m->timestamp[0] ? m->timestamp : NULL);
		fputs(", \"hostname\": ", f);
		wtg_json_string(f, m->machine.hostname[0] ? m->machine.hostname : NULL);
		fputs(", \"cpu_model\": ", f);
		wtg_json_string(f, m->machine.cpu_model[0] ? m->machine.cpu_model : NULL);
		putc('}', f);
	}
	fputs("\n  ],\n  \"figures\": [", f);
	for (int i = 0; i < n; i++) {
		const struct entry *x = &e[i];
		fprintf(f, "%s{\"experiment\": \"%s\", \"figure\": ", i ? ",\n    " : "\n    ", x->exp);
		wtg_json_string(f, x->h->figure);
		fprintf(f, ", \"unit\": \"%s\", \"better\": \"%s\", \"run\": %d, \"label\": ", x->h->unit,
			x->h->higher_better ? "higher" : "lower", x->run);
		wtg_json_string(f, runs[x->run].meta->label);
		wtg_json_member(f, "value", x->f.found ? x->f.value : NAN);
		wtg_json_member(f, "ratio", x->ratio);
		wtg_json_member(f, "ci_low", x->lo);
		wtg_json_member(f, "ci_high", x->hi);
		fprintf(f, ", \"ci_method\": \"%s\"", x->method);
		if (x->nbase > 1) {
			wtg_json_member(f, "baseline_pooled", x->pooled);
			wtg_json_member(f, "next_low", x->next_lo);
			wtg_json_member(f, "next_high", x->next_hi);
		}
		if (x->h->difference) {
			wtg_json_member(f, "difference", x->diff);
			wtg_json_member(f, "diff_low", x->diff_lo);
			wtg_json_member(f, "diff_high", x->diff_hi);
		}
		if (!x->base && x->nbase == 1)
			wtg_json_member(f, "drift_pct", x->drift_pct);
		fputs(", \"verdict\": ", f);
		bool none = x->base && x->v != WTG_V_MISSING;
		wtg_json_string(f, none ? NULL : x->v == WTG_V_MISSING || x->v == WTG_V_APART ? missing_word(x) :
						       wtg_verdict_name(x->v));
		fputs(", \"words\": ", f);
		wtg_json_string(f, none ? NULL : missing_word(x));
		putc('}', f);
	}
	fputs(n ? "\n  ]" : "]", f);
	if (extra) {
		fputs(",\n  \"replication\": ", f);
		extra(f, WTG_FMT_JSON, runs, nruns, seed);
	}
	fputs("\n}\n", f);
}

static void markdown_report(FILE *f, const struct entry *e, int n, const struct wtg_gate_run *runs)
{
	fputs("| experiment | figure | unit | run | value | ratio | 95% CI | verdict |\n"
	      "|---|---|---|---|---:|---:|---|---|\n", f);
	for (int i = 0; i < n; i++) {
		const struct entry *x = &e[i];
		fprintf(f, "| %s | %s | %s | ", x->exp, x->h->figure, x->h->unit);
		wtg_markdown_text(f, runs[x->run].meta->label);
		fputs(" | ", f);
		num3(f, x->f.found ? x->f.value : NAN, "-");
		fputs(" | ", f);
		if (isfinite(x->diff) && shows_ratio(x))
			fprintf(f, "%+.3g %s", x->diff, x->h->unit);
		else
			num3(f, shows_ratio(x) ? x->ratio : NAN, "");
		if (!x->base && isfinite(x->diff_lo))
			fprintf(f, " | [%+.3g, %+.3g] %s", x->diff_lo, x->diff_hi, x->method);
		else if (!x->base && isfinite(x->lo)) {
			fputs(" | [", f);
			num3(f, x->lo, "");
			fputs(", ", f);
			num3(f, x->hi, "");
			fprintf(f, "] %s", x->method);
		} else
			fputs(" | ", f);
		fprintf(f, " | %s |\n", !x->base || x->v == WTG_V_MISSING ? missing_word(x) : "");
	}
}

/* Entries i .. the next run-0 entry (one figure across the runs) as a ratio chart. */
static int figure_chart(FILE *f, const struct entry *e, int n, int i, const struct wtg_gate_run *runs,
			const char *attrs)
{
	int m = 1;
	while (i + m < n && e[i + m].run != 0)
		m++;
	struct wtg_svg_ratio *r = calloc((size_t)m, sizeof *r);
	if (!r)
		return m;
	for (int k = 0; k < m; k++) {
		const struct entry *x = &e[i + k];
		r[k] = (struct wtg_svg_ratio){ runs[x->run].meta->label, x->f.found ? x->f.value : NAN,
					       shows_ratio(x) ? x->ratio : (x->f.found ? 1 : NAN), x->lo, x->hi,
					       !x->base || x->v == WTG_V_MISSING ? missing_word(x)
					       : x->nbase > 1 ? "a baseline run" : NULL };
	}
	char title[320], sub[320];
	snprintf(title, sizeof title, "%s: %s", e[i].exp, e[i].h->figure);
	if (e[i].nbase > 1)
		snprintf(sub, sizeof sub, "%s, %s is better; each run against the baseline's %d runs pooled", e[i].h->unit,
			 e[i].h->higher_better ? "higher" : "lower", e[i].nbase);
	else
		snprintf(sub, sizeof sub, "%s, %s is better; each run against %s", e[i].h->unit,
			 e[i].h->higher_better ? "higher" : "lower", runs[0].meta->label);
	wtg_svg_ratio_chart(f, attrs, title, sub,
			    e[i].nbase > 1 ? "ratio to the baseline pooled (whiskers: where a next run of it falls)" : NULL,
			    r, m);
	free(r);
	return m;
}

/* The machine whose caches an overlay marks: the runs' own when they all name one CPU, else none. */
static const struct wtg_machine *one_machine(const struct wtg_machine *m, const struct wtg_machine *r, bool first)
{
	if (first)
		return r;
	return m && strcmp(m->cpu_model, r->cpu_model) == 0 ? m : NULL;
}

/* One experiment under the ratio charts of the HTML page: the runs that hold it overlaid on one chart
 * as the dashboard draws them, each run a colour and a legend entry naming its label and conditions
 * (the first WTG_LAY_MAX_RUNS of them); held by one run only, that run's chart. */
static void runs_chart(FILE *f, const struct wtg_gate_run *runs, int nruns, int idx)
{
	const struct wtg_table *t[WTG_LAY_MAX_RUNS];
	const char *label[WTG_LAY_MAX_RUNS];
	char names[WTG_LAY_MAX_RUNS][320];
	const struct wtg_machine *m = NULL;
	int n = 0, more = 0, only = 0;
	for (int r = 0; r < nruns; r++) {
		if (!has_table(&runs[r], idx))
			continue;
		if (n == WTG_LAY_MAX_RUNS) {
			more++;
			continue;
		}
		char cond[96];
		wtg_lay_table_conditions(cond, sizeof cond, runs[r].tables[idx]);
		snprintf(names[n], sizeof names[n], "%s%s%s", runs[r].meta->label, cond[0] ? ": " : "", cond);
		label[n] = names[n];
		t[n] = runs[r].tables[idx];
		m = one_machine(m, &runs[r].meta->machine, n == 0);
		only = r;
		n++;
	}
	const char *name = wtg_experiments[idx]->name;
	fprintf(f, "<section class=\"runs\" id=\"runs-%s\"><h3>%s</h3>\n<figure>\n", name, name);
	char attrs[192];
	snprintf(attrs, sizeof attrs, "class=\"%s\" role=\"img\" aria-label=\"%s of %s\"",
		 n > 1 ? "overlay-chart" : "run-chart", n > 1 ? "the runs overlaid" : "one run's chart", name);
	wtg_svg_overlay(f, t, label, n, m, attrs);
	if (n == 1) {
		fputs("<figcaption>only in ", f);
		wtg_xml_string(f, runs[only].meta->label);
		fputs("</figcaption>\n", f);
	} else if (more) {
		fprintf(f, "<figcaption>the first %d runs that hold it; %d more are left out</figcaption>\n", n, more);
	}
	fputs("</figure></section>\n", f);
}

/* Under the ratio charts of the HTML page: each experiment's runs overlaid. */
static void runs_charts(FILE *f, const struct wtg_gate_run *runs, int nruns)
{
	fputs("<h2>The runs overlaid</h2>\n", f);
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++)
		if (wtg_gate_any_table(runs, nruns, i))
			runs_chart(f, runs, nruns, i);
}

/* Every figure's ratio chart: one SVG picture (charts stacked), or an HTML page with a chart each. */
static void chart_report(FILE *f, const struct entry *e, int n, const struct wtg_gate_run *runs, int nruns,
			 bool html)
{
	int nf = 0;
	for (int i = 0; i < n; i++)
		nf += e[i].run == 0;
	if (html) {
		fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<title>wtg: a comparison</title>\n<style>\nbody{font-family:Helvetica,Arial,sans-serif;"
		      "color:#222;max-width:1180px;margin:0 auto;padding:24px 32px}\n"
		      "figure{margin:12px 0}figure svg{width:100%;height:auto;border:1px solid #ddd}\n"
		      "</style>\n</head>\n<body>\n<h1>Headline figures, run against run</h1>\n<ul>\n", f);
		for (int r = 0; r < nruns; r++) {
			fputs("<li>", f);
			wtg_xml_string(f, runs[r].meta->label);
			fputs(" (", f);
			wtg_xml_string(f, runs[r].meta->path[0] ? runs[r].meta->path : "measured now");
			fputs(")</li>\n", f);
		}
		fputs("</ul>\n", f);
	} else {
		fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
			   "viewBox=\"0 0 1280 %d\" width=\"1280\" height=\"%d\">\n", 720 * (nf ? nf : 1), 720 * (nf ? nf : 1));
	}
	for (int i = 0, k = 0; i < n; k++) {
		char attrs[128];
		if (html)
			snprintf(attrs, sizeof attrs, "class=\"chart\" role=\"img\" aria-label=\"ratio chart of %s\"", e[i].exp);
		else
			snprintf(attrs, sizeof attrs, "y=\"%d\" width=\"1280\" height=\"720\"", 720 * k);
		if (html)
			fputs("<figure>\n", f);
		i += figure_chart(f, e, n, i, runs, attrs);
		if (html)
			fputs("</figure>\n", f);
	}
	if (html)
		runs_charts(f, runs, nruns);
	fputs(html ? (n ? "</body>\n</html>\n" : "<p>no headline figures in these runs</p>\n</body>\n</html>\n") : "</svg>\n", f);
}

int wtg_gate_report(FILE *f, enum wtg_format fmt, const struct wtg_gate_run *runs, int nruns,
		    double threshold_pct, uint64_t seed)
{
	return wtg_gate_report_replication(f, fmt, runs, nruns, threshold_pct, seed, NULL);
}

int wtg_gate_report_replication(FILE *f, enum wtg_format fmt, const struct wtg_gate_run *runs, int nruns,
				double threshold_pct, uint64_t seed, wtg_gate_extra_fn extra)
{
	return wtg_gate_report_base(f, fmt, runs, nruns, 1, threshold_pct, seed, extra);
}

int wtg_gate_report_base(FILE *f, enum wtg_format fmt, const struct wtg_gate_run *runs, int nruns, int nbase,
			 double threshold_pct, uint64_t seed, wtg_gate_extra_fn extra)
{
	if (nbase < 1 || nbase > nruns)
		nbase = 1;
	struct entry *e = NULL;
	int n = collect(runs, nruns, nbase, threshold_pct / 100, seed, &e);
	int regressions = 0;
	for (int i = 0; i < n; i++)
		regressions += e[i].v == WTG_V_REGRESSION;
	locale_t old = wtg_report_locale_begin();
	switch (fmt) {
	case WTG_FMT_CSV:
		csv_report(f, e, n, runs);
		break;
	case WTG_FMT_JSON:
		json_report(f, e, n, runs, nruns, nbase, threshold_pct, regressions, seed, extra);
		break;
	case WTG_FMT_MARKDOWN:
		markdown_report(f, e, n, runs);
		break;
	case WTG_FMT_SVG:
	case WTG_FMT_HTML:
		chart_report(f, e, n, runs, nruns, fmt == WTG_FMT_HTML);
		break;
	default:
		text_report(f, e, n, runs, nruns, nbase, threshold_pct);
		if (n == 0)
			fputs("\nno headline figures in these runs\n", f);
		if (extra) {
			fputc('\n', f);
			extra(f, WTG_FMT_TEXT, runs, nruns, seed);
		}
		if (threshold_pct > 0)
			fprintf(f, "\ngate: %d figure%s worse than the baseline by more than %g%% (%s)%s\n", regressions,
				regressions == 1 ? "" : "s", threshold_pct,
				nbase > 1 ? "beyond where a next run of the baseline falls, too" : "CI beyond it too",
				regressions ? ": exit 3" : "");
	}
	wtg_report_locale_end(old);
	free(e);
	return ferror(f) ? -1 : regressions;
}
