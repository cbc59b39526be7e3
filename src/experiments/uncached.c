/* uncached.c: What does the storage path cost?
 *
 * The file is read around the page cache: with O_DIRECT where the filesystem accepts it, buffers,
 * offsets and lengths aligned to what statx(STATX_DIOALIGN) reports (at least 4096); elsewhere with
 * buffered reads after evicting the file before each pass, and the rows say which mechanism ran.
 * First sequential passes with buffers of 4 KiB .. 16 MiB, every pass's sum checked against the
 * known prefix sum; then random 16 KiB reads at seeded aligned offsets, each one timed, whose
 * latency distribution is the storage path's per-request cost.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

#define UC_MIN_BUF (4u << 10)
#define UC_MAX_BUF (16u << 20)
#define UC_RAND_LEN (16u << 10)
#define UC_RANDOM 20000
#define UC_QUICK_RANDOM 2000
#define UC_MAX_CALLS 16384	/* per sequential pass: small buffers read a prefix of the file */
#define UC_QUICK_MAX_CALLS 2048
#define UC_CHECK_NS 50000000	/* cancel checks at least every 50 ms */

enum uc_mech { UC_DIRECT = 0, UC_EVICTING };

static const char *const uc_mech_name[] = { "direct", "evicting" };

struct uc {
	struct wtg_ctx *ctx;
	enum uc_mech mech;
	int fd;			/* O_DIRECT, or plain for the evicting fallback */
	unsigned align;
	unsigned char *buf;	/* UC_MAX_BUF bytes, aligned */
	double *lat;		/* per-call latency, us */
	size_t nlat;
	int64_t last_check;
};

/* One timed read of len bytes at off, retrying short buffered reads. Returns bytes or -1 (errno). */
static ssize_t uc_read(struct uc *u, size_t len, uint64_t off, double *us)
{
	size_t done = 0;
	int64_t t0 = wtg_now_ns();
	while (done < len) {
		ssize_t r = pread(u->fd, u->buf + done, len - done, (off_t)(off + done));
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

/* Quantiles of the latencies in u->lat; the bootstrap CI only when asked (it resamples n values
 * 5000 times). Returns 0 or -1 (out of memory). */
static int uc_stats(struct uc *u, bool ci, unsigned idx, struct uc_stats *s)
{
	memset(s, 0, sizeof *s);
	if (ci) {
		struct wtg_summary sm;
		if (wtg_summarize(u->lat, u->nlat, wtg_ctx_seed(u->ctx, idx), &sm) < 0)
			return -1;
		*s = (struct uc_stats){ sm.median, sm.p90,    sm.p99,	  sm.max,
					sm.mean,   sm.ci_low, sm.ci_high, true };
		return 0;
	}
	double *c = malloc(u->nlat * sizeof *c);
	if (!c)
		return -1;
	memcpy(c, u->lat, u->nlat * sizeof *c);
	wtg_sort(c, u->nlat);
	s->median = wtg_quantile_sorted(c, u->nlat, 0.5);
	s->p90 = wtg_quantile_sorted(c, u->nlat, 0.9);
	s->p99 = wtg_quantile_sorted(c, u->nlat, 0.99);
	s->max = c[u->nlat - 1];
	s->mean = wtg_mean(c, u->nlat);
	free(c);
	return 0;
}

static void uc_row(struct uc *u, const char *mode, size_t bufsize, int64_t bytes, const struct uc_stats *s,
		   const struct wtg_probe_result *pr, int64_t sum)
{
	const struct wtg_value v[] = {
		WTG_TEXT(mode),
		WTG_INT(bufsize),
		WTG_REAL((double)bytes / (pr->wall_ms * 1e6)),
		WTG_REAL(s->median),
		WTG_REAL(s->p99),
		WTG_TEXT(uc_mech_name[u->mech]),
		WTG_INT(u->nlat),
		WTG_INT(bytes),
		WTG_REAL(pr->wall_ms),
		WTG_INT(sum),
		WTG_REAL(s->mean),
		WTG_REAL(s->p90),
		WTG_REAL(s->max),
		s->have_ci ? WTG_REAL(s->ci_low) : WTG_NA,
		s->have_ci ? WTG_REAL(s->ci_high) : WTG_NA,
	};
	wtg_table_add_row(u->ctx->t, v, (int)WTG_ARRAY_LEN(v), pr);
}

/* One read of a timed pass: its latency goes to u->lat, its bytes' sum to *sum; then the cancel
 * check. Returns WTG_OK, WTG_CANCELLED, or WTG_ERR after wtg_table_fail (naming the pass's kind). */
static int uc_pass_read(struct uc *u, size_t len, uint64_t off, bool random, int64_t *sum)
{
	double us;
	ssize_t r = uc_read(u, len, off, &us);
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
	*sum += wtg_sum_bytes(u->buf, len);
	return uc_cancelled(u) ? WTG_CANCELLED : WTG_OK;
}

/* After a pass: its latency figures (the CI only when asked) and its row. WTG_OK or WTG_ERR. */
static int uc_pass_row(struct uc *u, bool ci, const char *mode, size_t bufsize, int64_t bytes,
		       const struct wtg_probe_result *pr, int64_t sum, struct uc_stats *s)
{
	if (uc_stats(u, ci, 0, s) < 0) {
		wtg_table_fail(u->ctx->t, "out of memory");
		return WTG_ERR;
	}
	uc_row(u, mode, bufsize, bytes, s, pr, sum);
	return WTG_OK;
}

/* Sequential pass over the first `bytes` bytes with reads of bufsize. WTG_OK, WTG_CANCELLED, WTG_ERR. */
static int uc_sequential(struct uc *u, size_t bufsize, uint64_t bytes)
{
	struct wtg_ctx *ctx = u->ctx;
	uc_before_pass(u);
	u->nlat = 0;
	int64_t sum = 0;
	struct wtg_probe pb;
	struct wtg_probe_result pr;
	int rc = WTG_OK;
	wtg_probe_begin(&pb);
	for (uint64_t off = 0; off < bytes && rc == WTG_OK;) {
		size_t len = bytes - off < bufsize ? (size_t)(bytes - off) : bufsize;
		rc = uc_pass_read(u, len, off, false, &sum);
		off += len;
	}
	wtg_probe_end(&pb, &pr);
	if (rc != WTG_OK)
		return rc;
	struct uc_stats s;
	if (uc_pass_row(u, false, "sequential", bufsize, (int64_t)bytes, &pr, sum, &s) != WTG_OK)
		return WTG_ERR;
	char what[64], size[16];
	wtg_fmt_size(size, sizeof size, bufsize);
	snprintf(what, sizeof what, "sequential %s, first %llu bytes", size, (unsigned long long)bytes);
	return wtg_check_sum(ctx, what, sum, wtg_datafile_prefix_sum(ctx->df, bytes)) ? WTG_OK : WTG_ERR;
}

/* Random reads at the given offsets, each timed; then the same ranges read again through the page
 * cache, which must give the same sum (the known sums cover 64 KiB chunks, not 16 KiB pieces). */
static int uc_random(struct uc *u, const uint64_t *offs, size_t n)
{
	struct wtg_ctx *ctx = u->ctx;
	uc_before_pass(u);
	/* the fallback must not let readahead serve later random reads from the cache */
	if (u->mech == UC_EVICTING)
		(void)posix_fadvise(u->fd, 0, 0, POSIX_FADV_RANDOM);
	u->nlat = 0;
	int64_t sum = 0;
	struct wtg_probe pb;
	struct wtg_probe_result pr;
	int rc = WTG_OK;
	wtg_probe_begin(&pb);
	for (size_t i = 0; i < n && rc == WTG_OK; i++)
		rc = uc_pass_read(u, UC_RAND_LEN, offs[i], true, &sum);
	wtg_probe_end(&pb, &pr);
	if (rc != WTG_OK)
		return rc;
	struct uc_stats s;
	if (uc_pass_row(u, true, "random", UC_RAND_LEN, (int64_t)(n * UC_RAND_LEN), &pr, sum, &s) != WTG_OK)
		return WTG_ERR;
	wtg_table_add_series(ctx->t, "random 16 KiB reads", "us", u->lat, u->nlat);
	bool ordered = s.median <= s.p90 && s.p90 <= s.p99 && s.p99 <= s.max && s.ci_low <= s.median &&
		       s.median <= s.ci_high;
	wtg_table_check(
		ctx->t, "quantiles", ordered,
		"random reads: median <= p90 <= p99 <= max, CI [%.1f, %.1f] us holds the median %.1f us",
		s.ci_low, s.ci_high, s.median);

	/* the reference: the same ranges through the page cache, outside any timing */
	int fd = open(ctx->df->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		wtg_table_fail(ctx->t, "cannot open the data file for the reference reads");
		return WTG_ERR;
	}
	int64_t ref = 0;
	for (size_t i = 0; i < n; i++) {
		double us;
		int saved = u->fd;
		enum uc_mech m = u->mech;
		u->fd = fd;
		u->mech = UC_EVICTING;	/* plain buffered reads */
		ssize_t r = uc_read(u, UC_RAND_LEN, offs[i], &us);
		u->fd = saved;
		u->mech = m;
		if (r != (ssize_t)UC_RAND_LEN) {
			close(fd);
			wtg_table_fail(ctx->t, "reference read at offset %llu failed",
				       (unsigned long long)offs[i]);
			return WTG_ERR;
		}
		ref += wtg_sum_bytes(u->buf, UC_RAND_LEN);
		if ((i & 1023) == 1023 && wtg_ctx_cancelled(ctx)) {
			close(fd);
			return WTG_CANCELLED;
		}
	}
	close(fd);
	bool same = ref == sum;
	wtg_table_check(ctx->t, "sum", same,
			"%zu random %s reads: sum %lld %s %lld, the same ranges read through the page cache",
			n, uc_mech_name[u->mech], (long long)sum, same ? "=" : "!=", (long long)ref);
	if (!same) {
		wtg_table_fail(ctx->t, "random reads: sum %lld differs from the page cache's %lld",
			       (long long)sum, (long long)ref);
		return WTG_ERR;
	}
	return WTG_OK;
}

static int run_uncached(struct wtg_ctx *ctx)
{
	const struct wtg_column cols[] = {
		{ "mode", "", WTG_T_TEXT, 0 },
		{ "bufsize", "B", WTG_T_INT, 0 },
		{ "gbps", "GB/s", WTG_T_REAL, 3 },
		{ "median_us", "us", WTG_T_REAL, 1 },
		{ "p99_us", "us", WTG_T_REAL, 1 },
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
	wtg_table_set_columns(ctx->t, cols, (int)WTG_ARRAY_LEN(cols));
	const struct wtg_datafile *df = ctx->df;
	bool quick = ctx->opt && ctx->opt->quick;
	struct uc u = { .ctx = ctx, .fd = -1 };
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
	size_t nrand = quick ? UC_QUICK_RANDOM : UC_RANDOM;
	uint64_t max_calls = quick ? UC_QUICK_MAX_CALLS : UC_MAX_CALLS;
	size_t nlat = nrand > max_calls ? nrand : (size_t)max_calls;
	u.buf = wtg_aligned_alloc(u.align, UC_MAX_BUF);
	u.lat = malloc(nlat * sizeof *u.lat);
	uint64_t *offs = malloc(nrand * sizeof *offs);
	int rc = WTG_OK;
	if (!u.buf || !u.lat || !offs) {
		wtg_table_fail(ctx->t, "out of memory");
		rc = WTG_ERR;
		goto out;
	}
	memset(u.buf, 1, UC_MAX_BUF);	/* no pass pays the buffer's first-touch faults */
	u.fd = open(df->path, O_RDONLY | O_CLOEXEC | (u.mech == UC_DIRECT ? O_DIRECT : 0));
	if (u.fd < 0) {
		wtg_table_fail(ctx->t, "cannot open the data file%s: %s",
			       u.mech == UC_DIRECT ? " with O_DIRECT" : "", strerror(errno));
		rc = WTG_ERR;
		goto out;
	}
	/* seeded offsets, drawn before anything is timed */
	uint64_t slots = (usable - UC_RAND_LEN) / u.align + 1;
	for (size_t i = 0; i < nrand; i++)
		offs[i] = wtg_rng_below(&ctx->rng, slots) * u.align;

	/* start from an empty cache so residency afterwards shows what each mechanism left there */
	wtg_datafile_evict(df);
	int64_t res0 = wtg_datafile_resident_pages(df);
	int nbuf = 0;
	for (size_t b = UC_MIN_BUF; b <= UC_MAX_BUF; b *= 4)
		nbuf++;
	int step = 0, nsteps = nbuf + 1;
	bool capped = false;
	for (size_t b = UC_MIN_BUF; b <= UC_MAX_BUF; b *= 4) {
		char label[48], size[16];
		wtg_fmt_size(size, sizeof size, b);
		snprintf(label, sizeof label, "sequential, buffer %s", size);
		wtg_ctx_progress(ctx, step++, nsteps, label);
		if (wtg_ctx_cancelled(ctx)) {
			rc = WTG_CANCELLED;
			goto out;
		}
		uint64_t bytes = usable;
		/* ceil: a short last read is a call too, and u.lat may hold no more than max_calls */
		if ((bytes + b - 1) / b > max_calls) {
			bytes = (uint64_t)b * max_calls;	/* b divides 64 KiB or is a multiple of it */
			bytes = bytes / WTG_CHUNK * WTG_CHUNK;
			capped = true;
		}
		u.last_check = wtg_now_ns();
		rc = uc_sequential(&u, b, bytes);
		if (rc != WTG_OK)
			goto out;
	}
	int64_t res1 = wtg_datafile_resident_pages(df);
	wtg_ctx_progress(ctx, step++, nsteps, "random 16 KiB reads");
	u.last_check = wtg_now_ns();
	rc = uc_random(&u, offs, nrand);
	if (rc != WTG_OK)
		goto out;
	wtg_ctx_progress(ctx, nsteps, nsteps, "done");

	int64_t pages = wtg_pages_of(df->size, wtg_page_size());
	if (u.mech == UC_DIRECT)
		wtg_table_note(ctx->t,
			       "mechanism: O_DIRECT; buffers, offsets and lengths aligned to %u B (statx "
			       "STATX_DIOALIGN or the 512 B default: memory %u, offset %u; at least 4096)",
			       u.align, df->dio_mem_align, df->dio_offset_align);
	else
		wtg_table_note(
			ctx->t,
			"mechanism: evicting; O_DIRECT does not work on this %s file, so every pass "
			"starts with posix_fadvise(POSIX_FADV_DONTNEED) and reads through the page cache",
			df->fs);
	wtg_table_note(ctx->t,
		       "page cache residency of the file (%lld pages): %lld after the first eviction, %lld "
		       "after the sequential passes%s",
		       (long long)pages, (long long)res0, (long long)res1,
		       u.mech == UC_DIRECT && res1 <= res0 && res0 * 10 <= pages &&
				       strcmp(df->fs, "tmpfs") != 0
			       ? ": the direct reads went around the cache"
			       : "");
	if (capped)
		wtg_table_note(
			ctx->t,
			"small buffers read a prefix of the file (at most %llu calls per pass; bytes and "
			"read_calls say how much), so the run stays short",
			(unsigned long long)max_calls);
	wtg_table_note(ctx->t,
		       "gbps: bytes over the pass's wall time (reading and summing); median_us, p99_us: "
		       "latency of one read call; random: %zu reads of 16 KiB at seeded "
		       "offsets aligned to %u B, their samples kept as a series (us); CI: bootstrap of the "
		       "median, random row only",
		       nrand, u.align);
	if (wtg_datafile_in_memory(df))
		wtg_table_note(
			ctx->t,
			"the file is on %s: its pages live in memory, so no storage device is involved",
			df->fs);
	else
		wtg_table_note(ctx->t,
			       "on a virtual machine the disk's host may cache what the guest reads: these "
			       "are the guest's storage path costs, not necessarily the physical device's");
out:
	if (u.fd >= 0)
		close(u.fd);
	free(u.buf);
	free(u.lat);
	free(offs);
	return rc;
}

const struct wtg_experiment wtg_exp_uncached = {
	.name = "uncached",
	.question = "What does the storage path cost?",
	.runs = "O_DIRECT sequential reads, buffer 4 KiB .. 16 MiB; 20000 random 16 KiB reads with latencies",
	.view = WTG_VIEW_SWEEP,
	.needs_datafile = true,
	.run = run_uncached,
};
