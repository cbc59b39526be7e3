/* test_layout.c: the layout the views and the SVG writer share (scales, ticks, columns, intervals,
 * bins, grids) over hand-filled tables, then the SVG and HTML writers: confidence bands and whiskers
 * drawn where a table has <y>_ci_low/<y>_ci_high, text escaped, every picture well-formed XML
 * (xmllint, when installed), a folder of NAME.svg, and saving that never replaces a file. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "wtg/experiment.h"
#include "wtg/layout.h"
#include "wtg/report.h"
#include "wtg/session.h"
#include "wtg/table.h"

static struct wtg_session s;

static struct wtg_table *table(const char *name)
{
	int i = wtg_experiment_find(name);
	struct wtg_table *t = &s.tables[i < 0 ? 0 : i];
	wtg_table_reset(t);
	return t;
}

/* ---- the pure parts ---- */

static void test_scales(void)
{
	CHECK_NEAR(wtg_lay_log_frac(16, 16, 16 << 20), 0, 1e-12);
	CHECK_NEAR(wtg_lay_log_frac(16 << 20, 16, 16 << 20), 1, 1e-12);
	CHECK_NEAR(wtg_lay_log_frac(4096, 16, 16 << 20), 8.0 / 20, 1e-12);
	CHECK_NEAR(wtg_lay_log_frac(1, 16, 4096), 0, 0);	/* clamped */
	CHECK_NEAR(wtg_lay_frac(5, 0, 10, false), 0.5, 1e-12);
	CHECK_NEAR(wtg_lay_frac(100, 1, 10000, true), 0.5, 1e-12);
	CHECK(wtg_lay_log_col(4096, 16, 16 << 20, 21) == 8);

	double t[32];
	int n = wtg_lay_lin_ticks(0, 100, 45, t, 32);	/* about one per 9 cells: every 20 */
	CHECK(n == 6);
	CHECK_NEAR(t[1], 20, 1e-9);
	CHECK_NEAR(t[n - 1], 100, 1e-9);
	n = wtg_lay_lin_ticks(1.2, 3.1, 90, t, 32);
	CHECK(n >= 2 && t[0] >= 1.2 && t[n - 1] <= 3.1);

	/* ticks 10 ns apart around 1.1 us: three digits, so neighbours differ */
	char lab[16][32];
	n = wtg_lay_lin_ticks(1100, 1200, 90, t, 16);
	wtg_lay_tick_labels(lab, t, n, "ns");
	CHECK(n >= 3);
	for (int i = 1; i < n; i++)
		CHECK(strcmp(lab[i], lab[i - 1]) != 0);
	CHECK_STR(lab[1], "1.11us");
	wtg_lay_tick_labels(lab, (const double[]){ 1000, 2000, 5000 }, 3, "ns");
	CHECK_STR(lab[2], "5us");	/* round ticks keep their short labels */

	int dec = -1;
	CHECK(wtg_lay_y_intervals(30, 40, &dec) == 3);
	CHECK(dec == 0);
	CHECK(wtg_lay_y_intervals(2.5, 40, &dec) == 5);
	CHECK(dec == 1);	/* 0.5 steps */
	CHECK(wtg_lay_y_intervals(8, 4, &dec) == 2);	/* a short axis halves the ticks */
}

/* ---- sweep ---- */

static void fill_wss(struct wtg_table *t, bool ci)
{
	static const struct wtg_column cols[] = {
		{ "wss", "B", WTG_T_INT, 0 }, { "gbps", "GB/s", WTG_T_REAL, 2 },
		{ "gbps_ci_low", "GB/s", WTG_T_REAL, 2 }, { "gbps_ci_high", "GB/s", WTG_T_REAL, 2 },
	};
	wtg_table_set_columns(t, cols, ci ? 4 : 2);
	/* rows out of order: the layout sorts them by x */
	const double x[] = { 1 << 20, 16 << 10, 64 << 20, 256 << 10 }, y[] = { 40, 90, 12, 60 };
	for (int i = 0; i < 4; i++) {
		struct wtg_value v[4] = { WTG_INT(x[i]), WTG_REAL(y[i]), WTG_REAL(y[i] - 2), WTG_REAL(y[i] + 5) };
		wtg_table_add_row(t, v, ci ? 4 : 2, NULL);
	}
	wtg_table_check(t, "sum", true, "every pass's sum is the known sum");
}

static void test_sweep(void)
{
	struct wtg_table *t = table("wss");
	fill_wss(t, true);
	struct wtg_lay_sweep p;
	wtg_lay_sweep_build(&p, t, t->exp);
	CHECK(p.ns == 1);
	CHECK(p.bytes && p.cache_marks && !p.legend);
	CHECK(p.s[0].n == 4 && p.s[0].has_ci);
	bool sorted = true;
	for (int i = 1; i < p.s[0].n; i++)
		sorted = sorted && p.s[0].x[i] > p.s[0].x[i - 1];
	CHECK(sorted);
	CHECK_NEAR(p.s[0].y[0], 90, 0);		/* 16K first */
	CHECK_NEAR(p.s[0].lo[0], 88, 1e-12);
	CHECK_NEAR(p.s[0].hi[0], 95, 1e-12);
	CHECK_NEAR(p.ymax, 100, 1e-9);		/* the interval's top counts: 95 -> 100 */
	CHECK_NEAR(p.xlo, 16 << 10, 0);		/* the planned range */
	CHECK_NEAR(p.xhi, 64 << 20, 0);
	wtg_lay_sweep_free(&p);

	t = table("wss");
	fill_wss(t, false);
	wtg_lay_sweep_build(&p, t, t->exp);
	CHECK(p.ns == 1 && !p.s[0].has_ci && isnan(p.s[0].lo[0]));
	CHECK_NEAR(p.ymax, 100, 1e-9);
	wtg_lay_sweep_free(&p);

	/* wss by kernel: a line per kernel, in the order the rows name them, with a legend */
	t = table("wss");
	static const struct wtg_column kcols[] = {
		{ "wss", "B", WTG_T_INT, 0 }, { "gbps", "GB/s", WTG_T_REAL, 2 }, { "kernel", "", WTG_T_TEXT, 0 },
	};
	wtg_table_set_columns(t, kcols, 3);
	const char *kern[] = { "scalar", "scalar", "auto", "auto", "simd", "simd", "simd" };
	const double kx[] = { 16 << 10, 64 << 20, 16 << 10, 64 << 20, 16 << 10, 1 << 20, 64 << 20 };
	const double ky[] = { 1.9, 1.9, 12, 9, 90, 40, 12 };
	for (int i = 0; i < 7; i++) {
		struct wtg_value v[3] = { WTG_INT(kx[i]), WTG_REAL(ky[i]), WTG_TEXT(kern[i]) };
		wtg_table_add_row(t, v, 3, NULL);
	}
	wtg_lay_sweep_build(&p, t, t->exp);
	CHECK(p.ns == 3 && p.legend);
	CHECK_STR(p.s[0].name, "scalar");
	CHECK_STR(p.s[1].name, "auto");
	CHECK_STR(p.s[2].name, "simd");
	CHECK(p.s[0].n == 2 && p.s[1].n == 2 && p.s[2].n == 3);
	CHECK_NEAR(p.s[0].y[1], 1.9, 1e-12);	/* the flat line keeps its own points */
	wtg_lay_sweep_free(&p);

	/* uncached: a series per mode, named by it */
	t = table("uncached");
	static const struct wtg_column ucols[] = {
		{ "mode", "", WTG_T_TEXT, 0 }, { "bufsize", "B", WTG_T_INT, 0 }, { "gbps", "GB/s", WTG_T_REAL, 2 },
	};
	wtg_table_set_columns(t, ucols, 3);
	const char *modes[] = { "sequential", "sequential", "random" };
	for (int i = 0; i < 3; i++) {
		struct wtg_value v[3] = { WTG_TEXT(modes[i]), WTG_INT(4096 << i), WTG_REAL(1 + i) };
		wtg_table_add_row(t, v, 3, NULL);
	}
	wtg_lay_sweep_build(&p, t, t->exp);
	CHECK(p.ns == 2 && p.legend);
	CHECK_STR(p.s[0].name, "sequential");
	CHECK_STR(p.s[1].name, "random");
	CHECK(p.s[0].n == 2 && p.s[1].n == 1);
	wtg_lay_sweep_free(&p);

	/* valley: ms per GB spans decades, so its y axis is log10, from a power of ten to a power of ten */
	t = table("valley");
	static const struct wtg_column vcols[] = {
		{ "bufsize", "B", WTG_T_INT, 0 }, { "ms_per_gb", "ms", WTG_T_REAL, 1 },
	};
	wtg_table_set_columns(t, vcols, 2);
	const double ms[] = { 312000, 78000, 1900, 95, 58, 64 };
	for (int i = 0; i < 6; i++) {
		struct wtg_value v[2] = { WTG_INT(16 << (2 * i)), WTG_REAL(ms[i]) };
		wtg_table_add_row(t, v, 2, NULL);
	}
	wtg_lay_sweep_build(&p, t, t->exp);
	CHECK(p.ylog);
	CHECK_NEAR(p.ymin, 10, 1e-9);		/* 58 -> 10 */
	CHECK_NEAR(p.ymax, 1e6, 1e-3);		/* 312000 -> 1,000,000 */
	CHECK_NEAR(wtg_lay_y_frac(&p, 10), 0, 1e-12);
	CHECK_NEAR(wtg_lay_y_frac(&p, 1000), 0.4, 1e-12);	/* 2 of 5 decades */
	CHECK_NEAR(wtg_lay_y_frac(&p, 1e6), 1, 1e-12);
	CHECK_NEAR(wtg_lay_y_frac(&p, 0), 0, 0);		/* nothing below the axis, no NaN */
	CHECK_NEAR(wtg_lay_y_frac(&p, 1e9), 1, 0);
	double yt[16];
	char yl[16][32];
	CHECK(wtg_lay_y_ticks(&p, 20, yt, yl, 16) == 6);	/* every decade on a tall axis */
	CHECK_STR(yl[0], "10");
	CHECK_STR(yl[2], "1k");
	CHECK_STR(yl[5], "1M");
	int nt = wtg_lay_y_ticks(&p, 6, yt, yl, 16);		/* a short one: every other */
	CHECK(nt == 3);
	CHECK_STR(yl[1], "1k");
	/* the floor is visible: 58 and 64 ms sit 0.0085 of the height apart (0.000015 on a linear axis to 400,000) */
	CHECK(wtg_lay_y_frac(&p, 64) - wtg_lay_y_frac(&p, 58) > 0.008);
	wtg_lay_sweep_free(&p);

	/* b pressed during a run: the rows after it were measured under burners, so the sweep draws a
	 * series per condition, never one line through both */
	t = table("valley");
	wtg_table_set_columns(t, vcols, 2);
	for (int i = 0; i < 6; i++) {
		struct wtg_value v[2] = { WTG_INT(16 << (2 * i)), WTG_REAL(ms[i]) };
		wtg_table_add_row(t, v, 2, NULL);
		memset(&t->rows[i].cond, 0, sizeof t->rows[i].cond);
		t->rows[i].cond.burners = i >= 4 ? 2 : 0;
	}
	wtg_lay_sweep_build(&p, t, t->exp);
	CHECK(p.mixed && p.ns == 2 && p.legend);
	CHECK_STR(p.s[0].name, "quiet");
	CHECK_STR(p.s[1].name, "burners 2 spin");
	CHECK(p.s[0].n == 4 && p.s[1].n == 2);
	CHECK_NEAR(p.s[1].x[0], 16 << 8, 0);		/* the rows measured after the key */
	wtg_lay_sweep_free(&p);

	/* wss's GB/s span decades (8 to 430 on one machine): a log y axis, as valley's */
	t = table("wss");
	fill_wss(t, false);
	wtg_lay_sweep_build(&p, t, t->exp);
	CHECK(p.ylog);
	wtg_lay_sweep_free(&p);
	/* a linear axis keeps its round intervals, big numbers as 120k (wss's rows on one) */
	struct wtg_experiment linear = *t->exp;
	linear.sweep.ylog = false;
	wtg_lay_sweep_build(&p, t, &linear);
	CHECK(!p.ylog);
	nt = wtg_lay_y_ticks(&p, 40, yt, yl, 16);
	CHECK(nt >= 3 && yt[0] == 0 && yt[nt - 1] == 100);
	CHECK_STR(yl[0], "0");
	CHECK_NEAR(wtg_lay_y_frac(&p, 50), 0.5, 1e-12);
	wtg_lay_sweep_free(&p);
}

/* ---- bars ---- */

static void fill_threads(struct wtg_table *t, bool ci)
{
	static const struct wtg_column cols[] = {
		{ "threads", "count", WTG_T_INT, 0 }, { "gbps", "GB/s", WTG_T_REAL, 2 }, { "ms", "ms", WTG_T_REAL, 2 },
		{ "gbps_ci_low", "GB/s", WTG_T_REAL, 2 }, { "gbps_ci_high", "GB/s", WTG_T_REAL, 2 },
	};
	wtg_table_set_columns(t, cols, ci ? 5 : 3);
	double g[] = { 10, 17, 18, 18.5 };
	for (int i = 0; i < 4; i++) {
		struct wtg_value v[5] = { WTG_INT(i + 1), WTG_REAL(g[i]), WTG_REAL(64 / g[i]), WTG_REAL(g[i] - 1),
					  WTG_REAL(g[i] + 1) };
		wtg_table_add_row(t, v, ci ? 5 : 3, NULL);
	}
}

static void test_bars(void)
{
	struct wtg_table *t = table("threads");
	fill_threads(t, true);
	struct wtg_lay_bars b;
	CHECK(wtg_lay_bars_build(&b, t, t->exp) == 0);
	CHECK(b.n == 4 && b.ideal && !b.neg && b.has_ci);
	CHECK_NEAR(b.base, 10, 0);
	CHECK_NEAR(b.b[3].ideal, 40, 1e-9);
	CHECK_NEAR(b.scale, 40, 1e-9);		/* ideal within 3x the largest value widens the scale */
	CHECK_STR(b.b[0].label, "1 thread");
	CHECK_STR(b.b[1].label, "2 threads");
	CHECK(strstr(b.b[1].value, "17.0 GB/s") == b.b[1].value && strstr(b.b[1].value, "ms"));
	CHECK_NEAR(b.b[2].ci_lo, 17, 1e-12);
	CHECK_NEAR(b.b[2].ci_hi, 19, 1e-12);
	CHECK(b.b[0].group == -1 && b.ngroups == 0);	/* numeric labels: no colour groups */
	CHECK(!b.ideal_capped && b.ideal_parts == 0);
	wtg_lay_bars_free(&b);

	/* the table's ideal column, one row of which carries its parts' gain (threads' follow-up) */
	static const struct wtg_column pcols[] = {
		{ "threads", "count", WTG_T_INT, 0 },	{ "gbps", "GB/s", WTG_T_REAL, 2 },
		{ "ideal_gbps", "GB/s", WTG_T_REAL, 2 }, { "parts_ratio", "", WTG_T_REAL, 2 },
	};
	t = table("threads");
	wtg_table_set_columns(t, pcols, 4);
	const struct wtg_value p1[4] = { WTG_INT(1), WTG_REAL(10), WTG_REAL(10), WTG_NA };
	const struct wtg_value p2[4] = { WTG_INT(2), WTG_REAL(23), WTG_REAL(25), WTG_REAL(1.25) };
	wtg_table_add_row(t, p1, 4, NULL);
	wtg_table_add_row(t, p2, 4, NULL);
	CHECK(wtg_lay_bars_build(&b, t, t->exp) == 0);
	CHECK(b.ideal_capped && b.ideal_parts == 1);
	CHECK_NEAR(b.b[1].ideal, 25, 1e-12);	/* the column's, not 1 thread x 2 */
	wtg_lay_bars_free(&b);

	t = table("threads");
	fill_threads(t, false);
	CHECK(wtg_lay_bars_build(&b, t, t->exp) == 0);
	CHECK(!b.has_ci && isnan(b.b[0].ci_lo));
	wtg_lay_bars_free(&b);

	/* text labels naming a few kinds become colour groups */
	t = table("kernels");
	static const struct wtg_column kcols[] = {
		{ "kernel", "", WTG_T_TEXT, 0 }, { "wss", "B", WTG_T_INT, 0 }, { "gbps", "GB/s", WTG_T_REAL, 2 },
	};
	wtg_table_set_columns(t, kcols, 3);
	const char *k[] = { "scalar", "simd", "scalar", "auto" };
	for (int i = 0; i < 4; i++) {
		struct wtg_value v[3] = { WTG_TEXT(k[i]), WTG_INT(16384), WTG_REAL(i + 1) };
		wtg_table_add_row(t, v, 3, NULL);
	}
	CHECK(wtg_lay_bars_build(&b, t, t->exp) == 0);
	CHECK(b.ngroups == 3 && b.b[0].group == 0 && b.b[1].group == 1 && b.b[2].group == 0 && b.b[3].group == 2);
	CHECK_STR(b.b[0].label, "scalar 16K");
	wtg_lay_bars_free(&b);

	t = table("kernels");
	CHECK(wtg_lay_bars_build(&b, t, t->exp) == -1);	/* no rows: nothing to draw */
}

/* ---- histogram ---- */

static void fill_tail(struct wtg_table *t)
{
	static const struct wtg_column cols[] = {
		{ "condition", "", WTG_T_TEXT, 0 }, { "samples", "count", WTG_T_INT, 0 },
		{ "median_ns", "ns", WTG_T_REAL, 1 },
	};
	wtg_table_set_columns(t, cols, 3);
	double a[101], b[50];
	for (int i = 0; i < 101; i++)
		a[i] = 100 + i;			/* 100 .. 200: median 150, p90 190, p99 199 */
	for (int i = 0; i < 50; i++)
		b[i] = i < 49 ? 120 : 5000;	/* one far tail: the scale spans a decade, log bins */
	wtg_table_add_series(t, "burners off", "ns", a, 101);
	wtg_table_add_series(t, "burners on", "ns", b, 50);
	wtg_table_add_series(t, "faults", "count", b, 50);	/* another unit: left out */
	struct wtg_value r[3] = { WTG_TEXT("burners off"), WTG_INT(101), WTG_REAL(150) };
	wtg_table_add_row(t, r, 3, NULL);
}

static void test_hist(void)
{
	struct wtg_table *t = table("tail");
	fill_tail(t);
	struct wtg_lay_hist h;
	CHECK(wtg_lay_hist_build(&h, t) == 2);
	CHECK_NEAR(h.d[0].med, 150, 1e-9);
	CHECK_NEAR(h.d[0].p90, 190, 1e-9);
	CHECK_NEAR(h.d[0].p99, 199, 1e-9);
	CHECK(h.log && !h.zeros);
	CHECK_NEAR(h.lo, 100, 0);
	CHECK_NEAR(h.hi, 5000, 0);
	CHECK(wtg_lay_hist_bin(&h, 60) == 0);
	CHECK(h.nb >= 8 && h.nb <= 60);
	for (int i = 0; i < h.nd; i++) {
		long sum = 0;
		for (int k = 0; k < h.nb; k++)
			sum += h.d[i].bins[k];
		CHECK(sum == (long)h.d[i].n);	/* every sample in exactly one bin */
	}
	char buf[512];
	wtg_lay_hist_figures(buf, sizeof buf, t, &h.d[0], "-");
	CHECK(strstr(buf, "burners off: n 101, median 150 ns") == buf);
	wtg_lay_hist_free(&h);
}

/* ---- counters ---- */

static void test_grid(void)
{
	struct wtg_table *t = table("mmap");
	static const struct wtg_column cols[] = {
		{ "case", "", WTG_T_TEXT, 0 }, { "ms", "ms", WTG_T_REAL, 2 }, { "minflt", "count", WTG_T_INT, 0 },
		{ "pages", "count", WTG_T_INT, 0 },
	};
	wtg_table_set_columns(t, cols, 4);
	struct wtg_value r1[4] = { WTG_TEXT("not prefaulted"), WTG_REAL(20), WTG_INT(1000), WTG_INT(16000) };
	struct wtg_value r2[4] = { WTG_TEXT("prefaulted"), WTG_REAL(10), WTG_INT(0), WTG_INT(16000) };
	wtg_table_add_row(t, r1, 4, NULL);
	wtg_table_add_row(t, r2, 4, NULL);
	struct wtg_lay_grid *g = calloc(1, sizeof *g);
	if (!g)
		return;
	wtg_lay_grid_build(g, t);
	CHECK(g->ncases == 2);
	CHECK_STR(g->head[0], "not prefaulted");
	CHECK_STR(g->name[0], "time");
	int fpp = -1, ppf = -1;
	for (int m = 0; m < g->nm; m++) {
		if (strcmp(g->name[m], "faults per page") == 0)
			fpp = m;
		if (strcmp(g->name[m], "pages per fault") == 0)
			ppf = m;
	}
	CHECK(fpp >= 0 && g->derived[fpp]);
	CHECK(ppf >= 0);
	if (ppf >= 0)
		CHECK_STR(g->cell[ppf][0], "16");
	char fig[3][256];
	int n = wtg_lay_counter_figures(t, t->exp, fig, 3, "-", "x");
	CHECK(n == 1);
	CHECK(n == 1 && strstr(fig[0], "per fault: 10.0 us") == fig[0]);	/* (20 - 10) ms / 1000 faults */
	free(g);
}

/* ---- several runs ---- */

/* A private copy of t (as the dashboard keeps an earlier run). */
static struct wtg_table *copy_of(struct wtg_table *t)
{
	struct wtg_table *c = malloc(sizeof *c);
	if (!c)
		return NULL;
	wtg_table_init(c, t->exp);
	wtg_table_snapshot(c, t);
	return c;
}

static void drop(struct wtg_table *c)
{
	wtg_table_free(c);
	free(c);
}

static void test_conditions_words(void)
{
	char buf[96];
	struct wtg_cond_snapshot c = { 0 };
	wtg_lay_cond_words(buf, sizeof buf, &c);
	CHECK_STR(buf, "quiet");
	c.burners = 2;
	c.burn_kind = WTG_BURN_SPIN;
	wtg_lay_cond_words(buf, sizeof buf, &c);
	CHECK_STR(buf, "burners 2 spin");
	c.burn_kind = WTG_BURN_STREAM;
	c.background = c.uncached = true;
	wtg_lay_cond_words(buf, sizeof buf, &c);
	CHECK_STR(buf, "burners 2 stream, background, uncached");
	struct wtg_table *t = table("threads");
	wtg_lay_table_conditions(buf, sizeof buf, t);
	CHECK_STR(buf, "");		/* no rows: no conditions */
	fill_threads(t, false);
	for (int r = 0; r < t->nrows; r++)
		memset(&t->rows[r].cond, 0, sizeof t->rows[r].cond);
	wtg_lay_table_conditions(buf, sizeof buf, t);
	CHECK_STR(buf, "quiet");
	t->rows[2].cond.burners = 4;	/* a row measured under burners: never one undifferentiated run */
	wtg_lay_table_conditions(buf, sizeof buf, t);
	CHECK_STR(buf, "mixed conditions");
	/* ... and its bars are coloured by condition, the colours named */
	struct wtg_lay_bars b;
	CHECK(wtg_lay_bars_build(&b, t, t->exp) == 0);
	CHECK(b.mixed && b.ngroups == 2);
	CHECK_STR(b.groups[0], "quiet");
	CHECK_STR(b.groups[1], "burners 4 spin");
	CHECK(b.b[0].group == 0 && b.b[1].group == 0 && b.b[2].group == 1 && b.b[3].group == 0);
	wtg_lay_bars_free(&b);
	t->rows[2].cond.burners = 0;
	CHECK(wtg_lay_bars_build(&b, t, t->exp) == 0);
	CHECK(!b.mixed);		/* one condition: nothing to tell apart */
	wtg_lay_bars_free(&b);
}

/* Two runs of threads: each label's bars side by side, one per run, on one scale. */
static void test_bars_merge(void)
{
	struct wtg_table *t = table("threads");
	fill_threads(t, false);
	struct wtg_table *before = copy_of(t);
	t = table("threads");
	static const struct wtg_column cols[] = {
		{ "threads", "count", WTG_T_INT, 0 }, { "gbps", "GB/s", WTG_T_REAL, 2 }, { "ms", "ms", WTG_T_REAL, 2 },
	};
	wtg_table_set_columns(t, cols, 3);
	for (int i = 0; i < 5; i++) {	/* the later run has a fifth row (5 threads) */
		struct wtg_value v[3] = { WTG_INT(i + 1), WTG_REAL(5.0 * (i + 1)), WTG_REAL(1) };
		wtg_table_add_row(t, v, 3, NULL);
	}
	if (!before)
		return;
	struct wtg_lay_bars in[2], m;
	CHECK(wtg_lay_bars_build(&in[0], before, before->exp) == 0);
	CHECK(wtg_lay_bars_build(&in[1], t, t->exp) == 0);
	CHECK(wtg_lay_bars_merge(&m, in, 2) == 0);
	CHECK(m.n == 9);			/* 4 labels x 2 runs + the fifth row alone */
	CHECK_STR(m.b[0].label, "1 thread");
	CHECK(m.b[0].run == 0 && m.b[0].first && m.b[1].run == 1 && !m.b[1].first);
	CHECK_STR(m.b[1].label, "1 thread");
	CHECK_NEAR(m.b[0].x, 10, 0);
	CHECK_NEAR(m.b[1].x, 5, 0);
	CHECK(m.b[8].run == 1 && m.b[8].first);
	CHECK_STR(m.b[8].label, "5 threads");
	CHECK_NEAR(m.scale, fmax(in[0].scale, in[1].scale), 0);	/* one scale for all */
	CHECK(isnan(m.b[0].ideal) && !isnan(m.b[1].ideal));	/* the ideal marks are the latest run's */
	double sum = 0, want = 0;
	for (int i = 0; i < m.n; i++)
		sum += m.b[i].x;
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < in[k].n; i++)
			want += in[k].b[i].x;
	CHECK_NEAR(sum, want, 1e-9);	/* every bar of every run, once */
	/* built from the tables (as the dashboard and an HTML comparison do): a label once per group */
	const struct wtg_table *runs[2] = { before, t };
	struct wtg_lay_bars r;
	CHECK(wtg_lay_bars_build_runs(&r, runs, 2, t->exp) == 0);
	CHECK(r.n == m.n && r.b[1].run == 1 && r.b[1].label[0] == '\0');
	CHECK_STR(r.b[0].label, "1 thread");
	CHECK_STR(r.b[8].label, "5 threads");
	wtg_lay_bars_free(&r);
	wtg_lay_bars_free(&m);
	wtg_lay_bars_free(&in[0]);
	wtg_lay_bars_free(&in[1]);
	struct wtg_lay_bars none[2];
	memset(none, 0, sizeof none);
	CHECK(wtg_lay_bars_merge(&m, none, 2) == -1);
	drop(before);
}

/* A distribution per run (the headless overlays): each run's first series, named by the run's label;
 * or every run's series in the first one's unit (a dashboard tab: tail's burners off and on in each
 * run), named by the run's label and the series, a run of one series by its label alone, the latest
 * runs that fit. */
static void test_hist_runs(void)
{
	struct wtg_table *t = table("tail");
	fill_tail(t);
	struct wtg_table *a = copy_of(t);
	if (!a)
		return;
	const struct wtg_table *runs[2] = { a, t };
	const char *names[2] = { "quiet", "burners 2 spin" };
	struct wtg_lay_hist h;
	CHECK(wtg_lay_hist_build_runs(&h, runs, names, 2) == 2);
	CHECK_STR(h.d[0].name, "quiet");
	CHECK_STR(h.d[1].name, "burners 2 spin");
	CHECK(h.d[0].t == a && h.d[1].t == t);
	CHECK(h.d[0].n == 101 && h.d[1].n == 101);
	CHECK_NEAR(h.d[1].med, 150, 1e-9);
	wtg_lay_hist_free(&h);
	CHECK(wtg_lay_hist_build_every(&h, runs, names, 2) == 4);
	CHECK_STR(h.d[0].name, "quiet · burners off");
	CHECK_STR(h.d[1].name, "quiet · burners on");
	CHECK_STR(h.d[3].name, "burners 2 spin · burners on");
	CHECK_STR(h.d[3].label, "burners 2 spin");
	CHECK(h.d[0].t == a && h.d[1].t == a && h.d[2].t == t && h.d[3].t == t);
	CHECK(h.d[0].run == 0 && h.d[1].run == 0 && h.d[2].run == 1 && h.d[3].run == 1);
	CHECK(h.d[0].n == 101 && h.d[1].n == 50 && h.d[2].n == 101);
	CHECK_NEAR(h.d[2].med, 150, 1e-9);
	double span[3] = { h.span[0], h.span[1], h.span[2] };
	wtg_lay_hist_free(&h);
	wtg_table_reset(t);	/* a run without samples is left out; the other's two are named alone */
	CHECK(wtg_lay_hist_build_runs(&h, runs, names, 2) == 1);
	wtg_lay_hist_free(&h);
	CHECK(wtg_lay_hist_build_every(&h, runs, names, 2) == 2);
	CHECK_STR(h.d[0].name, "quiet · burners off");
	/* widened to a span ten times higher: the scale takes it in (log: it spans a decade now) */
	double wide[3] = { span[0], span[1], span[2] * 10 };
	wtg_lay_hist_widen(&h, wide);
	CHECK_NEAR(h.hi, span[2] * 10, 1e-9);
	CHECK(h.log);
	wtg_lay_hist_free(&h);
	/* more runs than fit: the latest whole runs (two distributions each) */
	const struct wtg_table *many[WTG_LAY_MAX_RUNS + 2];
	const char *labels[WTG_LAY_MAX_RUNS + 2];
	for (int k = 0; k < WTG_LAY_MAX_RUNS + 2; k++) {
		many[k] = a;
		labels[k] = "quiet";
	}
	CHECK(wtg_lay_hist_build_every(&h, many, labels, WTG_LAY_MAX_RUNS + 2) == WTG_LAY_MAX_DIST);
	CHECK(h.d[WTG_LAY_MAX_DIST - 1].run == WTG_LAY_MAX_RUNS + 1 && h.d[0].run == 2);
	wtg_lay_hist_free(&h);
	drop(a);
}

/* A column per case and run. */
static void test_grid_merge(void)
{
	struct wtg_table *t = table("mmap");
	static const struct wtg_column cols[] = {
		{ "case", "", WTG_T_TEXT, 0 }, { "ms", "ms", WTG_T_REAL, 2 }, { "minflt", "count", WTG_T_INT, 0 },
	};
	wtg_table_set_columns(t, cols, 3);
	struct wtg_value r1[3] = { WTG_TEXT("cold"), WTG_REAL(20), WTG_INT(1000) };
	struct wtg_value r2[3] = { WTG_TEXT("warm"), WTG_REAL(10), WTG_INT(0) };
	wtg_table_add_row(t, r1, 3, NULL);
	wtg_table_add_row(t, r2, 3, NULL);
	struct wtg_table *a = copy_of(t);
	t = table("mmap");
	wtg_table_set_columns(t, cols, 3);
	wtg_table_add_row(t, r2, 3, NULL);	/* the later run measured only "warm" */
	struct wtg_lay_grid *g = calloc(3, sizeof *g);
	if (!g || !a) {
		free(g);
		return;
	}
	wtg_lay_grid_build(&g[1], a);
	wtg_lay_grid_build(&g[2], t);
	const char *labels[2] = { "quiet", "live" };
	wtg_lay_grid_merge(&g[0], &g[1], labels, 2, " / ");
	CHECK(g[0].ncases == 4);
	CHECK_STR(g[0].head[0], "cold / quiet");
	CHECK_STR(g[0].head[1], "cold / live");
	CHECK_STR(g[0].head[3], "warm / live");
	CHECK_STR(g[0].name[0], "time");
	CHECK_STR(g[0].cell[0][0], "20.0 ms");
	CHECK_STR(g[0].cell[0][1], "n/a");	/* not measured in that run */
	CHECK_STR(g[0].cell[0][3], "10.0 ms");
	free(g);
	drop(a);
}

/* ---- the SVG and HTML writers ---- */


static char *render(enum wtg_format fmt, const bool *which)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	int rc = wtg_report_write(f, fmt, &s, which);
	fclose(f);
	if (rc != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; p && (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

static char scratch[64];

/* xmllint's verdict on text (true when xmllint is not installed: nothing to ask). */
static bool xml_ok(const char *text, const char *name)
{
	if (system("command -v xmllint >/dev/null 2>&1") != 0)
		return true;
	char path[128], cmd[256];
	snprintf(path, sizeof path, "%s/%s", scratch, name);
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	fputs(text, f);
	fclose(f);
	snprintf(cmd, sizeof cmd, "xmllint --noout '%s'", path);
	return system(cmd) == 0;
}

static bool *only(const char *name)
{
	static bool which[WTG_MAX_EXP];
	memset(which, 0, sizeof which);
	int i = wtg_experiment_find(name);
	if (i >= 0)
		which[i] = true;
	return which;
}

/* wss with text to escape: markup, quotes, a control character, a byte that is not UTF-8. */
static void fill_odd(struct wtg_table *t)
{
	fill_wss(t, true);
	wtg_table_note(t, "odd text: <b> & \"quoted\" 'single' \x01 bad byte \xff end");
	wtg_table_check(t, "escape <&>", false, "a detail with <tags> & \"quotes\"");
}

static void test_svg(void)
{
	fill_odd(table("wss"));
	char *svg = render(WTG_FMT_SVG, only("wss"));
	CHECK(svg != NULL);
	if (svg) {
		CHECK(strncmp(svg, "<?xml", 5) == 0);
		CHECK(count(svg, "<svg") == 1 && strstr(svg, "viewBox=\"0 0 1280 720\""));
		CHECK(count(svg, "fill-opacity=\"0.18\"") == 1);	/* the CI band */
		CHECK(strstr(svg, "shaded: 95% CI") != NULL);
		CHECK(strstr(svg, "Cache or core?") != NULL);
		CHECK(strstr(svg, "escape &lt;&amp;&gt;") != NULL);	/* the failed check, escaped */
		CHECK(strstr(svg, "<tags>") == NULL);
		CHECK(strstr(svg, "sans-serif") != NULL);
		CHECK(xml_ok(svg, "wss.svg"));
	}
	free(svg);

	struct wtg_table *t = table("wss");
	fill_wss(t, false);
	svg = render(WTG_FMT_SVG, only("wss"));
	CHECK(svg && count(svg, "fill-opacity=\"0.18\"") == 0);	/* no CI columns, no band */
	free(svg);

	t = table("threads");
	fill_threads(t, true);
	svg = render(WTG_FMT_SVG, only("threads"));
	CHECK(svg && strstr(svg, "95% confidence interval") && strstr(svg, "ideal scaling: 10.0 GB/s"));
	CHECK(svg && xml_ok(svg, "threads.svg"));
	free(svg);

	fill_tail(table("tail"));
	svg = render(WTG_FMT_SVG, only("tail"));
	CHECK(svg && strstr(svg, "median 150 ns") && strstr(svg, "p99 199 ns") && strstr(svg, "burners on"));
	CHECK(svg && xml_ok(svg, "tail.svg"));
	free(svg);

	/* an empty table still draws its frame and says why it is empty */
	table("valley");
	bool both[WTG_MAX_EXP] = { false };
	both[wtg_experiment_find("valley")] = both[wtg_experiment_find("wss")] = true;
	svg = render(WTG_FMT_SVG, both);
	CHECK(svg && count(svg, "viewBox=\"0 0 1280 720\"") == 2 && strstr(svg, "no rows yet"));
	CHECK(svg && xml_ok(svg, "two.svg"));
	free(svg);
}

static void test_html(void)
{
	bool which[WTG_MAX_EXP] = { false };
	const char *names[] = { "wss", "threads", "tail", "valley" };
	for (int i = 0; i < 4; i++)
		which[wtg_experiment_find(names[i])] = true;
	fill_odd(table("wss"));
	char *html = render(WTG_FMT_HTML, which);
	CHECK(html != NULL);
	if (!html)
		return;
	CHECK(strncmp(html, "<!DOCTYPE html>", 15) == 0);
	CHECK(count(html, "<svg") == 4 && count(html, "class=\"chart\"") == 4);
	CHECK(count(html, "<section class=\"exp\"") == 4);
	CHECK(strstr(html, "<script") == NULL && strstr(html, " src=") == NULL && strstr(html, "<link") == NULL);
	CHECK(strstr(html, "Machine") && strstr(html, "known sum"));
	CHECK(strstr(html, "<span class=\"unit\">GB/s</span>") != NULL);	/* units in the header */
	CHECK(strstr(html, "class=\"fail\"") && strstr(html, "class=\"ok\""));
	CHECK(strstr(html, "odd text: &lt;b&gt; &amp; &quot;quoted&quot;") != NULL);
	free(html);
}

/* Files in dir whose names start with prefix. */
static int files(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d)) != NULL;)
		n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
	if (d)
		closedir(d);
	return n;
}

static void test_save(void)
{
	char dir[128], err[512], path[256];
	bool both[WTG_MAX_EXP] = { false };
	both[wtg_experiment_find("wss")] = both[wtg_experiment_find("threads")] = true;
	snprintf(dir, sizeof dir, "%s/charts", scratch);
	CHECK(wtg_report_save(dir, WTG_FMT_SVG, &s, both, err, sizeof err) == 0);
	snprintf(path, sizeof path, "%s/wss.svg", dir);
	CHECK(access(path, R_OK) == 0);
	snprintf(path, sizeof path, "%s/threads.svg", dir);
	CHECK(access(path, R_OK) == 0);
	CHECK(files(dir, "") == 4);	/* . .. and the two charts, no temp file */
	snprintf(path, sizeof path, "%s/wss.svg", dir);
	CHECK(wtg_report_save(path, WTG_FMT_SVG, &s, both, err, sizeof err) == -1);	/* a file, not a folder */

	/* never over a file: the old text stays, errno says why */
	snprintf(path, sizeof path, "%s/taken.json", scratch);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs("mine\n", f);
		fclose(f);
	}
	errno = 0;
	CHECK(wtg_report_save_new(path, WTG_FMT_JSON, &s, NULL, NULL, 0, err, sizeof err) == -1);
	CHECK(errno == EEXIST);
	char back[16] = "";
	f = fopen(path, "r");
	if (f) {
		CHECK(fgets(back, sizeof back, f) != NULL);
		fclose(f);
	}
	CHECK_STR(back, "mine\n");
	snprintf(path, sizeof path, "%s/new.html", scratch);
	CHECK(wtg_report_save_new(path, WTG_FMT_HTML, &s, NULL, NULL, 0, err, sizeof err) == 0);
	CHECK(access(path, R_OK) == 0);
	CHECK(files(scratch, ".") == 2);	/* . and .., no .new.html.XXXXXX left */

	/* a save set says one time in each file: the JSON's timestamp is the one given, not the clock's */
	snprintf(path, sizeof path, "%s/set.json", scratch);
	CHECK(wtg_report_save_new(path, WTG_FMT_JSON, &s, NULL, NULL, 1000000000LL * 1000000000LL, err, sizeof err) == 0);
	char text[8192] = "";
	f = fopen(path, "r");
	if (f) {
		size_t got = fread(text, 1, sizeof text - 1, f);
		text[got] = '\0';
		fclose(f);
	}
	CHECK(strstr(text, "\"timestamp\": \"2001-09-09T01:46:40Z\"") != NULL);
	unlink(path);
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	struct wtg_options opt;
	memset(&opt, 0, sizeof opt);
	opt.mode = WTG_MODE_RUN;
	opt.seed = 7;
	opt.quick = true;
	opt.file = "/var/tmp/wtg-test.dat";
	CHECK(wtg_session_init(&s, &opt, "wtg") == 0);
	s.machine.ncaches = 2;
	s.machine.caches[0] = (struct wtg_cache){ .level = 1, .type = "Data", .size = 32 << 10 };
	s.machine.caches[1] = (struct wtg_cache){ .level = 2, .type = "Unified", .size = 1 << 20 };
	snprintf(scratch, sizeof scratch, "%s/wtg-layout.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(scratch)) {
		CHECK(!"mkdtemp");
		return unit_done("test_layout");
	}

	test_scales();
	test_sweep();
	test_bars();
	test_hist();
	test_grid();
	test_conditions_words();
	test_bars_merge();
	test_hist_runs();
	test_grid_merge();
	test_svg();
	test_html();
	test_save();

	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
	CHECK(system(cmd) == 0);
	return unit_done("test_layout");
}
