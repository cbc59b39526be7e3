/* common.c: helpers several experiments share. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
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

int wtg_add_distribution_row(struct wtg_ctx *ctx, const char *label, const double *samples, size_t n,
			     const struct wtg_probe_result *probe, struct wtg_summary *out)
{
	struct wtg_summary s;
	if (wtg_summarize(samples, n, wtg_ctx_seed(ctx, (unsigned)ctx->t->nrows), &s) < 0) {
		wtg_table_fail(ctx->t, "%s: no samples to summarize", label);
		return -1;
	}
	wtg_add_summary_row(ctx, label, &s, samples, n, probe, NULL, 0);
	if (out)
		*out = s;
	return 0;
}

double wtg_time_getpid_batch(long calls)
{
	int64_t t0 = wtg_now_ns();
	for (long i = 0; i < calls; i++)
		syscall(SYS_getpid);
	int64_t t1 = wtg_now_ns();
	return (double)(t1 - t0) / (double)calls;
}

uint64_t wtg_ctx_seed(struct wtg_ctx *ctx, unsigned idx)
{
	uint64_t h = ctx->opt ? ctx->opt->seed : 1;
	for (const char *c = ctx->t->exp ? ctx->t->exp->name : ""; *c; c++)
		h = (h ^ (uint64_t)(unsigned char)*c) * 0x100000001b3ull;
	return h ^ ((uint64_t)idx * 0x9e3779b97f4a7c15ull);
}

/* ---- I/O and distribution helpers (bytewise, syscall, valley, readcost, clock, passes) ---- */

void wtg_probe_accumulate(struct wtg_probe_result *a, const struct wtg_probe_result *b)
{
	wtg_probe_merge(a, b, WTG_PROBE_SEQUENTIAL);
}

int wtg_read_sum_long(struct wtg_ctx *ctx, int fd, unsigned char *buf, size_t bufsize, uint64_t limit,
		      int64_t *sum, int64_t *bytes, int64_t *calls)
{
	uint64_t seg = (8u << 20) / bufsize * bufsize;
	if (seg < bufsize)
		seg = bufsize;
	int64_t s = 0, b = 0, c = 0;
	int rc = 0;
	for (;;) {
		uint64_t want = seg;
		if (limit) {
			if ((uint64_t)b >= limit)
				break;
			if (limit - (uint64_t)b < want)
				want = limit - (uint64_t)b;
		}
		int64_t ss, bb, cc;
		rc = wtg_read_sum(ctx, fd, buf, bufsize, want, &ss, &bb, &cc);
		s += ss;
		b += bb;
		c += cc;
		if (rc || (uint64_t)bb < want)
			break;	/* error, cancel or end of file */
		if (ctx && wtg_ctx_cancelled(ctx)) {
			rc = 1;
			break;
		}
	}
	*sum = s;
	*bytes = b;
	*calls = c;
	return rc;
}

size_t wtg_io_align(const struct wtg_datafile *df)
{
	size_t a = df->dio_mem_align > df->dio_offset_align ? df->dio_mem_align : df->dio_offset_align;
	return a > 4096 ? a : 4096;
}

uint64_t wtg_io_span(const struct wtg_datafile *df, bool direct, uint64_t want)
{
	if (!direct || want % wtg_io_align(df) == 0)
		return want;
	return want / WTG_CHUNK * WTG_CHUNK;
}

double wtg_time_read1_batch(int fd, long calls, int64_t *sum)
{
	unsigned char b;
	int64_t s = 0;
	int64_t t0 = wtg_now_ns();
	for (long i = 0; i < calls; i++) {
		ssize_t r = read(fd, &b, 1);
		if (r == 1) {
			s += b;
		} else if (r < 0 && errno == EINTR) {
			i--;
		} else {
			if (r == 0)
				errno = 0;
			return -1;
		}
	}
	int64_t t1 = wtg_now_ns();
	*sum += s;
	return (double)(t1 - t0) / (double)calls;
}

int wtg_iomode_open_for(struct wtg_ctx *ctx, size_t bufsize, bool *direct)
{
	int fd = wtg_iomode_open(ctx->df, direct);
	if (fd >= 0 && *direct && bufsize < wtg_io_align(ctx->df)) {
		close(fd);
		*direct = false;
		fd = open(ctx->df->path, O_RDONLY | O_CLOEXEC);
	}
	return fd;
}

int wtg_read_pass(struct wtg_ctx *ctx, unsigned char *buf, size_t bufsize, uint64_t want, const char *what,
		  struct wtg_read_pass *out)
{
	memset(out, 0, sizeof *out);
	int fd = wtg_iomode_open_for(ctx, bufsize, &out->direct);
	if (fd < 0) {
		wtg_table_fail(ctx->t, "cannot open %s: %s", ctx->df->path, strerror(errno));
		return WTG_ERR;
	}
	out->bytes = wtg_io_span(ctx->df, out->direct, want);
	wtg_iomode_before_pass(ctx->df);
	int64_t got;
	struct wtg_probe p;
	wtg_probe_begin(&p);
	int r = wtg_read_sum_long(ctx, fd, buf, bufsize, out->bytes, &out->sum, &got, &out->calls);
	wtg_probe_end(&p, &out->res);
	int err = errno;
	close(fd);
	if (r == 1)
		return WTG_CANCELLED;
	if (r < 0 || (uint64_t)got != out->bytes) {
		wtg_table_fail(ctx->t, "%s: read %lld of %llu bytes: %s", what, (long long)got,
			       (unsigned long long)out->bytes, r < 0 ? strerror(err) : "the file is shorter");
		out->bytes = (uint64_t)got;	/* what was actually read, for whoever reports it */
		return WTG_ERR;
	}
	return WTG_OK;
}

int wtg_checked_pass(struct wtg_ctx *ctx, const char *who, size_t bufsize, uint64_t max, struct wtg_read_pass *p)
{
	const struct wtg_datafile *df = ctx->df;
	unsigned char *buf = wtg_aligned_alloc(wtg_io_align(df), bufsize);
	if (!buf) {
		wtg_table_fail(ctx->t, "%s: out of memory", who);
		return WTG_ERR;
	}
	memset(buf, 0, bufsize); /* the buffer's own faults happen here, not in the pass */
	int rc = wtg_read_pass(ctx, buf, bufsize, df->size < max ? df->size : max, who, p);
	free(buf);
	if (rc != WTG_OK)
		return rc;
	int64_t known = wtg_datafile_prefix_sum(df, p->bytes);
	if (p->sum != known) {
		wtg_table_fail(ctx->t, "%s: sum %lld of the first %llu bytes is not the known %lld", who,
			       (long long)p->sum, (unsigned long long)p->bytes, (long long)known);
		return WTG_ERR;
	}
	return WTG_OK;
}

bool wtg_check_read_calls(struct wtg_ctx *ctx, const char *label, int64_t calls, uint64_t bytes,
			  size_t bufsize)
{
	int64_t expect = (int64_t)((bytes + bufsize - 1) / bufsize);
	bool ok = calls == expect;
	wtg_table_check(ctx->t, "read_calls", ok, "%s: %lld read calls = ceil(%llu / %zu) = %lld", label,
			(long long)calls, (unsigned long long)bytes, bufsize, (long long)expect);
	return ok;
}

void wtg_add_summary_row(struct wtg_ctx *ctx, const char *label, const struct wtg_summary *s,
			 const double *samples, size_t n, const struct wtg_probe_result *probe,
			 const struct wtg_value *extra, int nextra)
{
	struct wtg_value v[WTG_MAX_COLS] = {
		WTG_TEXT(label),   WTG_INT(s->n),     WTG_REAL(s->mean),	 WTG_REAL(s->median),
		WTG_REAL(s->p90),  WTG_REAL(s->p99),  WTG_REAL(s->max),	 WTG_REAL(s->ci_low),
		WTG_REAL(s->ci_high), WTG_REAL(s->min), WTG_REAL(s->drift * 100.0),
	};
	int nv = 11;
	for (int i = 0; i < nextra && nv < WTG_MAX_COLS; i++)
		v[nv++] = extra[i];
	wtg_table_add_series(ctx->t, label, "ns", samples, n);
	wtg_table_add_row(ctx->t, v, nv, probe);
	bool ordered = s->min <= s->median && s->median <= s->p90 && s->p90 <= s->p99 && s->p99 <= s->max;
	bool inside = s->ci_low <= s->median && s->median <= s->ci_high;
	wtg_table_check(ctx->t, "quantiles", ordered && inside,
			"%s: min <= median <= p90 <= p99 <= max, CI [%.1f, %.1f] holds the median %.1f",
			label, s->ci_low, s->ci_high, s->median);
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
	for (; i + 8 <= n; i += 8) {
		uint64_t w = wtg_rng_next(r);
		memcpy(p + i, &w, 8);
		sum += word_byte_sum(w);
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

#define SUM_PIECE (16u << 20)

int wtg_sum_passes(struct wtg_ctx *ctx, wtg_sum_fn fn, const unsigned char *buf, size_t wss, uint64_t passes,
		   int64_t *sum, struct wtg_probe_result *res)
{
	/* the repeating form keeps the accumulators in registers across passes: a small buffer is
	 * summed many passes per call, a big one in pieces; either way a cancel check per ~16 MiB */
	wtg_sum_rep_fn rep = wtg_sum_repeat_of(fn);
	uint64_t batch = wss && wss < SUM_PIECE ? SUM_PIECE / wss : 1;
	int64_t s = 0;
	struct wtg_probe p;
	wtg_probe_begin(&p);
	for (uint64_t i = 0; i < passes;) {
		uint64_t k = passes - i < batch ? passes - i : batch;
		for (size_t off = 0; off < wss; off += SUM_PIECE) {
			size_t n = wss - off < SUM_PIECE ? wss - off : SUM_PIECE;
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

struct touch_job {
	const unsigned char *p;
	uint64_t bytes, page, touch;
};

static void touch_pages(void *arg)
{
	struct touch_job *j = arg;
	for (uint64_t off = 0; off < j->bytes; off += j->page)
		j->touch += j->p[off];
}

unsigned char *wtg_map_prefaulted(struct wtg_ctx *ctx, uint64_t bytes)
{
	int fd = open(ctx->df->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		wtg_table_fail(ctx->t, "cannot open the data file %s: %s", ctx->df->path, strerror(errno));
		return NULL;
	}
	void *m = mmap(NULL, bytes, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
	int err = errno;
	close(fd);
	if (m == MAP_FAILED) {
		wtg_table_fail(ctx->t, "cannot map %llu bytes of the data file: %s",
			       (unsigned long long)bytes, strerror(err));
		return NULL;
	}
	/* MAP_POPULATE is best effort: read one byte per page so every page is really present */
	struct touch_job j = { .p = m, .bytes = bytes, .page = (uint64_t)wtg_page_size() };
	if (wtg_guard_call(touch_pages, &j) < 0) {
		munmap(m, bytes);
		wtg_table_fail(ctx->t, "%s", WTG_GUARD_SHRANK);
		return NULL;
	}
	wtg_sink += j.touch;
	wtg_test_shrink(ctx);
	return m;
}

void wtg_test_shrink(struct wtg_ctx *ctx)
{
	static atomic_bool done;
	const char *want = getenv("WTG_TEST_SHRINK");
	if (!want || strcmp(want, ctx->t->exp->name) != 0 || !ctx->df->owned || atomic_exchange(&done, true))
		return;
	if (truncate(ctx->df->path, (off_t)(ctx->df->size / 2)) < 0)
		atomic_store(&done, false);
}

bool wtg_ctx_settle(struct wtg_ctx *ctx, int ms)
{
	int64_t until = wtg_now_ns() + (int64_t)ms * 1000000;
	while (wtg_now_ns() < until) {
		if (wtg_ctx_cancelled(ctx))
			return true;
		struct timespec ts = { 0, 10 * 1000000 };
		nanosleep(&ts, NULL);
	}
	return wtg_ctx_cancelled(ctx);
}

int wtg_burners_start(struct wtg_ctx *ctx, int n, int settle_ms, const char *prefix)
{
	if (wtg_burner_set(n) != n) {
		wtg_table_fail(ctx->t, "%scannot start %d burners", prefix, n);
		return WTG_ERR;
	}
	return wtg_ctx_settle(ctx, settle_ms) ? WTG_CANCELLED : WTG_OK;
}

int wtg_crew_init(struct wtg_crew *c)
{
	memset(c, 0, sizeof *c);
	pthread_condattr_t ca;
	if (pthread_condattr_init(&ca) != 0)
		return -1;
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	int rc = pthread_cond_init(&c->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (rc != 0)
		return -1;
	pthread_mutex_init(&c->lock, NULL);
	atomic_store(&c->stop, false);
	return 0;
}

void wtg_crew_destroy(struct wtg_crew *c)
{
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->lock);
}

bool wtg_crew_gate(struct wtg_crew *c)
{
	pthread_mutex_lock(&c->lock);
	if (c->nmeters < WTG_CREW_METERED)
		wtg_starve_begin(&c->meters[c->nmeters++], wtg_gettid());
	c->ready++;
	pthread_cond_broadcast(&c->cond);
	while (!c->go)
		pthread_cond_wait(&c->cond, &c->lock);
	pthread_mutex_unlock(&c->lock);
	return !atomic_load(&c->stop);
}

void wtg_crew_done(struct wtg_crew *c)
{
	pthread_mutex_lock(&c->lock);
	c->done++;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

void wtg_crew_open(struct wtg_crew *c)
{
	pthread_mutex_lock(&c->lock);
	c->go = true;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

/* The crew's limit has passed (see wtg_crew_wait); called with the lock held. */
static bool crew_starved(struct wtg_crew *c, int n)
{
	bool wall = wtg_active_elapsed(&c->clock) >= c->limit_ns;
	if (c->nmeters < (n < WTG_CREW_METERED ? n : WTG_CREW_METERED))
		return wall;
	for (int i = 0; i < c->nmeters; i++) {
		int64_t starved = wtg_starve_sample(&c->meters[i]);
		if (starved < 0)
			return wall;
		if (starved >= c->limit_ns)
			return true;
	}
	return false;
}

int wtg_crew_wait(struct wtg_ctx *ctx, struct wtg_crew *c, int n, bool ready, bool stop_on_cancel,
		  bool limited)
{
	for (;;) {
		bool cancelled = wtg_ctx_cancelled(ctx);
		pthread_mutex_lock(&c->lock);
		bool reached = (ready ? c->ready : c->done) >= n;
		if (!reached && !(cancelled && stop_on_cancel)) {
			int64_t until = wtg_now_ns() + 100000000;
			struct timespec ts = { .tv_sec = until / 1000000000, .tv_nsec = until % 1000000000 };
			pthread_cond_timedwait(&c->cond, &c->lock, &ts);
			reached = (ready ? c->ready : c->done) >= n;
		}
		bool starved = !reached && limited && c->limit_ns > 0 && crew_starved(c, n);
		pthread_mutex_unlock(&c->lock);
		if (reached)
			return WTG_CREW_REACHED;
		if (cancelled && stop_on_cancel)
			return WTG_CREW_CANCELLED;
		if (starved)
			return WTG_CREW_TIMEOUT;
	}
}

int wtg_crew_spawn(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	sigset_t old;
	wtg_thread_sigmask(&old);
	int err = pthread_create(th, attr, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

int wtg_crew_run(struct wtg_ctx *ctx, struct wtg_crew *c, int n, int64_t limit_ns)
{
	pthread_mutex_lock(&c->lock);
	c->limit_ns = limit_ns;
	wtg_active_begin(&c->clock);
	pthread_mutex_unlock(&c->lock);
	int w = wtg_crew_wait(ctx, c, n, true, true, true);
	if (w == WTG_CREW_REACHED) {
		wtg_crew_open(c);
		w = wtg_crew_wait(ctx, c, n, false, true, true);
	}
	return w;
}

void wtg_crew_finish(struct wtg_ctx *ctx, struct wtg_crew *c, int n)
{
	wtg_crew_open(c);
	wtg_crew_wait(ctx, c, n, false, false, false);
}

/* ---- pages and mappings (mmap, pagecache, faultbase, zerofill, uncached) ---- */

long wtg_page_size(void)
{
	long page = sysconf(_SC_PAGESIZE);
	return page > 0 ? page : 4096;
}

int64_t wtg_pages_of(uint64_t bytes, long page)
{
	return (int64_t)((bytes + (uint64_t)page - 1) / (uint64_t)page);
}

#define MAPPED_PIECE (4u << 20)

int wtg_sum_mapped(struct wtg_ctx *ctx, const unsigned char *p, uint64_t size, int64_t *sum)
{
	int64_t s = 0;
	wtg_test_shrink(ctx);
	for (uint64_t off = 0; off < size; off += MAPPED_PIECE) {
		uint64_t len = size - off < MAPPED_PIECE ? size - off : MAPPED_PIECE;
		if (wtg_guard_sum(p + off, (size_t)len, &s) < 0) {
			wtg_table_fail(ctx->t, "%s", WTG_GUARD_SHRANK);
			return -1;
		}
		if (wtg_ctx_cancelled(ctx))
			return 1;
	}
	*sum = s;
	return 0;
}

/* ---- buffers sized to this machine (kernels, wss) ---- */

uint64_t wtg_ctx_l1d(const struct wtg_ctx *ctx)
{
	uint64_t s = ctx->machine ? wtg_machine_cache_size(ctx->machine, 1) : 0;
	return s ? s : 32u << 10;
}

uint64_t wtg_ctx_llc(const struct wtg_ctx *ctx)
{
	const struct wtg_cache *c = ctx->machine ? wtg_machine_llc(ctx->machine) : NULL;
	return c && c->size ? c->size : 32u << 20;
}

uint64_t wtg_ram_quarter(void)
{
	/* a fixture tree (WTG_SYSFS_ROOT) is another machine: its nodes' memory, where it says */
	const char *root = getenv("WTG_SYSFS_ROOT");
	if (root && *root) {
		const struct wtg_topology *t = wtg_topology_this();
		uint64_t mem = 0;
		for (int i = 0; i < t->nnodes; i++)
			mem += t->nodes[i].memory_bytes;
		if (mem)
			return mem / 4;
	}
	long pages = sysconf(_SC_PHYS_PAGES);
	long page = wtg_page_size();
	if (pages <= 0)
		return 256u << 20;
	return (uint64_t)pages * (uint64_t)page / 4;
}

/* --quick's cap of the memory-sized span: 512 MiB or 1/16 of RAM, whichever is smaller, but never
 * below the smallest power of two past the LLC, so the sweep keeps a step beyond the last cache. */
static uint64_t quick_span_cap(const struct wtg_ctx *ctx)
{
	uint64_t cap = wtg_ram_quarter() / 4, past = 1u << 20;
	if (cap > WTG_QUICK_SPAN_MAX)
		cap = WTG_QUICK_SPAN_MAX;
	while (past <= wtg_ctx_llc(ctx))
		past *= 2;
	return cap > past ? cap : past;
}

uint64_t wtg_dram_span(const struct wtg_ctx *ctx)
{
	uint64_t want = 4 * wtg_ctx_llc(ctx), span = 1u << 20;
	while (span < want)
		span *= 2;
	if (ctx->opt && ctx->opt->quick && span > quick_span_cap(ctx))
		span = quick_span_cap(ctx);
	uint64_t cap = wtg_ram_quarter() / WTG_CHUNK * WTG_CHUNK;
	/* test hook: WTG_TEST_MAX_BUFFER=SIZE caps it (a sanitizer build fills big buffers slowly) */
	const char *env = getenv("WTG_TEST_MAX_BUFFER");
	uint64_t test_cap;
	if (env && wtg_parse_size(env, &test_cap) == 0 && test_cap >= WTG_CHUNK && test_cap < cap)
		cap = test_cap / WTG_CHUNK * WTG_CHUNK;
	return span < cap ? span : cap;
}

const char *wtg_cache_level_name(const struct wtg_ctx *ctx, uint64_t bytes)
{
	static const char *const names[] = { "L1", "L2", "L3", "L4" };
	if (!ctx->machine || !ctx->machine->ncaches) {	/* the assumed caches */
		if (bytes <= wtg_ctx_l1d(ctx))
			return "L1";
		return bytes <= wtg_ctx_llc(ctx) ? "L2" : "DRAM";
	}
	for (int level = 1; level <= 4; level++) {
		uint64_t s = wtg_machine_cache_size(ctx->machine, level);
		if (s && bytes <= s)
			return names[level - 1];
	}
	return "DRAM";
}

#define FILL_PIECE (64u << 20)

int wtg_seeded_buf_init(struct wtg_ctx *ctx, struct wtg_rng *rng, struct wtg_seeded_buf *b, uint64_t size,
			uint64_t chunk)
{
	memset(b, 0, sizeof *b);
	b->chunk = chunk;
	b->size = (size + chunk - 1) / chunk * chunk;
	uint64_t n = b->size / chunk;
	char sz[32];
	wtg_fmt_size(sz, sizeof sz, b->size);
	/* anonymous memory asked for transparent huge pages: a 2 GiB buffer then costs a thousand
	 * faults, not half a million, and a pass over it far fewer TLB misses (the setting is in the
	 * machine block; how much the kernel granted, in b->huge) */
	b->p = wtg_huge_alloc((size_t)b->size);
	b->prefix = malloc((size_t)(n + 1) * sizeof *b->prefix);
	if (!b->p || !b->prefix) {
		wtg_seeded_buf_free(b);
		wtg_table_fail(ctx->t, "cannot allocate a %s buffer", sz);
		return WTG_ERR;
	}
	b->prefix[0] = 0;
	b->huge = -1;
	uint64_t since = 0;
	for (uint64_t i = 0; i < n; i++) {
		b->prefix[i + 1] = b->prefix[i] + wtg_fill_seeded(rng, b->p + i * chunk, (size_t)chunk);
		since += chunk;
		if (since >= FILL_PIECE) {
			since = 0;
			if (wtg_ctx_cancelled(ctx)) {
				wtg_seeded_buf_free(b);
				return WTG_CANCELLED;
			}
		}
	}
	b->huge = wtg_huge_bytes(b->p);
	return WTG_OK;
}

void wtg_huge_phrase(const struct wtg_ctx *ctx, char *buf, size_t len, int64_t huge, uint64_t size)
{
	const char *thp = ctx->machine && ctx->machine->thp[0] ? ctx->machine->thp : "unknown";
	char h[16], all[16];
	wtg_fmt_size(all, sizeof all, size);
	wtg_fmt_size(h, sizeof h, huge > 0 ? (uint64_t)huge : 0);
	if (huge < 0)
		snprintf(buf, len, "its huge pages unknown, THP %s", thp);
	else if (huge == 0)
		snprintf(buf, len, "none of its %s in huge pages, THP %s", all, thp);
	else if ((uint64_t)huge >= size)
		snprintf(buf, len, "all %s in huge pages, THP %s", all, thp);
	else
		snprintf(buf, len, "%s of its %s in huge pages, THP %s", h, all, thp);
}

void wtg_seeded_buf_free(struct wtg_seeded_buf *b)
{
	if (b->p)
		wtg_huge_free(b->p, (size_t)b->size);
	free(b->prefix);
	b->p = NULL;
	b->prefix = NULL;
}

static struct wtg_seeded_buf dram_buf;
static uint64_t dram_seed;

int wtg_dram_buf_get(struct wtg_ctx *ctx, const struct wtg_seeded_buf **out)
{
	uint64_t seed = (ctx->opt ? ctx->opt->seed : 1) ^ 0x6d656d6f72796275ull;	/* "memorybu" */
	uint64_t size = wtg_dram_span(ctx);
	if (dram_buf.p && (dram_seed != seed || dram_buf.size != size))
		wtg_seeded_buf_free(&dram_buf);
	if (!dram_buf.p) {
		struct wtg_rng rng;
		wtg_rng_seed(&rng, seed);
		int rc = wtg_seeded_buf_init(ctx, &rng, &dram_buf, size, 4u << 10);
		if (rc != WTG_OK)
			return rc;
		dram_seed = seed;
	}
	if (ctx->opt && ctx->opt->quick && size < 4 * wtg_ctx_llc(ctx)) {
		char got[32], llc[32];
		wtg_fmt_size(got, sizeof got, size);
		wtg_fmt_size(llc, sizeof llc, wtg_ctx_llc(ctx));
		wtg_table_note(ctx->t,
			       "--quick: the memory-sized buffer is %s, not 4x the %s last-level cache (at most "
			       "512 MiB or 1/16 of RAM, but past the LLC, so the DRAM step stays); run without "
			       "--quick for the full span",
			       got, llc);
	}
	*out = &dram_buf;
	return WTG_OK;
}

/* Whether a selected experiment after self in this headless run (registry order) declares the
 * shared buffer. */
static bool dram_buf_wanted_later(const struct wtg_options *o, const struct wtg_experiment *self)
{
	if (!o || o->mode != WTG_MODE_RUN)
		return false;
	bool after = false;
	for (int k = 0; k < wtg_nexperiments && k < (int)WTG_ARRAY_LEN(o->selected); k++) {
		const struct wtg_experiment *e = wtg_experiments[k];
		if (after && e->shares_dram_buf && o->selected[k])
			return true;
		after = after || e == self;
	}
	return false;
}

void wtg_dram_buf_done(struct wtg_ctx *ctx, const struct wtg_experiment *self)
{
	if (!dram_buf_wanted_later(ctx->opt, self))
		wtg_seeded_buf_free(&dram_buf);
}

int64_t wtg_seeded_buf_known(const struct wtg_seeded_buf *b, uint64_t off, uint64_t len)
{
	return b->prefix[(off + len) / b->chunk] - b->prefix[off / b->chunk];
}

int wtg_seeded_sum_sample(struct wtg_ctx *ctx, wtg_sum_fn fn, const struct wtg_seeded_buf *b, uint64_t set,
			  uint64_t bytes, uint64_t *pos, const char *what, struct wtg_probe_result *res,
			  int64_t *sum)
{
	int64_t s = 0, known = 0;
	uint64_t p = *pos % set, since = 0;
	int rc = WTG_OK;
	/* whole passes over a small set go through the repeating form, many per call (as
	 * wtg_sum_passes does): no call, edge handling and fold per pass of 16 KiB */
	wtg_sum_rep_fn rep = wtg_sum_repeat_of(fn);
	struct wtg_probe pb;
	wtg_probe_begin(&pb);
	for (uint64_t done = 0; done < bytes;) {
		uint64_t n = set - p;
		if (n > bytes - done)
			n = bytes - done;
		if (n > SUM_PIECE)
			n = SUM_PIECE;
		uint64_t k = rep && p == 0 && n == set ? (bytes - done) / set : 1;
		if (k > SUM_PIECE / set)
			k = SUM_PIECE / set;
		if (k > 1) {
			s += rep(b->p, (size_t)set, k); /* k whole passes: p stays 0 */
			n = k * set;
		} else {
			s += fn(b->p + p, (size_t)n);
			p = p + n == set ? 0 : p + n;
		}
		done += n;
		since += n;
		if (since >= SUM_PIECE) {
			since = 0;
			if (wtg_ctx_cancelled(ctx)) {
				rc = WTG_CANCELLED;
				break;
			}
		}
	}
	wtg_probe_end(&pb, res);
	if (rc != WTG_OK)
		return rc;
	/* the known sum of what was read, outside the timing: whole passes plus the wrapped part */
	uint64_t start = *pos % set, passes = bytes / set, rest = bytes % set;
	known = wtg_seeded_buf_known(b, 0, set) * (int64_t)passes;
	if (start + rest <= set)
		known += wtg_seeded_buf_known(b, start, rest);
	else
		known += wtg_seeded_buf_known(b, start, set - start) + wtg_seeded_buf_known(b, 0, start + rest - set);
	*pos = p;
	*sum = s;
	return wtg_check_sum_quiet(ctx, what, s, known) ? WTG_OK : WTG_ERR;
}
