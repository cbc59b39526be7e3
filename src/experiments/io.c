/* io.c: I/O and distribution helpers (bytewise, syscall, valley, readcost, clock, passes, uncached). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "io.h"
#include "wtg/ctx.h"

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

/* Device interrupts per CPU (the first 64) so far, from /proc/interrupts: false when unreadable. */
bool wtg_io_irqs(uint64_t *counts)
{
	char *text = wtg_read_text("/proc/interrupts");
	int n = text ? wtg_irq_per_cpu(text, counts, 64) : -1;
	free(text);
	return n > 0;
}

/* The CPU whose count grew most from before to after (-1 when none grew), with that growth in *top
 * and all CPUs' in *total. */
int wtg_io_irq_top(const uint64_t *before, const uint64_t *after, uint64_t *top, uint64_t *total)
{
	int at = -1;
	*top = *total = 0;
	for (int c = 0; c < 64; c++) {
		uint64_t d = after[c] >= before[c] ? after[c] - before[c] : 0;
		*total += d;
		if (d > *top) {
			*top = d;
			at = c;
		}
	}
	return at;
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
	return wtg_read_pass_at(ctx, buf, bufsize, 0, want, what, out);
}

int wtg_read_pass_at(struct wtg_ctx *ctx, unsigned char *buf, size_t bufsize, uint64_t off, uint64_t want,
		     const char *what, struct wtg_read_pass *out)
{
	memset(out, 0, sizeof *out);
	int fd = wtg_iomode_open_for(ctx, bufsize, &out->direct);
	if (fd < 0) {
		wtg_table_fail(ctx->t, "cannot open %s: %s", ctx->df->path, strerror(errno));
		return WTG_ERR;
	}
	out->bytes = off ? want : wtg_io_span(ctx->df, out->direct, want);
	if (off && lseek(fd, (off_t)off, SEEK_SET) < 0) {
		wtg_table_fail(ctx->t, "%s: seek in %s: %s", what, ctx->df->path, strerror(errno));
		close(fd);
		return WTG_ERR;
	}
	if (ctx->cold)	/* c: every pass of a run that measures cold starts on an evicted file */
		wtg_datafile_evict(ctx->df);
	else
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

int wtg_read_passes(struct wtg_ctx *ctx, unsigned char *buf, size_t bufsize, uint64_t want, int passes,
		    const char *what, struct wtg_read_pass *out)
{
	struct wtg_probe_result total;
	memset(&total, 0, sizeof total);
	for (int i = 0; i < (passes > 0 ? passes : 1); i++) {
		int rc = wtg_read_pass(ctx, buf, bufsize, want, what, out);
		if (rc != WTG_OK)
			return rc;
		if (!wtg_check_sum_quiet(ctx, what, out->sum, wtg_datafile_prefix_sum(ctx->df, out->bytes)))
			return WTG_ERR;
		wtg_probe_merge(&total, &out->res, WTG_PROBE_SEQUENTIAL);
	}
	out->res = total;
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

void wtg_add_summary_row_arm(struct wtg_ctx *ctx, const char *label, const struct wtg_summary *s,
			     const double *samples, size_t n, const struct wtg_probe_result *probe,
			     const struct wtg_value *extra, int nextra, int arm)
{
	struct wtg_value v[WTG_MAX_COLS] = {
		WTG_TEXT(label),   WTG_INT(s->n),     WTG_REAL(s->mean),	 WTG_REAL(s->median),
		WTG_REAL(s->p90),  WTG_REAL(s->p99),  WTG_REAL(s->max),	 WTG_REAL(s->ci_low),
		WTG_REAL(s->ci_high), WTG_REAL(s->min), WTG_REAL(s->drift * 100.0),
	};
	int nv = 11;
	for (int i = 0; i < nextra && nv < WTG_MAX_COLS; i++)
		v[nv++] = extra[i];
	if (ctx->arms)
		nv = wtg_arms_tag(ctx, v, nv, arm);
	char name[128];
	snprintf(name, sizeof name, "%s%s", arm ? "B: " : "", label);
	wtg_table_add_series(ctx->t, name, "ns", samples, n);
	wtg_table_add_row(ctx->t, v, nv, probe);
	bool ordered = s->min <= s->median && s->median <= s->p90 && s->p90 <= s->p99 && s->p99 <= s->max;
	bool inside = s->ci_low <= s->median && s->median <= s->ci_high;
	wtg_table_check(ctx->t, "quantiles", ordered && inside,
			"%s: min <= median <= p90 <= p99 <= max, CI [%.1f, %.1f] holds the median %.1f",
			name, s->ci_low, s->ci_high, s->median);
}

void wtg_add_summary_row(struct wtg_ctx *ctx, const char *label, const struct wtg_summary *s,
			 const double *samples, size_t n, const struct wtg_probe_result *probe,
			 const struct wtg_value *extra, int nextra)
{
	wtg_add_summary_row_arm(ctx, label, s, samples, n, probe, extra, nextra, 0);
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
