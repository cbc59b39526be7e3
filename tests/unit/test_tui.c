/* test_tui.c: the dashboard's pure parts (ticks, bins, number formats, rows in words), the table
 * snapshots it draws from, and its four views drawn off-screen from hand-filled tables, read back as
 * text (its key table: test_keys.c).
 * With --show, prints each view as drawn (for looking at them without a terminal). */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "../../src/tui/dash.h"
#include "unit.h"
#include "wtg/ctx.h"

static bool show;

/* ---- pure helpers ---- */

static void test_nice(void)
{
	CHECK_NEAR(tui_nice_ceil(26.1), 30, 1e-9);
	CHECK_NEAR(tui_nice_ceil(0.85), 1, 1e-12);
	CHECK_NEAR(tui_nice_ceil(101), 120, 1e-9);
	CHECK_NEAR(tui_nice_ceil(7), 8, 1e-12);
	CHECK_NEAR(tui_nice_ceil(1), 1, 1e-12);
	CHECK_NEAR(tui_nice_ceil(2.2), 2.5, 1e-12);
	CHECK_NEAR(tui_nice_ceil(0), 1, 1e-12);
	CHECK_NEAR(tui_nice_ceil(-3), 1, 1e-12);
	CHECK_NEAR(tui_nice_ceil(5e-7), 5e-7, 1e-18);
}

static void test_ticks(void)
{
	double t[32];
	char b[32];
	/* valley: 16 B .. 16 MiB over 64 columns: every second power of two, the design's labels */
	int n = tui_log_ticks(16, 16 << 20, 64, 6, true, t, 32);
	CHECK(n == 11);
	const char *want[] = { "16B", "64B", "256B", "1K", "4K", "16K", "64K", "256K", "1M", "4M", "16M" };
	for (int i = 0; i < n && i < 11; i++) {
		tui_fmt_tick_size(b, sizeof b, t[i]);
		CHECK_STR(b, want[i]);
	}
	/* twice as wide: every power of two */
	n = tui_log_ticks(16, 16 << 20, 128, 6, true, t, 32);
	CHECK(n == 21);
	/* half as wide: every fourth */
	n = tui_log_ticks(16, 16 << 20, 32, 6, true, t, 32);
	CHECK(n == 6);
	CHECK_NEAR(t[1], 256, 0);
	/* syscall batches: decades */
	n = tui_log_ticks(1, 10000, 64, 5, false, t, 32);
	CHECK(n == 5);
	CHECK_NEAR(t[4], 10000, 1e-6);
	tui_fmt_tick_count(b, sizeof b, t[4]);
	CHECK_STR(b, "10k");
	tui_fmt_tick_count(b, sizeof b, 1);
	CHECK_STR(b, "1");
	/* a decade and a bit of times: 1, 2, 5 steps */
	n = tui_log_ticks(100, 2000, 70, 6, false, t, 32);
	CHECK(n == 5);
	CHECK_NEAR(t[0], 100, 1e-9);
	CHECK_NEAR(t[1], 200, 1e-9);
	CHECK_NEAR(t[2], 500, 1e-9);
	CHECK_NEAR(t[4], 2000, 1e-9);
	/* ... unless they would crowd */
	n = tui_log_ticks(100, 2000, 12, 6, false, t, 32);
	CHECK(n == 2);	/* 100 and 1000 */
	/* two decades but for a little, a column short of room for 1, 2, 5: never a lone 1000 (a tail
	 * histogram from 107 ns to 9.9 us had one label, "1us"), the 1-2-5 ticks whose labels fit */
	n = tui_log_ticks(107, 9900, 53, 8, false, t, 32);
	CHECK(n == 5);
	CHECK_NEAR(t[0], 200, 1e-9);
	CHECK_NEAR(t[2], 1000, 1e-9);
	CHECK_NEAR(t[4], 5000, 1e-9);
	/* less than a decade of counts: powers of two */
	n = tui_log_ticks(1, 8, 40, 4, false, t, 32);
	CHECK(n == 4);
	CHECK_NEAR(t[3], 8, 0);
	/* a single point */
	n = tui_log_ticks(4096, 4096, 40, 4, true, t, 32);
	CHECK(n == 1);
	CHECK(tui_log_ticks(0, 10, 40, 4, true, t, 32) == 0);
	/* columns on the log axis */
	CHECK(tui_log_col(16, 16, 16 << 20, 64) == 0);
	CHECK(tui_log_col(16 << 20, 16, 16 << 20, 64) == 63);
	CHECK(tui_log_col(16 << 10, 16, 16 << 20, 64) == 32);
	CHECK(tui_log_col(1e12, 16, 16 << 20, 64) == 63);
	CHECK(tui_log_col(1, 16, 16 << 20, 64) == 0);
	/* time ticks */
	tui_fmt_tick_time(b, sizeof b, 100, "ns");
	CHECK_STR(b, "100ns");
	tui_fmt_tick_time(b, sizeof b, 1000, "ns");
	CHECK_STR(b, "1us");
	tui_fmt_tick_time(b, sizeof b, 2500, "ns");
	CHECK_STR(b, "2.5us");
	tui_fmt_tick_time(b, sizeof b, 3, "ms");
	CHECK_STR(b, "3ms");
	tui_fmt_tick_time(b, sizeof b, 0, "ns");
	CHECK_STR(b, "0");
}

static void test_bins(void)
{
	double e[11];
	tui_bin_edges(0, 10, 10, false, e);
	CHECK_NEAR(e[0], 0, 0);
	CHECK_NEAR(e[5], 5, 1e-12);
	CHECK_NEAR(e[10], 10, 0);
	CHECK(tui_bin_of(0, e, 10) == 0);
	CHECK(tui_bin_of(0.999, e, 10) == 0);
	CHECK(tui_bin_of(1, e, 10) == 1);
	CHECK(tui_bin_of(9.99, e, 10) == 9);
	CHECK(tui_bin_of(10, e, 10) == 9);	/* the maximum falls in the last bin */
	CHECK(tui_bin_of(-5, e, 10) == 0);
	CHECK(tui_bin_of(NAN, e, 10) == 0);
	tui_bin_edges(100, 100000, 3, true, e);
	CHECK_NEAR(e[1], 1000, 1e-6);
	CHECK_NEAR(e[2], 10000, 1e-5);
	CHECK_NEAR(e[3], 100000, 0);
	CHECK(tui_bin_of(999, e, 3) == 0);
	CHECK(tui_bin_of(1000, e, 3) == 1);
	CHECK(tui_wants_log(80, 5000));
	CHECK(!tui_wants_log(80, 300));
	CHECK(!tui_wants_log(0, 300));
	CHECK(tui_bin_count(30, 70) == 12);
	CHECK(tui_bin_count(1, 70) == 8);
	CHECK(tui_bin_count(200000, 70) == 70);
	CHECK(tui_bin_count(200000, 5) == 5);
}

static void test_formats(void)
{
	char b[64];
	tui_fmt_value(b, sizeof b, 10.2, "ms");
	CHECK_STR(b, "10.2 ms");
	tui_fmt_value(b, sizeof b, 8123, "ms");
	CHECK_STR(b, "8.12 s");
	tui_fmt_value(b, sizeof b, 85.25, "ns");
	CHECK_STR(b, "85.2 ns");
	tui_fmt_value(b, sizeof b, 1500, "ns");
	CHECK_STR(b, "1.50 us");
	tui_fmt_value(b, sizeof b, 262144, "B");
	CHECK_STR(b, "256K");
	tui_fmt_value(b, sizeof b, 1024, "count");
	CHECK_STR(b, "1,024");
	tui_fmt_value(b, sizeof b, 26.14, "GB/s");
	CHECK_STR(b, "26.1 GB/s");
	tui_fmt_value(b, sizeof b, NAN, "GB/s");
	CHECK_STR(b, "n/a");
	tui_fmt_value(b, sizeof b, 0.25, "%");
	CHECK_STR(b, "0.250%");
	tui_fmt_num(b, sizeof b, 0.000123);
	CHECK_STR(b, "0.000123");
	tui_fmt_num(b, sizeof b, 34216613807.0);
	CHECK_STR(b, "34216613807");
	CHECK(tui_width("abc") == 3);
	CHECK(tui_width("█░·") == 3);
	CHECK(tui_width("") == 0);
}

/* ---- tables the way the experiments fill them ---- */

static struct wtg_probe_result probe(double wall, double user, double sys)
{
	struct wtg_probe_result p;
	memset(&p, 0, sizeof p);
	p.wall_ms = wall;
	p.user_ms = user;
	p.sys_ms = sys;
	p.minflt = 12;
	p.migrations = -1;
	p.cpus_seen = 3;
	return p;
}

static void fill_valley(struct wtg_table *t, int upto)
{
	static const struct wtg_column cols[] = {
		{ "bufsize", "B", WTG_T_INT, 0 }, { "read_calls", "count", WTG_T_INT, 0 },
		{ "bytes", "B", WTG_T_INT, 0 },	  { "ms", "ms", WTG_T_REAL, 2 },
		{ "gbps", "GB/s", WTG_T_REAL, 2 }, { "sum", "", WTG_T_INT, 0 },
	};
	wtg_table_set_columns(t, cols, 6);
	int k = 0;
	for (int64_t b = 16; b <= (16 << 20) && k < upto; b *= 4, k++) {
		double gbps = 26.0 * exp(-pow((log2((double)b) - 18) / 7, 2));
		int64_t bytes = 64 << 20;
		struct wtg_value v[6] = {
			WTG_INT(b), WTG_INT((bytes + b - 1) / b), WTG_INT(bytes),
			WTG_REAL(bytes / gbps / 1e6), WTG_REAL(gbps), WTG_INT(8556347123LL),
		};
		struct wtg_probe_result p = probe(bytes / gbps / 1e6, 1, 2);
		wtg_table_add_row(t, v, 6, &p);
	}
	wtg_table_check(t, "sum", true, "every pass: sum 8556347123 = known sum");
	wtg_table_note(t, "perf counters n/a");
}

/* wss as the rounds engine leaves it: medians with their CI, cache sizes marked on the x axis. */
static void fill_wss(struct wtg_table *t)
{
	static const struct wtg_column cols[] = {
		{ "wss", "B", WTG_T_INT, 0 },		   { "gbps", "GB/s", WTG_T_REAL, 2 },
		{ "gbps_ci_low", "GB/s", WTG_T_REAL, 2 },  { "gbps_ci_high", "GB/s", WTG_T_REAL, 2 },
		{ "gbps_min", "GB/s", WTG_T_REAL, 2 },	   { "gbps_max", "GB/s", WTG_T_REAL, 2 },
		{ "samples", "count", WTG_T_INT, 0 },	   { "level", "", WTG_T_TEXT, 0 },
	};
	wtg_table_set_columns(t, cols, 8);
	wtg_table_add_xmark(t, 48 << 10, "L1 48K");
	wtg_table_add_xmark(t, 1 << 20, "L2 1M");
	wtg_table_add_xmark(t, 32 << 20, "L3 32M");
	for (int64_t b = 16 << 10; b <= (256 << 20); b *= 2) {
		double g = b <= (48 << 10) ? 60 : b <= (1 << 20) ? 40 : b <= (32 << 20) ? 25 : 10;
		struct wtg_value v[8] = {
			WTG_INT(b),	     WTG_REAL(g),	  WTG_REAL(g * 0.7), WTG_REAL(g * 1.3),
			WTG_REAL(g * 0.6), WTG_REAL(g * 1.4), WTG_INT(11),	     WTG_TEXT(b > (32 << 20) ? "DRAM" : "L3"),
		};
		wtg_table_add_row(t, v, 8, NULL);
	}
}

static void fill_kernels(struct wtg_table *t)
{
	static const struct wtg_column cols[] = {
		{ "kernel", "", WTG_T_TEXT, 0 },	   { "wss", "B", WTG_T_INT, 0 },
		{ "gbps", "GB/s", WTG_T_REAL, 2 },	   { "gbps_ci_low", "GB/s", WTG_T_REAL, 2 },
		{ "gbps_ci_high", "GB/s", WTG_T_REAL, 2 }, { "samples", "count", WTG_T_INT, 0 },
	};
	wtg_table_set_columns(t, cols, 6);
	const char *k[3] = { "scalar", "auto", "simd" };
	double g[3] = { 3, 12, 40 };
	for (int i = 0; i < 3; i++) {
		struct wtg_value v[6] = { WTG_TEXT(k[i]), WTG_INT(24576), WTG_REAL(g[i]),
					  WTG_REAL(g[i] * 0.5), WTG_REAL(g[i] * 1.5), WTG_INT(11) };
		wtg_table_add_row(t, v, 6, NULL);
	}
}

static void fill_syscall(struct wtg_table *t)
{
	static const struct wtg_column cols[] = {
		{ "batch", "count", WTG_T_INT, 0 }, { "batches", "count", WTG_T_INT, 0 },
		{ "median_ns", "ns", WTG_T_REAL, 1 }, { "p99_ns", "ns", WTG_T_REAL, 1 },
	};
	wtg_table_set_columns(t, cols, 4);
	double med[] = { 420, 130, 95, 92, 91 }, p99[] = { 900, 260, 140, 110, 104 };
	for (int i = 0, b = 1; i < 5; i++, b *= 10) {
		struct wtg_value v[4] = { WTG_INT(b), WTG_INT(200), WTG_REAL(med[i]), WTG_REAL(p99[i]) };
		wtg_table_add_row(t, v, 4, NULL);
	}
}

static void fill_bytewise(struct wtg_table *t)
{
	static const struct wtg_column cols[] = {
		{ "variant", "", WTG_T_TEXT, 0 },     { "bytes", "B", WTG_T_INT, 0 },
		{ "read_calls", "count", WTG_T_INT, 0 }, { "ms", "ms", WTG_T_REAL, 2 },
		{ "user_ms", "ms", WTG_T_REAL, 2 },   { "sys_ms", "ms", WTG_T_REAL, 2 },
		{ "ns_per_byte", "ns", WTG_T_REAL, 2 }, { "sum", "", WTG_T_INT, 0 },
	};
	wtg_table_set_columns(t, cols, 8);
	struct wtg_value a[8] = { WTG_TEXT("one-byte"), WTG_INT(8 << 20), WTG_INT(8 << 20), WTG_REAL(8123.4),
				  WTG_REAL(2100), WTG_REAL(6000), WTG_REAL(968.4), WTG_INT(1234567) };
	struct wtg_value b[8] = { WTG_TEXT("buffered"), WTG_INT(8 << 20), WTG_INT(128), WTG_REAL(4.1),
				  WTG_REAL(3), WTG_REAL(1.1), WTG_REAL(0.49), WTG_INT(1234567) };
	struct wtg_probe_result p = probe(8123.4, 2100, 6000);
	wtg_table_add_row(t, a, 8, &p);
	p = probe(4.1, 3, 1.1);
	wtg_table_add_row(t, b, 8, &p);
	wtg_table_check(t, "sum", true, "both sums 1234567 = known sum");
}

static void fill_threads(struct wtg_table *t)
{
	static const struct wtg_column cols[] = {
		{ "threads", "count", WTG_T_INT, 0 }, { "ms", "ms", WTG_T_REAL, 2 },
		{ "gbps", "GB/s", WTG_T_REAL, 2 }, { "sum", "", WTG_T_INT, 0 },
	};
	wtg_table_set_columns(t, cols, 4);
	double g[] = { 10, 17, 18, 18.5 };
	for (int i = 0; i < 4; i++) {
		struct wtg_value v[4] = { WTG_INT(i + 1), WTG_REAL(64 / g[i]), WTG_REAL(g[i]), WTG_INT(99) };
		wtg_table_add_row(t, v, 4, NULL);
	}
}

/* threads as the experiment writes it on 2 CPUs with --threads=4: ideal capped at 2 x 10 GB/s */
static void fill_threads_ideal(struct wtg_table *t)
{
	static const struct wtg_column cols[] = {
		{ "threads", "count", WTG_T_INT, 0 },	   { "ms", "ms", WTG_T_REAL, 2 },
		{ "gbps", "GB/s", WTG_T_REAL, 2 },	   { "sum", "", WTG_T_INT, 0 },
		{ "ideal_gbps", "GB/s", WTG_T_REAL, 2 },
	};
	wtg_table_set_columns(t, cols, 5);
	double g[] = { 10, 17, 12, 11 };
	for (int i = 0; i < 4; i++) {
		struct wtg_value v[5] = { WTG_INT(i + 1), WTG_REAL(64 / g[i]), WTG_REAL(g[i]), WTG_INT(99),
					  WTG_REAL(10.0 * (i < 2 ? i + 1 : 2)) };
		wtg_table_add_row(t, v, 5, NULL);
	}
}

/* ... and after a follow-up on the 2-thread row: its parts ran 1.25x the whole, so its ideal is
 * 2 x 10 x 1.25 GB/s */
static void fill_threads_parts(struct wtg_table *t)
{
	static const struct wtg_column cols[] = {
		{ "threads", "count", WTG_T_INT, 0 }, { "ms", "ms", WTG_T_REAL, 2 },
		{ "gbps", "GB/s", WTG_T_REAL, 2 },	 { "sum", "", WTG_T_INT, 0 },
		{ "ideal_gbps", "GB/s", WTG_T_REAL, 2 }, { "parts_ratio", "", WTG_T_REAL, 2 },
	};
	wtg_table_set_columns(t, cols, 6);
	double g[] = { 10, 22 };
	for (int i = 0; i < 2; i++) {
		struct wtg_value v[6] = { WTG_INT(i + 1), WTG_REAL(64 / g[i]), WTG_REAL(g[i]), WTG_INT(99),
					  WTG_REAL(i ? 25.0 : 10.0), i ? WTG_REAL(1.25) : WTG_NA };
		wtg_table_add_row(t, v, 6, NULL);
	}
}

static void fill_readcost(struct wtg_table *t, const struct wtg_experiment *e)
{
	struct wtg_ctx ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.t = t;
	(void)e;
	static const struct wtg_column cols[] = {
		{ "operation", "", WTG_T_TEXT, 0 }, { "samples", "count", WTG_T_INT, 0 },
		{ "mean_ns", "ns", WTG_T_REAL, 1 }, { "median_ns", "ns", WTG_T_REAL, 1 },
		{ "p90_ns", "ns", WTG_T_REAL, 1 },  { "p99_ns", "ns", WTG_T_REAL, 1 },
		{ "max_ns", "ns", WTG_T_REAL, 1 },  { "ci_low_ns", "ns", WTG_T_REAL, 1 },
		{ "ci_high_ns", "ns", WTG_T_REAL, 1 },
	};
	wtg_table_set_columns(t, cols, 9);
	const char *names[3] = { "getpid", "read /dev/zero", "read file" };
	double base[3] = { 85, 230, 310 };
	struct wtg_rng r;
	wtg_rng_seed(&r, 7);
	for (int k = 0; k < 3; k++) {
		double v[120];
		for (int i = 0; i < 120; i++)
			v[i] = base[k] * (1 + 0.1 * wtg_rng_unit(&r)) + (i % 40 == 0 ? base[k] * 20 : 0);
		wtg_table_add_series(t, names[k], "ns", v, 120);
		struct wtg_summary s;
		wtg_summarize(v, 120, 1, &s);
		struct wtg_value row[9] = {
			WTG_TEXT(names[k]), WTG_INT(120),   WTG_REAL(s.mean),   WTG_REAL(s.median),
			WTG_REAL(s.p90),    WTG_REAL(s.p99), WTG_REAL(s.max),    WTG_REAL(s.ci_low),
			WTG_REAL(s.ci_high),
		};
		wtg_table_add_row(t, row, 9, NULL);
	}
}

static void fill_mmap(struct wtg_table *t)
{
	static const struct wtg_column cols[] = {
		{ "case", "", WTG_T_TEXT, 0 },	     { "ms", "ms", WTG_T_REAL, 2 },
		{ "minflt", "count", WTG_T_INT, 0 }, { "majflt", "count", WTG_T_INT, 0 },
		{ "pages", "count", WTG_T_INT, 0 },
	};
	wtg_table_set_columns(t, cols, 5);
	struct wtg_value a[5] = { WTG_TEXT("not prefaulted"), WTG_REAL(21.5), WTG_INT(1024), WTG_INT(0),
				  WTG_INT(16384) };
	struct wtg_value b[5] = { WTG_TEXT("prefaulted"), WTG_REAL(6.3), WTG_INT(2), WTG_INT(0),
				  WTG_INT(16384) };
	wtg_table_add_row(t, a, 5, NULL);
	wtg_table_add_row(t, b, 5, NULL);
}

static void fill_pagecache(struct wtg_table *t)
{
	static const struct wtg_column cols[] = {
		{ "pass", "", WTG_T_TEXT, 0 },	     { "ms", "ms", WTG_T_REAL, 2 },
		{ "gbps", "GB/s", WTG_T_REAL, 2 },   { "minflt", "count", WTG_T_INT, 0 },
		{ "majflt", "count", WTG_T_INT, 0 },
	};
	wtg_table_set_columns(t, cols, 5);
	struct wtg_value a[5] = { WTG_TEXT("cold"), WTG_REAL(480), WTG_REAL(0.14), WTG_INT(3), WTG_INT(410) };
	struct wtg_value b[5] = { WTG_TEXT("warm"), WTG_REAL(12), WTG_REAL(5.6), WTG_INT(1), WTG_INT(0) };
	wtg_table_add_row(t, a, 5, NULL);
	wtg_table_add_row(t, b, 5, NULL);
}

/* ---- drawing off-screen and reading back ---- */

static char screen[64][1024];
static bool colour;	/* the look asks for colour (attributes only: nothing is read back of them) */

static void render(const char *exp, void (*fill)(struct wtg_table *), int h, int w, bool ascii)
{
	int idx = wtg_experiment_find(exp);
	const struct wtg_experiment *e = wtg_experiments[idx];
	struct wtg_table t;
	wtg_table_init(&t, e);
	fill(&t);
	struct tui_look look = { ascii ? &tui_glyphs_ascii : &tui_glyphs_utf8, colour, !ascii };
	WINDOW *win = newwin(h, w, 0, 0);
	struct tui_view v = { .w = win, .y = 0, .x = 0, .h = h, .wd = w, .look = &look, .t = &t, .e = e };
	tui_view_draw(&v);
	for (int y = 0; y < h && y < 64; y++) {
		wchar_t wb[1024];
		memset(wb, 0, sizeof wb);
		mvwinnwstr(win, y, 0, wb, w);
		wcstombs(screen[y], wb, sizeof screen[y] - 1);
		/* trailing blanks are not what a person reads */
		size_t n = strlen(screen[y]);
		while (n && screen[y][n - 1] == ' ')
			screen[y][--n] = '\0';
	}
	for (int y = h; y < 64; y++)
		screen[y][0] = '\0';
	if (show) {
		printf("---- %s %dx%d%s\n", exp, w, h, ascii ? " ascii" : "");
		for (int y = 0; y < h; y++)
			printf("|%s\n", screen[y]);
	}
	delwin(win);
	wtg_table_free(&t);
}

static bool has(const char *s)
{
	for (int y = 0; y < 64; y++)
		if (strstr(screen[y], s))
			return true;
	return false;
}

static int line_of(const char *s)
{
	for (int y = 0; y < 64; y++)
		if (strstr(screen[y], s))
			return y;
	return -1;
}

/* The first line starting with prefix that also has needle, or -1. */
static int row_with(const char *prefix, const char *needle)
{
	for (int y = 0; y < 64; y++)
		if (strncmp(screen[y], prefix, strlen(prefix)) == 0 && strstr(screen[y], needle))
			return y;
	return -1;
}

static void fill_valley_all(struct wtg_table *t) { fill_valley(t, 99); }
/* With a series of GB/s samples: a wide view draws their histogram beside the sweep. */
static void fill_valley_series(struct wtg_table *t)
{
	fill_valley(t, 99);
	double v[15];
	for (int i = 0; i < 15; i++)
		v[i] = 0.011 + 0.0001 * (i % 7);
	wtg_table_add_series(t, "16B", "GB/s", v, 15);
}
static void fill_valley_3(struct wtg_table *t) { fill_valley(t, 3); }
static void fill_readcost_plain(struct wtg_table *t) { fill_readcost(t, NULL); }

/* A saved run's check and note with terminal controls in them (ESC, the C1 CSI, BEL). */
static void fill_valley_hostile(struct wtg_table *t)
{
	fill_valley(t, 99);
	wtg_table_check(t, "x\033[5m", false, "bad \xc2\x9b" "31m");
	wtg_table_note(t, "note \033]0;title\a here");
}

/* The screen draws such a string's escape, never the bytes: nothing reaches the terminal raw. */
static void test_hostile_text(void)
{
	render("valley", fill_valley_hostile, 16, 100, false);
	CHECK(has("x\\e[5m: bad \\xc2\\x9b31m"));
	CHECK(has("note \\e]0;title\\x07 here"));
	bool raw = false;
	for (int y = 0; y < 64; y++)
		raw = raw || strpbrk(screen[y], "\033\a") || strstr(screen[y], "\xc2\x9b");
	CHECK(!raw);
}

static void test_views(void)
{
	test_hostile_text();
	render("valley", fill_valley_all, 13, 78, false);
	CHECK(has("GB/s"));
	CHECK(has("16B"));
	CHECK(has("64K"));
	CHECK(has("16M"));
	CHECK(has("read() buffer size"));
	CHECK(has("●"));
	CHECK(has("16M: 4 read calls, bytes 64M, "));
	CHECK(has("GB/s, sum 8556347123"));
	CHECK(has("✓ 1 check ok: every pass: sum 8556347123 = known sum"));
	CHECK(has("perf counters n/a"));
	CHECK(line_of("16B") > line_of("GB/s"));
	/* the samples' histogram beside a wide sweep: a unit that is not a time is written once, at the
	 * right end of its tick labels (a time's is in every label) */
	render("valley", fill_valley_series, 30, 200, false);
	int hl = line_of("0.0112");
	CHECK(hl >= 0 && strstr(screen[hl], "GB/s") > strstr(screen[hl], "0.0112"));
	CHECK(hl >= 0 && strlen(screen[hl]) >= 4 && strcmp(screen[hl] + strlen(screen[hl]) - 4, "GB/s") == 0);
	CHECK(hl >= 0 && !strstr(screen[hl], "0.0112 GB/s"));	/* not in every label */
	/* the axis stays put while rows arrive: the planned range shows with three rows */
	render("valley", fill_valley_3, 13, 78, false);
	CHECK(has("16M"));
	CHECK(has("256B: 262,144 read calls"));
	render("valley", fill_valley_all, 13, 78, true);
	CHECK(has("16B"));
	CHECK(has("*"));
	CHECK(!has("●"));
	CHECK(has("ok 1 check ok: every pass"));

	render("syscall", fill_syscall, 13, 78, false);
	CHECK(has("ns"));
	CHECK(has("● median"));
	CHECK(has("◆ p99"));
	CHECK(has("10k"));
	CHECK(has("100"));
	CHECK(has("calls per batch"));
	CHECK(has("batch 10,000: 200 batches, median 91.0 ns, p99 104 ns"));

	render("bytewise", fill_bytewise, 13, 78, false);
	CHECK(has("one-byte"));
	CHECK(has("buffered"));
	CHECK(has("8.12 s  968 ns per byte"));
	CHECK(has("4.10 ms  0.490 ns per byte"));
	CHECK(has("one-byte / buffered = 1981×"));
	CHECK(has("one-byte, bytes 8M, 8,388,608 read calls"));

	render("threads", fill_threads, 13, 78, false);
	CHECK(has("1 thread"));
	CHECK(has("4 threads"));
	CHECK(has("┊ ideal scaling: 10.0 GB/s (1 thread) × N"));
	CHECK(has("18.5 GB/s"));
	CHECK(has("1 thread, "));	/* the row in words: a count of one is singular */
	CHECK(!has("1 threads"));
	/* with the table's own ideal column (capped at the CPUs), the legend says so */
	render("threads", fill_threads_ideal, 13, 78, false);
	CHECK(has("┊ ideal scaling: 10.0 GB/s (1 thread) × min(N, CPUs)"));
	CHECK(!has("× N"));
	CHECK(!has("parts/whole"));
	/* a row whose follow-up measured its parts: the legend says how many rows carry that gain */
	render("threads", fill_threads_parts, 13, 100, false);
	CHECK(has("┊ ideal scaling: 10.0 GB/s (1 thread) × min(N, CPUs), × parts/whole on 1 row"));
	/* 80 columns: the key's line ends at the CPUs, the parts' gain goes on the line below */
	render("threads", fill_threads_parts, 13, 78, false);
	CHECK(has("┊ ideal scaling: 10.0 GB/s (1 thread) × min(N, CPUs)"));
	CHECK(!has("CPUs), ×"));
	CHECK(has("  × parts/whole on 1 row"));

	render("readcost", fill_readcost_plain, 18, 78, false);
	CHECK(has("getpid"));
	CHECK(has("read /dev/zero"));
	CHECK(has("median"));
	CHECK(has("p99"));
	CHECK(has("▲"));
	CHECK(has("log scale"));
	CHECK(has("getpid: n 120, median 8"));
	CHECK(has("n 120"));
	CHECK(line_of("getpid") < line_of("read /dev/zero"));	/* stacked bands, named */
	render("readcost", fill_readcost_plain, 18, 78, true);
	CHECK(has("^"));
	CHECK(has("read file: n 120, median"));
	/* short (a projector's 80x24 leaves a view about this tall): still a strip each, named, the
	 * figures keyed underneath */
	colour = true;
	render("readcost", fill_readcost_plain, 12, 78, false);
	colour = false;
	CHECK(has("● getpid: n 120"));
	CHECK(line_of("getpid ") < line_of("read /dev/zero "));
	CHECK(line_of("read /dev/zero ") < line_of("read file "));
	CHECK(line_of("read file ") < line_of("● getpid: n 120"));
	CHECK(has("100ns"));
	/* too short for a row each: one chart, overlaid; without colour each distribution fills with
	 * its own glyph, and the keys say which */
	render("readcost", fill_readcost_plain, 4, 78, false);
	CHECK(has("▒▒"));
	CHECK(has("░░") || has("██"));
	render("readcost", fill_readcost_plain, 4, 78, true);
	CHECK(has("oo") || has("**"));

	/* rounds: error bars through the sweep's points, cache marks on its x axis, whiskers on bars */
	render("wss", fill_wss, 20, 78, false);
	CHECK(has("L2 1M"));
	CHECK(has("┊"));
	render("wss", fill_wss, 20, 78, true);
	CHECK(has(":L1 48K"));
	CHECK(has(":L3 32M"));
	/* a label is whole or absent, at any size, and beside its mark: the series never writes over
	 * part of one (drawn first, a line through the top row left "⡀1 48K"), nor over the mark's cell
	 * next to it (a line there left "⣀L1 48K", its level apart from its line) */
	for (int h = 8; h <= 20; h += 3)
		for (int wd = 40; wd <= 78; wd += 6)
			for (int a = 0; a < 2; a++) {
				render("wss", fill_wss, h, wd, a);
				const char *m = a ? ":" : "┊";
				char l1[32], l2[32], l3[32];
				snprintf(l1, sizeof l1, "%sL1 48K", m);
				snprintf(l2, sizeof l2, "%sL2 1M", m);
				snprintf(l3, sizeof l3, "%sL3 32M", m);
				CHECK(!has("48K") || has(l1));
				CHECK(!has(" 1M") || has(l2));
				CHECK(!has("32M") || has(l3));
			}
	render("kernels", fill_kernels, 13, 78, false);
	CHECK(has("[ ] 95% CI of the median"));
	CHECK(row_with("  simd 24K", "]") >= 0 && row_with("  simd 24K", "[") >= 0);
	CHECK(row_with("scalar 24K", "[") >= 0);

	render("mmap", fill_mmap, 13, 78, false);
	CHECK(has("not prefaulted"));
	CHECK(has("minor faults"));
	CHECK(has("faults per page"));
	CHECK(has("pages per fault"));
	CHECK(has("pages per fault                16"));	/* 16384 pages / 1024 faults */
	CHECK(has("per fault: 14.9 us = (21.5 ms – 6.30 ms) / (1,024 – 2 faults)"));	/* 15.2 ms / 1022 */
	render("pagecache", fill_pagecache, 13, 78, false);
	CHECK(has("cold / warm: 40.0× (410 vs 0 major faults)"));
	CHECK(!has("per fault:"));	/* 3 vs 1 minor faults say nothing per fault */
}

/* The view table: a row per view, named as --list names it, each drawing, with a help line. */
static void test_view_table(void)
{
	CHECK(tui_nview_classes == WTG_VIEW_COUNTERS + 1);
	for (int i = 0; i < tui_nview_classes; i++) {
		const struct tui_view_class *vc = tui_view_class((enum wtg_view)i);
		CHECK_STR(vc->name, wtg_view_name((enum wtg_view)i));
		CHECK(vc->draw != NULL && vc->wants != NULL);
		CHECK(vc->help && tui_width(vc->help) <= 55);
	}
	CHECK(!tui_view_class(WTG_VIEW_HISTOGRAM)->samples_beside);
}

/* ---- snapshots ---- */

static void test_snapshot(void)
{
	static const struct wtg_experiment e = { .name = "snap", .view = WTG_VIEW_BARS };
	struct wtg_table src, dst;
	wtg_table_init(&src, &e);
	wtg_table_init(&dst, &e);
	CHECK(wtg_table_snapshot(&dst, &src) == WTG_SNAP_SAME);
	struct wtg_column cols[] = { { "label", "", WTG_T_TEXT, 0 }, { "ms", "ms", WTG_T_REAL, 2 } };
	wtg_table_set_columns(&src, cols, 2);
	struct wtg_value v[] = { WTG_TEXT("first"), WTG_REAL(1.5) };
	wtg_table_add_row(&src, v, 2, NULL);
	CHECK(wtg_table_snapshot(&dst, &src) == WTG_SNAP_CONTENT);
	CHECK(dst.nrows == 1 && dst.ncols == 2);
	CHECK_STR(dst.rows[0].v[0].s, "first");
	CHECK(dst.rows[0].v[0].s != src.rows[0].v[0].s);	/* its own copy */
	CHECK(wtg_table_snapshot(&dst, &src) == WTG_SNAP_SAME);
	/* progress alone: the content is not copied again, the progress is */
	const char *row0 = dst.rows[0].v[0].s;
	wtg_table_progress(&src, 2, 5, "step two");
	CHECK(wtg_table_snapshot(&dst, &src) == WTG_SNAP_PROGRESS);
	CHECK(dst.progress.step == 2 && dst.progress.nsteps == 5);
	CHECK_STR(dst.progress.label, "step two");
	CHECK(dst.rows[0].v[0].s == row0);
	/* a row refined in place, a note, a series, the state: each is new content */
	struct wtg_value w[] = { WTG_TEXT("refined"), WTG_REAL(2.5) };
	wtg_table_set_row(&src, 0, w, 2, NULL);
	CHECK(wtg_table_snapshot(&dst, &src) == WTG_SNAP_CONTENT);
	CHECK_STR(dst.rows[0].v[0].s, "refined");
	wtg_table_note(&src, "a note");
	CHECK(wtg_table_snapshot(&dst, &src) == WTG_SNAP_CONTENT);
	CHECK(dst.nnotes == 1);
	double x[] = { 1, 2, 3 };
	wtg_table_add_series(&src, "ns", "ns", x, 3);
	CHECK(wtg_table_snapshot(&dst, &src) == WTG_SNAP_CONTENT);
	CHECK(dst.nseries == 1 && dst.series[0].n == 3 && dst.series[0].v[2] == 3);
	wtg_table_set_state(&src, WTG_DONE);
	CHECK(wtg_table_snapshot(&dst, &src) == WTG_SNAP_CONTENT);
	CHECK(dst.state == WTG_DONE);
	/* a rerun: reset, then the copy is empty again */
	wtg_table_reset(&src);
	CHECK(wtg_table_snapshot(&dst, &src) == WTG_SNAP_CONTENT);
	CHECK(dst.nrows == 0 && dst.nnotes == 0 && dst.nseries == 0 && dst.state == WTG_IDLE);
	wtg_table_free(&src);
	wtg_table_free(&dst);
}

/* ---- what the dashboard reads of the session ---- */

/* The status call: the running one, a queued one, one neither. */
static void test_session_status(void)
{
	static struct wtg_session s;
	memset(&s, 0, sizeof s);
	pthread_mutex_init(&s.qlock, NULL);
	s.exps = wtg_experiments;
	s.nexp = wtg_nexperiments;
	for (int i = 0; i < wtg_nexperiments; i++)
		wtg_table_init(&s.tables[i], wtg_experiments[i]);
	int run = 1 % wtg_nexperiments, queued = 2 % wtg_nexperiments, other = 3 % wtg_nexperiments;
	struct wtg_run_status st;
	atomic_store(&s.current, -1);
	wtg_session_status(&s, -1, &st);
	CHECK(st.idx == -1 && !st.current && st.queue_pos == -1);
	atomic_store(&s.current, run);
	s.queue[0] = other == queued ? -1 : queued;
	s.qlen = 1;
	wtg_table_set_state(&s.tables[run], WTG_RUNNING);
	wtg_table_progress(&s.tables[run], 3, 7, "bufsize 4K");
	wtg_session_status(&s, -1, &st);
	CHECK(st.idx == run && st.current && st.state == WTG_RUNNING);
	CHECK(st.progress.step == 3 && st.progress.nsteps == 7 && st.started_ns > 0);
	CHECK_STR(st.progress.label, "bufsize 4K");
	wtg_session_status(&s, queued, &st);
	CHECK(st.idx == queued && !st.current && st.queue_pos == 0 && st.state == WTG_IDLE);
	wtg_session_status(&s, other, &st);
	CHECK(st.queue_pos == -1 && !st.current);
	for (int i = 0; i < wtg_nexperiments; i++)
		wtg_table_free(&s.tables[i]);
	pthread_mutex_destroy(&s.qlock);
}

/* The three ways probe results join (the panels show their sums). */
static void test_probe_merge(void)
{
	struct wtg_probe_result a = { .wall_ms = 10, .user_ms = 4, .sys_ms = 1, .minflt = 5, .threads = 1,
				      .migrations = 2, .cpus_seen = 1 };
	struct wtg_probe_result b = { .wall_ms = 6, .user_ms = 3, .sys_ms = 2, .minflt = 7, .threads = 2,
				      .migrations = -1, .cpus_seen = 2 };
	struct wtg_probe_result c = a;
	wtg_probe_merge(&c, &b, WTG_PROBE_CONCURRENT);
	CHECK(c.wall_ms == 10 && c.user_ms == 7 && c.sys_ms == 3 && c.minflt == 12 && c.threads == 3);
	CHECK(c.migrations == -1 && c.cpus_seen == 3);	/* unknown stays unknown */
	c = a;
	wtg_probe_merge(&c, &b, WTG_PROBE_SEQUENTIAL);
	CHECK(c.wall_ms == 16 && c.user_ms == 7 && c.threads == 1);
	c = a;
	wtg_probe_merge(&c, &b, WTG_PROBE_HELPERS);
	CHECK(c.wall_ms == 10 && c.user_ms == 7 && c.minflt == 12 && c.threads == 2 && c.migrations == 2);
	struct wtg_probe_result z = { 0 };
	wtg_probe_merge(&z, &b, WTG_PROBE_SEQUENTIAL);	/* the first one is taken whole */
	CHECK(z.wall_ms == 6 && z.threads == 2 && z.minflt == 7);
}

/* The big figure over a verdict: the first number after the last ": " or "= " of its first part, none
 * when that part names none after it; a later part's numbers are other figures'. */
static void test_verdict_figure(void)
{
	static const struct { const char *v, *want; } cases[] = {
		{ "one kernel crossing = 134 ns (1 of 100 samples waited for a CPU)", "134" },
		{ "one kernel crossing = 134 ns; 116 ns (33%) and 136 ns (67%): two regimes; nothing watched "
		  "moved with them: steal 0.0% in both", "134" },
		{ "memory: 8 streams: x0.37 [0.34-0.59]: more misses in flight slowed it: they are not what caps "
		  "one core here; L1: the loads: loads alone no faster (x0.93 [0.86-1.00])", "" },
		{ "best buffer 1M: 21.9 GB/s, 46 ms a GB", "21.9" },
		{ "a warm pass = 3.54 ms; the slowest was pass 25 of 30", "3.54" },
		{ "sequential tops at 2.44 GB/s (16M reads); a random read = 71 us", "71" },
		{ "in cache SIMD sums 133x the byte loop (401 vs 3.0 GB/s) [CI 115-154x]; from memory 34 GB/s", "34" },
		{ "p99 with burners = x12.7 the quiet one", "12.7" },
	};
	char fig[32];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		tui_verdict_figure(cases[i].v, fig, sizeof fig);
		CHECK_STR(fig, cases[i].want);
	}
}

int main(int argc, char **argv)
{
	show = argc > 1 && strcmp(argv[1], "--show") == 0;
	if (!setlocale(LC_ALL, "C.UTF-8"))
		setlocale(LC_ALL, "C.utf8");
	test_nice();
	test_verdict_figure();
	test_ticks();
	test_bins();
	test_formats();
	test_view_table();
	test_snapshot();
	test_session_status();
	test_probe_merge();
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr = out && in ? newterm("xterm", out, in) : NULL;
	if (!scr) {
		fprintf(stderr, "test_tui: no xterm terminfo: the views are not tested\n");
	} else {
		set_term(scr);
		test_views();
		endwin();
		delscreen(scr);
	}
	if (out)
		fclose(out);
	if (in)
		fclose(in);
	return unit_done("test_tui");
}
