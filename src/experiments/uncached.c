/* uncached.c: What does the storage path cost?
 *
 * The file is read around the page cache: with O_DIRECT where the filesystem accepts it, buffers,
 * offsets and lengths aligned to what statx(STATX_DIOALIGN) reports (at least 4096); elsewhere with
 * buffered reads after evicting the file before each pass, and the rows say which mechanism ran.
 * Sequential passes with buffers of 4 KiB .. 16 MiB (x4 steps, x16 with --quick), every pass's sum checked against the known
 * prefix sum, and random 16 KiB reads at seeded offsets aligned to the read size, each one timed,
 * whose latency distribution is the storage path's per-request cost. All eight are variants of the
 * rounds engine: 15 samples each, in seeded random order in every round; the random reads of a
 * round are drawn without replacement.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "io.h"
#include "membuf.h"
#include "pages.h"
#include "rounds.h"
#include "why.h"
#include "wtg/ctx.h"
#include "wtg/plan.h"

#define UC_MIN_BUF (4u << 10)
#define UC_MAX_BUF (16u << 20)
#define UC_NSEQ 7		/* 4 KiB .. 16 MiB in x4 steps (the most) */
#define UC_STEP_QUICK 16	/* --quick: x16 steps, 4 KiB, 64 KiB, 1 MiB, 16 MiB */
#define UC_RAND_LEN (16u << 10)
#define UC_RANDOM 20000		/* random reads in all, spread over the rounds */
#define UC_QUICK_RANDOM 2000
#define UC_MAX_CALLS 256	/* per sequential sample: small buffers read a prefix of the file */
#define UC_QUICK_MAX_CALLS 128
#define UC_CAP (16ull << 20)	/* and at most this many bytes (at least one buffer) */
#define UC_QUICK_CAP (8ull << 20)
#define UC_CHECK_NS 50000000	/* cancel checks at least every 50 ms */
#define UC_MAX_PASSES 64	/* a sequential sample repeats a short pass at most this many times */

enum uc_mech { UC_DIRECT = 0, UC_EVICTING };

static const char *const uc_mech_name[] = { "direct", "evicting" };

struct uc {
	struct wtg_ctx *ctx;
	enum uc_mech mech;
	int fd;			/* O_DIRECT, or plain for the evicting fallback */
	unsigned align;
	unsigned char *buf;	/* UC_MAX_BUF bytes on a 2 MiB boundary, asked for huge pages */
	int64_t huge;		/* bytes of it in huge pages after the first touch, -1 unknown */
	double *lat;		/* per-call latency of the sample being measured, us */
	size_t nlat;
	int64_t last_check;
	/* the variants: UC_NSEQ sequential buffer sizes, then the random reads */
	size_t seq_buf[UC_NSEQ];
	uint64_t seq_bytes[UC_NSEQ];	/* per pass */
	int seq_passes[UC_NSEQ];	/* passes a sample makes: 1 until the warm-up sample sizes them */
	size_t lat_cap;			/* latencies lat holds */
	double *all[UC_NSEQ + 1];	/* every timed call's latency per variant, time order */
	size_t nall[UC_NSEQ + 1];
	int64_t sum[UC_NSEQ + 1];	/* the latest sample's sum (sequential), all rounds' (random) */
	int nseq;			/* sequential sizes this run: variant nseq is the random reads */
	/* random: per round, offsets aligned to the read size, without replacement within the round */
	uint64_t *offs;
	size_t round_at[WTG_ROUNDS_MIN + 1];	/* round r reads offs[round_at[r] .. round_at[r + 1]) */
	size_t nrand;
	int64_t ref_sum;		/* the same ranges through the page cache, checked per sample */
	uint64_t cpus;			/* the CPUs the timed samples ran on (first 64) */
	cpu_set_t affinity;		/* the reading thread's own, while it is kept on pin_cpu */
	int pin_cpu;			/* the CPU taking the device's completions, or -1 (uc_place) */
	char place[256];		/* what uc_place found, for the note */
	uint64_t irq0[64];		/* device interrupts per CPU before the rounds (wtg_io_irqs) */
	bool have_irq;
};

/* One timed read of len bytes at off into dst, retrying short buffered reads. Returns bytes or -1
 * (errno). */
static ssize_t uc_read_into(struct uc *u, unsigned char *dst, size_t len, uint64_t off, double *us)
{
	size_t done = 0;
	int64_t t0 = wtg_now_ns();
	while (done < len) {
		ssize_t r = pread(u->fd, dst + done, len - done, (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		done += (size_t)r;
		if (u->mech == UC_DIRECT && done < len) {
			errno = EIO; /* a short direct read inside the file: the next offset would not be
					aligned */
			return -1;
		}
	}
	*us = (double)(wtg_now_ns() - t0) / 1e3;
	return (ssize_t)done;
}

static bool uc_cancelled(struct uc *u)
{
	int64_t now = wtg_now_ns();
	if (now - u->last_check < UC_CHECK_NS)
		return false;
	u->last_check = now;
	return wtg_ctx_cancelled(u->ctx);
}

/* Before each pass: the fallback drops the file from the page cache. */
static void uc_before_pass(struct uc *u)
{
	if (u->mech == UC_EVICTING)
		wtg_datafile_evict(u->ctx->df);
}

struct uc_stats {
	double median, p90, p99, max, mean, ci_low, ci_high;
	bool have_ci;
};

/* Quantiles of n latencies; the bootstrap CI only when asked (it resamples n values 5000 times).
 * Returns 0 or -1 (out of memory or no samples). */
static int uc_stats(struct uc *u, const double *lat, size_t n, bool ci, struct uc_stats *s)
{
	memset(s, 0, sizeof *s);
	if (n == 0)
		return -1;
	if (ci) {
		struct wtg_summary sm;
		if (wtg_summarize(lat, n, wtg_ctx_seed(u->ctx, 0), &sm) < 0)
			return -1;
		*s = (struct uc_stats){ sm.median, sm.p90,    sm.p99,	  sm.max,
					sm.mean,   sm.ci_low, sm.ci_high, true };
		return 0;
	}
	double *c = malloc(n * sizeof *c);
	if (!c)
		return -1;
	memcpy(c, lat, n * sizeof *c);
	wtg_sort(c, n);
	s->median = wtg_quantile_sorted(c, n, 0.5);
	s->p90 = wtg_quantile_sorted(c, n, 0.9);
	s->p99 = wtg_quantile_sorted(c, n, 0.99);
	s->max = c[n - 1];
	s->mean = wtg_mean(c, n);
	free(c);
	return 0;
}

/* Write the n bytes at p back out of this CPU's caches. The sum reads every byte a direct read
 * brought, which leaves the buffer's lines in the cache; the next read's DMA (on a virtual machine,
 * the host's copy into guest memory) then has to take those lines back first, and a 64 KiB read took
 * ~3.5 us (4%) longer here than one into a buffer nothing had touched. Flushed, its lines are in
 * memory, still not where a loop that never looks at its bytes (fio's) leaves them. Untimed. x86:
 * clflush; AArch64: dc civac; elsewhere nothing (UC_CAN_FLUSH false). */
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
#define UC_CAN_FLUSH true
#else
#define UC_CAN_FLUSH false
#endif
static void uc_flush(const unsigned char *p, size_t n)
{
#if defined(__x86_64__) || defined(__i386__)
	for (size_t i = 0; i < n; i += 64)
		__builtin_ia32_clflush(p + i);
	__builtin_ia32_mfence();
#elif defined(__aarch64__)
	for (size_t i = 0; i < n; i += 64)
		__asm__ volatile("dc civac, %0" ::"r"(p + i) : "memory");
	__asm__ volatile("dsb ish" ::: "memory");
#else
	(void)p;
	(void)n;
#endif
}

/* One read of a timed pass into dst: its latency goes to u->lat; with sum, its bytes' sum to *sum
 * (the buffer then flushed from the cache, uc_flush); then the cancel check. Returns WTG_OK,
 * WTG_CANCELLED, or WTG_ERR after wtg_table_fail (naming the pass's kind). */
static int uc_pass_read(struct uc *u, unsigned char *dst, size_t len, uint64_t off, bool random, int64_t *sum)
{
	double us;
	ssize_t r = uc_read_into(u, dst, len, off, &us);
	if (r != (ssize_t)len) {
		const char *why = r < 0 ? strerror(errno) : "end of file too early";
		if (random)
			wtg_table_fail(u->ctx->t, "%s random read at offset %llu: %s", uc_mech_name[u->mech],
				       (unsigned long long)off, why);
		else
			wtg_table_fail(u->ctx->t, "%s read of %zu bytes at offset %llu: %s",
				       uc_mech_name[u->mech], len, (unsigned long long)off, why);
		return WTG_ERR;
	}
	u->lat[u->nlat++] = us;
	if (sum) {
		*sum += wtg_sum_bytes(dst, len);
		if (u->mech == UC_DIRECT)
			uc_flush(dst, len);
	}
	return uc_cancelled(u) ? WTG_CANCELLED : WTG_OK;
}

/* Sequential pass over the first `bytes` bytes with reads of bufsize, its sum checked against the
 * known prefix sum (silently when right). WTG_OK, WTG_CANCELLED or WTG_ERR. */
static int uc_sequential(struct uc *u, int v, int passes, struct wtg_probe_result *pr)
{
	struct wtg_ctx *ctx = u->ctx;
	size_t bufsize = u->seq_buf[v];
	uint64_t bytes = u->seq_bytes[v];
	const int64_t known = wtg_datafile_prefix_sum(ctx->df, bytes);
	char what[64], size[16];
	wtg_fmt_size(size, sizeof size, bufsize);
	snprintf(what, sizeof what, "sequential %s, first %llu bytes", size, (unsigned long long)bytes);
	struct wtg_probe pb;
	int rc = WTG_OK;
	/* direct: each read lands in its own slice of the buffer (a pass is at most UC_MAX_BUF) and
	 * the reads follow one another with nothing between them, as fio's do; the pass is summed
	 * after its last read. A sum between the calls costs the next read: on a loaded machine the
	 * thread that used the CPU waits longer for it when its read completes */
	const bool slices = u->mech == UC_DIRECT && bytes <= UC_MAX_BUF;
	wtg_probe_begin(&pb);
	/* every pass starts cold (uc_before_pass) and its sum is checked; the figure counts the time
	 * inside the read calls alone, so what lies between the passes stays out of it */
	for (int k = 0; k < passes && rc == WTG_OK; k++) {
		uc_before_pass(u);
		int64_t sum = 0;
		for (uint64_t off = 0; off < bytes && rc == WTG_OK;) {
			size_t len = bytes - off < bufsize ? (size_t)(bytes - off) : bufsize;
			rc = uc_pass_read(u, slices ? u->buf + off : u->buf, len, off, false, slices ? NULL : &sum);
			off += len;
		}
		if (rc == WTG_OK && slices) {	/* the pass's bytes lie in buf[0, bytes) */
			sum = wtg_sum_bytes(u->buf, (size_t)bytes);
			uc_flush(u->buf, (size_t)bytes);
		}
		if (rc == WTG_OK && !wtg_check_sum_quiet(ctx, what, sum, known))
			rc = WTG_ERR;
		u->sum[v] = sum;
	}
	wtg_probe_end(&pb, pr);
	return rc;
}

/* The warm-up sample of sequential variant v sizes the later ones: passes enough to span at least
 * WTG_SAMPLE_MIN_MS (wtg_rounds_sample_bytes), and room for their latencies. */
static int uc_size_passes(struct uc *u, int v, const struct wtg_probe_result *res)
{
	uint64_t pass = u->seq_bytes[v];
	if (pass == 0)
		return WTG_OK;
	uint64_t want = wtg_rounds_sample_bytes(pass, wtg_rounds_warmup_ms(res), pass, pass * UC_MAX_PASSES);
	int passes = (int)(want / pass);
	if (passes <= u->seq_passes[v])
		return WTG_OK;
	size_t calls = (size_t)((pass + u->seq_buf[v] - 1) / u->seq_buf[v]) * (size_t)passes;
	double *all = realloc(u->all[v], WTG_ROUNDS_MIN * calls * sizeof(double) + 1);
	if (all)
		u->all[v] = all;
	double *lat = u->lat;
	if (calls > u->lat_cap && (lat = realloc(u->lat, calls * sizeof(double) + 1)) != NULL) {
		u->lat = lat;
		u->lat_cap = calls;
	}
	if (!all || !lat) {
		wtg_table_fail(u->ctx->t, "out of memory for the latencies of %d passes", passes);
		return WTG_ERR;
	}
	u->seq_passes[v] = passes;
	return WTG_OK;
}

/* The reference for random reads: the same ranges through the page cache, outside any timing, then
 * the file evicted again so the cache shows only what the timed reads left. Returns the sum, or -1
 * after wtg_table_fail. */
static int64_t uc_reference(struct uc *u, const uint64_t *offs, size_t n)
{
	struct wtg_ctx *ctx = u->ctx;
	int fd = open(ctx->df->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		wtg_table_fail(ctx->t, "cannot open the data file for the reference reads");
		return -1;
	}
	int saved = u->fd;
	enum uc_mech m = u->mech;
	u->fd = fd;
	u->mech = UC_EVICTING;	/* plain buffered reads */
	int64_t ref = 0;
	for (size_t i = 0; i < n && ref >= 0; i++) {
		double us;
		if (uc_read_into(u, u->buf, UC_RAND_LEN, offs[i], &us) != (ssize_t)UC_RAND_LEN) {
			wtg_table_fail(ctx->t, "reference read at offset %llu failed", (unsigned long long)offs[i]);
			ref = -1;
		} else {
			ref += wtg_sum_bytes(u->buf, UC_RAND_LEN);
		}
	}
	u->fd = saved;
	u->mech = m;
	close(fd);
	wtg_datafile_evict(ctx->df);
	return ref;
}

/* n random reads at the given offsets, each timed; their sum must equal the reference's. */
static int uc_random(struct uc *u, const uint64_t *offs, size_t n, bool timed, struct wtg_probe_result *pr)
{
	uc_before_pass(u);
	/* the fallback must not let readahead serve later random reads from the cache */
	if (u->mech == UC_EVICTING)
		(void)posix_fadvise(u->fd, 0, 0, POSIX_FADV_RANDOM);
	int64_t sum = 0;
	struct wtg_probe pb;
	int rc = WTG_OK;
	wtg_probe_begin(&pb);
	for (size_t i = 0; i < n && rc == WTG_OK; i++)
		rc = uc_pass_read(u, u->buf, UC_RAND_LEN, offs[i], true, &sum);
	wtg_probe_end(&pb, pr);
	if (rc != WTG_OK)
		return rc;
	int64_t ref = uc_reference(u, offs, n);
	if (ref < 0)
		return WTG_ERR;
	if (ref != sum) {
		wtg_table_check(u->ctx->t, "sum", false, "%zu random %s reads: sum %lld != %lld, the same ranges "
				"read through the page cache", n, uc_mech_name[u->mech], (long long)sum, (long long)ref);
		wtg_table_fail(u->ctx->t, "random reads: sum %lld differs from the page cache's %lld",
			       (long long)sum, (long long)ref);
		return WTG_ERR;
	}
	if (timed) {
		u->sum[u->nseq] += sum;
		u->ref_sum += ref;
	}
	return WTG_OK;
}

/* The rounds engine's sample: variant v < nseq a sequential pass, nseq the round's random
 * reads (the warm-up reuses round 1's offsets). Timed calls' latencies join the variant's. */
static int uc_sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	struct uc *u = arg;
	u->nlat = 0;
	u->last_check = wtg_now_ns();
	uint64_t bytes;
	int rc;
	if (v < u->nseq) {
		/* the warm-up after the others' turns: one pass */
		const int passes = round == WTG_ROUND_RETURN ? 1 : u->seq_passes[v];
		bytes = u->seq_bytes[v] * (uint64_t)passes;
		rc = uc_sequential(u, v, passes, &out->res);
		if (rc == WTG_OK && round == WTG_ROUND_WARMUP)
			rc = uc_size_passes(u, v, &out->res);
	} else {
		int r = round < 0 ? 0 : round;
		size_t n = u->round_at[r + 1] - u->round_at[r];
		bytes = n * UC_RAND_LEN;
		rc = uc_random(u, u->offs + u->round_at[r], n, round >= 0, &out->res);
	}
	if (rc != WTG_OK)
		return rc;
	if (round >= 0) {
		memcpy(u->all[v] + u->nall[v], u->lat, u->nlat * sizeof *u->lat);
		u->nall[v] += u->nlat;
		u->cpus |= out->res.cpus_seen;
	}
	(void)ctx;
	/* bytes over the time inside the read calls: the sum taken between calls (the check) stays
	 * out of the figure, as fio and a bare pread loop time nothing but their reads */
	double us = 0;
	for (size_t i = 0; i < u->nlat; i++)
		us += u->lat[i];
	out->figure = us > 0 ? (double)bytes / (us * 1e3) : 0;
	return WTG_OK;
}

/* The rounds start again (a key changed the conditions): the dropped samples' latencies go too. */
static void uc_restart(void *arg)
{
	struct uc *u = arg;
	memset(u->nall, 0, sizeof u->nall);
}

static void uc_label(const void *arg, int v, char *buf, size_t len)
{
	const struct uc *u = arg;
	char size[16];
	if (v == u->nseq) {
		snprintf(buf, len, "random 16K reads");
		return;
	}
	wtg_fmt_size(size, sizeof size, u->seq_buf[v]);
	snprintf(buf, len, "sequential %s", size);
}

/* A row: throughput from the rounds, latencies from every timed call (the random row's CI once the
 * rounds are done). */
static int uc_rowvals(struct wtg_ctx *ctx, void *arg, int v, const struct wtg_rounds_result *r,
		      struct wtg_value *vals)
{
	struct uc *u = arg;
	bool rnd = v == u->nseq;
	struct uc_stats s;
	uc_stats(u, u->all[v], u->nall[v], rnd && (int)r->n >= WTG_ROUNDS_MIN, &s);
	size_t bufsize = rnd ? UC_RAND_LEN : u->seq_buf[v];
	int64_t calls = rnd ? (int64_t)u->nall[v] : (int64_t)((u->seq_bytes[v] + bufsize - 1) / bufsize);
	int64_t bytes = rnd ? calls * (int64_t)UC_RAND_LEN : (int64_t)u->seq_bytes[v];
	int n = 0;
	vals[n++] = WTG_TEXT(rnd ? "random" : "sequential");
	vals[n++] = WTG_INT(bufsize);
	vals[n++] = WTG_REAL(r->s.median);
	vals[n++] = WTG_REAL(s.median);
	vals[n++] = WTG_REAL(s.p99);
	n += wtg_rounds_values_after(vals + n, r);
	vals[n++] = WTG_TEXT(uc_mech_name[u->mech]);
	vals[n++] = WTG_INT(calls);
	vals[n++] = WTG_INT(bytes);
	vals[n++] = WTG_REAL(r->s.median > 0 ? (double)bytes / (r->s.median * 1e6) : 0);
	vals[n++] = WTG_INT(u->sum[v]);
	vals[n++] = WTG_REAL(s.mean);
	vals[n++] = WTG_REAL(s.p90);
	vals[n++] = WTG_REAL(s.max);
	vals[n++] = s.have_ci ? WTG_REAL(s.ci_low) : WTG_NA;
	vals[n++] = s.have_ci ? WTG_REAL(s.ci_high) : WTG_NA;
	(void)ctx;
	return n;
}

extern const struct wtg_experiment wtg_exp_uncached;

static const struct wtg_column cols[] = {
	{ "mode", "", WTG_T_TEXT, 0 },
	{ "bufsize", "B", WTG_T_INT, 0 },
	{ "gbps", "GB/s", WTG_T_REAL, 3 },
	{ "median_us", "us", WTG_T_REAL, 1 },
	{ "p99_us", "us", WTG_T_REAL, 1 },
	WTG_ROUNDS_AFTER("gbps", "GB/s", 3),
	{ "mechanism", "", WTG_T_TEXT, 0 },
	{ "read_calls", "count", WTG_T_INT, 0 },
	{ "bytes", "B", WTG_T_INT, 0 },
	{ "ms", "ms", WTG_T_REAL, 2 },
	{ "sum", "", WTG_T_INT, 0 },
	{ "mean_us", "us", WTG_T_REAL, 1 },
	{ "p90_us", "us", WTG_T_REAL, 1 },
	{ "max_us", "us", WTG_T_REAL, 1 },
	{ "ci_low_us", "us", WTG_T_REAL, 1 },
	{ "ci_high_us", "us", WTG_T_REAL, 1 },
};

/* The random offsets: round r reads nrand / R of them (one more in the first nrand % R rounds, at
 * most one per slot), drawn without replacement within the round by a partial Fisher-Yates shuffle
 * of the slot numbers; a slot is the read size (or the O_DIRECT alignment when larger). */
static int uc_draw(struct uc *u, uint64_t usable, size_t nrand, uint64_t slot)
{
	uint64_t slots = usable / slot;
	if (slots > (1u << 24))
		slots = 1u << 24;
	uint32_t *perm = malloc((size_t)slots * sizeof *perm);
	u->offs = malloc(nrand * sizeof *u->offs);
	if (!perm || !u->offs) {
		free(perm);
		return WTG_ERR;
	}
	for (uint64_t i = 0; i < slots; i++)
		perm[i] = (uint32_t)i;
	size_t k = 0;
	for (int r = 0; r < WTG_ROUNDS_MIN; r++) {
		size_t cnt = nrand / WTG_ROUNDS_MIN + ((size_t)r < nrand % WTG_ROUNDS_MIN ? 1 : 0);
		if (cnt > slots)
			cnt = (size_t)slots;
		u->round_at[r] = k;
		for (size_t i = 0; i < cnt; i++) {
			uint64_t j = i + wtg_rng_below(&u->ctx->rng, slots - i);
			uint32_t t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
			u->offs[k++] = (uint64_t)perm[i] * slot;
		}
	}
	u->round_at[WTG_ROUNDS_MIN] = k;
	u->nrand = k;
	free(perm);
	return WTG_OK;
}

/* The sequential rows' buffers (4 KiB .. 16 MiB in x4 steps, x16 with --quick) and the bytes a
 * sample of each reads of usable bytes. Returns their count. */
static int uc_seq_sizes(uint64_t usable, bool quick, size_t *buf, uint64_t *seq_bytes)
{
	uint64_t max_calls = quick ? UC_QUICK_MAX_CALLS : UC_MAX_CALLS;
	uint64_t cap = quick ? UC_QUICK_CAP : UC_CAP;
	int v = 0;
	for (size_t b = UC_MIN_BUF; b <= UC_MAX_BUF && v < UC_NSEQ; b *= quick ? UC_STEP_QUICK : 4, v++) {
		uint64_t bytes = usable;
		/* ceil: a short last read is a call too */
		if ((bytes + b - 1) / b > max_calls)
			bytes = (uint64_t)b * max_calls; /* b divides 64 KiB or is a multiple of it */
		if (bytes > cap)	/* at least one buffer, never past the file */
			bytes = cap >= b ? cap / b * b : b < usable ? b : usable;
		buf[v] = b;
		seq_bytes[v] = bytes / WTG_CHUNK * WTG_CHUNK;
	}
	return v;
}

static int uc_plan(struct uc *u, uint64_t usable, bool quick)
{
	size_t most = 0;
	u->nseq = uc_seq_sizes(usable, quick, u->seq_buf, u->seq_bytes);
	for (int v = 0; v < u->nseq; v++) {
		size_t b = u->seq_buf[v];
		size_t calls = (size_t)((u->seq_bytes[v] + b - 1) / b);
		most = calls > most ? calls : most;
		u->seq_passes[v] = 1;
		if (!(u->all[v] = malloc(WTG_ROUNDS_MIN * calls * sizeof(double) + 1)))
			return WTG_ERR;
	}
	uint64_t slot = u->align > UC_RAND_LEN ? u->align : UC_RAND_LEN;
	if (uc_draw(u, usable, quick ? UC_QUICK_RANDOM : UC_RANDOM, slot) != WTG_OK)
		return WTG_ERR;
	size_t per = u->round_at[1] - u->round_at[0];
	most = per > most ? per : most;
	u->all[u->nseq] = malloc(u->nrand * sizeof(double) + 1);
	u->lat = malloc(most * sizeof(double) + 1);
	u->lat_cap = most;
	return u->all[u->nseq] && u->lat ? WTG_OK : WTG_ERR;
}

/* The checks of every row once the rounds are done, and the random reads' samples as a series. */
static void uc_checks(struct uc *u, const struct wtg_rounds *r)
{
	struct wtg_ctx *ctx = u->ctx;
	for (int v = 0; v < r->nvariants; v++) {
		char name[48];
		uc_label(u, v, name, sizeof name);
		if (v < u->nseq)
			wtg_check_sums_row(ctx, name, (int)r->v[v].n, u->sum[v] * (int64_t)r->v[v].n);
		wtg_rounds_checks(ctx, name, "GB/s", &r->v[v]);
	}
	wtg_table_check(ctx->t, "sum", true,
			"%zu random %s reads in %d rounds: each round's sum equals that of the same ranges "
			"read through the page cache; %lld = %lld in all",
			u->nrand, uc_mech_name[u->mech], r->rounds, (long long)u->sum[u->nseq],
			(long long)u->ref_sum);
	wtg_table_add_series(ctx->t, "random 16 KiB reads", "us", u->all[u->nseq], u->nall[u->nseq]);
	struct uc_stats s;
	if (uc_stats(u, u->all[u->nseq], u->nall[u->nseq], true, &s) < 0)
		return;
	bool ordered = s.median <= s.p90 && s.p90 <= s.p99 && s.p99 <= s.max && s.ci_low <= s.median &&
		       s.median <= s.ci_high;
	wtg_table_check(
		ctx->t, "quantiles", ordered,
		"random reads: median <= p90 <= p99 <= max, CI [%.1f, %.1f] us holds the median %.1f us",
		s.ci_low, s.ci_high, s.median);
}

/* Keep the reading thread beside the device's completions for the rounds. A direct read sleeps
 * until its interrupt; woken on another CPU it waits for a cross-CPU wakeup, 10-30 us of a 90 us
 * 64 KiB read on this kind of virtual machine, and where the scheduler leaves a thread of a busy
 * process changes from run to run (a bare single-threaded pread loop sat beside its completions
 * 79 times of 79 here). 64 untimed 64 KiB reads find the CPU taking 90% or more of the device
 * interrupts; the thread is pinned there if its affinity allows, and uc_unplace restores it. */
static void uc_place(struct uc *u, uint64_t usable)
{
	enum { PROBE_READS = 64 };
	uint64_t a[64], b[64], total, top;
	u->pin_cpu = -1;
	if (u->mech != UC_DIRECT || wtg_datafile_in_memory(u->ctx->df))
		return;
	if (!wtg_io_irqs(a)) {
		snprintf(u->place, sizeof u->place, "/proc/interrupts unreadable: the reading thread ran "
			 "where the scheduler put it");
		return;
	}
	for (int i = 0; i < PROBE_READS; i++) {
		double us;
		if (uc_read_into(u, u->buf, WTG_CHUNK, (uint64_t)i * WTG_CHUNK % usable, &us) != (ssize_t)WTG_CHUNK)
			return;	/* the timed reads will say what failed */
	}
	if (!wtg_io_irqs(b))
		return;
	int at = wtg_io_irq_top(a, b, &top, &total);
	if (at < 0 || total < PROBE_READS / 2 || top * 10 < total * 9) {
		snprintf(u->place, sizeof u->place, "no one CPU took 90%% of the device interrupts in %d "
			 "untimed reads (%llu of %llu): the reading thread ran where the scheduler put it",
			 PROBE_READS, (unsigned long long)top, (unsigned long long)total);
		return;
	}
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(at, &one);
	if (pthread_getaffinity_np(pthread_self(), sizeof u->affinity, &u->affinity) != 0 ||
	    !CPU_ISSET(at, &u->affinity) || pthread_setaffinity_np(pthread_self(), sizeof one, &one) != 0) {
		snprintf(u->place, sizeof u->place, "CPU %d takes the device interrupts, outside the CPUs "
			 "wtg may use: the reading thread ran where the scheduler put it", at);
		return;
	}
	u->pin_cpu = at;
	snprintf(u->place, sizeof u->place, "the reading thread was kept on CPU %d for the rounds, which "
		 "took %llu of the %llu device interrupts of %d untimed reads (its affinity restored after)",
		 at, (unsigned long long)top, (unsigned long long)total, PROBE_READS);
}

static void uc_unplace(struct uc *u)
{
	if (u->pin_cpu >= 0)
		(void)pthread_setaffinity_np(pthread_self(), sizeof u->affinity, &u->affinity);
	u->pin_cpu = -1;
}

/* Where the device's completions were taken, beside where the reading thread ran: a read that
 * completes on another CPU than the one waiting for it pays a cross-CPU wakeup (on this kind of
 * virtual machine 10-30 us of a 90 us 64 KiB read). */
static void uc_irq_note(struct uc *u)
{
	uint64_t now[64], total, top;
	if (!u->have_irq || wtg_datafile_in_memory(u->ctx->df) || !wtg_io_irqs(now))
		return;	/* a file in memory has no device behind it */
	int at = wtg_io_irq_top(u->irq0, now, &top, &total);
	if (at < 0)
		return;
	char cpus[64], n[32], all[32];
	wtg_probe_cpus_str(u->cpus, cpus, sizeof cpus);
	wtg_fmt_thousands(n, sizeof n, (long long)top);
	wtg_fmt_thousands(all, sizeof all, (long long)total);
	bool elsewhere = (u->cpus & ~(1ull << at)) != 0;
	char hint[160] = "";
	if (elsewhere)
		snprintf(hint, sizeof hint,
			 ". A read that completes on another CPU than the one waiting for it adds a "
			 "cross-CPU wakeup: taskset -c %d keeps wtg beside the completions",
			 at);
	wtg_table_note(u->ctx->t,
		       "device interrupts during the rounds (the numbered lines of /proc/interrupts): CPU %d "
		       "took %s of %s (%.0f%%); the timed reads ran on CPU%s %s%s",
		       at, n, all, 100.0 * (double)top / (double)total, (u->cpus & (u->cpus - 1)) ? "s" : "",
		       cpus, hint);
}

/* What backs the read buffer. A direct read's destination goes to the device as a list of
 * physically contiguous pieces: in 4 KiB pages a 64 KiB read is up to 16 of them, in one 2 MiB
 * page one. Here a 64 KiB read into huge pages ran ~20% faster than into 4 KiB pages (fio's default
 * malloc buffer; its --iomem=shmhuge matches), so the note says which the rows had. */
static void uc_buffer_note(struct uc *u)
{
	char huge[80];
	wtg_huge_phrase(u->ctx, huge, sizeof huge, u->huge, UC_MAX_BUF);
	wtg_table_note(u->ctx->t, "read buffer: on a 2 MiB boundary asked for transparent huge pages, %s: %s",
		       huge,
		       u->huge < 0 ? "/proc/self/smaps unreadable"
		       : u->huge >= (int64_t)UC_MAX_BUF
			       ? "every read's destination is physically contiguous, one piece for the device "
				 "(into 4 KiB pages a 64 KiB read is up to 16 pieces, and slower)"
			       : "a read into 4 KiB pages hands the device one piece per page, up to 16 for "
				 "64 KiB");
}

static void uc_notes(struct uc *u, const struct wtg_rounds *r, int64_t res0, int64_t res1, bool quick)
{
	struct wtg_ctx *ctx = u->ctx;
	const struct wtg_datafile *df = ctx->df;
	int64_t pages = wtg_pages_of(df->size, wtg_page_size());
	if (quick)
		wtg_table_note(ctx->t, "--quick: sequential buffers 4 KiB .. 16 MiB in x%d steps (x4 without it)",
			       UC_STEP_QUICK);
	if (u->mech == UC_DIRECT)
		wtg_table_note(ctx->t,
			       "mechanism: O_DIRECT; buffers, offsets and lengths aligned to %u B (statx "
			       "STATX_DIOALIGN or the 512 B default: memory %u, offset %u; at least 4096)",
			       u->align, df->dio_mem_align, df->dio_offset_align);
	else
		wtg_table_note(
			ctx->t,
			"mechanism: evicting; O_DIRECT does not work on this %s file, so every sample "
			"starts with posix_fadvise(POSIX_FADV_DONTNEED) and reads through the page cache",
			df->fs);
	if (u->mech == UC_DIRECT)	/* a buffered read copies; the buffer's pages change nothing */
		uc_buffer_note(u);
	wtg_table_note(ctx->t,
		       "page cache residency of the file (%lld pages): %lld after the first eviction, %lld "
		       "after the rounds%s",
		       (long long)pages, (long long)res0, (long long)res1,
		       u->mech == UC_DIRECT && res1 <= res0 && res0 * 10 <= pages && strcmp(df->fs, "tmpfs") != 0
			       ? ": the direct reads went around the cache"
			       : "");
	char cap[16], size[16], passes[128] = "";
	for (int v = 0, at = 0; v < u->nseq && at >= 0 && at < (int)sizeof passes; v++) {
		wtg_fmt_size(size, sizeof size, u->seq_buf[v]);
		at += snprintf(passes + at, sizeof passes - (size_t)at, "%s%s x%d", v ? ", " : "", size,
			       u->seq_passes[v]);
	}
	wtg_fmt_size(cap, sizeof cap, quick ? UC_QUICK_CAP : UC_CAP);
	wtg_table_note(ctx->t,
		       "a sequential pass reads from offset 0 at most %llu calls and %s (at least one "
		       "buffer) in whole 64 KiB chunks; a sample repeats its pass, each one starting cold, "
		       "as often as its warm-up sample says it takes to span at least %.0f ms (passes per "
		       "sample: %s); read_calls, bytes and sum are per pass, every pass's sum checked against "
		       "the known prefix sum",
		       (unsigned long long)(quick ? UC_QUICK_MAX_CALLS : UC_MAX_CALLS), cap, WTG_SAMPLE_MIN_MS,
		       passes);
	wtg_table_note(ctx->t,
		       "random: %zu reads of 16 KiB in all, about %zu per round at seeded offsets aligned to "
		       "the read size (%u B slots), without replacement within a round; each round's sum "
		       "checked against the same ranges read through the page cache (untimed, then evicted)",
		       u->nrand, u->round_at[1] - u->round_at[0],
		       (unsigned)(u->align > UC_RAND_LEN ? u->align : UC_RAND_LEN));
	if (u->mech == UC_DIRECT)
		wtg_table_note(ctx->t, "sequential reads into the buffer's slices: read k of a pass lands at byte "
			       "k x bufsize of the 16M buffer, so a pass's calls follow one another with "
			       "nothing between them, as fio's do; the pass's bytes are summed after its last "
			       "read (untimed) and checked against the known prefix sum");
	wtg_table_note(ctx->t,
		       "gbps: the median over the samples of bytes / the sample's time inside its read "
		       "calls (each call timed; the sums stay outside, as fio times only its reads%s); ms: "
		       "bytes at that rate; median_us, p99_us: latency of one read call over "
		       "every timed call of the row; CI of the latency median (ci_low_us, ci_high_us): random "
		       "row only, its samples kept as a series (us)",
		       u->mech == UC_DIRECT && UC_CAN_FLUSH
			       ? ", and after a sum (a pass's, a random read's) the buffer is flushed from the CPU "
				 "cache, untimed, so the next direct read lands in memory no load has touched"
			       : "");
	wtg_rounds_note(ctx, r, 1);
	if (wtg_datafile_in_memory(df))
		wtg_table_note(
			ctx->t,
			"the file is on %s: its pages live in memory, so no storage device is involved",
			df->fs);
	else
		wtg_table_note(ctx->t,
			       "on a virtual machine the disk's host may cache what the guest reads: these "
			       "are the guest's storage path costs, not necessarily the physical device's");
}

static void uc_free(struct uc *u)
{
	if (u->fd >= 0)
		close(u->fd);
	wtg_huge_free(u->buf, UC_MAX_BUF);
	free(u->lat);
	free(u->offs);
	for (int v = 0; v <= UC_NSEQ; v++)
		free(u->all[v]);
}

static int uncached_run(struct wtg_ctx *ctx)
{
	wtg_experiment_columns(&wtg_exp_uncached, ctx->t);
	const struct wtg_datafile *df = ctx->df;
	bool quick = ctx->opt && ctx->opt->quick;
	struct uc u = { .ctx = ctx, .fd = -1, .pin_cpu = -1 };
	u.mech = df->direct_ok ? UC_DIRECT : UC_EVICTING;
	u.align = (unsigned)wtg_io_align(df);
	/* passes cover whole 64 KiB chunks (known prefix sums), which keeps every length aligned too */
	uint64_t usable = df->size / WTG_CHUNK * WTG_CHUNK;
	if (u.align > WTG_CHUNK || usable < UC_RAND_LEN || WTG_CHUNK % u.align) {
		wtg_table_fail(ctx->t,
			       "the data file is too small (%llu bytes) or its alignment (%u) too large for "
			       "this experiment",
			       (unsigned long long)df->size, u.align);
		return WTG_ERR;
	}
	/* seeded offsets, drawn before anything is timed */
	int rc = uc_plan(&u, usable, quick);
	if (rc == WTG_OK && !(u.buf = wtg_huge_alloc(UC_MAX_BUF)))
		rc = WTG_ERR;
	if (rc != WTG_OK) {
		wtg_table_fail(ctx->t, "out of memory");
		uc_free(&u);
		return rc;
	}
	memset(u.buf, 1, UC_MAX_BUF);	/* no pass pays the buffer's first-touch faults */
	u.huge = wtg_huge_bytes(u.buf);
	u.fd = open(df->path, O_RDONLY | O_CLOEXEC | (u.mech == UC_DIRECT ? O_DIRECT : 0));
	if (u.fd < 0) {
		wtg_table_fail(ctx->t, "cannot open the data file%s: %s",
			       u.mech == UC_DIRECT ? " with O_DIRECT" : "", strerror(errno));
		uc_free(&u);
		return WTG_ERR;
	}
	/* start from an empty cache so residency afterwards shows what each mechanism left there */
	wtg_datafile_evict(df);
	int64_t res0 = wtg_datafile_resident_pages(df);
	struct wtg_rounds r = { 0 };
	const struct wtg_rounds_spec spec = {
		.nvariants = u.nseq + 1, .rounds = WTG_ROUNDS_MIN, .warmup = 1,
		.pilot = u.nseq - 1, .unit = "GB/s",	/* windows of the largest sequential reads */
		.sample = uc_sample, .row = uc_rowvals, .arg = &u, .label = uc_label, .restart = uc_restart,
		.declare_work = true, .return_pass = "one untimed pass of every sequential row and a round's random reads",
	};
	uc_place(&u, usable);
	u.have_irq = wtg_io_irqs(u.irq0);
	rc = wtg_rounds_run(ctx, &spec, &r);
	uc_unplace(&u);
	if (rc == WTG_OK) {
		int64_t res1 = wtg_datafile_resident_pages(df);
		wtg_ctx_progress(ctx, 1, 1, "done");
		uc_checks(&u, &r);
		uc_notes(&u, &r, res0, res1, quick);
		if (u.place[0])
			wtg_table_note(ctx->t, "%s", u.place);
		uc_irq_note(&u);
	}
	wtg_rounds_free(&r);
	uc_free(&u);
	return rc;
}

/* --dry-run: the sequential buffers uc_seq_sizes gives the file, then the random reads (all of
 * them, spread over the rounds); the mechanism (O_DIRECT or evicting)
 * is known only once the file exists. */
static void uncached_plan(struct wtg_plan *p)
{
	static const char *const names[] = { "mode", "bufsize", "read_calls", "bytes" };
	const bool quick = p->opt->quick;
	const uint64_t usable = p->file_size / WTG_CHUNK * WTG_CHUNK;
	size_t buf[UC_NSEQ];
	uint64_t bytes[UC_NSEQ];
	const int nseq = uc_seq_sizes(usable, quick, buf, bytes);
	wtg_plan_columns(p, names, 4);
	for (int v = 0; v < nseq; v++) {
		const struct wtg_value row[] = { WTG_TEXT("sequential"), WTG_INT(buf[v]),
						 WTG_INT((bytes[v] + buf[v] - 1) / buf[v]), WTG_INT(bytes[v]) };
		wtg_plan_row(p, row);
	}
	/* at most one read per 16 KiB slot in a round */
	int64_t nrand = quick ? UC_QUICK_RANDOM : UC_RANDOM, most = (int64_t)(usable / UC_RAND_LEN) * WTG_ROUNDS_MIN;
	nrand = nrand < most ? nrand : most;
	const struct wtg_value row[] = { WTG_TEXT("random"), WTG_INT(UC_RAND_LEN), WTG_INT(nrand),
					 WTG_INT(nrand * UC_RAND_LEN) };
	wtg_plan_row(p, row);
	wtg_rounds_plan(p, 1);
}

static void uncached_runs(bool quick, char *buf, size_t len)
{
	snprintf(buf, len, "O_DIRECT sequential reads, buffer 4 KiB .. 16 MiB, and %d random 16 KiB reads in rounds; "
		 "latencies", quick ? UC_QUICK_RANDOM : UC_RANDOM);
}

/* "O_DIRECT: sequential tops at 1.5 GB/s (4M reads); a random 16K read = 73 us". */
static int uncached_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	int row;
	double seq = wtg_verdict_extreme(t, "mode", "sequential", "gbps", 1, &row);
	double us = wtg_verdict_value(t, "mode", "random", "median_us");
	int bc = wtg_table_col(t, "bufsize");
	char at[32] = "?";
	if (row >= 0 && bc >= 0)
		wtg_fmt_size(at, sizeof at, (uint64_t)wtg_table_num(t, row, bc));
	if (isfinite(us))
		return wtg_verdict_fmt(buf, len, isfinite(seq), "sequential tops at %.2f GB/s (%s reads); a random read = %.0f us",
				       seq, at, us);
	return wtg_verdict_fmt(buf, len, isfinite(seq), "sequential tops at %.2f GB/s (%s reads)", seq, at);
}

const struct wtg_experiment wtg_exp_uncached = {
	.name = "uncached",
	.question = "What does the storage path cost?",
	.runs = "O_DIRECT sequential reads, buffer 4 KiB .. 16 MiB, and 20000 random 16 KiB reads in rounds; latencies",
	.runs_with = uncached_runs,
	.needs_datafile = true,
	/* every timed read goes around the page cache (O_DIRECT, or the file evicted before each pass) */
	.self_conditions = WTG_COND_COLD,
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_SWEEP,
	.sweep = { .x = "bufsize", .y = { "gbps" }, .group = "mode", .xlo = 4 << 10, .xhi = 16 << 20,
		   .xtitle = "O_DIRECT read size" },
	.headline = { { "us per random 16 KiB read (median)", "mode", "random", "median_us", "ci_low_us",
			"ci_high_us", NULL, "us", false } },
	.verdict = uncached_verdict,
	.typical_s = 7,
	.typical_quick_s = 2,
	.essay = { "a random 16 KiB read 28.9 us; 16 MiB reads 8.21 GB/s", NULL, .value = 28.9,
		   .why = wtg_why_uncached },
	.terms = WTG_TERMS("odirect", "pagecache", "bufsize", "median", "p99", "ci"),
	.interleaves = true,
	.run = uncached_run,
	.plan = uncached_plan,
};
