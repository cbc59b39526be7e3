/* valley.c: How big should the read buffer be?
 *
 * The same buffered sum for buffer sizes 16 B .. 16 MiB in x4 steps. Small buffers pay a kernel
 * crossing every few bytes; huge ones stop fitting in the caches. Each size reads at most a fixed
 * number of calls' worth of the file, so the 16-byte row does not take minutes. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

#define MIN_BUF 16u
#define MAX_BUF (16u << 20)
#define WARM_BUF (1u << 20)
/* the most read() calls one row makes: bytes = min(file, bufsize x this) */
#define MAX_CALLS_FULL (1ull << 18)
#define MAX_CALLS_QUICK (1ull << 16)

/* One buffered pass over the first `want` bytes with a fresh descriptor in the mode in force. */
static int pass(struct wtg_ctx *ctx, unsigned char *buf, size_t bufsize, uint64_t want,
		struct wtg_read_pass *p)
{
	char what[40];
	snprintf(what, sizeof what, "bufsize %zu", bufsize);
	return wtg_read_pass(ctx, buf, bufsize, want, what, p);
}

static int run(struct wtg_ctx *ctx)
{
	struct wtg_datafile *df = ctx->df;
	const struct wtg_column cols[] = {
		{ "bufsize", "B", WTG_T_INT, 0 },
		{ "read_calls", "count", WTG_T_INT, 0 },
		{ "bytes", "B", WTG_T_INT, 0 },
		{ "ms", "ms", WTG_T_REAL, 2 },
		{ "gbps", "GB/s", WTG_T_REAL, 2 },
		{ "sum", "", WTG_T_INT, 0 },
		{ "ns_per_call", "ns", WTG_T_REAL, 1 },
	};
	wtg_table_set_columns(ctx->t, cols, (int)WTG_ARRAY_LEN(cols));
	const uint64_t max_calls = ctx->opt->quick ? MAX_CALLS_QUICK : MAX_CALLS_FULL;
	int nsizes = 0;
	for (size_t b = MIN_BUF; b <= MAX_BUF; b *= 4)
		nsizes++;

	unsigned char *buf = wtg_aligned_alloc(wtg_io_align(df), MAX_BUF);
	if (!buf) {
		wtg_table_fail(ctx->t, "out of memory for a %u-byte buffer", MAX_BUF);
		return WTG_ERR;
	}
	memset(buf, 0, MAX_BUF); /* fault the buffer in before any timing */

	/* fixed warm-up rule: one unreported 1 MiB-buffer pass over the whole file */
	wtg_ctx_progress(ctx, 0, nsizes + 1, "warm-up pass");
	struct wtg_read_pass p;
	int rc = pass(ctx, buf, WARM_BUF, df->size, &p);
	if (rc == WTG_OK && !wtg_check_sum(ctx, "warm-up pass", p.sum, wtg_datafile_prefix_sum(df, p.bytes)))
		rc = WTG_ERR;

	size_t skipped_below = 0, smallest = 0;
	uint64_t smallest_bytes = 0;
	char sz[32];
	int step = 1;
	for (size_t b = MIN_BUF; b <= MAX_BUF && rc == WTG_OK; b *= 4, step++) {
		wtg_fmt_size(sz, sizeof sz, b);
		char label[48];
		snprintf(label, sizeof label, "bufsize %s", sz);
		wtg_ctx_progress(ctx, step, nsizes + 1, label);
		if (wtg_ctx_cancelled(ctx)) {
			rc = WTG_CANCELLED;
			break;
		}
		if (p.direct && b < wtg_io_align(df)) {
			skipped_below = wtg_io_align(df);
			continue;
		}
		uint64_t want = df->size;
		if ((uint64_t)b * max_calls < want)
			want = (uint64_t)b * max_calls; /* a multiple of WTG_CHUNK */
		rc = pass(ctx, buf, b, want, &p);
		if (rc != WTG_OK)
			break;
		if (!smallest) {
			smallest = b;
			smallest_bytes = p.bytes;
		}
		double ms = p.res.wall_ms;
		const struct wtg_value row[] = {
			WTG_INT(b),
			WTG_INT(p.calls),
			WTG_INT(p.bytes),
			WTG_REAL(ms),
			WTG_REAL(ms > 0 ? (double)p.bytes / (ms * 1e6) : 0),
			WTG_INT(p.sum),
			WTG_REAL(p.calls > 0 ? ms * 1e6 / (double)p.calls : 0),
		};
		wtg_table_add_row(ctx->t, row, (int)WTG_ARRAY_LEN(row), &p.res);
		wtg_check_read_calls(ctx, label, p.calls, p.bytes, b);
		if (!wtg_check_sum(ctx, label, p.sum, wtg_datafile_prefix_sum(df, p.bytes)))
			rc = WTG_ERR;
	}
	free(buf);
	if (rc != WTG_OK)
		return rc;
	wtg_ctx_progress(ctx, nsizes + 1, nsizes + 1, "done");

	char maxb[32];
	wtg_fmt_size(maxb, sizeof maxb, df->size);
	wtg_table_note(ctx->t,
		       "warm-up (fixed before measuring): one unreported pass over the whole %s file with "
		       "a 1 MiB buffer; then every row opens the file afresh and reads from offset 0",
		       maxb);
	wtg_fmt_size(sz, sizeof sz, smallest);
	wtg_table_note(ctx->t,
		       "each row reads min(file, bufsize x %llu) bytes, so small buffers read a slice "
		       "(%s: the first %llu bytes) and every row makes at most %llu read() calls",
		       (unsigned long long)max_calls, sz, (unsigned long long)smallest_bytes,
		       (unsigned long long)max_calls);
	wtg_table_note(ctx->t,
		       "the buffer is one %u MiB allocation touched before timing; GB/s = bytes / ms / 1e6",
		       MAX_BUF >> 20);
	if (skipped_below)
		wtg_table_note(ctx->t,
			       "O_DIRECT in force: buffer sizes below its %zu-byte alignment are skipped",
			       skipped_below);
	else if (wtg_uncached_requested())
		wtg_table_note(ctx->t, "uncached I/O: %s before each row",
			       wtg_iomode_name(wtg_iomode_effective(df)));
	return WTG_OK;
}

double wtg_headline_valley(struct wtg_ctx *ctx)
{
	/* 64 KiB buffer over at most the first 64 MiB: about 10 ms warm */
	struct wtg_datafile *df = ctx->df;
	unsigned char *buf = wtg_aligned_alloc(wtg_io_align(df), 64u << 10);
	if (!buf) {
		wtg_table_fail(ctx->t, "valley: out of memory");
		return NAN;
	}
	memset(buf, 0, 64u << 10);
	uint64_t want = df->size < (64ull << 20) ? df->size : (64ull << 20);
	struct wtg_read_pass p;
	int rc = pass(ctx, buf, 64u << 10, want, &p);
	free(buf);
	if (rc != WTG_OK)
		return NAN;
	int64_t known = wtg_datafile_prefix_sum(df, p.bytes);
	if (p.sum != known) {
		wtg_table_fail(ctx->t, "valley: sum %lld of the first %llu bytes is not the known %lld",
			       (long long)p.sum, (unsigned long long)p.bytes, (long long)known);
		return NAN;
	}
	return p.res.wall_ms > 0 ? (double)p.bytes / (p.res.wall_ms * 1e6) : NAN;
}

const struct wtg_experiment wtg_exp_valley = {
	.name = "valley",
	.question = "How big should the read buffer be?",
	.runs = "buffered sum of the data file for buffer sizes 16 B .. 16 MiB (x4 steps)",
	.view = WTG_VIEW_SWEEP,
	.needs_datafile = true,
	.run = run,
};
