/* test_modes.c: two states named (src/base/modes.c) on synthetic data drawn with the seeded generator:
 * Hartigan's dip at its known extremes, its p-value against the table, and the rule: unimodal
 * normal data is not split, two clusters at 85 and 103 ns in shares 60/40 are found with those
 * modes and shares, a long tail (lognormal, exponential) is not two regimes, nor a timer's ticks. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "unit.h"
#include "wtg/modes.h"
#include "wtg/stats.h"

static double normal(struct wtg_rng *r)
{
	double u = wtg_rng_unit(r), v = wtg_rng_unit(r);
	return sqrt(-2 * log(1 - u)) * cos(2 * M_PI * v);
}

static void test_dip(void)
{
	double x[100];
	/* evenly spaced: as unimodal as values get, the dip's floor 1 / (2n) */
	for (int i = 0; i < 100; i++)
		x[i] = i;
	CHECK_NEAR(wtg_dip(x, 100), 1.0 / 200, 1e-12);
	/* two equal, far clusters: the dip nears its ceiling 1/4 */
	for (int i = 0; i < 100; i++)
		x[i] = i < 50 ? i * 0.01 : 1000 + i * 0.01;
	double d = wtg_dip(x, 100);
	CHECK(d > 0.23 && d <= 0.25);
	/* 60/40: the smaller share over two */
	for (int i = 0; i < 100; i++)
		x[i] = i < 60 ? i * 0.01 : 1000 + i * 0.01;
	d = wtg_dip(x, 100);
	CHECK(d > 0.18 && d <= 0.2);
	/* the p-value: the table's ends and its order */
	CHECK_NEAR(wtg_dip_p(0.01, 100), 0.5, 1e-12);
	CHECK_NEAR(wtg_dip_p(0.2, 100), 0.001, 1e-12);
	CHECK(wtg_dip_p(0.045, 100) < wtg_dip_p(0.04, 100));
	CHECK_NEAR(wtg_dip_p(0.50902 / 10, 100), 0.05, 1e-9);	/* the 95% quantile of n = 100 */
	CHECK(isnan(wtg_dip_p(0.1, 5)));
}

static void test_unimodal(void)
{
	struct wtg_rng r;
	wtg_rng_seed(&r, 7);
	double *v = malloc(1000 * sizeof *v);
	struct wtg_modes m;
	/* normal data, at the sizes the rows have: 15 rounds, 200 batches, 1000 samples */
	static const size_t sizes[] = { 15, 200, 1000 };
	for (size_t k = 0; k < 3; k++)
		for (int rep = 0; rep < 20; rep++) {
			for (size_t i = 0; i < sizes[k]; i++)
				v[i] = 100 + 3 * normal(&r);
			CHECK(wtg_two_modes(v, sizes[k], &m) == 0);
			if (m.two)
				unit_diag("n %zu: p %.3g, D %.3g", sizes[k], m.p, m.ashman_d);
			CHECK(!m.two);
		}
	/* a long tail: lognormal and exponential */
	for (int rep = 0; rep < 10; rep++) {
		for (int i = 0; i < 1000; i++)
			v[i] = 90 * exp(0.6 * normal(&r));
		CHECK(wtg_two_modes(v, 1000, &m) == 0 && !m.two);
		for (int i = 0; i < 1000; i++)
			v[i] = 85 - 20 * log(1 - wtg_rng_unit(&r));
		CHECK(wtg_two_modes(v, 1000, &m) == 0 && !m.two);
	}
	/* a timer's ticks: clock pairs of 20, 30 or 40 ns */
	for (int i = 0; i < 1000; i++)
		v[i] = 20 + 10 * (double)wtg_rng_below(&r, 3);
	CHECK(wtg_two_modes(v, 1000, &m) == 0 && !m.two);
	free(v);
}

static void test_two(void)
{
	struct wtg_rng r;
	wtg_rng_seed(&r, 11);
	double v[200];
	struct wtg_modes m;
	/* getpid on a machine that flips: 85 ns (60%) and 103 ns (40%), each within 1% */
	for (int i = 0; i < 200; i++)
		v[i] = (i % 5 < 3 ? 85 : 103) * (1 + 0.01 * (2 * wtg_rng_unit(&r) - 1));
	CHECK(wtg_two_modes(v, 200, &m) == 0);
	CHECK(m.two && m.p < 0.0011);	/* the table's end */
	CHECK_NEAR(m.mode[0], 85, 1);
	CHECK_NEAR(m.mode[1], 103, 1.1);
	CHECK_NEAR(m.share[0], 0.6, 1e-12);
	CHECK_NEAR(m.share[1], 0.4, 1e-12);
	/* fifteen rounds: 9 and 6 */
	for (int i = 0; i < 15; i++)
		v[i] = (i < 9 ? 85 : 103) * (1 + 0.01 * (2 * wtg_rng_unit(&r) - 1));
	CHECK(wtg_two_modes(v, 15, &m) == 0 && m.two);
	CHECK_NEAR(m.share[0], 0.6, 1e-12);
	/* normal noise about each state (sd 2 ns): still two */
	for (int i = 0; i < 200; i++)
		v[i] = (i % 5 < 3 ? 85 : 103) + 2 * normal(&r);
	CHECK(wtg_two_modes(v, 200, &m) == 0 && m.two);
	/* a few outliers are not a second state (under the share) */
	for (int i = 0; i < 200; i++)
		v[i] = i < 195 ? 85 + 2 * normal(&r) : 400;
	CHECK(wtg_two_modes(v, 200, &m) == 0 && !m.two);
	/* the words: three significant figures, whole from 1000 up */
	char words[160];
	struct wtg_modes w = { .mode = { 85.2, 103.4 }, .share = { 0.6, 0.4 } };
	wtg_modes_words(words, sizeof words, &w, "ns");
	CHECK_STR(words, "85.2 ns (60%) and 103 ns (40%): two regimes");
	w = (struct wtg_modes){ .mode = { 460.4, 7691.2 }, .share = { 0.4, 0.6 } };
	wtg_modes_words(words, sizeof words, &w, "ns");
	CHECK_STR(words, "460 ns (40%) and 7691 ns (60%): two regimes");
	/* too few values to say */
	CHECK(wtg_two_modes(v, 5, &m) == 0 && !m.two && isnan(m.p));
}

/* What moved with two regimes: steal read beside each value split by the clusters, said against the
 * slow one (the upper for times, the lower for rates); else the run's steal and frequency. */
static void test_state(void)
{
	double v[40], steal[40];
	for (int i = 0; i < 40; i++) {
		v[i] = i % 5 < 3 ? 85 + (i % 7) * 0.3 : 103 + (i % 6) * 0.4;	/* 24 fast, 16 slow */
		steal[i] = v[i] > 100 ? 4.2 : 0.1;
	}
	struct wtg_modes m;
	CHECK(wtg_two_modes(v, 40, &m) == 0 && m.two);
	CHECK(m.cut >= 85 && m.cut < 103);
	double mean[2];
	wtg_modes_split_mean(&m, v, steal, 40, mean);
	CHECK_NEAR(mean[0], 0.1, 1e-9);
	CHECK_NEAR(mean[1], 4.2, 1e-9);
	struct wtg_modes_state st;
	char words[256];
	wtg_modes_state_of(&m, v, steal, NULL, 40, "ns", NAN, NAN, NAN, &st);
	wtg_modes_state_words(words, sizeof words, &st);
	CHECK_STR(words, "steal 0.1% vs 4.2% in the slow one");
	/* the same values as a rate (GB/s): the slow one is the lower */
	wtg_modes_state_of(&m, v, steal, NULL, 40, "GB/s", NAN, NAN, NAN, &st);
	wtg_modes_state_words(words, sizeof words, &st);
	CHECK_STR(words, "steal 4.2% vs 0.1% in the slow one");
	/* steal alike in both, the frequency per sample apart */
	for (int i = 0; i < 40; i++)
		steal[i] = 0.3;
	wtg_modes_state_of(&m, v, steal, NULL, 40, "ns", NAN, NAN, NAN, &st);
	double mhz[40];
	for (int i = 0; i < 40; i++)
		mhz[i] = v[i] > 100 ? 1800 : 2400;
	wtg_modes_state_of(&m, v, steal, mhz, 40, "ns", NAN, NAN, NAN, &st);
	CHECK_NEAR(st.mhz[0], 2400, 1e-9);
	CHECK_NEAR(st.mhz[1], 1800, 1e-9);
	wtg_modes_state_words(words, sizeof words, &st);
	CHECK_STR(words, "2400 vs 1800 MHz in the slow one");
	st.mhz[1] = 2390;
	wtg_modes_state_words(words, sizeof words, &st);
	CHECK_STR(words, "nothing watched moved with them: steal 0.3% in both, 2395 MHz in both");
	/* nothing per sample: the run's figures */
	wtg_modes_state_of(&m, v, NULL, NULL, 40, "ns", 0.01, 2400, 2400, &st);
	wtg_modes_state_words(words, sizeof words, &st);
	CHECK_STR(words, "nothing watched moved with them: no steal over the run, frequency held at 2400 MHz");
	wtg_modes_state_of(&m, v, NULL, NULL, 40, "ns", NAN, NAN, NAN, &st);
	wtg_modes_state_words(words, sizeof words, &st);
	CHECK_STR(words, "nothing watched moved with them: steal not readable, frequency not readable");
	CHECK(wtg_modes_state_words(words, 12, &st) == 11 && strlen(words) == 11);	/* cut, never overrun */
}

int main(void)
{
	test_dip();
	test_unimodal();
	test_two();
	test_state();
	return unit_done("test_modes");
}
