/* test_kernels.c: every byte sum, at every SIMD level this CPU has, equals a reference sum.
 *
 * Each level is called directly (wtg_sum_simd_level) at every alignment 0..63 and every length
 * 0..4096, on random bytes and on all-0xFF bytes (the widest lane values), in one call and in its
 * repeating form, and over enough bytes that the 16- and 32-bit lanes must be folded into the
 * 64-bit ones (more than 2^32 / 255 bytes of 0xFF in one call and across passes, also over aligned
 * buffers of whole vectors, which the hot loop repeats within a call), and over every count of
 * whole aligned vectors up to 50 zmm (whole rounds and leftover vectors at each level). The level that
 * wtg_sum_simd runs is chosen once per process, so the test runs itself again with WTG_SIMD set to
 * each level name (and to an unknown one, which must be ignored).
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/experiments/ceiling.h"
#include "../../src/experiments/common.h"
#include "../../src/experiments/membuf.h"
#include "unit.h"
#include "wtg/ctx.h"
#include "wtg/experiment.h"
#include "wtg/options.h"
#include "wtg/testhooks.h"
#include "wtg/kernels.h"
#include "wtg/util.h"

#define MAXLEN 4096
#define BIG ((80u << 20) + 4099) /* past FOLD_BYTES (32 MiB) twice in one pass */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int mismatches;

static void expect(const char *what, const unsigned char *p, size_t n, uint64_t passes, int64_t got,
		   int64_t want)
{
	if (got != want && mismatches++ < 10)
		fprintf(stderr, "%s: n=%zu align=%u passes=%llu: want %lld got %lld\n", what, n,
			(unsigned)((uintptr_t)p & 63), (unsigned long long)passes, (long long)want,
			(long long)got);
}

/* pre[i] = the sum of buf[0, i): the reference for any range in O(1) */
static int64_t *prefix(const unsigned char *buf, size_t n)
{
	int64_t *pre = malloc((n + 1) * sizeof *pre);
	if (!pre)
		return NULL;
	pre[0] = 0;
	for (size_t i = 0; i < n; i++)
		pre[i + 1] = pre[i] + buf[i];
	return pre;
}

/* Every alignment 0..63 and every length 0..MAXLEN (step for the slow kernels), one call each,
 * and a repeating call of 3 passes at a sample of them. */
static void all_ranges(const char *what, wtg_sum_fn fn, wtg_sum_rep_fn rep, const unsigned char *buf,
		       const int64_t *pre, size_t step)
{
	for (size_t off = 0; off < 64; off++)
		for (size_t n = 0; n <= MAXLEN; n += step) {
			int64_t want = pre[off + n] - pre[off];
			if (fn)
				expect(what, buf + off, n, 1, fn(buf + off, n), want);
			if (rep && (fn == NULL || n % 61 == off % 7))
				expect(what, buf + off, n, 3, rep(buf + off, n, 3), 3 * want);
		}
}

/* The fold checks for one level: more than FOLD_BYTES in one pass, and 1.3 GB in passes. */
static void check_folds(const char *what, wtg_sum_rep_fn rep, const unsigned char *big, int64_t big_sum)
{
	expect(what, big, BIG, 1, rep(big, BIG, 1), big_sum);
	int64_t inner = big_sum - big[0] - big[BIG - 1];
	expect(what, big + 1, BIG - 2, 1, rep(big + 1, BIG - 2, 1), inner);
	/* 20000 passes over 64 KiB + 1: past every 16- and 32-bit lane limit */
	size_t n = (64u << 10) + 1;
	int64_t want = 0;
	for (size_t i = 3; i < 3 + n; i++)
		want += big[i];
	expect(what, big + 3, n, 20000, rep(big + 3, n, 20000), 20000 * want);
	/* aligned whole rounds (16 and 64 KiB from a 64-byte boundary) and whole vectors that are no
	 * whole number of rounds at any level (16 KiB + 320 B: 5 zmm, 10 ymm or 20 xmm vectors after
	 * the rounds), 1.3 GB in passes: the hot loop repeats passes within a call and folds between
	 * calls; an odd pass count leaves a remainder */
	static const size_t sets[] = { 16u << 10, 64u << 10, (16u << 10) + 320 };
	for (size_t i = 0; i < WTG_ARRAY_LEN(sets); i++) {
		const size_t set = sets[i];
		uint64_t passes = (1300000000ull / set) | 1;
		int64_t one = 0;
		for (size_t j = 0; j < set; j++)
			one += big[j];
		expect(what, big, set, passes, rep(big, set, passes), (int64_t)passes * one);
	}
}

/* Whole vectors from a 64-byte boundary, 1 .. 100 of 16 bytes and 1 .. 50 of 64 (every count of
 * rounds and leftover vectors at every width: rounds are 8, 12 or 16 vectors), in one pass, a few
 * and enough that the hot loop repeats them within a call (the leftover vectors each pass). */
static void whole_vectors(const char *what, wtg_sum_rep_fn rep, const unsigned char *buf, const int64_t *pre)
{
	static const uint64_t passes[] = { 1, 2, 7, 1001 };
	for (size_t n = 16; n <= 3200; n += n < 1600 ? 16 : 64)
		for (size_t i = 0; i < WTG_ARRAY_LEN(passes); i++)
			expect(what, buf, n, passes[i], rep(buf, n, passes[i]), (int64_t)passes[i] * pre[n]);
}

/* One buffer content through every kernel and level (full), or through wtg_sum_simd only (a child
 * run under WTG_SIMD: the level it dispatches to had its fold checks in the full run, so a child
 * has no big buffer); big is a BIG-byte buffer of the same content, for the fold checks. */
static void check_content(bool full, const unsigned char *buf, const int64_t *pre,
			  const unsigned char *big, int64_t big_sum)
{
	all_ranges("simd", wtg_sum_simd, wtg_sum_repeat_of(wtg_sum_simd), buf, pre, 1);
	if (!full)
		return;
	check_folds("simd", wtg_sum_repeat_of(wtg_sum_simd), big, big_sum);
	all_ranges("scalar", wtg_sum_scalar, NULL, buf, pre, 7);
	all_ranges("auto", wtg_sum_auto, wtg_sum_repeat_of(wtg_sum_auto), buf, pre, 3);
	all_ranges("native", wtg_sum_native, wtg_sum_repeat_of(wtg_sum_native), buf, pre, 3);
	for (int l = 0; l < wtg_simd_nlevels; l++) {
		wtg_sum_rep_fn rep = wtg_sum_simd_level(l);
		if (!rep)
			continue;
		all_ranges(wtg_simd_levels[l], NULL, rep, buf, pre, 1);
		whole_vectors(wtg_simd_levels[l], rep, buf, pre);
		check_folds(wtg_simd_levels[l], rep, big, big_sum);
	}
}

static void run_sums(bool full)
{
	unsigned char *buf = aligned_alloc(64, 2 * MAXLEN + 128);
	unsigned char *big = full ? aligned_alloc(64, (BIG + 63) & ~(size_t)63) : NULL;
	CHECK(buf != NULL && (big != NULL || !full));
	if (!buf || (!big && full)) {
		free(buf);
		free(big);
		return;
	}
	/* random bytes; big repeats buf's pattern so pre[] is its reference at the start */
	for (size_t i = 0; i < 2 * MAXLEN + 128; i++)
		buf[i] = (unsigned char)next();
	int64_t big_sum = 0;
	for (size_t i = 0; big && i < BIG; i++)
		big_sum += big[i] = buf[i % (2 * MAXLEN)];
	int64_t *pre = prefix(buf, 2 * MAXLEN + 128);
	CHECK(pre != NULL);
	mismatches = 0;
	if (pre)
		check_content(full, buf, pre, big, big_sum);
	CHECK(mismatches == 0);
	free(pre);

	/* all 0xFF: the widest lane values */
	memset(buf, 0xff, 2 * MAXLEN + 128);
	if (big)
		memset(big, 0xff, BIG);
	pre = prefix(buf, 2 * MAXLEN + 128);
	CHECK(pre != NULL);
	mismatches = 0;
	if (pre)
		check_content(full, buf, pre, big, (int64_t)BIG * 255);
	CHECK(mismatches == 0);
	if (big)
		CHECK(wtg_sum_simd(big + 3, BIG - 3) == (int64_t)(BIG - 3) * 255);
	free(pre);

	/* the bytes just outside the range must not count, at every level */
	memset(buf, 0, 2 * MAXLEN + 128);
	for (int l = 0; l < wtg_simd_nlevels; l++) {
		wtg_sum_rep_fn rep = wtg_sum_simd_level(l);
		for (size_t off = 0; rep && off < 64; off++) {
			buf[off] = 1;
			buf[off + 66] = 1;
			CHECK(rep(buf + off + 1, 65, 2) == 0);
			CHECK(rep(buf + off + 1, 0, 5) == 0);
			buf[off] = 0;
			buf[off + 66] = 0;
		}
	}
	free(big);
	free(buf);
}

/* Run this program again with WTG_SIMD=level; it checks the name it gets and all the sums. */
static int run_child(const char *self, const char *level, const char *expect_name)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		unit_child();
		setenv("WTG_SIMD", level, 1);
		execl(self, self, "--expect", expect_name, (char *)NULL);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The kernel table: names, details, and the repeating forms of the known sums only. */
static void check_table(void)
{
	const char *names[] = { "scalar", "auto", "native", "simd" };
	for (size_t i = 0; i < WTG_ARRAY_LEN(names); i++) {
		const struct wtg_sum_kernel *k = wtg_sum_kernel(names[i]);
		CHECK(k != NULL);
		if (!k)
			continue;
		CHECK(k->sum != NULL && k->repeat != NULL && k->detail != NULL && k->name != NULL);
		CHECK(wtg_sum_repeat_of(k->sum) != NULL);
	}
	CHECK(wtg_sum_kernel("nope") == NULL);
	CHECK_STR(wtg_sum_kernel("simd")->name, wtg_sum_simd_name());
	CHECK(wtg_sum_repeat_of(wtg_sum_simd) == wtg_sum_kernel("simd")->repeat);
	CHECK(wtg_sum_repeat_of((wtg_sum_fn)0) == NULL);
	/* the compiler rows name the compiler */
	CHECK(strstr(wtg_sum_kernel("auto")->detail, "vectorizer") != NULL);
	CHECK(strstr(wtg_sum_kernel("native")->detail, "vectorizer") != NULL);
}

/* A table, a context with a cancel flag, and b: size seeded bytes (rng seed) in 4 KiB chunks. */
struct seeded_fix {
	struct wtg_table t;
	struct wtg_ctx ctx;
	atomic_bool cancel;
	struct wtg_seeded_buf b;
};

static void seeded_fix_init(struct seeded_fix *f, uint64_t seed, uint64_t size)
{
	memset(&f->ctx, 0, sizeof f->ctx);
	atomic_init(&f->cancel, false);
	wtg_table_init(&f->t, NULL);
	f->ctx.t = &f->t;
	f->ctx.cancel = &f->cancel;
	struct wtg_rng seeded;
	wtg_rng_seed(&seeded, seed);
	CHECK(wtg_seeded_buf_init(&f->ctx, &seeded, &f->b, size, 4096) == WTG_OK);
}

static void seeded_fix_free(struct seeded_fix *f)
{
	wtg_seeded_buf_free(&f->b);
	wtg_table_free(&f->t);
}

/* wtg_seeded_sum_sample against a plain byte loop: whole passes over a small set (many per call
 * of the repeating form, capped at 16 MiB a call), a wrapped start and part of a pass, a set over
 * 16 MiB; *pos must move on by the bytes read. */
static void check_sample(void)
{
	static const struct {
		uint64_t set, bytes, pos;
	} cases[] = {
		{ 16u << 10, 3u << 20, 0 },			/* 192 passes, one call */
		{ 64u << 10, 40u << 20, 0 },			/* 640 passes: 256, 256, 128 */
		{ 16u << 10, (5u << 14) + 4096, 8192 },	/* from the middle, a part pass at the end */
		{ 16u << 10, 16u << 10, 4096 },			/* one pass, wrapped */
		{ 20u << 20, 48u << 20, 0 },			/* past 16 MiB: pieces, no repeats */
	};
	struct seeded_fix f;
	seeded_fix_init(&f, 7, 20u << 20);
	for (size_t c = 0; f.b.p && c < sizeof cases / sizeof cases[0]; c++) {
		uint64_t set = cases[c].set, pos = cases[c].pos, at = pos;
		int64_t want = 0;
		for (uint64_t i = 0; i < cases[c].bytes; i++, at = at + 1 == set ? 0 : at + 1)
			want += f.b.p[at];
		int64_t got = -1;
		struct wtg_probe_result res;
		CHECK(wtg_seeded_sum_sample(&f.ctx, wtg_sum_simd, &f.b, set, cases[c].bytes, &pos, "sample", &res,
					    &got) == WTG_OK);
		CHECK(got == want);
		CHECK(pos == at);
	}
	seeded_fix_free(&f);
}

/* ceiling's in-cache samples (without --quick: the streams and the prefetch too) over an L1- and an
 * L2-sized set: every kind's sum is passes x the set's bytes, each checked against the known sums, and
 * a byte changed under the known sums fails the sample and the table's sum check. */
static void check_cache_sample(void)
{
	static const struct {
		enum wtg_ceil_kind kind;
		int streams;
	} kinds[] = { { WTG_CK_REF, 1 }, { WTG_CK_STREAMS, 1 }, { WTG_CK_STREAMS, 8 }, { WTG_CK_PREFETCH, 1 } };
	static const uint64_t sets[] = { 24u << 10, 512u << 10 };
	struct seeded_fix f;
	seeded_fix_init(&f, 11, 1u << 20);
	for (size_t s = 0; f.b.p && s < sizeof sets / sizeof sets[0]; s++) {
		int64_t pass = 0;
		for (uint64_t i = 0; i < sets[s]; i++)
			pass += f.b.p[i];
		for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
			struct wtg_probe_result res;
			int64_t got = -1;
			CHECK(wtg_ceil_cache_sample(&f.ctx, &f.b, sets[s], kinds[k].kind, kinds[k].streams, 4 * sets[s],
						    "cache", &res, &got) == WTG_OK);
			CHECK(got == 4 * pass);
		}
		struct wtg_probe_result res;
		int64_t got = -1;
		CHECK(wtg_ceil_cache_sample(&f.ctx, &f.b, sets[s], WTG_CK_LOADS, 1, 4 * sets[s], "loads", &res, &got) ==
		      WTG_OK);
	}
	CHECK(f.t.nchecks == 0);	/* a sum that matches adds no check (the rows tally them) */
	if (f.b.p) {
		f.b.p[4096] ^= 1;	/* under the known sums: every summing kind now misses them */
		struct wtg_probe_result res;
		int64_t got = -1;
		CHECK(wtg_ceil_cache_sample(&f.ctx, &f.b, 24u << 10, WTG_CK_STREAMS, 8, 24u << 10, "changed", &res, &got) ==
		      WTG_ERR);
		CHECK(f.t.nchecks == 1 && f.t.checks[0].status == WTG_CHECK_FAIL && strstr(f.t.checks[0].detail, "changed"));
		f.b.p[4096] ^= 1;
	}
	seeded_fix_free(&f);
}

/* A window's lead-in ends where the window starts: the bytes just before pos, wrapping past 0 to the
 * set's end, in whole chunks, never more than the set. */
static void check_lead_in(void)
{
	static const struct {
		uint64_t set, pos, lead, start, len;
	} cases[] = {
		{ 128u << 20, 64u << 20, 32u << 20, 32u << 20, 32u << 20 },	/* inside the set */
		{ 128u << 20, 16u << 20, 32u << 20, 112u << 20, 32u << 20 },	/* wrapping to the end */
		{ 128u << 20, 0, 32u << 20, 96u << 20, 32u << 20 },		/* at the start */
		{ 128u << 20, 128u << 20, 32u << 20, 96u << 20, 32u << 20 },	/* pos at the end is 0 */
		{ 64u << 20, 10u << 20, 100u << 20, 10u << 20, 64u << 20 },	/* more than the set: one pass */
		{ 64u << 20, (10u << 20) + 100, (3u << 20) + 5000, (7u << 20) - 4096, (3u << 20) + 4096 },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		uint64_t lead = cases[c].lead;
		uint64_t start = wtg_lead_in_start(cases[c].set, cases[c].pos, 4096, &lead);
		CHECK(start == cases[c].start);
		CHECK(lead == cases[c].len);
		CHECK((start + lead) % cases[c].set == cases[c].pos % cases[c].set / 4096 * 4096);
	}
}

/* The memory-sized buffer kernels, wss, roofline and ceiling share: filled once, kept while an
 * experiment holds it or a selected one that declares it has not been done with it (whatever order
 * an interleaved run ends them in), freed after the last, filled afresh for a next pass; peek fills
 * nothing. In the dashboard it goes as soon as nobody holds it. */
static void check_dram_buf(void)
{
	setenv("WTG_TEST_MAX_BUFFER", "4M", 1);
	wtg_testhooks_read();
	struct wtg_table t;
	wtg_table_init(&t, NULL);
	struct wtg_options o = { .mode = WTG_MODE_RUN, .seed = 1 };
	const int k = wtg_experiment_find("kernels"), w = wtg_experiment_find("wss"),
		  r = wtg_experiment_find("roofline");
	CHECK(k >= 0 && w >= 0 && r >= 0);
	if (k < 0 || w < 0 || r < 0)
		return;
	const struct wtg_experiment *ek = wtg_experiments[k], *ew = wtg_experiments[w], *er = wtg_experiments[r];
	CHECK(ek->shares_dram_buf && ew->shares_dram_buf && er->shares_dram_buf);
	o.selected[k] = o.selected[w] = o.selected[r] = true;
	atomic_bool cancel = false;
	struct wtg_ctx ctx = { .t = &t, .opt = &o, .cancel = &cancel };
	const struct wtg_seeded_buf *b = NULL;
	CHECK(wtg_dram_buf_peek(&ctx, er) == NULL);	/* nothing filled, and peek fills nothing */
	CHECK(wtg_dram_buf_get(&ctx, ew, &b) == WTG_OK && b && b->p && b->size == (4u << 20));
	const unsigned char *p = b ? b->p : NULL;
	CHECK(wtg_dram_buf_peek(&ctx, er) == b);	/* roofline reads it now */
	wtg_dram_buf_done(&ctx, ew);	/* wss ends first (an interleaved run): kernels still to come */
	CHECK(b->p == p);
	CHECK(wtg_dram_buf_get(&ctx, ek, &b) == WTG_OK && b->p == p);	/* not filled again */
	wtg_dram_buf_done(&ctx, ek);	/* roofline still holds it */
	CHECK(b->p == p);
	wtg_dram_buf_done(&ctx, er);	/* the last: freed */
	CHECK(b->p == NULL && wtg_dram_buf_peek(&ctx, ek) == NULL);
	/* a next pass (--replicate) fills it again and keeps it for the others */
	CHECK(wtg_dram_buf_get(&ctx, ek, &b) == WTG_OK && b->p != NULL);
	wtg_dram_buf_done(&ctx, ek);
	CHECK(b->p != NULL);
	wtg_dram_buf_done(&ctx, ew);
	wtg_dram_buf_done(&ctx, er);
	CHECK(b->p == NULL);
	/* the dashboard: gone once nobody holds it */
	o.mode = WTG_MODE_DASHBOARD;
	CHECK(wtg_dram_buf_get(&ctx, ew, &b) == WTG_OK && b->p != NULL);
	CHECK(wtg_dram_buf_peek(&ctx, er) == b);
	wtg_dram_buf_done(&ctx, ew);
	CHECK(b->p != NULL);
	wtg_dram_buf_done(&ctx, er);
	CHECK(b->p == NULL);
	wtg_table_free(&t);
	unsetenv("WTG_TEST_MAX_BUFFER");
	wtg_testhooks_read();
	CHECK(wtg_testhooks()->max_buffer == 0);
}

int main(int argc, char **argv)
{
	const char *name = wtg_sum_simd_name();
	int best = wtg_simd_best_level();
	if (argc == 2 && strcmp(argv[1], "--best-level") == 0) {	/* for the cross script */
		printf("%s\n", wtg_simd_levels[best]);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "--expect") == 0) {
		CHECK_STR(name, argv[2]);
		run_sums(false);
		return unit_done(name);
	}
	/* without WTG_SIMD in the environment the best level runs */
	if (!getenv("WTG_SIMD"))
		CHECK_STR(name, wtg_simd_levels[best]);
	printf("# simd level: %s\n", name);
	check_table();
	check_sample();
	check_cache_sample();
	check_lead_in();
	check_dram_buf();
	run_sums(true);

	/* each level name caps at the best level the CPU has at or below it. Under a user-mode emulator
	 * (a cross build's tests set WTG_TEST_EMULATOR) the forked child never reaches its exec, so the
	 * cross script runs these itself: WTG_SIMD=level test_kernels --expect name, through qemu. */
	if (getenv("WTG_TEST_EMULATOR")) {
		printf("# under %s: the runs with WTG_SIMD are the cross script's\n", getenv("WTG_TEST_EMULATOR"));
		return unit_done("test_kernels");
	}
	for (int l = 0; l < wtg_simd_nlevels; l++) {
		int want = l;
		while (want > 0 && !wtg_sum_simd_level(want))
			want--;
		CHECK(run_child("/proc/self/exe", wtg_simd_levels[l], wtg_simd_levels[want]) == 0);
	}
	/* nonsense gives the best level */
	CHECK(run_child("/proc/self/exe", "mmx", wtg_simd_levels[best]) == 0);
	return unit_done("test_kernels");
}
