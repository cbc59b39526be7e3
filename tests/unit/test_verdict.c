/* test_verdict.c: the verdict rule from given intervals (src/saved/gate.c, src/saved/verdict.c): faster
 * or slower only when the interval excludes 1, no change only inside 1 +- the band, inconclusive
 * otherwise; the gate's regression; a figure that is a difference; two runs one after the other
 * against the drift measured (replicas, A/A pairs). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "unit.h"
#include "wtg/experiment.h"
#include "wtg/gate.h"

static void test_rule(void)
{
	/* a time (lower is better), no gate: the band is WTG_NO_CHANGE_PCT */
	CHECK(wtg_verdict_of(0.85, 0.80, 0.90, false, 0) == WTG_V_FASTER);
	CHECK(wtg_verdict_of(1.25, 1.20, 1.30, false, 0) == WTG_V_SLOWER);
	CHECK(wtg_verdict_of(1.01, 0.95, 1.05, false, 0) == WTG_V_SAME);
	CHECK(wtg_verdict_of(1.01, 0.90, 1.10, false, 0) == WTG_V_SAME);	/* the band's edges count */
	CHECK(wtg_verdict_of(1.05, 0.90, 1.20, false, 0) == WTG_V_INCONCLUSIVE);
	CHECK(wtg_verdict_of(0.75, 0.54, 1.05, true, 0) == WTG_V_INCONCLUSIVE);	/* valley's x0.753 */
	CHECK(wtg_verdict_of(1.00, NAN, NAN, false, 0) == WTG_V_INCONCLUSIVE);	/* no CI: nothing shown */
	CHECK(wtg_verdict_of(NAN, NAN, NAN, false, 0) == WTG_V_NONE);
	/* an interval that excludes 1 inside the band is still a change */
	CHECK(wtg_verdict_of(1.02, 1.005, 1.04, false, 0) == WTG_V_SLOWER);
	/* a throughput: higher is better */
	CHECK(wtg_verdict_of(0.62, 0.40, 0.95, true, 0) == WTG_V_SLOWER);
	CHECK(wtg_verdict_of(1.30, 1.20, 1.40, true, 0) == WTG_V_FASTER);
	/* the band is the threshold when one is given */
	CHECK(wtg_verdict_of(1.00, 0.85, 1.15, false, 0.20) == WTG_V_SAME);
	CHECK(wtg_verdict_of(1.00, 0.85, 1.15, false, 0.10) == WTG_V_INCONCLUSIVE);
	CHECK_STR(wtg_verdict_name(WTG_V_SAME), "no change");
	CHECK_STR(wtg_verdict_name(WTG_V_INCONCLUSIVE), "inconclusive");
}

static void test_regression(void)
{
	/* exit 3's rule as it was: worse by more than the threshold with the interval beyond it too */
	CHECK(wtg_verdict_of(1.50, 1.30, 1.70, false, 0.10) == WTG_V_REGRESSION);
	CHECK(wtg_verdict_of(1.15, 1.05, 1.30, false, 0.10) == WTG_V_SLOWER);	/* the CI reaches below */
	CHECK(wtg_verdict_of(1.50, 1.30, 1.70, false, 0) == WTG_V_SLOWER);		/* no gate: no regression */
	CHECK(wtg_verdict_of(0.50, 0.40, 0.60, true, 0.10) == WTG_V_REGRESSION);
	CHECK(wtg_verdict_of(0.50, 0.40, 0.60, false, 0.10) == WTG_V_FASTER);
	/* a sequential pair regresses alike, whatever the drift */
	CHECK(wtg_verdict_sequential(1.50, 1.30, 1.70, false, 0.10, NAN) == WTG_V_REGRESSION);
	CHECK(wtg_verdict_sequential(1.50, 1.30, 1.70, false, 0.10, 0.9) == WTG_V_REGRESSION);
	CHECK_STR(wtg_verdict_name(WTG_V_REGRESSION), "slower (regression)");
	/* against a baseline of several runs: the ratio over where a next run falls */
	CHECK(wtg_verdict_next(1.02, 0.95, 1.05, false, 0.10) == WTG_V_SAME);
	CHECK(wtg_verdict_next(1.09, 0.95, 1.05, false, 0.10) == WTG_V_SLOWER);
	CHECK(wtg_verdict_next(1.50, 0.95, 1.05, false, 0.10) == WTG_V_REGRESSION);
	CHECK(wtg_verdict_next(0.60, 0.95, 1.05, false, 0.10) == WTG_V_FASTER);
	CHECK(wtg_verdict_next(1.02, 0.80, 1.20, false, 0.10) == WTG_V_INCONCLUSIVE);
}

static void test_words(void)
{
	char buf[160];
	CHECK_STR(wtg_verdict_words(buf, sizeof buf, WTG_V_INCONCLUSIVE, 0.86, 1.14, "-", NAN, "ns"),
		  "inconclusive [0.86-1.14]");
	CHECK_STR(wtg_verdict_words(buf, sizeof buf, WTG_V_NOISE, -40, 60, "-", 12, "ns"),
		  "within its noise: +12 ns [-40, +60]");
	CHECK_STR(wtg_verdict_words(buf, sizeof buf, WTG_V_SLOWER, 1.2, 1.3, "-", NAN, "ns"), "slower");
	CHECK(strstr(wtg_verdict_name(WTG_V_MOVED), "the machine's state moved between the runs") != NULL);
}

static void test_difference(void)
{
	/* mmap's A/A rerun: -2.21 then a few ns the other way, never x-2.21 */
	CHECK(wtg_verdict_diff(7.5, -10.1, 20.3, false) == WTG_V_NOISE);
	CHECK(wtg_verdict_diff(150, 100, 200, false) == WTG_V_SLOWER);
	CHECK(wtg_verdict_diff(-150, -200, -100, false) == WTG_V_FASTER);
	CHECK(wtg_verdict_diff(150, 100, 200, true) == WTG_V_FASTER);
	CHECK(wtg_verdict_diff(5, NAN, NAN, false) == WTG_V_NOISE);
	CHECK(wtg_verdict_sequential_diff(150, 100, 200, false, 50) == WTG_V_SLOWER);
	CHECK(wtg_verdict_sequential_diff(150, 100, 200, false, 120) == WTG_V_MOVED);
	CHECK(wtg_verdict_sequential_diff(150, 100, 200, false, NAN) == WTG_V_NO_DRIFT);
	/* the headline says so */
	const struct wtg_experiment *e = wtg_experiments[wtg_experiment_find("mmap")];
	CHECK(e && e->headline[0].difference);
	int n;
	const struct wtg_headline *h = wtg_headlines_of(wtg_experiments[wtg_experiment_find("syscall")], &n);
	CHECK(h && !h->difference);
}

static void test_sequential(void)
{
	/* beyond the drift: a change; inside it: the machine moved; none measured: said so */
	CHECK(wtg_verdict_sequential(1.50, 1.30, 1.70, false, 0, 0.20) == WTG_V_SLOWER);
	CHECK(wtg_verdict_sequential(1.50, 1.30, 1.70, false, 0, 0.40) == WTG_V_MOVED);
	CHECK(wtg_verdict_sequential(1.50, 1.30, 1.70, false, 0, NAN) == WTG_V_NO_DRIFT);
	CHECK(wtg_verdict_sequential(0.60, 0.55, 0.65, false, 0, 0.20) == WTG_V_FASTER);	/* 0.65 < 1/1.2 */
	CHECK(wtg_verdict_sequential(0.85, 0.80, 0.90, false, 0, 0.20) == WTG_V_MOVED);
	/* the syscall rerun with nothing changed: x0.99 [0.86-0.99] "faster" no more */
	CHECK(wtg_verdict_sequential(0.99, 0.86, 0.99, false, 0, NAN) == WTG_V_NO_DRIFT);
	CHECK(wtg_verdict_sequential(1.02, 1.005, 1.04, false, 0, 0.001) == WTG_V_SAME);
	CHECK(wtg_verdict_sequential(1.00, 0.90, 1.20, false, 0, 0.01) == WTG_V_INCONCLUSIVE);
}

static void test_drift(void)
{
	struct wtg_drift d;
	double rb, ab;
	wtg_drift_init(&d);
	CHECK(!wtg_drift_band(&d, &rb, &ab) && isnan(rb) && isnan(ab));
	/* one A/A pair: the band is its move */
	wtg_drift_add_pair(&d, 100, 110);
	CHECK(wtg_drift_band(&d, &rb, &ab));
	CHECK_NEAR(rb, 0.10, 1e-12);
	CHECK_NEAR(ab, 10, 1e-12);
	/* a run of two replicas, medians 100 and 121: log sd = ln(1.21) / sqrt 2, one degree of freedom */
	static const double v[] = { 99, 100, 101, 120, 121, 122 };
	static const size_t len[] = { 3, 3 };
	struct wtg_figure f = { .found = true, .value = 110, .samples = v, .nsamples = 6, .replica_len = len,
				.nreplicas = 2, .spread_pct = NAN };
	wtg_drift_init(&d);
	wtg_drift_add_run(&d, &f);
	CHECK(d.df == 1 && d.runs == 1);
	CHECK(wtg_drift_band(&d, &rb, &ab));
	double t = wtg_t_quantile(0.975, 1) * sqrt(2.0);
	CHECK_NEAR(rb, exp(t * log(1.21) / sqrt(2.0)) - 1, 1e-9);
	CHECK_NEAR(ab, t * 21 / sqrt(2.0), 1e-9);
	/* a row measured in rounds: its replica spread column, read through Tippett's d2 */
	struct wtg_figure g = { .found = true, .value = 50, .spread_pct = 23.26, .spread_replicas = 5 };
	wtg_drift_init(&d);
	wtg_drift_add_run(&d, &g);
	CHECK(d.df == 4);
	CHECK(wtg_drift_band(&d, &rb, &ab));
	CHECK_NEAR(ab, wtg_t_quantile(0.975, 4) * sqrt(2.0) * 0.1 * 50, 1e-6);
	/* no samples, no spread: nothing measured */
	struct wtg_figure none = { .found = true, .value = 50, .spread_pct = NAN };
	wtg_drift_init(&d);
	wtg_drift_add_run(&d, &none);
	CHECK(!wtg_drift_band(&d, &rb, &ab));
}

int main(void)
{
	test_rule();
	test_regression();
	test_words();
	test_difference();
	test_sequential();
	test_drift();
	return unit_done("test_verdict");
}
