/* ceiling.c: What caps one core? One thread sums the memory-sized buffer wss sweeps last (at least 4x
 * the last-level cache, transparent huge pages asked for) with the same hand SIMD sum, in windows that
 * march through it: the reference row. Beside it, in the same seeded rounds, variants that each take
 * one suspect away or add one:
 *	loads only	every byte loaded into a register and nothing added (vector execution removed)
 *	4K pages	the same bytes in a copy advised MADV_NOHUGEPAGE (translation: 512x the pages)
 *	1 .. 8 streams	the window split into 1, 2, 4 or 8 parts read a line of each in turn (misses in
 *			flight: the load machinery); 1 stream is the same loop's control (--quick: 1 and
 *			8 only)
 *	prefetch	one stream with a software prefetch a fixed distance ahead (the load machinery)
 *	second thread	the reference sum while a thread pinned to another CPU streams the same buffer
 *			(a shared path; no row on a machine where this process has one CPU)
 *	chase		a pointer chase through a seeded random cycle of lines of the same buffer (its
 *			pointers written over one line in each 4 KiB, the known sums adjusted for them,
 *			the bytes put back at the end): one miss at a time, so ns per load is the
 *			load-to-use latency
 * Every row is the rounds engine's distribution (>= 15 samples in 5 replicas, contention recorded);
 * each row's ratio to the reference carries a two-level bootstrap interval of the ratio of medians; the
 * verdict names the change that moved the ceiling most beyond noise, and a note gives the
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
#define PEER_PIECE (4u << 20)				/* the second thread looks at its stop flag this often */
#define PAGE_4K 4096u
#define REF_SPAN (2ull << 30)				/* the buffer the typical times were measured with */
#define MAX_PEER 64					/* second-thread samples kept per round set */
#define WARMUP 2	/* unreported samples per variant: each sizes the next to span at least 5 ms */

extern const struct wtg_experiment wtg_exp_ceiling;

enum kind { K_REF, K_LOADS, K_4K, K_STREAMS, K_PREFETCH, K_PEER, K_CHASE };

/* Every variant, in the table's order. */
static const struct entry {
	enum kind kind;
	int streams;
	const char *label;
	const char *suspect;	/* what it takes away or adds */
} catalogue[] = {
	{ K_REF, 1, "reference", "reference" },
	{ K_LOADS, 1, "loads only", "vector execution" },
	{ K_4K, 1, "4K pages", "translation" },
	{ K_STREAMS, 1, "1 stream", "loop code" },
	{ K_STREAMS, 2, "2 streams", "load machinery" },
	{ K_STREAMS, 4, "4 streams", "load machinery" },
	{ K_STREAMS, 8, "8 streams", "load machinery" },
	{ K_PREFETCH, 1, "prefetch", "load machinery" },
	{ K_PEER, 1, "second thread", "shared path" },
	{ K_CHASE, 1, "chase", "latency" },
};
#define NCAT ((int)WTG_ARRAY_LEN(catalogue))

struct cstate {
	const struct wtg_seeded_buf *shared;	/* the memory-sized buffer (shared with kernels and wss) */
	struct wtg_seeded_buf buf;		/* the same bytes with the chase's pointers in them: its p,
						 * known sums of its own (prefix) */
	struct wtg_seeded_buf small;		/* those bytes in 4 KiB pages: p of its own, buf's prefix */
	const struct wtg_seeded_buf *ref;	/* &buf */
	uint64_t *ring;				/* the cycle's lines (offsets into buf.p), in visiting order */
	uint64_t *saved;			/* the 8 bytes each of them held before its pointer */
	uint64_t nring, nwritten, chase_at;	/* lines in the cycle; pointers written; the next start */
	uint64_t span;				/* the buffers' size */
	int idx[NCAT], n;			/* the variants here: catalogue indices */
	uint64_t vbytes[NCAT];			/* per variant: bytes (the chase: loads) per timed sample */
	uint64_t pos, pos4k;			/* where the next window of each buffer starts */
	int64_t total[NCAT];			/* the timed samples' checked sums */
	char kernel[NCAT][48];			/* what each variant runs, in words (kernel_of) */
	int64_t huge[2];			/* bytes in huge pages: the buffer, its 4 KiB copy; -1 unknown */
	bool advised;				/* madvise(MADV_NOHUGEPAGE) took on the copy */
	int peer_cpu, peer_unpinned;		/* the second thread's last CPU; samples it ran unpinned */
	double peer_rate[MAX_PEER];		/* its GB/s during each timed sample */
	int npeer;
	uint64_t checked[NCAT];			/* timed samples whose result was checked */
	struct wtg_rounds_used ref_used;	/* the reference's samples its figure uses (for the ratios) */
};

/* ---- the variants and their sizes (the run and the plan share them) ---- */

/* The first CPU this process may run on other than `not`, -1 when none; *count gets how many it
 * may run on (the online CPUs when its affinity cannot be read). */
static int other_cpu(int not, int *count)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set) != 0) {
		*count = wtg_online_cpus();
		return -1;
	}
	*count = CPU_COUNT(&set);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set) && c != not)
			return c;
	return -1;
}

/* The variants on this machine into idx (catalogue indices): the second thread only where this
 * process may run on two CPUs or more; with --quick the streams at their ends only (1 and 8, not 2
 * and 4). Returns their count. */
static int variants(const struct wtg_options *o, int *idx)
{
	int cpus, n = 0;
	other_cpu(-1, &cpus);
	for (int c = 0; c < NCAT; c++) {
		const struct entry *e = &catalogue[c];
		bool middle = e->kind == K_STREAMS && e->streams > 1 && e->streams < WTG_CEIL_MAX_STREAMS;
		if ((e->kind != K_PEER || cpus >= 2) && !(o && o->quick && middle))
			idx[n++] = c;
	}
	return n;
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
	wtg_strlcpy(buf, catalogue[st->idx[v]].label, len);
}

/* What a variant runs, in words: the sum's level, "loads zmm", "psadbw zmm", "dependent loads". */
static void kernel_of(const struct entry *e, char *buf, size_t len)
{
	const char *w = wtg_ceil_width(NULL);
	if (e->kind == K_LOADS)
		snprintf(buf, len, "loads %s", w);
	else if (e->kind == K_STREAMS || e->kind == K_PREFETCH)
		snprintf(buf, len, "psadbw %s", w);
	else if (e->kind == K_CHASE)
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
	if (rc != WTG_OK)
		return rc;
	st->huge[0] = wtg_huge_bytes(st->buf.p);
	st->huge[1] = wtg_huge_bytes(st->small.p);
	st->pos = st->span / 2 / CHUNK * CHUNK;	/* the first window in the second half, as wss's */
	uint64_t bytes = sample_bytes(ctx->opt, st->span);
	for (int v = 0; v < st->n; v++) {
		st->vbytes[v] = catalogue[st->idx[v]].kind == K_CHASE ? chase_loads(ctx->opt) : bytes;
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
	wtg_rounds_used_free(&st->ref_used);
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
				w->last = wtg_ceil_loads(s[0], n);
			else
				w->sum += wtg_ceil_streams(s, w->k, n, w->prefetch);
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
	struct walk w = { .k = e->streams, .prefetch = e->kind == K_PREFETCH };
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
	if (w.last != w.want) {
		wtg_table_check(ctx->t, "loads", false, "loads only: the last vector loaded held %016llx, the buffer %016llx",
				(unsigned long long)w.last, (unsigned long long)w.want);
		wtg_table_fail(ctx->t, "loads only: the loop did not load the window's last bytes");
		return WTG_ERR;
	}
	return WTG_OK;
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

/* The second thread: pinned to another CPU, it sums the buffer from half a span away from the
 * worker's window in PEER_PIECE pieces until told to stop, adding up the known sums beside. */
struct peer {
	const struct wtg_seeded_buf *buf;
	uint64_t span, at;
	int cpu, pin_err;
	atomic_int streaming;
	atomic_bool stop;
	int64_t sum, known, t0, t1;
	uint64_t bytes;
};

static void *peer_main(void *arg)
{
	struct peer *pe = arg;
	pe->pin_err = wtg_pin_self(pe->cpu);
	wtg_policy_apply_self();
	pe->t0 = wtg_now_ns();
	atomic_store(&pe->streaming, 1);
	for (uint64_t at = pe->at; !atomic_load(&pe->stop);) {
		uint64_t n = pe->span - at < PEER_PIECE ? pe->span - at : PEER_PIECE;
		pe->sum += wtg_sum_bytes(pe->buf->p + at, (size_t)n);
		pe->known += wtg_seeded_buf_known(pe->buf, at, n);
		pe->bytes += n;
		at = at + n >= pe->span ? 0 : at + n;
	}
	pe->t1 = wtg_now_ns();
	wtg_policy_unregister_self();
	return NULL;
}

/* Wait until the second thread streams: WTG_OK, WTG_CANCELLED, or WTG_ERR when it got no CPU within
 * the time limit. */
static int await_peer(struct wtg_ctx *ctx, struct peer *pe)
{
	const int64_t limit = (ctx->opt->time_limit_ms > 0 ? ctx->opt->time_limit_ms : 10000) * 1000000;
	const int64_t t0 = wtg_now_ns();
	while (!atomic_load(&pe->streaming)) {
		if (wtg_ctx_cancelled(ctx))
			return WTG_CANCELLED;
		if (wtg_now_ns() - t0 > limit) {
			wtg_table_fail(ctx->t, "starved: the second thread got no CPU in %.0f s", (double)limit / 1e9);
			return WTG_ERR;
		}
		struct timespec nap = { 0, 100000 };
		nanosleep(&nap, NULL);
	}
	return WTG_OK;
}

/* The reference sum while the second thread streams; *rate gets the second thread's GB/s. */
static int peer_sample(struct wtg_ctx *ctx, struct cstate *st, int v, const char *what,
		       struct wtg_probe_result *res, int64_t *sum, double *rate)
{
	int cpus;
	struct peer pe = { .buf = st->ref, .span = st->span, .cpu = other_cpu(sched_getcpu(), &cpus) };
	pe.at = (st->pos + st->span / 2) % st->span / CHUNK * CHUNK;
	atomic_init(&pe.streaming, 0);
	atomic_init(&pe.stop, false);
	pthread_t th;
	int err = wtg_crew_spawn(&th, NULL, peer_main, &pe);
	if (err) {
		wtg_table_fail(ctx->t, "cannot start the second thread: %s", strerror(err));
		return WTG_ERR;
	}
	int rc = await_peer(ctx, &pe);
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

/* One sample of variant v; each warm-up sample sizes the next ones to span at least 5 ms (a first one
 * slowed by a cold start would leave them short, so there are two). */
static int sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	struct cstate *st = arg;
	const struct entry *e = &catalogue[st->idx[v]];
	const uint64_t n = st->vbytes[v];
	int64_t sum = 0;
	double rate = NAN;
	int rc;
	switch (e->kind) {
	case K_REF:
		rc = wtg_seeded_sum_sample(ctx, wtg_sum_bytes, st->ref, st->span, n, &st->pos, e->label, &out->res, &sum);
		break;
	case K_4K:
		rc = wtg_seeded_sum_sample(ctx, wtg_sum_bytes, &st->small, st->span, n, &st->pos4k, e->label, &out->res,
					   &sum);
		break;
	case K_LOADS:
		rc = loads_sample(ctx, st, v, &out->res);
		break;
	case K_PEER:
		rc = peer_sample(ctx, st, v, e->label, &out->res, &sum, &rate);
		break;
	case K_CHASE:
		rc = chase_sample(ctx, st, v, &out->res);
		break;
	default:
		rc = streams_sample(ctx, st, v, e->label, &out->res, &sum);
	}
	if (rc != WTG_OK)
		return rc;
	const double moved = e->kind == K_CHASE ? (double)n * WTG_CEIL_LINE : (double)n;
	out->figure = out->res.wall_ms > 0 ? moved / (out->res.wall_ms * 1e6) : 0;
	if (round >= 0) {
		st->total[v] += sum;
		st->checked[v]++;
		if (e->kind == K_PEER && st->npeer < MAX_PEER)
			st->peer_rate[st->npeer++] = rate;
	} else if (e->kind == K_CHASE) {
		st->vbytes[v] = wtg_rounds_sample_bytes(n, wtg_rounds_warmup_ms(&out->res), CHASE_UNIT,
							chase_cap(st->nring));
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

/* Variant v's ratio to the reference (the ratio of their medians) and its 95% interval (the
 * two-level bootstrap of the ratio of medians from the samples each figure uses, replica by replica);
 * the reference's own is 1 exactly, with no interval, and the chase has none (it measures another
 * thing). The reference is variant 0, so the engine hands it over first in every round and its
 * samples are fresh when the others use them. */
static double ratio_of(struct wtg_ctx *ctx, struct cstate *st, int v, const struct wtg_rounds_result *r,
		       double *lo, double *hi)
{
	const struct entry *e = &catalogue[st->idx[v]];
	*lo = *hi = NAN;
	if (e->kind == K_REF)
		return wtg_rounds_used_get(r, &st->ref_used) < 0 ? NAN : 1;
	double ratio = NAN, ref = st->ref_used.n ? wtg_quantile(st->ref_used.v, st->ref_used.n, 0.5) : NAN;
	if (e->kind != K_CHASE && ref > 0) {
		ratio = r->s.median / ref;
		struct wtg_rounds_used use = { 0 };
		if (wtg_rounds_used_get(r, &use) < 0 ||
		    wtg_rounds_ratio_ci(&use, &st->ref_used, wtg_ctx_seed(ctx, 3000u + (unsigned)v), lo, hi) < 0)
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
	double lo, hi, ratio = ratio_of(ctx, st, v, r, &lo, &hi);
	int64_t huge = st->huge[e->kind == K_4K ? 1 : 0];
	int n = 0;
	vals[n++] = WTG_TEXT(e->label);
	vals[n++] = WTG_TEXT(e->suspect);
	vals[n++] = WTG_TEXT(e->kind == K_4K ? "4K" : "2M");
	vals[n++] = huge >= 0 ? WTG_REAL(100.0 * (double)huge / (double)st->span) : WTG_NA;
	vals[n++] = WTG_INT(e->streams);
	vals[n++] = WTG_INT(e->kind == K_PREFETCH ? WTG_CEIL_PREFETCH : 0);
	vals[n++] = WTG_INT(e->kind == K_PEER ? 2 : 1);
	n += wtg_rounds_values(vals + n, r);
	vals[n++] = wtg_real_or_na(ratio);
	vals[n++] = wtg_real_or_na(lo);
	vals[n++] = wtg_real_or_na(hi);
	vals[n++] = e->kind == K_CHASE && r->s.median > 0 ? WTG_REAL(WTG_CEIL_LINE / r->s.median) : WTG_NA;
	vals[n++] = e->kind == K_PEER ? wtg_real_or_na(peer_median(st)) : WTG_NA;
	vals[n++] = WTG_INT(e->kind == K_CHASE ? st->vbytes[v] * WTG_CEIL_LINE : st->vbytes[v]);
	vals[n++] = e->kind == K_LOADS || e->kind == K_CHASE ? WTG_NA : WTG_INT(st->total[v]);
	vals[n++] = WTG_TEXT(st->kernel[v]);
	return n;
}

static const struct wtg_column cols[] = {
	{ "variant", "", WTG_T_TEXT, 0 },
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
	{ "ns_per_load", "ns", WTG_T_REAL, 1 },
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
		if (e->kind == K_LOADS)
			wtg_table_check(ctx->t, "loads", true,
					"loads only: in each of its %llu samples the last vector loaded held the "
					"buffer's bytes there (nothing to sum: no arithmetic)",
					(unsigned long long)st->checked[v]);
		else if (e->kind == K_CHASE)
			wtg_table_check(ctx->t, "chase", true,
					"chase: each of its %llu samples ended on the line the cycle predicts after "
					"its loads",
					(unsigned long long)st->checked[v]);
		else
			wtg_check_sums_row(ctx, e->label, (int)r->v[v].n, st->total[v]);
		if (e->kind == K_PEER)
			wtg_table_check(ctx->t, "sum", true,
					"second thread: its sum matched the known sum of what it read in each of %llu "
					"samples",
					(unsigned long long)st->checked[v]);
		wtg_rounds_checks(ctx, e->label, "GB/s", &r->v[v]);
	}
}

/* The variant of kind k (and streams s, 0: any), -1 when this run has none. */
static int variant_of(const struct cstate *st, enum kind k, int s)
{
	for (int v = 0; v < st->n; v++)
		if (catalogue[st->idx[v]].kind == k && (s == 0 || catalogue[st->idx[v]].streams == s))
			return v;
	return -1;
}

/* Memory-level parallelism by Little's law: bytes in flight = bandwidth x latency, from the
 * reference's GB/s and the chase's ns per load, for the reference and the fastest streams row. */
static void mlp_note(struct wtg_ctx *ctx, const struct cstate *st, const struct wtg_rounds *r)
{
	int rv = variant_of(st, K_REF, 0), cv = variant_of(st, K_CHASE, 0), best = -1;
	for (int s = 1; s <= WTG_CEIL_MAX_STREAMS; s *= 2) {
		int v = variant_of(st, K_STREAMS, s);
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
	if (variant_of(st, K_STREAMS, 2) < 0)
		wtg_table_note(ctx->t, "--quick: 1 and %d streams only (2 and 4 streams without --quick)",
			       WTG_CEIL_MAX_STREAMS);
	int pv = variant_of(st, K_PEER, 0);
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
		       "ratio: a row's median GB/s over the reference's, with a two-level bootstrap 95%% interval "
		       "of the ratio of medians (%d resamples: each row's replicas, then the samples within "
		       "each, of the samples each figure uses); the verdict names "
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
	st->n = variants(ctx->opt, st->idx);
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

/* --dry-run: the variants on this machine, each with the bytes a sample moves before the warm-up
 * scales them; the typical time scales with the work against a 2 GiB buffer's. */
static void ceiling_plan(struct wtg_plan *p)
{
	static const char *const names[] = { "variant", "suspect", "pages", "streams", "prefetch", "threads", "bytes" };
	struct wtg_ctx ctx = { .opt = p->opt, .machine = p->machine };
	int idx[NCAT], n = variants(p->opt, idx);
	const uint64_t span = wtg_dram_span(&ctx), bytes = sample_bytes(p->opt, span);
	wtg_plan_columns(p, names, (int)WTG_ARRAY_LEN(names));
	for (int v = 0; v < n; v++) {
		const struct entry *e = &catalogue[idx[v]];
		const struct wtg_value row[] = {
			WTG_TEXT(e->label), WTG_TEXT(e->suspect), WTG_TEXT(e->kind == K_4K ? "4K" : "2M"),
			WTG_INT(e->streams), WTG_INT(e->kind == K_PREFETCH ? WTG_CEIL_PREFETCH : 0),
			WTG_INT(e->kind == K_PEER ? 2 : 1),
			WTG_INT(e->kind == K_CHASE ? chase_loads(p->opt) * WTG_CEIL_LINE : bytes),
		};
		wtg_plan_row(p, row);
	}
	p->samples = WTG_ROUNDS_MIN;
	p->warmup = WARMUP;
	p->work = planned_work(p->opt, span, n);
	/* the reference machine ran every variant (--quick: not 2 and 4 streams) */
	const bool quick = p->opt && p->opt->quick;
	p->ref_work = planned_work(p->opt, quick ? WTG_QUICK_SPAN_MAX : REF_SPAN, quick ? NCAT - 2 : NCAT);
	snprintf(p->how, sizeof p->how, "typical time x bytes moved here / with a %s buffer", quick ? "512M" : "2G");
}

/* ---- the verdict ---- */

/* What a move of each suspect's row says: `sign` is the direction that points at the suspect (+1 a
 * rise: taking it away lifted the ceiling; -1 a fall: adding it lowered it; 0 either). */
static const struct {
	const char *suspect;
	int sign;
	const char *yes, *no;
} meaning[] = {
	{ "vector execution", 1, "the sum's vector arithmetic is part of one core's cap here",
	  "loads alone ran slower: the arithmetic is not what caps one core here" },
	{ "translation", -1, "translation is part of one core's cap here",
	  "4 KiB pages ran faster: huge pages do not lift one core's cap here" },
	{ "loop code", 0, "the loop's own code moves one core's ceiling here", "" },
	{ "load machinery", 1, "the load machinery (misses in flight) is part of one core's cap here",
	  "more misses in flight slowed it: they are not what caps one core here" },
	{ "shared path", -1, "a path shared with another core is part of one core's cap here",
	  "it ran faster beside a second thread: no shared path caps one core here" },
};

static const char *meaning_of(const char *suspect, double ratio)
{
	for (size_t i = 0; i < WTG_ARRAY_LEN(meaning); i++)
		if (strcmp(meaning[i].suspect, suspect) == 0)
			return meaning[i].sign == 0 || (ratio > 1) == (meaning[i].sign > 0) ? meaning[i].yes
											    : meaning[i].no;
	return "";
}

/* "4K pages: x0.81 [0.78-0.84]: translation is part of one core's cap here": the row whose ratio
 * lies furthest from 1 on a log scale among those whose interval does not hold 1; the reference and
 * the chase are no changes to the sum. */
static int ceiling_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	int vc = wtg_table_col(t, "variant"), sc = wtg_table_col(t, "suspect"), rc = wtg_table_col(t, "ratio");
	int lc = wtg_table_col(t, "ratio_ci_low"), hc = wtg_table_col(t, "ratio_ci_high");
	if (vc < 0 || sc < 0 || rc < 0 || lc < 0 || hc < 0)
		return 0;
	int best = -1, judged = 0;
	for (int r = 0; r < t->nrows; r++) {
		const struct wtg_value *s = &t->rows[r].v[sc];
		double x = wtg_table_num(t, r, rc), lo = wtg_table_num(t, r, lc), hi = wtg_table_num(t, r, hc);
		if (s->type != WTG_T_TEXT || !s->s || strcmp(s->s, "reference") == 0 || strcmp(s->s, "latency") == 0 ||
		    !(x > 0) || !isfinite(lo) || !isfinite(hi))
			continue;
		judged++;
		if (lo <= 1 && hi >= 1)
			continue;
		if (best < 0 || fabs(log(x)) > fabs(log(wtg_table_num(t, best, rc))))
			best = r;
	}
	if (best < 0)
		return wtg_verdict_fmt(buf, len, judged > 0,
				       "none moved one core's ceiling beyond noise: each of the %d ratios' 95%% "
				       "intervals holds 1",
				       judged);
	const struct wtg_value *v = &t->rows[best].v[vc];
	double x = wtg_table_num(t, best, rc);
	return wtg_verdict_fmt(buf, len, v->type == WTG_T_TEXT && v->s, "%s: x%.2f [%.2f-%.2f]: %s", v->s, x,
			       wtg_table_num(t, best, lc), wtg_table_num(t, best, hc),
			       meaning_of(t->rows[best].v[sc].s, x));
}

#define RUNS_LINE(mb)                                                                                     \
	"one core sums a memory-sized buffer (4x LLC) as wss does, beside the same with loads only, in 4 KiB " \
	"pages, as 1, 2, 4 and 8 streams, with prefetch and beside a second thread on another CPU, and a "   \
	"pointer chase for the latency; >= 15 seeded rounds of " mb " MB windows; GB/s and the ratio to "     \
	"the sum with CIs"

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
		      { "load-to-use latency", "variant", "chase", "ns_per_load", NULL, NULL, NULL, "ns", false } },
	.typical_s = 18,
	.typical_quick_s = 4,
	.verdict = ceiling_verdict,
	.essay = { "one worker capped at 17 GB/s, the cause left open", NULL },
	.terms = WTG_TERMS("corebound", "membound", "simd", "hugepage", "tlb", "prefetch", "chase", "mlp", "gbps",
			   "ci"),
	.alternates = true,
	.run = ceiling_run,
	.plan = ceiling_plan,
};
