/* ceiling.c: What caps one core? One thread sums the memory-sized buffer wss sweeps last (at least 4x
 * the last-level cache, transparent huge pages asked for) with the same hand SIMD sum, in windows that
 * march through it: the reference row. Beside it, in the same seeded rounds, variants that each take
 * one suspect away or add one:
 *	loads only	every byte loaded into a register and nothing added (vector execution removed)
 *	4K pages	the same bytes in a copy advised MADV_NOHUGEPAGE (translation: 512x the pages)
 *	1 .. 8 streams	the window split into 1, 2, 4 or 8 parts read a line of each in turn (misses in
 *			flight: the load machinery); 1 stream is the same loop's control (--quick: 1 and
 *			8 only, and in the caches none: there the reference and loads only)
 *	prefetch	one stream with a software prefetch a fixed distance ahead (the load machinery)
 *	second thread	the reference sum while a thread pinned to another CPU streams the same buffer
 *			(a shared path; no row on a machine where this process has one CPU)
 *	chase		a pointer chase through a seeded random cycle of lines of the same buffer (its
 *			pointers written over one line in each 4 KiB, the known sums adjusted for them,
 *			the bytes put back at the end): one miss at a time, so ns per load is the
 *			load-to-use latency
 * The reference, loads only, the streams and the prefetch also run over an L1-sized and an L2-sized
 * buffer (ceiling_cache.c: there the loads or the arithmetic cap the sum, against a load limit of
 * width x ports x the measured clock). Every row is the rounds engine's distribution (>= 15 samples
 * in 5 replicas, contention recorded); each row's ratio to its buffer's reference carries a
 * two-level bootstrap interval of the ratio of medians; the verdict says per buffer what caps the
 * sum (in memory: the change that moved the ceiling most beyond noise), and a note gives the
 * memory-level parallelism (Little's law: bandwidth x latency / 64 B lines in flight). */
#include "config.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "ceiling.h"
#include "common.h"
#include "crew.h"
#include "membuf.h"
#include "rounds.h"
#include "wtg/ctx.h"
#include "wtg/plan.h"

#define CHUNK (4u << 10)				/* the known sums cover 4 KiB pieces */
#define UNIT (WTG_CEIL_MAX_STREAMS * CHUNK)		/* windows split into 8 streams of whole chunks */
#define SAMPLE_MB 32ull				/* MB a timed sample moves before the warm-up scales it */
#define SAMPLE_MB_QUICK 16ull
#define CHASE_LOADS (1u << 15)				/* loads a chase sample follows, likewise */
#define CHASE_UNIT 1024u
#define CHASE_MAX (1u << 21)
#define PAGE_4K 4096u
#define REF_SPAN (2ull << 30)				/* the buffer the typical times were measured with */
#define MAX_PEER 64					/* second-thread samples kept per round set */
#define CACHE_CAP (1ull << 40)				/* bytes an in-cache sample may move */
#define WARMUP 2	/* unreported samples per variant: each sizes the next to span at least 5 ms */

extern const struct wtg_experiment wtg_exp_ceiling;

/* Every variant, in the table's order. */
static const struct entry {
	enum wtg_ceil_kind kind;
	int streams;
	const char *label;
	const char *suspect;	/* what it takes away or adds */
	bool cached;		/* also run over the L1- and L2-sized buffers */
} catalogue[] = {
	{ WTG_CK_REF, 1, "reference", "reference", true },
	{ WTG_CK_LOADS, 1, "loads only", "vector execution", true },
	{ WTG_CK_4K, 1, "4K pages", "translation", false },
	{ WTG_CK_STREAMS, 1, "1 stream", "loop code", true },
	{ WTG_CK_STREAMS, 2, "2 streams", "load machinery", true },
	{ WTG_CK_STREAMS, 4, "4 streams", "load machinery", true },
	{ WTG_CK_STREAMS, 8, "8 streams", "load machinery", true },
	{ WTG_CK_PREFETCH, 1, "prefetch", "load machinery", true },
	{ WTG_CK_PEER, 1, "second thread", "shared path", false },
	{ WTG_CK_CHASE, 1, "chase", "latency", false },
};
#define NCAT ((int)WTG_ARRAY_LEN(catalogue))
#define NVAR (WTG_CEIL_NLEVELS * NCAT)	/* at most: every entry at every level */

struct cstate {
	const struct wtg_seeded_buf *shared;	/* the memory-sized buffer (shared with kernels and wss) */
	struct wtg_seeded_buf buf;		/* the same bytes with the chase's pointers in them: its p,
						 * known sums of its own (prefix) */
	struct wtg_seeded_buf small;		/* those bytes in 4 KiB pages: p of its own, buf's prefix */
	const struct wtg_seeded_buf *ref;	/* &buf */
	struct wtg_seeded_buf cache;		/* the in-cache buffer: L1's set its first bytes, L2's all */
	uint64_t set[2];			/* the L1- and L2-sized sets */
	const char *sizes_from;			/* where their sizes came from */
	struct wtg_ceil_limit lim;		/* the clock and the load limit */
	uint64_t *ring;				/* the cycle's lines (offsets into buf.p), in visiting order */
	uint64_t *saved;			/* the 8 bytes each of them held before its pointer */
	uint64_t nring, nwritten, chase_at;	/* lines in the cycle; pointers written; the next start */
	uint64_t span;				/* the buffers' size */
	int idx[NVAR], lvl[NVAR], n;		/* the variants here: catalogue indices, levels */
	char name[NVAR][32];			/* their labels ("L1 loads only"; the memory rows' plain) */
	uint64_t vbytes[NVAR];			/* per variant: bytes (the chase: loads) per timed sample */
	uint64_t pos, pos4k;			/* where the next window of each buffer starts */
	int64_t total[NVAR];			/* the timed samples' checked sums */
	char kernel[NVAR][48];			/* what each variant runs, in words (kernel_of) */
	int64_t huge[3];			/* bytes in huge pages: the buffer, its 4 KiB copy, the
						 * in-cache buffer; -1 unknown */
	bool advised;				/* madvise(MADV_NOHUGEPAGE) took on the copy */
	int peer_cpu, peer_unpinned;		/* the second thread's last CPU; samples it ran unpinned */
	double peer_rate[MAX_PEER];		/* its GB/s during each timed sample */
	int npeer;
	uint64_t checked[NVAR];			/* timed samples whose result was checked */
	struct wtg_rounds_used ref_used[WTG_CEIL_NLEVELS];	/* each level's reference's samples its
								 * figure uses (for the ratios) */
};

/* ---- the variants and their sizes (the run and the plan share them) ---- */

/* Whether --quick leaves entry e out at level l: the streams' middle counts (2 and 4; 1 and 8 kept),
 * and in a cache every row but the reference and loads only, the two the verdict reads there (what
 * caps an in-cache sum: the loads or the arithmetic); the streams and the prefetch, the load
 * machinery's suspects, are measured over the memory-sized buffer, where misses are in flight. */
static bool quick_skips(const struct entry *e, int l)
{
	bool middle = e->kind == WTG_CK_STREAMS && e->streams > 1 && e->streams < WTG_CEIL_MAX_STREAMS;
	return middle || (l != WTG_CEIL_MEM && e->kind != WTG_CK_REF && e->kind != WTG_CK_LOADS);
}

/* The variants on this machine into idx (catalogue indices) and lvl (levels), L1's first, then L2's,
 * then the memory-sized buffer's, each level's reference first: the second thread only where this
 * process may run on two CPUs or more; with --quick not those quick_skips names. Returns their
 * count. */
static int variants(const struct wtg_options *o, int *idx, int *lvl)
{
	int cpus, n = 0;
	wtg_ceil_other_cpu(-1, &cpus);
	for (int l = 0; l < WTG_CEIL_NLEVELS; l++)
		for (int c = 0; c < NCAT; c++) {
			const struct entry *e = &catalogue[c];
			if ((l == WTG_CEIL_MEM || e->cached) && (e->kind != WTG_CK_PEER || cpus >= 2) &&
			    !(o && o->quick && quick_skips(e, l))) {
				idx[n] = c;
				lvl[n++] = l;
			}
		}
	return n;
}

/* Variant v's label: the memory rows' plain ("loads only"), the others' with their level first. */
static void name_of(const struct entry *e, int level, char *buf, size_t len)
{
	if (level == WTG_CEIL_MEM)
		wtg_strlcpy(buf, e->label, len);
	else
		snprintf(buf, len, "%s %s", wtg_ceil_level_names[level], e->label);
}

/* Bytes a sample moves over a buffer of span bytes before the warm-up scales them: 32 MB (16 MB with
 * --quick) in whole UNITs, at most a quarter of the buffer. */
static uint64_t sample_bytes(const struct wtg_options *o, uint64_t span)
{
	uint64_t b = (o && o->quick ? SAMPLE_MB_QUICK : SAMPLE_MB) * 1000000;
	uint64_t cap = span / 4 / UNIT * UNIT;
	b = b / UNIT * UNIT;
	if (b > cap)
		b = cap;
	return b < UNIT ? UNIT : b;
}

/* The loads a chase sample follows before the warm-up scales them. */
static uint64_t chase_loads(const struct wtg_options *o)
{
	return o && o->quick ? CHASE_LOADS / 4 : CHASE_LOADS;
}

/* The most loads a chase sample follows: CHASE_MAX, and at most the whole cycle, so no line comes
 * twice within a sample (each sample goes on where the last one stopped: between two visits of a
 * line the other rows stream their windows). */
static uint64_t chase_cap(uint64_t nring)
{
	uint64_t all = nring / CHASE_UNIT * CHASE_UNIT;
	return all < CHASE_UNIT ? CHASE_UNIT : all < CHASE_MAX ? all : CHASE_MAX;
}

static void label(const void *arg, int v, char *buf, size_t len)
{
	const struct cstate *st = arg;
	wtg_strlcpy(buf, st->name[v], len);
}

/* What a variant runs, in words: the sum's level, "loads zmm", "psadbw zmm", "dependent loads". */
static void kernel_of(const struct entry *e, char *buf, size_t len)
{
	const char *w = wtg_ceil_width(NULL);
	if (e->kind == WTG_CK_LOADS)
		snprintf(buf, len, "loads %s", w);
	else if (e->kind == WTG_CK_STREAMS || e->kind == WTG_CK_PREFETCH)
		snprintf(buf, len, "psadbw %s", w);
	else if (e->kind == WTG_CK_CHASE)
		wtg_strlcpy(buf, "dependent loads", len);
	else
		wtg_strlcpy(buf, wtg_sum_simd_name(), len);
}

/* ---- the buffers ---- */

/* The reference buffer's bytes again, in memory advised MADV_NOHUGEPAGE before it is touched. */
static int small_copy(struct wtg_ctx *ctx, struct cstate *st)
{
	st->small = *st->ref;	/* its known sums are the reference's: the same bytes */
	st->small.p = wtg_huge_alloc((size_t)st->span);
	if (!st->small.p) {
		wtg_table_fail(ctx->t, "cannot allocate a second %llu-byte buffer", (unsigned long long)st->span);
		return WTG_ERR;
	}
	st->advised = madvise(st->small.p, (size_t)st->span, MADV_NOHUGEPAGE) == 0;
	if (wtg_prefault(ctx, st->small.p, (size_t)st->span) != WTG_OK)
		return WTG_CANCELLED;
	for (uint64_t o = 0; o < st->span; o += WTG_SUM_PIECE) {
		uint64_t n = st->span - o < WTG_SUM_PIECE ? st->span - o : WTG_SUM_PIECE;
		memcpy(st->small.p + o, st->ref->p + o, (size_t)n);
		if (wtg_ctx_cancelled(ctx))
			return WTG_CANCELLED;
	}
	return WTG_OK;
}

/* The sum of the 8 bytes of x (a plain loop, no kernel). */
static int64_t bytes_of(uint64_t x)
{
	int64_t t = 0;
	for (int i = 0; i < 8; i++, x >>= 8)
		t += (int64_t)(x & 0xff);
	return t;
}

/* The chase's cycle, in the buffer itself: one 64-byte line at a seeded random place in every 4 KiB
 * chunk, visited in a seeded random order (Fisher-Yates), each line's first 8 bytes replaced by the
 * address of the next (the last's by the first's), what they held kept in saved; buf's known sums are
 * the shared ones with each chunk's sum moved by what its pointer changed. */
static int chase_build(struct wtg_ctx *ctx, struct cstate *st)
{
	const uint64_t chunks = st->span / CHUNK;
	st->nring = chunks;
	st->ring = malloc((size_t)chunks * sizeof *st->ring);
	st->saved = malloc((size_t)chunks * sizeof *st->saved);
	st->buf = *st->shared;
	st->buf.prefix = malloc((size_t)(chunks + 1) * sizeof *st->buf.prefix);
	if (!st->ring || !st->saved || !st->buf.prefix) {
		wtg_table_fail(ctx->t, "out of memory for the chase's %llu lines", (unsigned long long)chunks);
		return WTG_ERR;
	}
	memcpy(st->buf.prefix, st->shared->prefix, (size_t)(chunks + 1) * sizeof *st->buf.prefix);
	for (uint64_t i = 0; i < chunks; i++)
		st->ring[i] = i * CHUNK + wtg_rng_below(&ctx->rng, CHUNK / WTG_CEIL_LINE) * WTG_CEIL_LINE;
	for (uint64_t i = chunks - 1; i > 0; i--) {
		uint64_t j = wtg_rng_below(&ctx->rng, i + 1), x = st->ring[i];
		st->ring[i] = st->ring[j];
		st->ring[j] = x;
	}
	int64_t *sums = st->buf.prefix;	/* each chunk's own sum first (sums[c]: chunk c - 1), then the prefix */
	for (uint64_t c = chunks; c > 0; c--)
		sums[c] -= sums[c - 1];
	for (uint64_t i = 0; i < chunks; i++) {
		unsigned char *at = st->buf.p + st->ring[i];
		const void *next = st->buf.p + st->ring[(i + 1) % chunks];
		uint64_t was, now;
		memcpy(&was, at, sizeof was);
		memcpy(at, &next, sizeof next);
		memcpy(&now, at, sizeof now);
		st->saved[i] = was;
		st->nwritten = i + 1;
		sums[st->ring[i] / CHUNK + 1] += bytes_of(now) - bytes_of(was);
	}
	for (uint64_t c = 1; c <= chunks; c++)
		sums[c] += sums[c - 1];
	return wtg_ctx_cancelled(ctx) ? WTG_CANCELLED : WTG_OK;
}

/* The buffer's own bytes again where the chase's pointers were. */
static void chase_undo(struct cstate *st)
{
	for (uint64_t i = 0; i < st->nwritten; i++)
		memcpy(st->buf.p + st->ring[i], &st->saved[i], sizeof st->saved[i]);
	st->nwritten = 0;
}

static int setup(struct wtg_ctx *ctx, struct cstate *st)
{
	wtg_ctx_progress(ctx, 0, 1, "filling the buffer");
	int rc = wtg_dram_buf_get(ctx, &wtg_exp_ceiling, &st->shared);
	if (rc != WTG_OK)
		return rc;
	st->span = st->shared->size;
	st->ref = &st->buf;
	/* a figure for the screen while the chase and the 4 KiB copy are built: one reference sample,
	 * reported nowhere else */
	uint64_t pos = 0, first = sample_bytes(ctx->opt, st->span);
	struct wtg_probe_result res;
	int64_t sum;
	rc = wtg_seeded_sum_sample(ctx, wtg_sum_bytes, st->shared, st->span, first, &pos, "reference", &res, &sum);
	if (rc != WTG_OK)
		return rc;
	if (res.wall_ms > 0)
		wtg_table_sofar(ctx->t, "one core sums %.1f GB/s (one pass; the suspects follow)",
				(double)first / (res.wall_ms * 1e6));
	wtg_ctx_progress(ctx, 0, 1, "building the chase");
	rc = chase_build(ctx, st);
	if (rc == WTG_OK) {
		wtg_ctx_progress(ctx, 0, 1, "copying the buffer into 4 KiB pages");
		rc = small_copy(ctx, st);
	}
	if (rc == WTG_OK) {
		wtg_ctx_progress(ctx, 0, 1, "filling the in-cache buffer");
		wtg_ceil_cache_sizes(ctx, st->set, &st->sizes_from);
		rc = wtg_seeded_buf_init(ctx, &ctx->rng, &st->cache, st->set[1], CHUNK);
	}
	if (rc != WTG_OK)
		return rc;
	wtg_ctx_progress(ctx, 0, 1, "timing the clock and the loads");
	st->lim.gbps = wtg_ceil_load_limit(st->cache.p, st->set[0], &st->lim.ghz, &st->lim.ports, &st->lim.per_cycle);
	st->huge[0] = wtg_huge_bytes(st->buf.p);
	st->huge[1] = wtg_huge_bytes(st->small.p);
	st->huge[2] = wtg_huge_bytes(st->cache.p);	/* a huge page may hold more than the buffer */
	if (st->huge[2] > (int64_t)st->cache.size)
		st->huge[2] = (int64_t)st->cache.size;
	st->pos = st->span / 2 / CHUNK * CHUNK;	/* the first window in the second half, as wss's */
	uint64_t bytes = sample_bytes(ctx->opt, st->span);
	for (int v = 0; v < st->n; v++) {
		const int l = st->lvl[v];
		/* in a cache: whole passes over the set */
		const uint64_t in = l == WTG_CEIL_MEM ? bytes : (bytes + st->set[l] - 1) / st->set[l] * st->set[l];
		st->vbytes[v] = catalogue[st->idx[v]].kind == WTG_CK_CHASE ? chase_loads(ctx->opt) : in;
		kernel_of(&catalogue[st->idx[v]], st->kernel[v], sizeof st->kernel[v]);
	}
	return WTG_OK;
}

/* Everything setup made, and the shared buffer's bytes put back (before it is kept or freed). */
static void teardown(struct cstate *st)
{
	chase_undo(st);
	wtg_huge_free(st->small.p, (size_t)st->span);
	free(st->ring);
	free(st->saved);
	free(st->buf.prefix);
	wtg_seeded_buf_free(&st->cache);
	for (int l = 0; l < WTG_CEIL_NLEVELS; l++)
		wtg_rounds_used_free(&st->ref_used[l]);
}

/* ---- one sample of each kind ---- */

/* The next window of bytes of a buffer of span bytes from *pos, never across its end. */
static uint64_t next_window(uint64_t span, uint64_t *pos, uint64_t bytes)
{
	if (*pos + bytes > span)
		*pos = 0;
	uint64_t at = *pos;
	*pos = at + bytes >= span ? 0 : at + bytes;
	return at;
}

/* A sample of the loops of ceiling_loops.c: the streams loop with k parts (the loads loop with one)
 * over `bytes` in windows of at most a quarter of the buffer, each where the last one of any row
 * ended, in pieces of WTG_SUM_PIECE with a cancel check after each (as the reference's sum has). */
struct walk {
	int k;
	bool prefetch, loads;
	int64_t sum, known;	/* the streams' sum; the known sum of what they read */
	uint64_t last, want;	/* loads: the last vector's first 8 bytes, and the buffer's there */
};

static int walk_sample(struct wtg_ctx *ctx, struct cstate *st, uint64_t bytes, struct walk *w,
		       struct wtg_probe_result *res)
{
	const uint64_t quarter = st->span / 4 / UNIT * UNIT, win = quarter ? quarter : UNIT;
	const uint64_t k = (uint64_t)w->k, step = WTG_SUM_PIECE / k;
	const unsigned char *s[WTG_CEIL_MAX_STREAMS];
	uint64_t at = 0, len = 0;
	int rc = WTG_OK;
	struct wtg_probe pb;
	wtg_probe_begin(&pb);
	for (uint64_t done = 0; done < bytes && rc == WTG_OK; done += len) {
		len = bytes - done < win ? bytes - done : win;
		at = next_window(st->span, &st->pos, len);
		const uint64_t part = len / k;
		for (uint64_t o = 0; o < part && rc == WTG_OK; o += step) {
			size_t n = (size_t)(part - o < step ? part - o : step);
			for (uint64_t j = 0; j < k; j++)
				s[j] = st->ref->p + at + j * part + o;
			if (w->loads)
				w->last = wtg_ceil_loads(s[0], n, 1);
			else
				w->sum += wtg_ceil_streams(s, w->k, n, w->prefetch, 1);
			if (wtg_ctx_cancelled(ctx))
				rc = WTG_CANCELLED;
		}
		w->known += wtg_seeded_buf_known(st->ref, at, len);
	}
	wtg_probe_end(&pb, res);
	size_t width;
	wtg_ceil_width(&width);
	memcpy(&w->want, st->ref->p + at + len - width, sizeof w->want);
	return rc;
}

/* N streams (or the prefetch): every sample's sum checked against the known sum. */
static int streams_sample(struct wtg_ctx *ctx, struct cstate *st, int v, const char *what,
			  struct wtg_probe_result *res, int64_t *sum)
{
	const struct entry *e = &catalogue[st->idx[v]];
	struct walk w = { .k = e->streams, .prefetch = e->kind == WTG_CK_PREFETCH };
	int rc = walk_sample(ctx, st, st->vbytes[v], &w, res);
	if (rc != WTG_OK)
		return rc;
	*sum = w.sum;
	return wtg_check_sum_quiet(ctx, what, w.sum, w.known) ? WTG_OK : WTG_ERR;
}

/* Loads only: the last vector loaded must hold the buffer's bytes there. */
static int loads_sample(struct wtg_ctx *ctx, struct cstate *st, int v, struct wtg_probe_result *res)
{
	struct walk w = { .k = 1, .loads = true };
	int rc = walk_sample(ctx, st, st->vbytes[v], &w, res);
	if (rc != WTG_OK)
		return rc;
	return wtg_ceil_loads_ok(ctx, w.last, w.want) ? WTG_OK : WTG_ERR;
}

/* The chase from where the last sample stopped; it must end on the line the cycle says. */
static int chase_sample(struct wtg_ctx *ctx, struct cstate *st, int v, struct wtg_probe_result *res)
{
	const uint64_t n = st->vbytes[v];
	const void *from = st->buf.p + st->ring[st->chase_at];
	struct wtg_probe pb;
	wtg_probe_begin(&pb);
	const void *to = wtg_ceil_chase(from, n);
	wtg_probe_end(&pb, res);
	st->chase_at = (st->chase_at + n) % st->nring;
	if (to != (const void *)(st->buf.p + st->ring[st->chase_at])) {
		wtg_table_check(ctx->t, "chase", false, "chase: %llu loads did not end on the line the cycle predicts",
				(unsigned long long)n);
		wtg_table_fail(ctx->t, "chase: the pointer chase left its cycle");
		return WTG_ERR;
	}
	return WTG_OK;
}

/* The reference sum while the second thread streams; *rate gets the second thread's GB/s. */
static int peer_sample(struct wtg_ctx *ctx, struct cstate *st, int v, const char *what,
		       struct wtg_probe_result *res, int64_t *sum, double *rate)
{
	int cpus;
	struct wtg_ceil_peer pe = { .buf = st->ref, .span = st->span, .cpu = wtg_ceil_other_cpu(sched_getcpu(), &cpus) };
	pe.at = (st->pos + st->span / 2) % st->span / CHUNK * CHUNK;
	atomic_init(&pe.streaming, 0);
	atomic_init(&pe.stop, false);
	pthread_t th;
	int err = wtg_crew_spawn(&th, NULL, wtg_ceil_peer_main, &pe);
	if (err) {
		wtg_table_fail(ctx->t, "cannot start the second thread: %s", strerror(err));
		return WTG_ERR;
	}
	int rc = wtg_ceil_await_peer(ctx, &pe);
	if (rc == WTG_OK)
		rc = wtg_seeded_sum_sample(ctx, wtg_sum_bytes, st->ref, st->span, st->vbytes[v], &st->pos, what, res,
					   sum);
	atomic_store(&pe.stop, true);
	pthread_join(th, NULL);
	if (rc != WTG_OK)
		return rc;
	st->peer_cpu = pe.cpu;
	st->peer_unpinned += pe.cpu < 0 || pe.pin_err != 0;
	if (!wtg_check_sum_quiet(ctx, "second thread", pe.sum, pe.known))
		return WTG_ERR;
	*rate = pe.t1 > pe.t0 ? (double)pe.bytes / (double)(pe.t1 - pe.t0) : NAN;
	return WTG_OK;
}

/* One sample of a memory-sized buffer's variant v. */
static int memory_sample(struct wtg_ctx *ctx, struct cstate *st, int v, struct wtg_probe_result *res, int64_t *sum,
			 double *rate)
{
	const struct entry *e = &catalogue[st->idx[v]];
	const uint64_t n = st->vbytes[v];
	switch (e->kind) {
	case WTG_CK_REF:
		return wtg_seeded_sum_sample(ctx, wtg_sum_bytes, st->ref, st->span, n, &st->pos, e->label, res, sum);
	case WTG_CK_4K:
		return wtg_seeded_sum_sample(ctx, wtg_sum_bytes, &st->small, st->span, n, &st->pos4k, e->label, res, sum);
	case WTG_CK_LOADS:
		return loads_sample(ctx, st, v, res);
	case WTG_CK_PEER:
		return peer_sample(ctx, st, v, e->label, res, sum, rate);
	case WTG_CK_CHASE:
		return chase_sample(ctx, st, v, res);
	default:
		return streams_sample(ctx, st, v, e->label, res, sum);
	}
}

/* One sample of variant v; each warm-up sample sizes the next ones to span at least 5 ms (a first one
 * slowed by a cold start would leave them short, so there are two). */
static int sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	struct cstate *st = arg;
	const struct entry *e = &catalogue[st->idx[v]];
	const uint64_t n = st->vbytes[v];
	const int l = st->lvl[v];
	int64_t sum = 0;
	double rate = NAN;
	int rc = l == WTG_CEIL_MEM ? memory_sample(ctx, st, v, &out->res, &sum, &rate)
				   : wtg_ceil_cache_sample(ctx, &st->cache, st->set[l], e->kind, e->streams, n, st->name[v],
							   &out->res, &sum);
	if (rc != WTG_OK)
		return rc;
	const double moved = e->kind == WTG_CK_CHASE ? (double)n * WTG_CEIL_LINE : (double)n;
	out->figure = out->res.wall_ms > 0 ? moved / (out->res.wall_ms * 1e6) : 0;
	if (round >= 0) {
		st->total[v] += sum;
		st->checked[v]++;
		if (e->kind == WTG_CK_PEER && st->npeer < MAX_PEER)
			st->peer_rate[st->npeer++] = rate;
	} else if (e->kind == WTG_CK_CHASE) {
		st->vbytes[v] = wtg_rounds_sample_bytes(n, wtg_rounds_warmup_ms(&out->res), CHASE_UNIT,
							chase_cap(st->nring));
	} else if (l != WTG_CEIL_MEM) {	/* in a cache: more whole passes */
		st->vbytes[v] = wtg_rounds_sample_bytes(n, wtg_rounds_warmup_ms(&out->res), st->set[l], CACHE_CAP);
	} else {	/* a longer sample takes more windows, up to 4 passes over the buffer */
		st->vbytes[v] = wtg_rounds_sample_bytes(n, wtg_rounds_warmup_ms(&out->res), UNIT, 4 * st->span);
	}
	return WTG_OK;
}

/* The rounds start again (a key changed the conditions): what the dropped samples added goes too. */
static void restart(void *arg)
{
	struct cstate *st = arg;
	memset(st->total, 0, sizeof st->total);
	memset(st->checked, 0, sizeof st->checked);
	st->npeer = 0;
}

/* ---- rows ---- */

/* Variant v's ratio to its level's reference (the ratio of their medians) and its 95% interval (the
 * two-level bootstrap of the ratio of medians from the samples each figure uses, replica by replica);
 * the reference's own is 1 exactly, with no interval, and the chase has none (it measures another
 * thing). Each level's reference comes first among its variants, so the engine hands it over first
 * in every round and its samples are fresh when the others use them. */
static double ratio_of(struct wtg_ctx *ctx, struct cstate *st, int v, const struct wtg_rounds_result *r,
		       double *lo, double *hi)
{
	const struct entry *e = &catalogue[st->idx[v]];
	struct wtg_rounds_used *ru = &st->ref_used[st->lvl[v]];
	*lo = *hi = NAN;
	if (e->kind == WTG_CK_REF)
		return wtg_rounds_used_get(r, ru) < 0 ? NAN : 1;
	double ratio = NAN, ref = ru->n ? wtg_quantile(ru->v, ru->n, 0.5) : NAN;
	if (e->kind != WTG_CK_CHASE && ref > 0) {
		ratio = r->s.median / ref;
		struct wtg_rounds_used use = { 0 };
		if (wtg_rounds_used_get(r, &use) < 0 ||
		    wtg_rounds_ratio_ci(&use, ru, wtg_ctx_seed(ctx, 3000u + (unsigned)v), lo, hi) < 0)
			*lo = *hi = NAN;
		wtg_rounds_used_free(&use);
	}
	return ratio;
}

/* The second thread's median GB/s over its timed samples, NAN without any. */
static double peer_median(const struct cstate *st)
{
	double v[MAX_PEER];
	int n = 0;
	for (int i = 0; i < st->npeer; i++)
		if (isfinite(st->peer_rate[i]))
			v[n++] = st->peer_rate[i];
	return n ? wtg_quantile(v, (size_t)n, 0.5) : NAN;
}

static int row(struct wtg_ctx *ctx, void *arg, int v, const struct wtg_rounds_result *r, struct wtg_value *vals)
{
	struct cstate *st = arg;
	const struct entry *e = &catalogue[st->idx[v]];
	const int l = st->lvl[v];
	double lo, hi, ratio = ratio_of(ctx, st, v, r, &lo, &hi);
	int64_t huge = st->huge[l != WTG_CEIL_MEM ? 2 : e->kind == WTG_CK_4K ? 1 : 0];
	const uint64_t size = l == WTG_CEIL_MEM ? st->span : st->cache.size;	/* huge_pct's whole */
	int n = 0;
	vals[n++] = WTG_TEXT(st->name[v]);
	vals[n++] = WTG_TEXT(wtg_ceil_level_names[l]);
	vals[n++] = WTG_INT(l == WTG_CEIL_MEM ? st->span : st->set[l]);
	vals[n++] = WTG_TEXT(e->suspect);
	vals[n++] = WTG_TEXT(e->kind == WTG_CK_4K ? "4K" : "2M");
	vals[n++] = huge >= 0 ? WTG_REAL(100.0 * (double)huge / (double)size) : WTG_NA;
	vals[n++] = WTG_INT(e->streams);
	vals[n++] = WTG_INT(e->kind == WTG_CK_PREFETCH ? WTG_CEIL_PREFETCH : 0);
	vals[n++] = WTG_INT(e->kind == WTG_CK_PEER ? 2 : 1);
	n += wtg_rounds_values(vals + n, r);
	vals[n++] = wtg_real_or_na(ratio);
	vals[n++] = wtg_real_or_na(lo);
	vals[n++] = wtg_real_or_na(hi);
	vals[n++] = wtg_real_or_na(r->s.median / st->lim.ghz);
	vals[n++] = wtg_real_or_na(st->lim.gbps);
	vals[n++] = e->kind == WTG_CK_CHASE && r->s.median > 0 ? WTG_REAL(WTG_CEIL_LINE / r->s.median) : WTG_NA;
	vals[n++] = e->kind == WTG_CK_CHASE && r->s.ci_high > 0 ? WTG_REAL(WTG_CEIL_LINE / r->s.ci_high) : WTG_NA;
	vals[n++] = e->kind == WTG_CK_CHASE && r->s.ci_low > 0 ? WTG_REAL(WTG_CEIL_LINE / r->s.ci_low) : WTG_NA;
	vals[n++] = e->kind == WTG_CK_PEER ? wtg_real_or_na(peer_median(st)) : WTG_NA;
	vals[n++] = WTG_INT(e->kind == WTG_CK_CHASE ? st->vbytes[v] * WTG_CEIL_LINE : st->vbytes[v]);
	vals[n++] = e->kind == WTG_CK_LOADS || e->kind == WTG_CK_CHASE ? WTG_NA : WTG_INT(st->total[v]);
	vals[n++] = WTG_TEXT(st->kernel[v]);
	return n;
}

static const struct wtg_column cols[] = {
	{ "variant", "", WTG_T_TEXT, 0 },
	{ "level", "", WTG_T_TEXT, 0 },
	{ "wss", "B", WTG_T_INT, 0 },
	{ "suspect", "", WTG_T_TEXT, 0 },
	{ "pages", "", WTG_T_TEXT, 0 },
	{ "huge_pct", "%", WTG_T_REAL, 1 },
	{ "streams", "count", WTG_T_INT, 0 },
	{ "prefetch", "B", WTG_T_INT, 0 },
	{ "threads", "count", WTG_T_INT, 0 },
	WTG_ROUNDS("gbps", "GB/s", 2),
	{ "ratio", "", WTG_T_REAL, 3 },
	{ "ratio_ci_low", "", WTG_T_REAL, 3 },
	{ "ratio_ci_high", "", WTG_T_REAL, 3 },
	{ "bytes_per_cycle", "B", WTG_T_REAL, 1 },
	{ "load_limit_gbps", "GB/s", WTG_T_REAL, 1 },
	{ "ns_per_load", "ns", WTG_T_REAL, 1 },
	{ "ns_per_load_ci_low", "ns", WTG_T_REAL, 1 },	/* 64 B over gbps_ci_high, ci_high over ci_low */
	{ "ns_per_load_ci_high", "ns", WTG_T_REAL, 1 },
	{ "peer_gbps", "GB/s", WTG_T_REAL, 2 },
	{ "bytes", "B", WTG_T_INT, 0 },
	{ "sum", "", WTG_T_INT, 0 },
	{ "kernel", "", WTG_T_TEXT, 0 },
};

/* ---- checks and notes ---- */

static void add_checks(struct wtg_ctx *ctx, const struct cstate *st, const struct wtg_rounds *r)
{
	for (int v = 0; v < r->nvariants; v++) {
		const struct entry *e = &catalogue[st->idx[v]];
		if (e->kind == WTG_CK_LOADS)
			wtg_table_check(ctx->t, "loads", true,
					"%s: in each of its %llu samples the last vector loaded held the "
					"buffer's bytes there (nothing to sum: no arithmetic)",
					st->name[v], (unsigned long long)st->checked[v]);
		else if (e->kind == WTG_CK_CHASE)
			wtg_table_check(ctx->t, "chase", true,
					"chase: each of its %llu samples ended on the line the cycle predicts after "
					"its loads",
					(unsigned long long)st->checked[v]);
		else
			wtg_check_sums_row(ctx, st->name[v], (int)r->v[v].n, st->total[v]);
		if (e->kind == WTG_CK_PEER)
			wtg_table_check(ctx->t, "sum", true,
					"second thread: its sum matched the known sum of what it read in each of %llu "
					"samples",
					(unsigned long long)st->checked[v]);
		wtg_rounds_checks(ctx, st->name[v], "GB/s", &r->v[v]);
	}
}

/* The memory-sized buffer's variant of kind k (and streams s, 0: any), -1 when this run has none. */
static int variant_of(const struct cstate *st, enum wtg_ceil_kind k, int s)
{
	for (int v = 0; v < st->n; v++)
		if (st->lvl[v] == WTG_CEIL_MEM && catalogue[st->idx[v]].kind == k &&
		    (s == 0 || catalogue[st->idx[v]].streams == s))
			return v;
	return -1;
}

/* Memory-level parallelism by Little's law: bytes in flight = bandwidth x latency, from the
 * reference's GB/s and the chase's ns per load, for the reference and the fastest streams row. */
static void mlp_note(struct wtg_ctx *ctx, const struct cstate *st, const struct wtg_rounds *r)
{
	int rv = variant_of(st, WTG_CK_REF, 0), cv = variant_of(st, WTG_CK_CHASE, 0), best = -1;
	for (int s = 1; s <= WTG_CEIL_MAX_STREAMS; s *= 2) {
		int v = variant_of(st, WTG_CK_STREAMS, s);
		if (v >= 0 && (best < 0 || r->v[v].s.median > r->v[best].s.median))
			best = v;
	}
	if (rv < 0 || cv < 0 || best < 0 || !(r->v[cv].s.median > 0))
		return;
	const double ns = WTG_CEIL_LINE / r->v[cv].s.median, g = r->v[rv].s.median, gb = r->v[best].s.median;
	wtg_table_note(ctx->t,
		       "memory-level parallelism (Little's law: bytes in flight = bandwidth x latency): the "
		       "reference's %.2f GB/s x the chase's %.1f ns per load = %.0f bytes, %.1f 64-byte lines in "
		       "flight on one core; the fastest streams row (%s, %.2f GB/s) keeps %.1f",
		       g, ns, g * ns, g * ns / WTG_CEIL_LINE, catalogue[st->idx[best]].label, gb,
		       gb * ns / WTG_CEIL_LINE);
}

static void buffer_notes(struct wtg_ctx *ctx, const struct cstate *st)
{
	char sz[32], llc[32], ref[96], small[96];
	wtg_fmt_size(sz, sizeof sz, st->span);
	wtg_fmt_size(llc, sizeof llc, wtg_ctx_llc(ctx));
	wtg_huge_phrase(ctx, ref, sizeof ref, st->huge[0], st->span);
	wtg_huge_phrase(ctx, small, sizeof small, st->huge[1], st->span);
	wtg_table_note(ctx->t,
		       "a buffer of %s (at least 4x the %s last-level cache or a quarter of RAM: wss's largest "
		       "size), seeded bytes, transparent huge pages asked for (%s), and its copy advised "
		       "MADV_NOHUGEPAGE before it was touched%s (%s); huge_pct: the share the kernel backed "
		       "with huge pages (/proc/self/smaps)",
		       sz, llc, ref, st->advised ? "" : " (madvise refused: the kernel's setting decides)", small);
	wtg_table_note(ctx->t,
		       "reference: the hand SIMD sum (%s) as wss runs it, a window of the buffer per sample, "
		       "each where the last one of any row ended; loads only: every byte loaded into %s "
		       "registers, nothing added; 4K pages: the reference's sum over the copy; N streams: the "
		       "window in N parts, one 64-byte line of each in turn, psadbw into one accumulator per "
		       "stream (1 stream is this loop's control); prefetch: 1 stream with a software prefetch "
		       "%u bytes (%u lines) ahead of every line",
		       wtg_sum_simd_name(), wtg_ceil_width(NULL), WTG_CEIL_PREFETCH, WTG_CEIL_PREFETCH / WTG_CEIL_LINE);
	if (variant_of(st, WTG_CK_STREAMS, 2) < 0)
		wtg_table_note(ctx->t, "--quick: 1 and %d streams only (2 and 4 streams without --quick); in the "
				       "caches the reference and loads only, the rows their verdict reads (the streams "
				       "and the prefetch there too without --quick)",
			       WTG_CEIL_MAX_STREAMS);
	int pv = variant_of(st, WTG_CK_PEER, 0);
	if (pv < 0)
		wtg_table_note(ctx->t, "second thread: this process may run on one CPU only, so there is no "
				       "second-thread row");
	else
		wtg_table_note(ctx->t,
			       "second thread: the reference's sum while a thread pinned to CPU %d (one the worker "
			       "was not on%s) sums the buffer from half a span away, started before the window and "
			       "stopped after it; peer_gbps: its median GB/s over those windows",
			       st->peer_cpu, st->peer_unpinned ? "; it ran unpinned in some samples" : "");
	wtg_table_note(ctx->t,
		       "chase: a cycle through one 64-byte line at a seeded random place in each 4 KiB of the "
		       "buffer itself (%llu lines, in seeded random order; each holds the next one's address "
		       "in its first 8 bytes while the rounds run, the known sums moved by what that changed, "
		       "the bytes put back after); each load's address is the last one's value, so one miss "
		       "is in flight: ns_per_load is the load-to-use latency, its gbps 64 B per load (bytes: "
		       "64 x its loads); a sample follows at most the whole cycle, so no line comes twice in it; "
		       "each load lands in another 4 KiB, so the latency holds a page walk wherever the TLB's "
		       "reach (at the buffer's page size, or a hypervisor's own) falls short of the buffer",
		       (unsigned long long)st->nring);
	wtg_table_note(ctx->t,
		       "ratio: a row's median GB/s over its buffer's reference's, with a two-level bootstrap 95%% "
		       "interval of the ratio of medians (%d resamples: each row's replicas, then the samples "
		       "within each, of the samples each figure uses); the verdict's memory part names "
		       "the row whose ratio lies furthest from 1 (on a log scale) among those whose interval "
		       "does not hold 1",
		       WTG_BOOTSTRAP_RESAMPLES);
}

/* ---- the run ---- */

static int ceiling_run(struct wtg_ctx *ctx)
{
	wtg_experiment_columns(&wtg_exp_ceiling, ctx->t);
	struct cstate *st = calloc(1, sizeof *st);
	if (!st) {
		wtg_table_fail(ctx->t, "out of memory");
		return WTG_ERR;
	}
	st->n = variants(ctx->opt, st->idx, st->lvl);
	for (int v = 0; v < st->n; v++)
		name_of(&catalogue[st->idx[v]], st->lvl[v], st->name[v], sizeof st->name[v]);
	st->peer_cpu = -1;
	int rc = setup(ctx, st);
	struct wtg_rounds r = { 0 };
	const struct wtg_rounds_spec spec = {
		.nvariants = st->n, .rounds = WTG_ROUNDS_MIN, .warmup = WARMUP,
		.sample = sample, .row = row, .arg = st, .label = label, .restart = restart,
	};
	if (rc == WTG_OK)
		rc = wtg_rounds_run(ctx, &spec, &r);
	teardown(st);
	wtg_dram_buf_done(ctx, &wtg_exp_ceiling);
	if (rc == WTG_OK) {
		wtg_ctx_progress(ctx, 1, 1, "done");
		add_checks(ctx, st, &r);
		buffer_notes(ctx, st);
		char huge[96];
		wtg_huge_phrase(ctx, huge, sizeof huge, st->huge[2], st->cache.size);
		wtg_ceil_cache_notes(ctx, st->set, huge, st->sizes_from, &st->lim);
		mlp_note(ctx, st, &r);
		if (ctx->machine && ctx->machine->caches_note[0])
			wtg_table_note(ctx->t, "%s", ctx->machine->caches_note);
		wtg_rounds_note(ctx, &r, spec.warmup);
	}
	wtg_rounds_free(&r);
	free(st);
	return rc;
}

/* The work of a run: the buffer filled and copied, then every variant's samples. */
static double planned_work(const struct wtg_options *o, uint64_t span, int n)
{
	return 2.0 * (double)span + (double)(WTG_ROUNDS_MIN + 1) * (double)n * (double)sample_bytes(o, span);
}

/* The variants the reference machine ran (two CPUs: every one; --quick: not those quick_skips
 * names). */
static int ref_variants(bool quick)
{
	int n = 0;
	for (int l = 0; l < WTG_CEIL_NLEVELS; l++)
		for (int c = 0; c < NCAT; c++)
			n += (l == WTG_CEIL_MEM || catalogue[c].cached) && !(quick && quick_skips(&catalogue[c], l));
	return n;
}

/* --dry-run: the variants on this machine, each with its buffer and the bytes a sample moves before
 * the warm-up scales them; the typical time scales with the work against a 2 GiB buffer's. */
static void ceiling_plan(struct wtg_plan *p)
{
	static const char *const names[] = { "variant", "level", "wss", "suspect", "pages", "streams", "prefetch",
					     "threads", "bytes" };
	struct wtg_ctx ctx = { .opt = p->opt, .machine = p->machine };
	int idx[NVAR], lvl[NVAR], n = variants(p->opt, idx, lvl);
	uint64_t set[2];
	const char *from;
	wtg_ceil_cache_sizes(&ctx, set, &from);
	const uint64_t span = wtg_dram_span(&ctx), bytes = sample_bytes(p->opt, span);
	wtg_plan_columns(p, names, (int)WTG_ARRAY_LEN(names));
	for (int v = 0; v < n; v++) {
		const struct entry *e = &catalogue[idx[v]];
		const int l = lvl[v];
		const uint64_t wss = l == WTG_CEIL_MEM ? span : set[l];
		char name[32];
		name_of(e, l, name, sizeof name);
		const struct wtg_value row[] = {
			WTG_TEXT(name), WTG_TEXT(wtg_ceil_level_names[l]), WTG_INT(wss), WTG_TEXT(e->suspect),
			WTG_TEXT(e->kind == WTG_CK_4K ? "4K" : "2M"), WTG_INT(e->streams),
			WTG_INT(e->kind == WTG_CK_PREFETCH ? WTG_CEIL_PREFETCH : 0), WTG_INT(e->kind == WTG_CK_PEER ? 2 : 1),
			WTG_INT(e->kind == WTG_CK_CHASE ? chase_loads(p->opt) * WTG_CEIL_LINE
			       : l == WTG_CEIL_MEM	   ? bytes
							   : (bytes + wss - 1) / wss * wss),
		};
		wtg_plan_row(p, row);
	}
	p->samples = WTG_ROUNDS_MIN;
	p->warmup = WARMUP;
	p->work = planned_work(p->opt, span, n);
	const bool quick = p->opt && p->opt->quick;
	p->ref_work = planned_work(p->opt, quick ? WTG_QUICK_SPAN_MAX : REF_SPAN, ref_variants(quick));
	snprintf(p->how, sizeof p->how, "typical time x bytes moved here / with a %s buffer", quick ? "512M" : "2G");
}

#define RUNS_LINE(mb)                                                                                     \
	"one core sums an L1-sized, an L2-sized and a memory-sized buffer (4x LLC) as wss does, beside the " \
	"same with loads only, as 1, 2, 4 and 8 streams and with prefetch (in memory also in 4 KiB pages and " \
	"beside a second thread on another CPU, and a pointer chase for the latency); >= 15 seeded rounds " \
	"of " mb " MB windows; GB/s, the ratio to each buffer's sum with CIs, the load limit from the "      \
	"measured clock"

static void ceiling_runs_with(bool quick, char *buf, size_t len)
{
	wtg_strlcpy(buf, quick ? RUNS_LINE("16") : RUNS_LINE("32"), len);
}

const struct wtg_experiment wtg_exp_ceiling = {
	.name = "ceiling",
	.question = "What caps one core?",
	.runs = RUNS_LINE("32"),
	.runs_with = ceiling_runs_with,
	.needs_datafile = false,
	.shares_dram_buf = true,
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_BARS,
	.bars = { .label = { "variant" }, .value = "gbps", .extra = "ratio" },
	.headline = { { "GB/s of one core's sum", "variant", "reference", "gbps", "gbps_ci_low", "gbps_ci_high",
			NULL, "GB/s", true },
		      { "load-to-use latency", "variant", "chase", "ns_per_load", "ns_per_load_ci_low",
			"ns_per_load_ci_high", NULL, "ns", false } },
	.typical_s = 20,
	.typical_quick_s = 6,
	.verdict = wtg_ceil_verdict,
	.essay = { "one worker capped at 17 GB/s, the cause left open", NULL },
	.terms = WTG_TERMS("corebound", "membound", "simd", "hugepage", "tlb", "prefetch", "chase", "mlp", "gbps",
			   "ci"),
	.alternates = true,
	.run = ceiling_run,
	.plan = ceiling_plan,
};
