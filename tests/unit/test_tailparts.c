/* test_tailparts.c: tail's division of the p99's extra time (src/experiments/tail_parts.c) on
 * samples whose parts are known by construction: the parts add up to the extra, each is the one
 * put in, and the verdict's words say them in order of size. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/experiments/tail_parts.h"
#include "unit.h"

#define N 1000

/* 890 plain samples (100 ns: 90 on a CPU, 5 waiting, 5 else); 100 with one interrupt that cost
 * 10 ns on a CPU; 10 slow ones (300 ns): 100 more waiting, 40 more on a CPU, one interrupt, 30
 * stolen, the rest (30) unaccounted. */
static void make(struct tp_samples *s)
{
	for (int i = 0; i < N; i++) {
		int kind = i % 100 == 7 ? 2 : i % 10 == 3 ? 1 : 0;
		s->w[i] = kind == 2 ? 300 : kind == 1 ? 110 : 100;
		s->c[i] = kind == 2 ? 130 : kind == 1 ? 100 : 90;
		s->q[i] = kind == 2 ? 105 : 5;
		s->n[i] = kind ? 1 : 0;
		s->s[i] = kind == 2 ? 30 : 0;
	}
	s->len = N;
}

static void test_known(void)
{
	struct tp_samples s;
	CHECK(tp_samples_alloc(&s, N) == 0);
	make(&s);
	int tail = 0, irq = 0;
	for (int i = 0; i < N; i++) {
		tail += s.w[i] == 300;
		irq += s.w[i] == 110;
	}
	CHECK(tail == 10 && irq == 100);	/* the construction: 890, 100, 10 */
	struct tp_division d;
	tp_divide(&s, 0.99, 200, 42, &d);
	CHECK(d.tail == 10);
	CHECK_NEAR(d.excess, 200.0, 1e-9);
	/* the slope of (wall - waiting) on interrupts over all samples: 1780 / 97.9 = 200 / 11 ns */
	CHECK_NEAR(d.ns_per_irq, 200.0 / 11.0, 1e-9);
	CHECK_NEAR(d.part[TP_WAIT], 100.0, 1e-9);
	CHECK_NEAR(d.part[TP_IRQ], 200.0 / 11.0, 1e-9);
	CHECK_NEAR(d.part[TP_ONCPU], 40.0 - 200.0 / 11.0, 1e-9);	/* the interrupt's time was on a CPU */
	CHECK_NEAR(d.part[TP_STEAL], 30.0, 1e-9);
	CHECK_NEAR(d.part[TP_UNEXPLAINED], 30.0, 1e-9);
	double sum = 0, psum = 0;
	for (int k = 0; k < TP_NPARTS; k++) {
		sum += d.part[k];
		psum += d.pct[k];
		CHECK(isfinite(d.lo[k]) && isfinite(d.hi[k]) && d.lo[k] <= d.hi[k]);
	}
	CHECK_NEAR(sum, d.excess, 1e-9);
	CHECK_NEAR(psum, 100.0, 1e-9);
	CHECK(d.lo[TP_WAIT] <= d.pct[TP_WAIT] && d.pct[TP_WAIT] <= d.hi[TP_WAIT]);
	char words[256];
	tp_words(words, sizeof words, "p99", d.excess, d.pct);
	CHECK_STR(words, "the p99's extra 200.0 ns: 50% waiting for a CPU, 15% stolen, 15% unexplained, 11% on a CPU, "
			 "9% in interrupts");
	/* the p90 here holds the same ten samples */
	struct tp_division d90;
	tp_divide(&s, 0.90, 0, 0, &d90);
	CHECK(d90.tail == 10 && isnan(d90.lo[TP_WAIT]));
	CHECK_NEAR(d90.part[TP_WAIT], 100.0, 1e-9);

	/* no interrupts nor steal read: their time falls to the rest, still adding up */
	for (int i = 0; i < N; i++)
		s.n[i] = s.s[i] = NAN;
	tp_divide(&s, 0.99, 0, 0, &d);
	CHECK(d.part[TP_IRQ] == 0 && d.part[TP_STEAL] == 0);
	CHECK_NEAR(d.part[TP_ONCPU], 40.0, 1e-9);
	CHECK_NEAR(d.part[TP_UNEXPLAINED], 60.0, 1e-9);
	/* the wait unknown too: it is unexplained */
	s.q[5] = NAN;
	tp_divide(&s, 0.99, 0, 0, &d);
	CHECK(d.part[TP_WAIT] == 0);
	CHECK_NEAR(d.part[TP_UNEXPLAINED], 160.0, 1e-9);
	/* every sample alike: nothing above the p99, nothing to divide */
	for (int i = 0; i < N; i++)
		s.w[i] = 100;
	tp_divide(&s, 0.99, 10, 1, &d);
	CHECK(isnan(d.excess) && d.tail == 0 && isnan(d.pct[TP_WAIT]));
	tp_samples_free(&s);
}

/* syscall's division: the marked samples (its contended batches) over the unmarked ones' median
 * band, the same parts as the p99's when the marked are the ten slow ones; with few unmarked samples
 * the band falls between two and the median's two stand in. */
static void test_marked(void)
{
	struct tp_samples s;
	CHECK(tp_samples_alloc(&s, N) == 0);
	make(&s);
	unsigned char mark[N];
	for (int i = 0; i < N; i++)
		mark[i] = s.w[i] == 300;
	struct tp_division d, q;
	tp_divide_marked(&s, mark, 200, 42, &d);
	tp_divide(&s, 0.99, 0, 0, &q);
	CHECK(d.tail == 10);
	CHECK_NEAR(d.excess, 200.0, 1e-9);
	double sum = 0;
	for (int k = 0; k < TP_NPARTS; k++) {
		CHECK_NEAR(d.part[k], q.part[k], 1e-9);
		CHECK(d.lo[k] <= d.hi[k]);
		sum += d.part[k];
	}
	CHECK_NEAR(sum, d.excess, 1e-9);
	/* four unmarked (100, 102, 104, 106) and two marked (203): the reference is 102 and 104 */
	const double w[6] = { 100, 203, 102, 104, 203, 106 };
	s.len = 6;
	for (int i = 0; i < 6; i++) {
		s.w[i] = w[i];
		s.c[i] = w[i] == 203 ? 123 : w[i];
		s.q[i] = w[i] == 203 ? 80 : 0;
		s.n[i] = s.s[i] = 0;
		mark[i] = w[i] == 203;
	}
	tp_divide_marked(&s, mark, 0, 0, &d);
	CHECK(d.tail == 2);
	CHECK_NEAR(d.excess, 100.0, 1e-9);
	CHECK_NEAR(d.part[TP_WAIT], 80.0, 1e-9);
	CHECK_NEAR(d.part[TP_ONCPU], 20.0, 1e-9);
	CHECK_NEAR(d.part[TP_UNEXPLAINED], 0.0, 1e-9);
	/* nothing marked: nothing to divide */
	memset(mark, 0, sizeof mark);
	tp_divide_marked(&s, mark, 0, 0, &d);
	CHECK(isnan(d.excess) && d.tail == 0);
	tp_samples_free(&s);
}

/* A wait booked outside the sample (schedstat's window holds the clock reads): no more than the
 * sample's wall less its time on a CPU. */
static void test_store(void)
{
	struct tp_samples s;
	CHECK(tp_samples_alloc(&s, 2) == 0);
	struct tp_reader r = { .fd_sched = -1, .fd_irq = -1, .fd_stat = -1, .tick_ns = 1e7, .clock_excess_ns = 0 };
	struct tp_mark a = { 0, 0, 0, -1, -1 }, b = { 0, 900, 100000, -1, -1 };
	tp_store(&r, &s, 0, 100, 10, &a, &b);	/* 10 calls of 100 ns: 90 on a CPU, 10000 waiting */
	CHECK_NEAR(s.c[0], 90.0, 1e-9);
	CHECK_NEAR(s.q[0], 10.0, 1e-9);
	CHECK(isnan(s.n[0]) && isnan(s.s[0]));
	b.wait_ns = 50;
	tp_store(&r, &s, 1, 100, 10, &a, &b);
	CHECK_NEAR(s.q[1], 5.0, 1e-9);
	CHECK(s.len == 2);
	tp_samples_free(&s);
}

static void test_words(void)
{
	char buf[256];
	const double pct[TP_NPARTS] = { 84.2, 9.4, NAN, 0.3, 6.1 };
	CHECK(tp_words(buf, sizeof buf, "p99", 1900, pct) > 0);
	CHECK_STR(buf, "the p99's extra 1.9 us: 84% waiting for a CPU, 9% on a CPU, 6% unexplained");
	const double neg[TP_NPARTS] = { 110, -12, 0, 0, 2 };
	tp_words(buf, sizeof buf, "p90", 250, neg);
	CHECK_STR(buf, "the p90's extra 250.0 ns: 110% waiting for a CPU, -12% on a CPU, 2% unexplained");
	CHECK(tp_words(buf, sizeof buf, "p99", NAN, pct) == 0 && buf[0] == '\0');
	CHECK(tp_words(buf, 12, "p99", 1900, pct) == 11 && strlen(buf) == 11);	/* cut, never overrun */
	tp_words(buf, sizeof buf, "contended batches", 1900, pct);
	CHECK_STR(buf, "the contended batches' extra 1.9 us: 84% waiting for a CPU, 9% on a CPU, 6% unexplained");
}

int main(void)
{
	test_known();
	test_marked();
	test_store();
	test_words();
	return unit_done("test_tailparts");
}
