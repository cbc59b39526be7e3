/* common.c: helpers several experiments share (reading, sums and their checks, rows, seeds, the
 * memory experiments' passes, settling). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "wtg/ctx.h"
#include "wtg/topology.h"

int wtg_read_sum(struct wtg_ctx *ctx, int fd, unsigned char *buf, size_t bufsize, uint64_t limit,
		 int64_t *sum, int64_t *bytes, int64_t *calls)
{
	int64_t s = 0, b = 0, c = 0;
	int rc = 0;
	for (;;) {
		size_t want = bufsize;
		if (limit && (uint64_t)b + want > limit)
			want = (size_t)(limit - (uint64_t)b);
		if (want == 0)
			break;
		ssize_t r = read(fd, buf, want);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			rc = -1;
			break;
		}
		if (r == 0)
			break;
		c++;
		b += r;
		s += wtg_sum_bytes(buf, (size_t)r);
		/* check for cancel every 64 calls; cheap relative to a syscall */
		if (ctx && (c & 63) == 0 && wtg_ctx_cancelled(ctx)) {
			rc = 1;
			break;
		}
	}
	*sum = s;
	*bytes = b;
	*calls = c;
	return rc;
}

void *wtg_aligned_alloc(size_t align, size_t size)
{
	void *p = NULL;
	if (posix_memalign(&p, align, size ? size : align) != 0)
		return NULL;
	return p;
}

#define HUGE_PAGE (2u << 20)

/* The mapping is the 2 MiB-aligned buffer between two inaccessible 4 KiB guard pages: a mapping
 * with other permissions beside it keeps the kernel from merging it with a neighbour, so smaps'
 * figures for it are the buffer's alone. */
#define GUARD 4096u

void *wtg_huge_alloc(size_t size)
{
	size_t len = (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	size_t all = len + 2 * (size_t)HUGE_PAGE;
	unsigned char *m = mmap(NULL, all, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	unsigned char *p = (unsigned char *)(((uintptr_t)m + GUARD + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE);
	/* keep one guard page each side, give the rest back */
	if (p - GUARD > m)
		(void)munmap(m, (size_t)(p - GUARD - m));
	if (p + len + GUARD < m + all)
		(void)munmap(p + len + GUARD, (size_t)(m + all - (p + len + GUARD)));
	if (mprotect(p, len, PROT_READ | PROT_WRITE) != 0) {
		(void)munmap(p - GUARD, len + 2 * GUARD);
		return NULL;
	}
	(void)madvise(p, len, MADV_HUGEPAGE);
	return p;
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23	/* Linux 5.14 */
#endif

/* 64 MiB a call: where the hypervisor has taken the pages back a call takes about 0.2 s, and a cancel
 * (q, a signal) is seen between calls; one call for the whole buffer held the process's mappings for
 * seconds and q with them */
#define PREFAULT_PIECE (64u << 20)

int wtg_prefault(struct wtg_ctx *ctx, void *p, size_t size)
{
	size_t len = (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	for (size_t off = 0; off < len; off += PREFAULT_PIECE) {
		if (wtg_ctx_cancelled(ctx))
			return WTG_CANCELLED;
		(void)madvise((unsigned char *)p + off, len - off < PREFAULT_PIECE ? len - off : PREFAULT_PIECE,
			      MADV_POPULATE_WRITE);
	}
	return WTG_OK;
}

void wtg_huge_free(void *p, size_t size)
{
	if (p)
		(void)munmap((unsigned char *)p - GUARD, (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE + 2 * GUARD);
}

int64_t wtg_huge_bytes(const void *p)
{
	char *text = wtg_read_text("/proc/self/smaps");
	int64_t n = text ? wtg_smaps_huge(text, (uintptr_t)p) : -1;
	free(text);
	return n;
}

bool wtg_check_sum(struct wtg_ctx *ctx, const char *what, int64_t got, int64_t want)
{
	bool ok = got == want;
	wtg_table_check(ctx->t, "sum", ok, "%s: sum %lld %s known sum %lld", what, (long long)got,
			ok ? "=" : "!=", (long long)want);
	if (!ok)
		wtg_table_fail(ctx->t, "%s: sum %lld does not equal the known sum %lld", what,
			       (long long)got, (long long)want);
	return ok;
}

bool wtg_check_sum_quiet(struct wtg_ctx *ctx, const char *what, int64_t got, int64_t want)
{
	return got == want || wtg_check_sum(ctx, what, got, want);
}

void wtg_check_sums_row(struct wtg_ctx *ctx, const char *label, int samples, int64_t total)
{
	wtg_table_check(ctx->t, "sum", true,
			"%s: each of the %d samples (and the warm-up) equals its known sum; %lld in all", label,
			samples, (long long)total);
}

double wtg_time_getpid_batch(long calls)
{
	int64_t t0 = wtg_now_ns();
	for (long i = 0; i < calls; i++)
		syscall(SYS_getpid);
	int64_t t1 = wtg_now_ns();
	return (double)(t1 - t0) / (double)calls;
}

int wtg_procs_running(void)
{
	FILE *f = fopen("/proc/stat", "re");
	if (!f)
		return -1;
	char line[256];
	int n = -1;
	while (n < 0 && fgets(line, sizeof line, f))
		if (sscanf(line, "procs_running %d", &n) != 1)
			n = -1;
	fclose(f);
	return n;
}

void wtg_others_read(struct wtg_others *o, int i)
{
	int running = i % WTG_RUNNABLE_EVERY == 0 ? wtg_procs_running() : -1;
	if (running > 0) {	/* the measuring thread is one of them */
		o->sum += running - 1;
		o->n++;
	}
}

double wtg_others_mean(const struct wtg_others *o)
{
	return o->n ? o->sum / o->n : NAN;
}

uint64_t wtg_ctx_seed(struct wtg_ctx *ctx, unsigned idx)
{
	uint64_t h = ctx->opt ? ctx->opt->seed : 1;
	for (const char *c = ctx->t->exp ? ctx->t->exp->name : ""; *c; c++)
		h = (h ^ (uint64_t)(unsigned char)*c) * 0x100000001b3ull;
	return h ^ ((uint64_t)idx * 0x9e3779b97f4a7c15ull);
}

/* ---- memory experiments (kernels, wss, threads, roofline) ---- */

void wtg_split_range(uint64_t size, int n, int i, uint64_t *off, uint64_t *len)
{
	if (n < 1)
		n = 1;
	uint64_t un = (uint64_t)n, ui = (uint64_t)i;
	uint64_t base = size / un, extra = size % un;
	*off = ui * base + (ui < extra ? ui : extra);
	*len = base + (ui < extra ? 1 : 0);
}

/* Sum of the eight bytes of w, by folding lanes: no byte-sum kernel involved. */
static int64_t word_byte_sum(uint64_t w)
{
	uint64_t pairs = (w & 0x00ff00ff00ff00ffull) + ((w >> 8) & 0x00ff00ff00ff00ffull);
	uint64_t quads = (pairs & 0x0000ffff0000ffffull) + ((pairs >> 16) & 0x0000ffff0000ffffull);
	return (int64_t)((quads & 0xffffffffull) + (quads >> 32));
}

int64_t wtg_fill_seeded(struct wtg_rng *r, unsigned char *p, size_t n)
{
	int64_t sum = 0;
	size_t i = 0;
	uint64_t block[512];
	while (i + 8 <= n) {
		size_t k = (n - i) / 8 < 512 ? (n - i) / 8 : 512;
		wtg_rng_words(r, block, k);
		memcpy(p + i, block, k * 8);
		for (size_t j = 0; j < k; j++)
			sum += word_byte_sum(block[j]);
		i += k * 8;
	}
	if (i < n) {
		uint64_t w = wtg_rng_next(r);
		for (; i < n; i++, w >>= 8) {
			p[i] = (unsigned char)w;
			sum += (int64_t)(w & 0xff);
		}
	}
	return sum;
}

int wtg_sum_passes(struct wtg_ctx *ctx, wtg_sum_fn fn, const unsigned char *buf, size_t wss, uint64_t passes,
		   int64_t *sum, struct wtg_probe_result *res)
{
	/* the repeating form keeps the accumulators in registers across passes: a small buffer is
	 * summed many passes per call, a big one in pieces; either way a cancel check per ~16 MiB */
	wtg_sum_rep_fn rep = wtg_sum_repeat_of(fn);
	uint64_t batch = wss && wss < WTG_SUM_PIECE ? WTG_SUM_PIECE / wss : 1;
	int64_t s = 0;
	struct wtg_probe p;
	wtg_probe_begin(&p);
	for (uint64_t i = 0; i < passes;) {
		uint64_t k = passes - i < batch ? passes - i : batch;
		for (size_t off = 0; off < wss; off += WTG_SUM_PIECE) {
			size_t n = wss - off < WTG_SUM_PIECE ? wss - off : WTG_SUM_PIECE;
			if (rep)
				s += rep(buf + off, n, k);
			else
				for (uint64_t j = 0; j < k; j++)
					s += fn(buf + off, n);
			if (wtg_ctx_cancelled(ctx)) {
				wtg_probe_end(&p, res);
				return WTG_CANCELLED;
			}
		}
		i += k;
	}
	wtg_probe_end(&p, res);
	*sum = s;
	return WTG_OK;
}

int wtg_sum_passes_checked(struct wtg_ctx *ctx, wtg_sum_fn fn, const unsigned char *buf, size_t wss,
			   uint64_t passes, int64_t known, const char *warm_what, const char *what,
			   struct wtg_probe_result *res)
{
	int64_t warm = fn(buf, wss);
	if (warm != known && !wtg_check_sum(ctx, warm_what, warm, known))
		return WTG_ERR;
	int64_t sum = 0;
	int rc = wtg_sum_passes(ctx, fn, buf, wss, passes, &sum, res);
	if (rc != WTG_OK)
		return rc;
	return wtg_check_sum(ctx, what, sum, known * (int64_t)passes) ? WTG_OK : WTG_ERR;
}

uint64_t wtg_span_of(uint64_t size, uint64_t cap)
{
	if (size <= cap)
		return size;
	return cap / WTG_CHUNK * WTG_CHUNK;
}

uint64_t wtg_datafile_span(const struct wtg_datafile *df, uint64_t cap)
{
	return wtg_span_of(df->size, cap);
}

double wtg_burners_settle(struct wtg_ctx *ctx, int max_ms, bool *going)
{
	int64_t t0 = wtg_now_ns(), until = t0 + (int64_t)max_ms * 1000000;
	bool g;
	while (!(g = wtg_burner_going()) && wtg_now_ns() < until) {
		if (wtg_ctx_cancelled(ctx))
			return -1;
		struct timespec ts = { 0, 100 * 1000 };
		nanosleep(&ts, NULL);
	}
	if (going)
		*going = g;
	return wtg_ctx_cancelled(ctx) ? -1 : (double)(wtg_now_ns() - t0) / 1e6;
}

int wtg_burners_start(struct wtg_ctx *ctx, int n, int settle_ms, const char *prefix)
{
	if (wtg_burner_set(n) != n) {
		wtg_table_fail(ctx->t, "%scannot start %d burners", prefix, n);
		return WTG_ERR;
	}
	return n > 0 && wtg_burners_settle(ctx, settle_ms, NULL) < 0 ? WTG_CANCELLED : WTG_OK;
}
