/* test_compare.c: two runs' headline figures side by side, as the dashboard's before -> after and the
 * headless comparison read them (wtg_gate_pair): per unit of work where the work differs between runs
 * (bytewise's slice: 8 MiB by default, 1 MiB with --quick), and not compared where a figure is not
 * per unit and the runs did different work (wss's largest span). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "unit.h"
#include "wtg/experiment.h"
#include "wtg/figure.h"
#include "wtg/gate.h"
#include "wtg/table.h"

/* A table of experiment name with one row: the named cells set, the rest n/a. */
static void one_row(struct wtg_table *t, const char *name, const char *const *cols, const struct wtg_value *v,
		    int n)
{
	const struct wtg_experiment *e = wtg_experiments[wtg_experiment_find(name)];
	wtg_table_init(t, e);
	wtg_experiment_columns(e, t);
	struct wtg_value row[WTG_MAX_COLS];
	for (int c = 0; c < t->ncols; c++)
		row[c] = WTG_NA;
	for (int i = 0; i < n; i++) {
		int c = wtg_table_col(t, cols[i]);
		CHECK(c >= 0);
		if (c >= 0)
			row[c] = v[i];
	}
	wtg_table_add_row(t, row, t->ncols, NULL);
}

/* bytewise's one-byte row: the slice's bytes, ms for the slice and its CI. */
static void bytewise(struct wtg_table *t, double bytes, double ms, double lo, double hi)
{
	static const char *const cols[] = { "variant", "bytes", "ms", "ms_ci_low", "ms_ci_high" };
	struct wtg_value v[] = { WTG_TEXT("1B per read"), WTG_INT(bytes), WTG_REAL(ms), WTG_REAL(lo), WTG_REAL(hi) };
	one_row(t, "bytewise", cols, v, 5);
}

static const struct wtg_headline *first_headline(const char *name)
{
	int n;
	return wtg_headlines_of(wtg_experiments[wtg_experiment_find(name)], &n);
}

static void test_per_byte(void)
{
	const struct wtg_headline *h = first_headline("bytewise");
	CHECK(h && h->per_col && !strcmp(h->unit, "ns"));
	/* home: 8 MiB in 2516 ms (300 ns a byte); class, --quick: 1 MiB in 314.5 ms, the same per byte */
	struct wtg_table home, same, slower;
	bytewise(&home, 8 << 20, 2516.6, 2490, 2540);
	bytewise(&same, 1 << 20, 314.6, 310, 319);
	bytewise(&slower, 1 << 20, 472, 466, 478);	/* 450 ns a byte */
	struct wtg_gate_pair p;
	wtg_gate_pair(h, &home, &same, 1, 0, &p);
	CHECK_NEAR(p.base.value, 2516.6e6 / (8 << 20), 1e-9);
	CHECK_NEAR(p.ratio, 1.0, 0.01);	/* not the x0.13 of the slices' times */
	CHECK(isfinite(p.lo) && p.lo < 1 && p.hi > 1);
	CHECK(p.v == WTG_V_SAME);
	CHECK_STR(wtg_verdict_name(p.v), "no change");
	wtg_gate_pair(h, &home, &slower, 1, 0, &p);
	CHECK_NEAR(p.ratio, 1.5, 0.01);
	/* two runs one after the other, no replicas to measure the drift by: not called slower */
	CHECK(p.v == WTG_V_NO_DRIFT && !p.drift_known);
	wtg_table_free(&home);
	wtg_table_free(&same);
	wtg_table_free(&slower);
}

/* wss's last row: the largest span and its GB/s. */
static void wss(struct wtg_table *t, double span, double gbps)
{
	static const char *const cols[] = { "wss", "gbps", "gbps_ci_low", "gbps_ci_high" };
	struct wtg_value v[] = { WTG_INT(span), WTG_REAL(gbps), WTG_REAL(gbps * 0.98), WTG_REAL(gbps * 1.02) };
	one_row(t, "wss", cols, v, 4);
}

static void test_apart(void)
{
	const struct wtg_headline *h = first_headline("wss");
	CHECK(h && h->work_col && !strcmp(h->work_col, "wss"));
	struct wtg_table big, small, big2;
	wss(&big, 64 << 20, 38);
	wss(&small, 16 << 20, 48);
	wss(&big2, 64 << 20, 30);
	struct wtg_gate_pair p;
	wtg_gate_pair(h, &big, &small, 1, 0, &p);
	CHECK(p.v == WTG_V_APART);
	CHECK(isnan(p.ratio));
	CHECK_STR(p.why, "wss 64M vs 16M");
	CHECK_STR(wtg_verdict_name(p.v), "not comparable");
	wtg_gate_pair(h, &big, &big2, 1, 0, &p);	/* the same span: compared */
	CHECK(p.v == WTG_V_NO_DRIFT && fabs(p.ratio - 30.0 / 38) < 1e-9);
	wtg_gate_pair(h, &big, NULL, 1, 0, &p);
	CHECK(p.v == WTG_V_MISSING);
	wtg_table_free(&big);
	wtg_table_free(&small);
	wtg_table_free(&big2);
}

/* passes: a pass is the whole file, whose size --size sets */
static void test_passes(void)
{
	static const char *const cols[] = { "operation", "median_ns", "ci_low_ns", "ci_high_ns", "bytes" };
	const struct wtg_headline *h = first_headline("passes");
	struct wtg_table a, b;
	struct wtg_value va[] = { WTG_TEXT("pass"), WTG_REAL(12e6), WTG_REAL(11e6), WTG_REAL(13e6), WTG_INT(64 << 20) };
	struct wtg_value vb[] = { WTG_TEXT("pass"), WTG_REAL(3e6), WTG_REAL(2.9e6), WTG_REAL(3.1e6), WTG_INT(16 << 20) };
	one_row(&a, "passes", cols, va, 5);
	one_row(&b, "passes", cols, vb, 5);
	struct wtg_gate_pair p;
	wtg_gate_pair(h, &a, &b, 1, 0, &p);
	CHECK(p.v == WTG_V_APART);	/* not "faster" by x0.25 */
	CHECK_STR(p.why, "bytes 64M vs 16M");
	wtg_table_free(&a);
	wtg_table_free(&b);
}

int main(void)
{
	test_per_byte();
	test_apart();
	test_passes();
	return unit_done("test_compare");
}
