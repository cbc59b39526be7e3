/* bytewise.c: Why did adding up bytes take 21 s?
 *
 * The essay's first two programs: sum a slice of the data file one byte per read(), then 64 KiB
 * per read(). Same bytes, same sum; the difference is the number of kernel crossings, which the
 * user/sys split shows. The 1-byte cost is measured on its own first, so the table can set a
 * prediction (read calls x the cost of one call) beside each measured time. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

#define SLICE_FULL (8ull << 20)
#define SLICE_QUICK (1ull << 20)
#define BIG_BUF (64u * 1024u)
#define CAL_BATCHES 16 /* the 1-byte cost: median of 16 batches of 1024 calls */
#define CAL_CALLS 1024

/* Median ns of one 1-byte read() from the start of fd, over a fixed small batch (shorter only
 * when the file is). */
static double one_byte_cost(int fd, uint64_t size, int64_t *calls)
{
	double v[CAL_BATCHES];
	int64_t sum = 0;
	long n = size < CAL_CALLS ? (long)size : CAL_CALLS;
	for (int b = 0; b < CAL_BATCHES; b++) {
		if (lseek(fd, 0, SEEK_SET) < 0)
			return -1;
		v[b] = wtg_time_read1_batch(fd, n, &sum);
		if (v[b] < 0)
			return -1;
		*calls += n;
	}
	wtg_sink += (uint64_t)sum;
	return wtg_quantile(v, CAL_BATCHES, 0.5);
}

struct variant {
	size_t bufsize;
	const char *name;
};

static int run(struct wtg_ctx *ctx)
{
	struct wtg_datafile *df = ctx->df;
	const struct wtg_column cols[] = {
		{ "variant", "", WTG_T_TEXT, 0 },
		{ "bytes", "B", WTG_T_INT, 0 },
		{ "read_calls", "count", WTG_T_INT, 0 },
		{ "ms", "ms", WTG_T_REAL, 2 },
		{ "user_ms", "ms", WTG_T_REAL, 2 },
		{ "sys_ms", "ms", WTG_T_REAL, 2 },
		{ "ns_per_byte", "ns", WTG_T_REAL, 3 },
		{ "sum", "", WTG_T_INT, 0 },
		{ "predicted_ms", "ms", WTG_T_REAL, 2 },
		{ "predicted_ratio", "", WTG_T_REAL, 3 },
	};
	wtg_table_set_columns(ctx->t, cols, (int)WTG_ARRAY_LEN(cols));

	uint64_t slice = ctx->opt->quick ? SLICE_QUICK : SLICE_FULL;
	if (slice > df->size)
		slice = df->size;
	struct variant var[2] = { { 1, "1B per read" }, { BIG_BUF, "64K per read" } };
	int order[2] = { 0, 1 };
	wtg_shuffle_int(&ctx->rng, order, 2);

	unsigned char *buf = wtg_aligned_alloc(wtg_io_align(df), BIG_BUF);
	if (!buf) {
		wtg_table_fail(ctx->t, "out of memory");
		return WTG_ERR;
	}
	memset(buf, 0, BIG_BUF);

	/* the cost of one call, before anything else, on a descriptor opened as the 1-byte variant's */
	wtg_ctx_progress(ctx, 0, 3, "cost of one 1-byte read");
	bool direct = false;
	int fd = wtg_iomode_open_for(ctx, 1, &direct);
	int64_t cal_calls = 0;
	double cost_ns = fd >= 0 ? one_byte_cost(fd, df->size, &cal_calls) : -1;
	if (fd >= 0)
		close(fd);
	if (cost_ns < 0) {
		wtg_table_fail(ctx->t, "timing 1-byte reads of %s: %s", df->path,
			       errno ? strerror(errno) : "unexpected end of file");
		free(buf);
		return WTG_ERR;
	}

	int rc = WTG_OK;
	int64_t sums[2] = { 0, 0 };
	struct wtg_probe_result one = { 0 };
	bool used_direct[2] = { false, false };
	for (int i = 0; i < 2 && rc == WTG_OK; i++) {
		const struct variant *v = &var[order[i]];
		wtg_ctx_progress(ctx, i + 1, 3, v->name);
		struct wtg_read_pass p;
		rc = wtg_read_pass(ctx, buf, v->bufsize, slice, v->name, &p);
		if (rc != WTG_OK)
			break;
		used_direct[order[i]] = p.direct;
		const struct wtg_probe_result *res = &p.res;
		sums[order[i]] = p.sum;
		if (order[i] == 0)
			one = *res;
		double predicted = (double)p.calls * cost_ns / 1e6;
		const struct wtg_value row[] = {
			WTG_TEXT(v->name),
			WTG_INT(p.bytes),
			WTG_INT(p.calls),
			WTG_REAL(res->wall_ms),
			WTG_REAL(res->user_ms),
			WTG_REAL(res->sys_ms),
			WTG_REAL(res->wall_ms * 1e6 / (double)p.bytes),
			WTG_INT(p.sum),
			WTG_REAL(predicted),
			WTG_REAL(predicted > 0 ? res->wall_ms / predicted : 0),
		};
		wtg_table_add_row(ctx->t, row, (int)WTG_ARRAY_LEN(row), res);
		wtg_check_read_calls(ctx, v->name, p.calls, p.bytes, v->bufsize);
		if (!wtg_check_sum(ctx, v->name, p.sum, wtg_datafile_prefix_sum(df, p.bytes)))
			rc = WTG_ERR;
		if (wtg_ctx_cancelled(ctx))
			rc = WTG_CANCELLED;
	}
	free(buf);
	if (rc != WTG_OK)
		return rc;
	wtg_ctx_progress(ctx, 3, 3, "done");

	char sz[32];
	wtg_fmt_size(sz, sizeof sz, slice);
	wtg_table_note(ctx->t,
		       "the first %s of the data file, summed twice: one byte per read() and 64 KiB per "
		       "read(); run in seeded random order (%s first)",
		       sz, var[order[0]].name);
	wtg_table_note(ctx->t,
		       "predicted_ms = read_calls x %.1f ns, the median cost of one 1-byte read() over %d "
		       "batches of %d (measured just before; other read() calls on the data file: %lld, not "
		       "in read_calls)",
		       cost_ns, CAL_BATCHES, CAL_CALLS, (long long)cal_calls);
	wtg_table_note(ctx->t, "no warm-up pass: the slice is as the data file's creation or scan left it "
			       "(in the page cache, unless the u condition evicts it or reads around it)");
	if (used_direct[1])
		wtg_table_note(ctx->t, "O_DIRECT: the 64 KiB variant bypasses the page cache; a 1-byte read "
				       "cannot be aligned, so the 1-byte variant and its cost read through "
				       "the page cache");
	else if (wtg_uncached_requested())
		wtg_table_note(ctx->t, "uncached I/O: %s before each variant",
			       wtg_iomode_name(wtg_iomode_effective(df)));
	if (one.threads) {
		double pred = (double)slice * cost_ns / 1e6;
		wtg_table_note(ctx->t,
			       "1-byte variant: wall %.1f ms, CPU (user + sys) %.1f ms = %.2f x predicted, "
			       "%lld involuntary context switches: wall beyond CPU time is time spent "
			       "waiting for a CPU",
			       one.wall_ms, one.user_ms + one.sys_ms,
			       pred > 0 ? (one.user_ms + one.sys_ms) / pred : 0, (long long)one.ivcsw);
	}
	if (sums[0] == sums[1])
		wtg_table_note(ctx->t, "same sum both ways: the extra time is not arithmetic");
	return WTG_OK;
}

double wtg_headline_bytewise(struct wtg_ctx *ctx)
{
	/* 64 KiB one byte per read(): about 20 ms at 300 ns a call */
	struct wtg_datafile *df = ctx->df;
	uint64_t bytes = df->size < WTG_CHUNK ? df->size : WTG_CHUNK;
	bool direct;
	int fd = wtg_iomode_open_for(ctx, 1, &direct);
	if (fd < 0) {
		wtg_table_fail(ctx->t, "bytewise: cannot open %s: %s", df->path, strerror(errno));
		return NAN;
	}
	wtg_iomode_before_pass(df);
	int64_t sum = 0;
	double ns = wtg_time_read1_batch(fd, (long)bytes, &sum);
	close(fd);
	if (ns < 0) {
		wtg_table_fail(ctx->t, "bytewise: reading %s failed", df->path);
		return NAN;
	}
	int64_t want = wtg_datafile_prefix_sum(df, bytes);
	if (sum != want) {
		wtg_table_fail(ctx->t, "bytewise: sum %lld of the first %llu bytes is not the known %lld",
			       (long long)sum, (unsigned long long)bytes, (long long)want);
		return NAN;
	}
	return ns;
}

const struct wtg_experiment wtg_exp_bytewise = {
	.name = "bytewise",
	.question = "Why did adding up bytes take 21 s?",
	.runs = "sum a slice one byte per read() and again 64 KiB per read(); user/sys split, calls, "
		"predicted vs measured",
	.view = WTG_VIEW_BARS,
	.needs_datafile = true,
	.run = run,
};
