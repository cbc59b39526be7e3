/* test_warmup.c: the warm-up's stopping rule (wtg/warmup.h): window medians in, the decision out.
 * Five consecutive medians within 1% of each other (largest / smallest - 1 <= 1%) end it as met; a
 * maximum of windows ends it otherwise; anything else runs another window. */
#include "config.h"

#include <math.h>

#include "unit.h"
#include "wtg/warmup.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Too few windows: never met, whatever they hold. */
static void test_too_few(void)
{
	const double same[4] = { 100, 100, 100, 100 };
	CHECK(wtg_warmup_decide(same, 0, 8) == WTG_WARMUP_GOING);
	CHECK(wtg_warmup_decide(same, 4, 8) == WTG_WARMUP_GOING);
	CHECK(!wtg_warmup_stable(same, 4));
	CHECK(isnan(wtg_warmup_spread(same, 4)));
	CHECK(!wtg_warmup_stable(NULL, 0));
}

/* Five equal windows: met at the fifth; the spread is zero. */
static void test_met_at_five(void)
{
	const double m[5] = { 7.5, 7.5, 7.5, 7.5, 7.5 };
	CHECK(wtg_warmup_decide(m, 5, 8) == WTG_WARMUP_MET);
	CHECK(wtg_warmup_spread(m, 5) == 0);
}

/* The bound is inclusive: 100 .. 101 is exactly 1% and is met; 100 .. 101.01 is not. */
static void test_boundary(void)
{
	const double at[5] = { 100, 101, 100.5, 100, 101 };
	const double past[5] = { 100, 101.01, 100.5, 100, 101 };
	CHECK(wtg_warmup_stable(at, 5));
	CHECK(wtg_warmup_decide(at, 5, 8) == WTG_WARMUP_MET);
	CHECK(!wtg_warmup_stable(past, 5));
	CHECK(wtg_warmup_decide(past, 5, 8) == WTG_WARMUP_GOING);
	CHECK(fabs(wtg_warmup_spread(past, 5) - 0.0101) < 1e-12);
	/* small figures (GB/s of a slow loop): the same relative bound */
	const double small[5] = { 1.00, 1.01, 1.005, 1.00, 1.01 };
	CHECK(wtg_warmup_stable(small, 5));
}

/* Only the last five count: a cold start before them does not stop the rule, a spike among them does. */
static void test_last_five(void)
{
	const double cold[7] = { 60, 85, 100, 100.2, 99.9, 100.4, 100.1 };
	CHECK(wtg_warmup_decide(cold, 6, 8) == WTG_WARMUP_GOING);	/* 85 is among the last five */
	CHECK(wtg_warmup_decide(cold, 7, 8) == WTG_WARMUP_MET);
	const double spike[6] = { 100, 100, 100, 130, 100, 100 };
	CHECK(wtg_warmup_decide(spike, 6, 8) == WTG_WARMUP_GOING);
	/* a slow drift: every step under 1%, five of them past it */
	const double drift[8] = { 100, 100.4, 100.8, 101.2, 101.6, 102.0, 102.4, 102.8 };
	for (size_t n = 1; n < N(drift); n++)
		CHECK(wtg_warmup_decide(drift, n, 8) == WTG_WARMUP_GOING);
	CHECK(wtg_warmup_decide(drift, 8, 8) == WTG_WARMUP_MAX);
}

/* The maximum: reached without the rule, it ends the warm-up; met on the last allowed window, it is
 * met; a maximum below five can only be reached. */
static void test_maximum(void)
{
	const double noisy[8] = { 100, 90, 110, 95, 105, 92, 108, 97 };
	CHECK(wtg_warmup_decide(noisy, 7, 8) == WTG_WARMUP_GOING);
	CHECK(wtg_warmup_decide(noisy, 8, 8) == WTG_WARMUP_MAX);
	CHECK(wtg_warmup_decide(noisy, 9, 8) == WTG_WARMUP_MAX);
	const double late[8] = { 50, 70, 90, 100, 100, 100, 100, 100 };
	CHECK(wtg_warmup_decide(late, 8, 8) == WTG_WARMUP_MET);
	const double same[3] = { 1, 1, 1 };
	CHECK(wtg_warmup_decide(same, 3, 3) == WTG_WARMUP_MAX);
	CHECK(wtg_warmup_decide(same, 0, 0) == WTG_WARMUP_MAX);
}

/* Medians that cannot be compared (a window that measured nothing, or failed): never met. */
static void test_bad_medians(void)
{
	const double zero[5] = { 0, 0, 0, 0, 0 };
	const double nan1[5] = { 100, 100, NAN, 100, 100 };
	const double inf1[5] = { 100, 100, INFINITY, 100, 100 };
	const double neg[5] = { -100, -100, -100, -100, -100 };
	CHECK(!wtg_warmup_stable(zero, 5));
	CHECK(!wtg_warmup_stable(nan1, 5));
	CHECK(!wtg_warmup_stable(inf1, 5));
	CHECK(!wtg_warmup_stable(neg, 5));
	CHECK(wtg_warmup_decide(nan1, 5, 5) == WTG_WARMUP_MAX);
	/* once the bad window is more than five back, the rule can be met again */
	const double later[6] = { NAN, 100, 100, 100, 100, 100 };
	CHECK(wtg_warmup_decide(later, 6, 8) == WTG_WARMUP_MET);
}

static void test_names(void)
{
	CHECK_STR(wtg_warmup_state_name(WTG_WARMUP_MET), "met");
	CHECK_STR(wtg_warmup_state_name(WTG_WARMUP_MAX), "max");
	CHECK_STR(wtg_warmup_state_name(WTG_WARMUP_GOING), "going");
}

int main(void)
{
	test_too_few();
	test_met_at_five();
	test_boundary();
	test_last_five();
	test_maximum();
	test_bad_medians();
	test_names();
	return unit_done("test_warmup");
}
