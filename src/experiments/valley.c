/* valley.c: How big should the read buffer be?
 *
 * The same buffered sum for buffer sizes 16 B .. 16 MiB in x4 steps (x16 with --quick). Small buffers pay a kernel
 * crossing every few bytes; huge ones stop fitting in the caches. A sample reads at most a fixed
 * number of calls' worth of the file (and at most a fixed number of bytes), so the 16-byte row does
 * not take minutes; every row is 15 or more samples from the rounds engine, the sizes in seeded
 * random order in every round. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "io.h"
#include "pages.h"
#include "rounds.h"
#include "wtg/ctx.h"
#include "wtg/plan.h"
#include "why.h"

#define MIN_BUF 16u
#define MAX_BUF (16u << 20)
#define WARM_BUF (1u << 20)
#define NSIZES 11	/* 16 B .. 16 MiB in x4 steps */
#define STEP 4
#define STEP_QUICK 16	/* --quick: 16 B, 256 B, 4 KiB, 64 KiB, 1 MiB, 16 MiB */
/* what one sample reads: min(file, bufsize x calls, cap) bytes */
#define MAX_CALLS_FULL (1ull << 14)
#define MAX_CALLS_QUICK (1ull << 12)
#define CAP_FULL (64ull << 20)
#define CAP_QUICK (16ull << 20)
#define WARMUP 2	/* unreported samples per variant: the second re-sizes the sample from a warm start */
#define MAX_PASSES 256	/* a sample repeats a short pass at most this many times */

/* One buffered pass over the first `want` bytes with a fresh descriptor in the mode in force. */
static int pass(struct wtg_ctx *ctx, unsigned char *buf, size_t bufsize, uint64_t want,
		struct wtg_read_pass *p)
{
	char what[40];
	snprintf(what, sizeof what, "bufsize %zu", bufsize);
	return wtg_read_pass(ctx, buf, bufsize, want, what, p);
}

struct vstate {
	unsigned char *buf;
	size_t sizes[NSIZES];
	int nsizes;
	uint64_t want[NSIZES];		/* bytes a pass of each size asks for */
	int passes[NSIZES];		/* passes a sample of each size makes: at least WTG_SAMPLE_MIN_MS */
	struct wtg_read_pass last[NSIZES];	/* the latest sample of each size */
	double pass_ms[NSIZES];		/* a pass's time at the latest warm-up sample's rate */
	/* a paired run's arm B (its own copy, wtg_rounds_spec.arg_b): arm A's state, whose samples it
	 * spans as long as; and the sizes whose first warm-up sample calibrated it */
	const struct vstate *a;
	bool calibrated[NSIZES];
	double warm_wall, warm_cpu;	/* arm B's warm-up samples so far: wall ms, and ms on a CPU */
};

static void label(const void *arg, int v, char *buf, size_t len)
{
	const struct vstate *st = arg;
	char sz[32];
	wtg_fmt_size(sz, sizeof sz, st->sizes[v]);
	snprintf(buf, len, "bufsize %s", sz);
}

/* Arm B's sample of size v from a pass of bytes that took wall ms (cpu ms of it without its waits for
 * a CPU): as long in wall time as arm A's sample (waits included: under burners they are the
 * condition), in passes of arm A's bytes. A pass's wall time is its time on a CPU over the share of
 * the wall time arm B's warm-up samples so far spent on one (all sizes, so one sample a burner held
 * for most of its time, or none of it, does not set the count alone; a pass on a CPU never less than
 * arm A's same pass). Only where one pass, its waits for a CPU left out, would take more than TRIM
 * times arm A's sample (an I/O condition: a CPU one's slower passes are its waits) does a pass read
 * fewer bytes (whole buffers, aligned, whole sum pages), sized to span arm A's sample, so the arms'
 * bytes differ only where arm B's device, not its share of a CPU, sets the pace (at 4 times, an
 * uncached 64 KiB row whose 16 MiB pass took 28 ms against arm A's 8 ms sample read it whole, and
 * arm B's row took 3.4 times arm A's). */
#define TRIM 1.5
static double arm_b_target(const struct vstate *st, int v)
{
	double target = st->a->passes[v] * st->a->pass_ms[v];
	return target > 1.5 * WTG_SAMPLE_MIN_MS ? target : 1.5 * WTG_SAMPLE_MIN_MS;
}

static void size_arm_b(struct wtg_ctx *ctx, struct vstate *st, int v, uint64_t bytes, double ms, double cpu)
{
	const double target = arm_b_target(st, v), full = bytes ? (double)st->a->want[v] / (double)bytes : 1;
	uint64_t unit = st->sizes[v];
	if (unit < wtg_io_align(ctx->df))
		unit = wtg_io_align(ctx->df);
	if (unit < WTG_SUM_PAGE)
		unit = WTG_SUM_PAGE;
	if (unit > st->a->want[v])
		unit = st->a->want[v];	/* a file shorter than the buffer: its whole length, never trimmed */
	st->warm_wall += ms;
	st->warm_cpu += cpu < ms ? cpu : ms;
	st->pass_ms[v] = ms * full;
	st->passes[v] = 1;
	st->want[v] = st->a->want[v];
	if ((cpu < ms ? cpu : ms) * full > TRIM * target) {
		uint64_t want = (uint64_t)((double)bytes * target / ms) / unit * unit;
		st->want[v] = want < unit ? unit : want < st->a->want[v] ? want : st->a->want[v];
		st->pass_ms[v] = ms * (double)st->want[v] / (double)bytes;
		return;
	}
	double cpu_pass = cpu * full, share = st->warm_wall > 0 ? st->warm_cpu / st->warm_wall : 1;
	if (st->a->pass_ms[v] > cpu_pass)
		cpu_pass = st->a->pass_ms[v];
	double pace = share > 0.01 ? cpu_pass / share : ms * full;
	double n = pace > 0 ? ceil(target / pace) : 1;
	st->passes[v] = n < 1 ? 1 : n > MAX_PASSES ? MAX_PASSES : (int)n;
}

/* Arm B's first warm-up sample of size v: passes of 64 KiB at first, four times more each, until one
 * spans a quarter of the target or reads what arm A's does; arm B's sample sized from the last, whose
 * rate is the sample's figure. So an uncached arm never reads arm A's 16 MiB at 4 KiB a call. */
static int calibrate(struct wtg_ctx *ctx, struct vstate *st, int v, const char *what, struct wtg_rounds_sample *out)
{
	struct wtg_read_pass *p = &st->last[v];
	uint64_t want = 64u << 10, cap = st->a->want[v];
	double target = arm_b_target(st, v);
	for (;;) {
		want = want < st->sizes[v] ? st->sizes[v] : want;
		want = want > cap ? cap : want;
		int rc = wtg_read_passes(ctx, st->buf, st->sizes[v], want, 1, what, p);
		if (rc != WTG_OK)
			return rc;
		double ms = p->res.wall_ms;	/* its samples' wall time, waits for a CPU and all */
		if (want >= cap || ms >= target / 4) {
			size_arm_b(ctx, st, v, p->bytes, ms, wtg_rounds_warmup_ms(&p->res));
			break;
		}
		want *= 4;
	}
	st->calibrated[v] = true;
	out->res = p->res;
	out->figure = p->res.wall_ms > 0 ? (double)p->bytes / (p->res.wall_ms * 1e6) : 0;
	return WTG_OK;
}

/* One sample: passes[v] passes of want bytes from offset 0, each pass's calls and sum checked (the
 * sum every time, silently when right); a short warm-up sets how many passes the timed samples make,
 * and the warm-up after the others' turns makes one. */
static int sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	struct vstate *st = arg;
	struct wtg_read_pass *p = &st->last[v];
	char what[48];
	label(arg, v, what, sizeof what);
	if (round == WTG_ROUND_WARMUP && st->a && !st->calibrated[v])
		return calibrate(ctx, st, v, what, out);
	const int passes = st->passes[v] > 0 && round != WTG_ROUND_RETURN ? st->passes[v] : 1;
	int rc = wtg_read_passes(ctx, st->buf, st->sizes[v], st->want[v], passes, what, p);
	if (rc != WTG_OK)
		return rc;
	int64_t expect = (int64_t)((p->bytes + st->sizes[v] - 1) / st->sizes[v]);
	if (p->calls != expect && !wtg_check_read_calls(ctx, what, p->calls, p->bytes, st->sizes[v]))
		wtg_table_fail(ctx->t, "%s: %lld read calls, not ceil(bytes / bufsize)", what, (long long)p->calls);
	if (ctx->t->error[0])
		return WTG_ERR;
	out->res = p->res;
	out->figure = p->res.wall_ms > 0 ? (double)p->bytes * passes / (p->res.wall_ms * 1e6) : 0;
	if (round == WTG_ROUND_WARMUP && p->bytes > 0 && st->a)
		size_arm_b(ctx, st, v, p->bytes, p->res.wall_ms / passes, wtg_rounds_warmup_ms(&p->res) / passes);
	else if (round == WTG_ROUND_WARMUP && p->bytes > 0) {
		st->pass_ms[v] = wtg_rounds_warmup_ms(&p->res) / passes;
		st->passes[v] = (int)(wtg_rounds_sample_bytes(p->bytes * (uint64_t)passes, wtg_rounds_warmup_ms(&p->res),
							      p->bytes, p->bytes * MAX_PASSES) / p->bytes);
	}
	return WTG_OK;
}

static int row(struct wtg_ctx *ctx, void *arg, int v, const struct wtg_rounds_result *r, struct wtg_value *vals)
{
	(void)ctx;
	const struct vstate *st = arg;
	const struct wtg_read_pass *p = &st->last[v];
	double ms = r->s.median > 0 ? (double)p->bytes / (r->s.median * 1e6) : 0;
	int n = 0;
	vals[n++] = WTG_INT(st->sizes[v]);
	vals[n++] = WTG_INT(p->calls);
	vals[n++] = WTG_INT(p->bytes);
	vals[n++] = WTG_REAL(ms);
	vals[n++] = WTG_REAL(r->s.median);
	vals[n++] = WTG_INT(p->sum);
	n += wtg_rounds_values_after(vals + n, r);
	vals[n++] = WTG_REAL(p->calls > 0 ? ms * 1e6 / (double)p->calls : 0);
	vals[n++] = WTG_REAL(r->s.median > 0 ? 1e3 / r->s.median : 0);	/* ms per GB: the essay's valley */
	return n;
}

extern const struct wtg_experiment wtg_exp_valley;

static const struct wtg_column cols[] = {
	{ "bufsize", "B", WTG_T_INT, 0 },
	{ "read_calls", "count", WTG_T_INT, 0 },
	{ "bytes", "B", WTG_T_INT, 0 },
	{ "ms", "ms", WTG_T_REAL, 2 },
	{ "gbps", "GB/s", WTG_T_REAL, 2 },
	{ "sum", "", WTG_T_INT, 0 },
	WTG_ROUNDS_AFTER("gbps", "GB/s", 2),
	{ "ns_per_call", "ns", WTG_T_REAL, 1 },
	{ "ms_per_gb", "ms", WTG_T_REAL, 1 },
};

/* The sizes a run measures over a file of size bytes: those below align (O_DIRECT's alignment in
 * force, else 0) are skipped (*skipped_below). */
static void valley_sizes(const struct wtg_options *o, uint64_t size, size_t align, struct vstate *st,
			 size_t *skipped_below)
{
	const bool quick = o->quick;
	const uint64_t max_calls = quick ? MAX_CALLS_QUICK : MAX_CALLS_FULL;
	const uint64_t cap = quick ? CAP_QUICK : CAP_FULL;
	*skipped_below = 0;
	st->nsizes = 0;
	for (size_t b = MIN_BUF; b <= MAX_BUF; b *= quick ? STEP_QUICK : STEP) {
		if (b < align) {
			*skipped_below = align;
			continue;
		}
		uint64_t want = size;
		if ((uint64_t)b * max_calls < want)
			want = (uint64_t)b * max_calls; /* a multiple of WTG_CHUNK */
		if (cap < want)
			want = cap < b ? b : cap / b * b;
		st->sizes[st->nsizes] = b;
		st->want[st->nsizes++] = want;
	}
}

static void add_notes(struct wtg_ctx *ctx, const struct wtg_rounds *r, size_t skipped_below)
{
	const bool quick = ctx->opt->quick;
	char maxb[32], cap[32];
	wtg_fmt_size(maxb, sizeof maxb, ctx->df->size);
	wtg_fmt_size(cap, sizeof cap, quick ? CAP_QUICK : CAP_FULL);
	wtg_table_note(ctx->t,
		       "warm-up (fixed before measuring): one unreported pass over the whole %s file with "
		       "a 1 MiB buffer; then every sample opens the file afresh and reads from offset 0",
		       maxb);
	if (ctx->cold)
		wtg_table_note(ctx->t, "cold cache (c): the data file was evicted from the page cache before every "
				       "pass (the warm-up's too): each pass started with none of it cached");
	wtg_table_note(ctx->t, "buffer sizes 16 B .. 16 MiB in x%d steps%s", quick ? STEP_QUICK : STEP,
		       quick ? " (--quick; x4 without it)" : "");
	wtg_table_note(ctx->t,
		       "a pass reads min(file, bufsize x %llu, %s) bytes, so small buffers read a slice "
		       "and no pass makes more than %llu read() calls; a sample repeats the pass (up to %d "
		       "times, each on a fresh descriptor) where one spans less than %.0f ms at the "
		       "warm-up sample's rate; read_calls, bytes and sum are per pass, every pass's sum checked",
		       (unsigned long long)(quick ? MAX_CALLS_QUICK : MAX_CALLS_FULL), cap,
		       (unsigned long long)(quick ? MAX_CALLS_QUICK : MAX_CALLS_FULL), MAX_PASSES, WTG_SAMPLE_MIN_MS);
	wtg_table_note(ctx->t,
		       "the buffer is one %u MiB allocation touched before timing; GB/s = bytes / ms / 1e6; "
		       "ms: bytes at the median GB/s",
		       MAX_BUF >> 20);
	wtg_rounds_note(ctx, r, WARMUP);
	if (skipped_below)
		wtg_table_note(ctx->t,
			       "O_DIRECT in force: buffer sizes below its %zu-byte alignment are skipped",
			       skipped_below);
	else if (wtg_uncached_requested())
		wtg_table_note(ctx->t, "uncached I/O: %s before each sample",
			       wtg_iomode_name(wtg_iomode_effective(ctx->df)));
}

static void add_checks(struct wtg_ctx *ctx, const struct vstate *st, const struct vstate *stb,
		       const struct wtg_rounds *r)
{
	for (int v = 0; v < r->nvariants; v++) {
		char name[48], sz[32];
		label(st, v, name, sizeof name);
		const struct wtg_read_pass *p = &st->last[v];
		wtg_check_read_calls(ctx, name, p->calls, p->bytes, st->sizes[v]);
		wtg_check_sums_row(ctx, name, (int)r->v[v].n, p->sum * (int64_t)r->v[v].n);
		wtg_rounds_checks(ctx, name, "GB/s", &r->v[v]);
		if (!r->b)
			continue;
		const struct wtg_read_pass *q = &stb->last[v];
		wtg_fmt_size(sz, sizeof sz, st->sizes[v]);
		snprintf(name, sizeof name, "B: bufsize %s", sz);
		wtg_check_read_calls(ctx, name, q->calls, q->bytes, st->sizes[v]);
		wtg_check_sums_row(ctx, name, (int)r->b[v].n, q->sum * (int64_t)r->b[v].n);
	}
}

/* A paired run whose arm B reads with O_DIRECT: the sizes below its alignment read through the page
 * cache in both arms, and arm B's passes may read fewer bytes than arm A's. */
static void arm_b_note(struct wtg_ctx *ctx, const struct vstate *stb, const struct wtg_rounds *r)
{
	if (!r->b)
		return;
	char sizes[96] = "", sz[32];
	size_t len = 0;
	bool direct = false, shorter = false;
	for (int v = 0; v < r->nvariants; v++) {
		direct |= stb->last[v].direct;
		shorter |= stb->want[v] < stb->a->want[v];
		wtg_fmt_size(sz, sizeof sz, stb->sizes[v]);
		if (!stb->last[v].direct && len < sizeof sizes)
			len += (size_t)snprintf(sizes + len, sizeof sizes - len, "%s%s", len ? ", " : "", sz);
	}
	if (direct && len)
		wtg_table_note(ctx->t,
			       "arm B reads with O_DIRECT: below its %zu-byte alignment (%s) it reads through the "
			       "page cache as arm A does, so those rows' ratios are not uncached I/O's",
			       wtg_io_align(ctx->df), sizes);
	if (shorter)
		wtg_table_note(ctx->t, "arm B's passes read fewer bytes than arm A's where one of arm A's would "
				       "take arm B, its waits for a CPU left out, more than %.1f times as long as arm "
				       "A's sample (column bytes, per arm)",
			       TRIM);
}

static int valley_run(struct wtg_ctx *ctx)
{
	struct wtg_datafile *df = ctx->df;
	wtg_experiment_columns(&wtg_exp_valley, ctx->t);
	struct vstate st = { 0 };
	st.buf = wtg_aligned_alloc(wtg_io_align(df), MAX_BUF);
	if (!st.buf) {
		wtg_table_fail(ctx->t, "out of memory for a %u-byte buffer", MAX_BUF);
		return WTG_ERR;
	}
	memset(st.buf, 0, MAX_BUF); /* fault the buffer in before any timing */

	/* fixed warm-up rule: one unreported 1 MiB-buffer pass over the whole file */
	wtg_ctx_progress(ctx, 0, 1, "warm-up pass");
	struct wtg_read_pass p;
	int rc = pass(ctx, st.buf, WARM_BUF, df->size, &p);
	if (rc == WTG_OK && !wtg_check_sum(ctx, "warm-up pass", p.sum, wtg_datafile_prefix_sum(df, p.bytes)))
		rc = WTG_ERR;
	size_t skipped_below = 0;
	valley_sizes(ctx->opt, df->size, rc == WTG_OK && p.direct ? wtg_io_align(df) : 0, &st, &skipped_below);
	struct wtg_rounds r = { 0 };
	struct vstate stb = st;	/* a paired run's arm B: its own sizes, by its own warm-up */
	stb.a = &st;
	const struct wtg_rounds_spec spec = {
		.nvariants = st.nsizes, .rounds = WTG_ROUNDS_MIN, .warmup = WARMUP, .unit = "GB/s",
		.sample = sample, .row = row, .arg = &st, .arg_b = ctx->arms ? &stb : NULL, .label = label,
		.declare_work = true, .return_pass = "one untimed pass of every buffer size",
	};
	if (rc == WTG_OK)
		rc = wtg_rounds_run(ctx, &spec, &r);
	free(st.buf);
	if (rc == WTG_OK) {
		wtg_ctx_progress(ctx, 1, 1, "done");
		add_checks(ctx, &st, &stb, &r);
		arm_b_note(ctx, &stb, &r);
		add_notes(ctx, &r, skipped_below);
	}
	wtg_rounds_free(&r);
	return rc;
}

/* compare's figure: GB/s of a buffered 64 KiB-read sum of the first 64 MiB of the file at most:
 * about 10 ms warm */
static double pairing_figure(struct wtg_ctx *ctx)
{
	struct wtg_read_pass p;
	if (wtg_checked_pass(ctx, "valley", 64u << 10, 64ull << 20, &p) != WTG_OK)
		return NAN;
	return p.res.wall_ms > 0 ? (double)p.bytes / (p.res.wall_ms * 1e6) : NAN;
}

/* --dry-run: the buffer sizes valley_sizes gives for the file's size (with --uncached, sizes
 * below a page are assumed refused), the calls and bytes a sample of each asks for. */
static void valley_plan(struct wtg_plan *p)
{
	static const char *const names[] = { "bufsize", "read_calls", "bytes" };
	struct vstate st = { 0 };
	size_t skipped;
	valley_sizes(p->opt, p->file_size, p->opt->uncached ? (size_t)wtg_page_size() : 0, &st, &skipped);
	wtg_plan_columns(p, names, 3);
	for (int v = 0; v < st.nsizes; v++) {
		const struct wtg_value row[] = { WTG_INT(st.sizes[v]),
						 WTG_INT((st.want[v] + st.sizes[v] - 1) / st.sizes[v]),
						 WTG_INT(st.want[v]) };
		wtg_plan_row(p, row);
	}
	wtg_rounds_plan(p, WARMUP);
}

/* A buffer size as the axis writes it: 16, 4K, 1M. */
static void short_size(char *buf, size_t len, double b)
{
	if (b >= 1 << 20)
		snprintf(buf, len, "%.0fM", b / (1 << 20));
	else if (b >= 1 << 10)
		snprintf(buf, len, "%.0fK", b / (1 << 10));
	else
		snprintf(buf, len, "%.0f", b);
}

/* "best buffer 256K-1M: 7.6 GB/s": the sizes within 5% of the fastest. */
static int valley_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	int bc = wtg_table_col(t, "bufsize"), gc = wtg_table_col(t, "gbps");
	double best = NAN, lo = INFINITY, hi = 0;
	for (int r = 0; bc >= 0 && gc >= 0 && r < t->nrows; r++)
		if (isnan(best) || wtg_table_num(t, r, gc) > best)
			best = wtg_table_num(t, r, gc);
	for (int r = 0; isfinite(best) && r < t->nrows; r++)
		if (wtg_table_num(t, r, gc) >= 0.95 * best) {
			lo = fmin(lo, wtg_table_num(t, r, bc));
			hi = fmax(hi, wtg_table_num(t, r, bc));
		}
	char a[16], b[16];
	short_size(a, sizeof a, lo);
	short_size(b, sizeof b, hi);
	if (lo == hi)
		return wtg_verdict_fmt(buf, len, isfinite(best), "best buffer %s: %.1f GB/s, %.0f ms a GB", a, best,
				       1e3 / best);
	return wtg_verdict_fmt(buf, len, isfinite(best) && best > 0, "best buffer %s-%s: %.1f GB/s, %.0f ms a GB", a,
			       b, best, 1e3 / best);
}

const struct wtg_experiment wtg_exp_valley = {
	.name = "valley",
	.question = "How big should the read buffer be?",
	.runs = "buffered sum of the data file for buffer sizes 16 B .. 16 MiB (x4 steps, x16 with --quick)",
	.needs_datafile = true,
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_SWEEP,
	.sweep = { .x = "bufsize", .y = { "ms_per_gb" }, .xlo = 16, .xhi = 16 << 20, .xtitle = "read() buffer size",
		   .yunit = "ms per GB", .ylog = true },
	.headline = { { "GB/s, 16-byte reads (the call-bound end)", "bufsize", "16", "gbps", "gbps_ci_low",
			"gbps_ci_high", NULL, "GB/s", true },
		      { "GB/s, buffered 64 KiB reads", "bufsize", "65536", "gbps", "gbps_ci_low", "gbps_ci_high", NULL,
			"GB/s", true } },
	.compare = { pairing_figure, "gbps", 2, "GB/s of a buffered 64 KiB-read sum of the file" },
	.typical_s = 4,
	.typical_quick_s = 2,
	.verdict = valley_verdict,
	.essay = { "a valley: 16-byte reads 312 ns a call, its floor 108 ms a GB (1 MiB reads)", NULL,
		   .value = 312, .here = wtg_why_valley_call_ns, .why = wtg_why_crossing },
	.terms = WTG_TERMS("bufsize", "read", "crossing", "pagecache", "gbps", "ci"),
	.interleaves = true,
	.measures_cold = true,
	.alternates = true,
	.run = valley_run,
	.plan = valley_plan,
};
