/* bytewise.c: Why did adding up bytes take 21 s?
 *
 * The essay's first two programs: sum a slice of the data file one byte per read(), then 64 KiB
 * per read(). Same bytes, same sum; the difference is the number of kernel crossings, which the
 * user/sys split shows. Before either, a calibration times reads of several sizes (interleaved in
 * seeded order) and fits t = a x calls + b x bytes, so each row's prediction counts both the
 * crossings and the bytes copied and summed. Both run as rounds (>= 15 samples, median with a
 * bootstrap CI): a one-byte sample reads one of 15 pieces of the slice (its time scaled to the slice),
 * a 64 KiB sample repeats the pass over the slice until it spans at least WTG_SAMPLE_MIN_MS. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "io.h"
#include "wtg/ctx.h"
#include "wtg/warmup.h"
#include "wtg/plan.h"
#include "rounds.h"
#include "why.h"

#define SLICE_FULL (8ull << 20)
#define SLICE_QUICK (512ull << 10)	/* 15 pieces of 34 KiB: 5 ms or more a piece where a read() costs 150 ns */
#define BIG_BUF (64u * 1024u)
#define CAL_ROUNDS 16		/* calibration: rounds of one batch per read size, seeded order */
#define CAL_BATCH_BYTES (1u << 20)	/* a batch reads about this much ... */
#define CAL_MIN_CALLS 32	/* ... in at least this many calls ... */
#define CAL_MAX_CALLS 1024	/* ... and at most this many */
#define NSIZES 4
#define MAX_PASSES 1024	/* a 64 KiB-read sample repeats a short pass at most this many times (256 of
				 * --quick's 512 KiB spanned 5.1 ms here) */

static const size_t cal_sizes[NSIZES] = { 1, 64, 4096, BIG_BUF };

/* The fitted model: ns = a x calls + b x bytes, valid only between the read sizes it saw. */
struct model {
	double a, b;		/* ns per call, ns per byte */
	double ns[NSIZES];	/* median ns per call at each size (NAN: not calibrated) */
	size_t lo, hi;		/* the smallest and largest size calibrated */
	int nsizes;
	int64_t calls;		/* read() calls the calibration made */
	bool valid;		/* a > 0, b >= 0 from at least two sizes */
};

/* The sum of the first `bytes` of fd by pread() in BIG_BUF pieces: the reference a calibration batch
 * must match. Returns 0, or -1 after wtg_table_fail. */
static int ref_sum(struct wtg_ctx *ctx, int fd, unsigned char *buf, uint64_t bytes, int64_t *sum)
{
	*sum = 0;
	for (uint64_t off = 0; off < bytes;) {
		size_t want = bytes - off < BIG_BUF ? (size_t)(bytes - off) : BIG_BUF;
		ssize_t r = pread(fd, buf, want, (off_t)off);
		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			wtg_table_fail(ctx->t, "calibration: reading %s: %s", ctx->df->path,
				       r < 0 ? strerror(errno) : "the file is shorter");
			return -1;
		}
		*sum += wtg_sum_bytes(buf, (size_t)r);
		off += (uint64_t)r;
	}
	return 0;
}

/* One timed batch: `calls` reads of `size` bytes from the start of fd, each summed as the variants
 * do (wtg_read_sum). Returns ns per call, or -1 after wtg_table_fail (read error, short file, or a
 * sum that is not the reference `want_sum`). */
static double cal_batch(struct wtg_ctx *ctx, int fd, unsigned char *buf, size_t size, long calls,
			int64_t want_sum)
{
	uint64_t want = (uint64_t)size * (uint64_t)calls;
	int64_t sum = 0, bytes = 0, n = 0;
	if (lseek(fd, 0, SEEK_SET) < 0) {
		wtg_table_fail(ctx->t, "calibration: seek in %s: %s", ctx->df->path, strerror(errno));
		return -1;
	}
	int64_t t0 = wtg_now_ns();
	int r = wtg_read_sum(NULL, fd, buf, size, want, &sum, &bytes, &n);
	int64_t t1 = wtg_now_ns();
	if (r < 0 || (uint64_t)bytes != want || n != calls) {
		wtg_table_fail(ctx->t, "calibration: %zu-byte reads of %s: %s", size, ctx->df->path,
			       r < 0 ? strerror(errno) : "the file is shorter");
		return -1;
	}
	if (sum != want_sum) {
		wtg_check_sum(ctx, "calibration", sum, want_sum);
		return -1;
	}
	return (double)(t1 - t0) / (double)calls;
}

/* Least squares of ns per call on the read size: ns = a + b x size. */
static void fit(struct model *m)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	int k = 0;
	for (int i = 0; i < NSIZES; i++) {
		if (isnan(m->ns[i]))
			continue;
		double x = (double)cal_sizes[i], y = m->ns[i];
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
		k++;
	}
	m->nsizes = k;
	double den = k * sxx - sx * sx;
	if (k < 2 || den <= 0)
		return;
	m->b = (k * sxy - sx * sy) / den;
	m->a = (sy - m->b * sx) / k;
	m->valid = m->a > 0 && m->b >= 0;
}

/* The calibration: CAL_ROUNDS rounds, each size once per round in seeded order, on a page-cache
 * descriptor; sizes whose batch would not fit in the file are left out. Returns WTG_OK, WTG_ERR or
 * WTG_CANCELLED; m->valid says whether the model can predict. */
static int calibrate(struct wtg_ctx *ctx, unsigned char *buf, struct model *m)
{
	double v[NSIZES][CAL_ROUNDS];
	long calls[NSIZES];
	int order[NSIZES];
	memset(m, 0, sizeof *m);
	for (int i = 0; i < NSIZES; i++) {
		long c = (long)(CAL_BATCH_BYTES / cal_sizes[i]);
		c = c < CAL_MIN_CALLS ? CAL_MIN_CALLS : c > CAL_MAX_CALLS ? CAL_MAX_CALLS : c;
		if ((uint64_t)c * cal_sizes[i] > ctx->df->size)
			c = (long)(ctx->df->size / cal_sizes[i]);
		calls[i] = c;
		m->ns[i] = NAN;
	}
	int fd = open(ctx->df->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		wtg_table_fail(ctx->t, "cannot open %s: %s", ctx->df->path, strerror(errno));
		return WTG_ERR;
	}
	int64_t ref[NSIZES];
	for (int i = 0; i < NSIZES; i++) {
		uint64_t bytes = (uint64_t)calls[i] * cal_sizes[i];
		if (ref_sum(ctx, fd, buf, bytes, &ref[i]) < 0) {
			close(fd);
			return WTG_ERR;
		}
		/* the largest region is whole chunks: its sum is known independently */
		int64_t known = wtg_datafile_prefix_sum(ctx->df, bytes);
		if (i == NSIZES - 1 && known >= 0 && !wtg_check_sum(ctx, "calibration", ref[i], known)) {
			close(fd);
			return WTG_ERR;
		}
	}
	for (int r = 0; r < CAL_ROUNDS; r++) {
		for (int i = 0; i < NSIZES; i++)
			order[i] = i;
		wtg_shuffle_int(&ctx->rng, order, NSIZES);
		for (int k = 0; k < NSIZES; k++) {
			int i = order[k];
			if (calls[i] < 1)
				continue;
			if ((v[i][r] = cal_batch(ctx, fd, buf, cal_sizes[i], calls[i], ref[i])) < 0) {
				close(fd);
				return WTG_ERR;
			}
			m->calls += calls[i];
		}
		if (wtg_ctx_cancelled(ctx)) {
			close(fd);
			return WTG_CANCELLED;
		}
	}
	close(fd);
	m->lo = m->hi = 0;
	for (int i = 0; i < NSIZES; i++) {
		if (calls[i] < 1)
			continue;
		m->ns[i] = wtg_quantile(v[i], CAL_ROUNDS, 0.5);
		if (!m->lo)
			m->lo = cal_sizes[i];
		m->hi = cal_sizes[i];
	}
	fit(m);
	return WTG_OK;
}

/* The model's time for a pass in ms, or NAN where it cannot say: no valid fit, a read size outside
 * the calibrated ones, or O_DIRECT (the calibration read through the page cache). */
static double predict_ms(const struct model *m, int64_t calls, uint64_t bytes, size_t bufsize, bool direct)
{
	if (!m->valid || direct || bufsize < m->lo || bufsize > m->hi)
		return NAN;
	return (m->a * (double)calls + m->b * (double)bytes) / 1e6;
}

extern const struct wtg_experiment wtg_exp_bytewise;

/* ms itself comes early, where the SPEC has it: its CI, min, max and samples follow the prediction */
static const struct wtg_column cols[] = {
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
	WTG_ROUNDS_AFTER("ms", "ms", 2),
};

/* What a variant's row says: the median sample (or the one sample) and its spread. */
struct outcome {
	const char *name;
	size_t bufsize;
	uint64_t bytes;
	int64_t calls, sum;
	bool direct;
	double ms, user_ms, sys_ms;	/* per sample: the median wall, the mean CPU times */
	double ci_low, ci_high, min, max;
	size_t samples;
	struct wtg_value after[WTG_ROUNDS_NCOLS - 1];	/* CI .. sample_ms of a row measured in rounds */
	int passes;			/* 64 KiB: passes of the slice a timed sample makes */
	int sizing_passes;		/* 64 KiB: passes its second sizing sample made (the first: one) */
	int64_t extra_calls;		/* read() calls beyond read_calls: warm-up and repeated passes */
	int again;			/* an interleaved run: warm-ups again, after others measured */
	int warm_windows;		/* the rounds' warm-up windows, and whether the rule was met */
	bool warm_met;
	struct wtg_probe_result res;
};

static void add_row(struct wtg_ctx *ctx, const struct model *m, const struct outcome *o)
{
	double pred = predict_ms(m, o->calls, o->bytes, o->bufsize, o->direct);
	const struct wtg_value row[] = {
		WTG_TEXT(o->name),
		WTG_INT(o->bytes),
		WTG_INT(o->calls),
		WTG_REAL(o->ms),
		WTG_REAL(o->user_ms),
		WTG_REAL(o->sys_ms),
		WTG_REAL(o->ms * 1e6 / (double)o->bytes),
		WTG_INT(o->sum),
		isnan(pred) ? WTG_NA : WTG_REAL(pred),
		isnan(pred) || pred <= 0 ? WTG_NA : WTG_REAL(o->ms / pred),
	};
	struct wtg_value vals[WTG_MAX_COLS];
	int n = (int)WTG_ARRAY_LEN(row);
	memcpy(vals, row, sizeof row);
	if (o->samples > 1) {
		memcpy(vals + n, o->after, sizeof o->after);
	} else {	/* one sample: no interval, no replicas */
		for (int i = 0; i < WTG_ROUNDS_NCOLS - 1; i++)
			vals[n + i] = WTG_NA;
		vals[n + 2] = WTG_REAL(o->min);
		vals[n + 3] = WTG_REAL(o->max);
		vals[n + 4] = WTG_INT(o->samples);
	}
	wtg_table_add_row(ctx->t, vals, n + WTG_ROUNDS_NCOLS - 1, &o->res);
	wtg_check_read_calls(ctx, o->name, o->calls, o->bytes, o->bufsize);
}

/* The run's work in ns, so the time left counts each sample by its cost (a one-byte sample costs
 * thousands of 64 KiB passes): what the finished samples took, and the reads still to make at each
 * variant's expected cost, the calibration's until that variant's own samples measure it. */
struct work {
	double ns_call1;	/* expected ns of a one-byte read() */
	double ns_pass;		/* expected ns of a 64 KiB-read pass over the slice */
	double done;		/* ns the finished samples took */
	double calls1;		/* one-byte reads still to make */
	double passes;		/* 64 KiB passes still to make */
	double took1, made1;	/* the one-byte samples so far: ns and calls */
	int warm_max;		/* warm-up windows at most (wtg_rounds_warm_max) */
};

static void work_report(struct wtg_ctx *ctx, const struct work *w)
{
	wtg_ctx_work(ctx, w->done, w->done + w->calls1 * w->ns_call1 + w->passes * w->ns_pass);
}

struct var_arg {
	unsigned char *buf;
	uint64_t slice;
	struct outcome *o;
	struct work *w;
	int passes;		/* 64 KiB: passes of the slice a sample makes (its two sizing samples size
				 * them; the warm-up windows and the rounds make as many) */
	bool timed;		/* a timed sample has been taken: the warm-up windows are over */
	int warmups;		/* 64 KiB: sizing samples made */
	bool counted;		/* 64 KiB: the pass read_calls counts has been made */
	uint64_t tbytes;	/* bytes the timed samples read, all passes */
	int64_t tcalls, tsum;	/* 1 B: read() calls and sum of the timed pieces (the whole slice) */
};

/* Piece k of the slice the one-byte variant reads in a sample: WTG_ROUNDS_MIN pieces cover it, whole
 * pages (WTG_SUM_PAGE, the known sums' unit) but the last. */
static void piece_of(uint64_t slice, int k, uint64_t *off, uint64_t *len)
{
	uint64_t piece = slice / WTG_ROUNDS_MIN / WTG_SUM_PAGE * WTG_SUM_PAGE;
	*off = (uint64_t)k * piece;	/* a slice shorter than that many pages: every sample reads it all */
	*len = k == WTG_ROUNDS_MIN - 1 || !piece ? slice - *off : piece;
}

/* One sample of the one-byte variant: piece `round` of the slice (the warm-up: piece 0) one byte per
 * read(), its sum checked against that piece's known sum; the figure is its time scaled to the
 * whole slice. */
static int one_sample(struct wtg_ctx *ctx, struct var_arg *a, int round, struct wtg_read_pass *p,
		      double *figure)
{
	uint64_t off, len;
	piece_of(a->slice, round < 0 ? 0 : round % WTG_ROUNDS_MIN, &off, &len);
	int rc = wtg_read_pass_at(ctx, a->buf, 1, off, len, a->o->name, p);
	if (rc != WTG_OK)
		return rc;
	int64_t known = wtg_datafile_prefix_sum(ctx->df, off + len) - wtg_datafile_prefix_sum(ctx->df, off);
	if (!wtg_check_sum_quiet(ctx, a->o->name, p->sum, known))
		return WTG_ERR;
	if (round >= 0 && len == a->slice) {	/* the whole slice in every sample: one counts */
		if (a->tcalls)
			a->o->extra_calls += p->calls;
		a->tcalls = p->calls;
		a->tsum = p->sum;
	} else if (round >= 0) {
		a->tcalls += p->calls;
		a->tsum += p->sum;
	} else {
		a->o->extra_calls += p->calls;
	}
	*figure = len ? p->res.wall_ms * (double)a->slice / (double)len : 0;
	return WTG_OK;
}

/* The 64 KiB passes still to make after a sample of `made`: its warm-up sizes the later samples, the
 * windows' most and the timed samples planned at that many; the first timed sample drops the windows
 * not run; a warm-up again after the others' turns was never planned. */
static void passes_left(struct var_arg *a, int round, int made)
{
	struct work *w = a->w;
	if (round == WTG_ROUND_WARMUP)
		w->passes = (double)(w->warm_max * WTG_ROUNDS_WARM_WINDOW + WTG_ROUNDS_MIN) * a->passes;
	else if (round >= 0 && !a->timed)
		w->passes = (double)WTG_ROUNDS_MIN * a->passes - made;
	else if (round >= 0 || !a->timed)
		w->passes = fmax(0, w->passes - made);
}

/* A sample done (`made` passes, or a piece of p->calls one-byte reads): its time joins the work done,
 * its reads leave the reads to make (a warm-up again after the others' turns was never planned), and
 * it measures its variant's cost. */
static void sample_work(struct wtg_ctx *ctx, struct var_arg *a, int round, const struct wtg_read_pass *p,
			int made)
{
	struct work *w = a->w;
	double ns = p->res.wall_ms * 1e6;
	bool planned = round != WTG_ROUND_RETURN;
	w->done += ns;
	if (a->o->bufsize == 1) {
		w->took1 += ns;
		w->made1 += (double)p->calls;
		if (w->made1 > 0)
			w->ns_call1 = w->took1 / w->made1;
		if (planned)
			w->calls1 = fmax(0, w->calls1 - (double)p->calls);
	} else {
		if (made > 0 && ns > 0)
			w->ns_pass = ns / made;
		passes_left(a, round, made);
	}
	a->timed |= round >= 0;
	work_report(ctx, w);
}

/* One sample of a variant: a piece of the slice one byte per read(), or `passes` fresh 64 KiB-read
 * passes over it (a sum that is not the known one fails the table). The figure: ms for the slice. */
static int var_sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	(void)v;
	struct var_arg *a = arg;
	struct wtg_read_pass p;
	int rc, made = a->passes;
	if (a->o->bufsize == 1) {
		rc = one_sample(ctx, a, round, &p, &out->figure);
	} else {
		rc = wtg_read_passes(ctx, a->buf, BIG_BUF, a->slice, a->passes, a->o->name, &p);
		if (rc == WTG_OK) {
			/* read_calls counts one pass of one sample; every other pass is beyond it */
			a->o->extra_calls += p.calls * (round < 0 || a->counted ? a->passes : a->passes - 1);
			a->counted |= round >= 0;
			out->figure = p.res.wall_ms / a->passes;
			/* both sizing samples size it, growing only: the first reads a cold slice and
			 * ran 2.3x slower than the rounds here (108 passes then spanned 3.2 ms) */
			if (round == WTG_ROUND_WARMUP && p.bytes > 0) {
				if (a->warmups++ == 1)
					a->o->sizing_passes = made;
				a->passes = (int)(wtg_rounds_sample_bytes(p.bytes * (uint64_t)a->passes,
									  wtg_rounds_warmup_ms(&p.res), p.bytes,
									  p.bytes * MAX_PASSES) / p.bytes);
			}
		}
	}
	if (rc != WTG_OK)
		return rc;
	sample_work(ctx, a, round, &p, made);
	if (round >= 0)
		a->tbytes += a->o->bufsize == 1 ? p.bytes : p.bytes * (uint64_t)a->passes;
	a->o->bytes = a->o->bufsize == 1 ? a->slice : p.bytes;
	a->o->calls = a->o->bufsize == 1 ? a->tcalls : p.calls;
	a->o->sum = a->o->bufsize == 1 ? a->tsum : p.sum;
	a->o->direct = p.direct;
	out->res = p.res;
	return WTG_OK;
}

/* The rounds start again (a key changed the conditions): the dropped samples' totals go too. */
static void var_restart(void *arg)
{
	struct var_arg *a = arg;
	if (a->o->bufsize == 1)
		a->w->calls1 = (double)a->slice;
	else
		a->w->passes = (double)WTG_ROUNDS_MIN * a->passes;
	a->tbytes = 0;
	a->tcalls = a->tsum = 0;
}

static void var_label(const void *arg, int v, char *buf, size_t len)
{
	(void)v;
	snprintf(buf, len, "%s", ((const struct var_arg *)arg)->o->name);
}

/* A variant as rounds: one warm-up sample, then WTG_ROUNDS_MIN timed ones; the row's ms is the
 * median for the whole slice, user and sys the timed samples' CPU times scaled to one slice. */
static int variant_rounds(struct wtg_ctx *ctx, unsigned char *buf, uint64_t slice, int step0, int nsteps,
			  struct outcome *o, struct work *w)
{
	struct var_arg a = { .buf = buf, .slice = slice, .o = o, .w = w, .passes = 1 };
	struct wtg_rounds_spec spec = { .nvariants = 1, .rounds = WTG_ROUNDS_MIN, .warmup = o->bufsize == 1 ? 1 : 2,
					.unit = "ms",
					.no_windows = o->bufsize == 1,
					.sample = var_sample, .arg = &a, .label = var_label, .restart = var_restart,
					.first_step = step0, .nsteps = nsteps };
	struct wtg_rounds r;
	int rc = wtg_rounds_run(ctx, &spec, &r);
	if (rc != WTG_OK)
		return rc;
	const struct wtg_rounds_result *v = &r.v[0];
	o->ms = v->s.median;
	o->ci_low = v->s.ci_low;
	o->ci_high = v->s.ci_high;
	o->min = v->s.min;
	o->max = v->s.max;
	o->samples = v->n;
	o->passes = a.passes;
	o->again = r.interleaved;
	wtg_rounds_values_after(o->after, v);
	o->res = v->probe;
	o->warm_windows = r.warm_windows;
	o->warm_met = r.warm_met;
	double scale = a.tbytes ? (double)slice / (double)a.tbytes : 0;
	o->user_ms = v->probe.user_ms * scale;
	o->sys_ms = v->probe.sys_ms * scale;
	wtg_rounds_checks(ctx, o->name, "ms", v);
	wtg_rounds_free(&r);
	return WTG_OK;
}

/* The notes: what was read, the model and where it applies, the order and the I/O mode. */
static void notes(struct wtg_ctx *ctx, const struct model *m, uint64_t slice, const struct outcome *o,
		  const int *order)
{
	char sz[32];
	const int warm_max = wtg_rounds_warm_max(ctx->opt);
	wtg_fmt_size(sz, sizeof sz, slice);
	wtg_table_note(ctx->t,
		       "warm-up (a rule fixed before measuring): the 64 KiB way after its first sample runs "
		       "windows of %d samples until the medians of %d consecutive windows lie within %.0f%% of "
		       "each other, or %d windows (here: %d, the rule %s; JSON warmup); the one-byte way takes "
		       "only its first sample, as %d windows of its samples would read the slice %.1f times "
		       "over one byte per read()",
		       WTG_ROUNDS_WARM_WINDOW, WTG_WARMUP_STABLE, 100 * WTG_WARMUP_TOLERANCE, warm_max,
		       o[1].warm_windows, o[1].warm_met ? "met" : "not met: the maximum was reached",
		       warm_max, (double)(warm_max * WTG_ROUNDS_WARM_WINDOW) / WTG_ROUNDS_MIN);
	wtg_table_note(ctx->t,
		       "the first %s of the data file, summed twice, each way as rounds (unreported warm-up "
		       "samples, one of the one-byte variant and two of the other, then %zu timed ones; the "
		       "median, with its CI): one byte per read(), a "
		       "sample reading one of %d consecutive pieces of the slice (the timed samples cover "
		       "it once; each piece's sum checked against its known sum, its time scaled to the whole "
		       "slice), and 64 KiB per read(), a sample making %d pass(es) over the slice (enough to "
		       "span %.1f ms at the warm-up samples' rate, so a warmer round's still spans %.0f; the "
		       "sizing samples made 1 and %d); run in seeded random order (%s first)",
		       sz, o[0].samples, WTG_ROUNDS_MIN, o[1].passes, 1.5 * WTG_SAMPLE_MIN_MS, WTG_SAMPLE_MIN_MS,
		       o[1].sizing_passes, o[order[0]].name);
	char fitted[160] = "";
	int len = 0;
	for (int i = 0; i < NSIZES; i++)
		if (!isnan(m->ns[i]) && len < (int)sizeof fitted)
			len += snprintf(fitted + len, sizeof fitted - (size_t)len, "%s%zu B %.1f ns", len ? ", " : "",
					cal_sizes[i], m->ns[i]);
	if (m->valid)
		wtg_table_note(ctx->t,
			       "predicted_ms = %.1f ns x read_calls + %.4f ns x bytes, fitted (least squares) "
			       "to the median ns per read() at %d read sizes (%s) over %d rounds in seeded "
			       "order, through the page cache",
			       m->a, m->b, m->nsizes, fitted, CAL_ROUNDS);
	else
		wtg_table_note(ctx->t,
			       "predicted_ms: n/a, the calibration (%s) gave no model with a positive cost per "
			       "call and a non-negative cost per byte",
			       len ? fitted : "no read size fits in the file");
	if (o[0].again + o[1].again > 0)
		wtg_table_note(ctx->t,
			       "an interleaved run: the run's other experiments measured after %d of the one-byte "
			       "variant's replicas and %d of the 64 KiB variant's, each time followed by its "
			       "warm-up sample again (their reads counted below)",
			       o[0].again, o[1].again);
	/* every read() on the data file is accounted for: the rows' read_calls plus these */
	long long extra = (long long)(o[0].extra_calls + o[1].extra_calls);
	wtg_table_note(ctx->t,
		       "other read() calls on the data file: %lld, not in read_calls (the calibration's %lld, "
		       "the one-byte variant's %lld beyond one pass of the slice, and the 64 KiB variant's %lld beyond one pass)",
		       (long long)m->calls + extra, (long long)m->calls, (long long)o[0].extra_calls,
		       (long long)o[1].extra_calls);
	wtg_table_note(ctx->t, "the model holds between the read sizes it saw (%zu .. %zu B); outside them, "
			       "or with O_DIRECT, a row's prediction is n/a",
		       m->lo, m->hi);
	wtg_table_note(ctx->t, "the one-byte variant's warm-up reads the first piece: the rest of the slice "
			       "is as the data file's creation or scan left it (in the page cache, unless the u "
			       "condition evicts it or reads around it)");
	if (o[1].direct)
		wtg_table_note(ctx->t, "O_DIRECT: the 64 KiB variant bypasses the page cache; a 1-byte read "
				       "cannot be aligned, so the 1-byte variant and the calibration read "
				       "through the page cache");
	else if (wtg_uncached_requested())
		wtg_table_note(ctx->t, "uncached I/O: %s before each pass",
			       wtg_iomode_name(wtg_iomode_effective(ctx->df)));
	if (o[0].res.threads)
		wtg_table_note(ctx->t,
			       "1-byte variant, its timed samples together: wall %.1f ms, CPU (user + sys) %.1f ms, %lld involuntary "
			       "context switches: wall beyond CPU time is time spent waiting for a CPU",
			       o[0].res.wall_ms, o[0].res.user_ms + o[0].res.sys_ms, (long long)o[0].res.ivcsw);
	if (o[0].sum == o[1].sum)
		wtg_table_note(ctx->t, "same sum both ways: the extra time is not arithmetic");
}

/* The variants' planned work: the one-byte samples read the slice once and a piece more (the
 * warm-up), the 64 KiB ones make a pass each for the warm-up, the windows' most and the timed samples
 * until the warm-up says how many a sample makes. Each read at the calibration's median time for its
 * size (the model where a size was left out; without a model, 300 ns a call and 0.1 ns a byte) until
 * the variant's own samples say what they cost. */
static void plan_work(struct work *w, const struct model *m, uint64_t slice, int warm_max)
{
	double a = m->valid ? m->a : 300, b = m->valid ? m->b : 0.1;
	memset(w, 0, sizeof *w);
	w->ns_call1 = isnan(m->ns[0]) ? a + b : m->ns[0];
	w->ns_pass = ceil((double)slice / BIG_BUF) * (isnan(m->ns[NSIZES - 1]) ? a + b * BIG_BUF : m->ns[NSIZES - 1]);
	w->calls1 = (double)slice + (double)(slice / WTG_ROUNDS_MIN);
	w->warm_max = warm_max;
	w->passes = 1 + warm_max * WTG_ROUNDS_WARM_WINDOW + WTG_ROUNDS_MIN;
}

#define VARIANT_1B "1B per read"
#define VARIANT_64K "64K per read"

/* The slice of a file of size bytes both variants read. */
static uint64_t slice_of(const struct wtg_options *o, uint64_t size)
{
	uint64_t slice = o->quick ? SLICE_QUICK : SLICE_FULL;
	return slice < size ? slice : size;
}

static int bytewise_run(struct wtg_ctx *ctx)
{
	struct wtg_datafile *df = ctx->df;
	wtg_experiment_columns(&wtg_exp_bytewise, ctx->t);
	const uint64_t slice = slice_of(ctx->opt, df->size);
	unsigned char *buf = wtg_aligned_alloc(wtg_io_align(df), BIG_BUF);
	if (!buf) {
		wtg_table_fail(ctx->t, "out of memory");
		return WTG_ERR;
	}
	memset(buf, 0, BIG_BUF);
	const int var_steps = wtg_rounds_steps(ctx->opt, 1, WTG_ROUNDS_MIN, 1);
	const int nsteps = 1 + 2 * var_steps;
	wtg_ctx_progress(ctx, 0, nsteps, "calibration: reads of 1 B .. 64 KiB");
	struct model m;
	int rc = calibrate(ctx, buf, &m);
	struct outcome o[2] = { { .name = VARIANT_1B, .bufsize = 1 }, { .name = VARIANT_64K, .bufsize = BIG_BUF } };
	int order[2] = { 0, 1 };
	wtg_shuffle_int(&ctx->rng, order, 2);
	struct work w;
	plan_work(&w, &m, slice, wtg_rounds_warm_max(ctx->opt));
	work_report(ctx, &w);
	for (int i = 0; i < 2 && rc == WTG_OK; i++) {
		struct outcome *v = &o[order[i]];
		rc = variant_rounds(ctx, buf, slice, 1 + i * var_steps, nsteps, v, &w);
		if (rc != WTG_OK)
			break;
		add_row(ctx, &m, v);
		if (!wtg_check_sum(ctx, v->name, v->sum, wtg_datafile_prefix_sum(df, v->bytes)))
			rc = WTG_ERR;
		else if (wtg_ctx_cancelled(ctx))
			rc = WTG_CANCELLED;
	}
	free(buf);
	if (rc != WTG_OK)
		return rc;
	wtg_ctx_progress(ctx, nsteps, nsteps, "done");
	notes(ctx, &m, slice, o, order);
	return WTG_OK;
}

/* compare's figure: ns per byte, one byte per read() */
static double pairing_figure(struct wtg_ctx *ctx)
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

/* --dry-run: the calibration, then the two variants over slice_of() the file, WTG_ROUNDS_MIN samples
 * each after a warm-up: pieces of the slice at one byte per read, passes over it at 64 KiB. */
static void bytewise_plan(struct wtg_plan *p)
{
	static const char *const names[] = { "variant", "bytes", "read_calls", "samples" };
	const uint64_t slice = slice_of(p->opt, p->file_size);
	wtg_plan_columns(p, names, 4);
	const struct wtg_value one[] = { WTG_TEXT(VARIANT_1B), WTG_INT(slice), WTG_INT(slice),
					 WTG_INT(WTG_ROUNDS_MIN) };
	const struct wtg_value big[] = { WTG_TEXT(VARIANT_64K), WTG_INT(slice),
					 WTG_INT((slice + BIG_BUF - 1) / BIG_BUF), WTG_INT(WTG_ROUNDS_MIN) };
	wtg_plan_row(p, one);
	wtg_plan_row(p, big);
	wtg_rounds_plan(p, 1);
	snprintf(p->how, sizeof p->how, "its typical time on a %d-CPU machine; a 1-byte sample is 1/%d of the slice",
		 WTG_PLAN_REF_CPUS, WTG_ROUNDS_MIN);
}

/* "one byte per read(): 540 ns a byte, 40x the 64 KiB reads". */
static int bytewise_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	double one = wtg_verdict_value(t, "variant", "1B per read", "ns_per_byte");
	double big = wtg_verdict_value(t, "variant", "64K per read", "ns_per_byte");
	int r1 = -1, r64 = -1;
	wtg_verdict_extreme(t, "variant", "1B per read", "ns_per_byte", 1, &r1);
	wtg_verdict_extreme(t, "variant", "64K per read", "ns_per_byte", 1, &r64);
	/* the ratio's CI: the ms ratio's (from both rows' CIs), scaled to ns per byte */
	double lo = NAN, hi = NAN, ms = wtg_verdict_ratio(t, r1, r64, "ms", NULL, NULL, &lo, &hi);
	const char *how = "";
	if (!isfinite(lo) && ms > 0) {	/* a saved run whose 1-byte row is one pass: the 64K reads' CI alone */
		double m64 = wtg_verdict_value(t, "variant", "64K per read", "ms");
		double l64 = wtg_verdict_value(t, "variant", "64K per read", "ms_ci_low");
		double h64 = wtg_verdict_value(t, "variant", "64K per read", "ms_ci_high");
		if (l64 > 0 && h64 >= l64 && m64 > 0) {
			lo = ms * m64 / h64;
			hi = ms * m64 / l64;
			how = ", one 1-byte pass";
		}
	}
	char ci[64] = "";
	if (isfinite(lo) && ms > 0 && isfinite(big) && big > 0)
		snprintf(ci, sizeof ci, " [CI %.0f-%.0fx%s]", lo * (one / big) / ms, hi * (one / big) / ms, how);
	if (isfinite(big) && big > 0)
		return wtg_verdict_fmt(buf, len, isfinite(one), "one byte per read() = %.0f ns a byte, %.0fx the 64K reads%s",
				       one, one / big, ci);
	return wtg_verdict_fmt(buf, len, isfinite(one), "one byte per read() = %.0f ns a byte", one);
}

const struct wtg_experiment wtg_exp_bytewise = {
	.name = "bytewise",
	.question = "Why did adding up bytes take 21 s?",
	.runs = "sum a slice one byte per read() and again 64 KiB per read() (>= 15 samples); user/sys "
		"split, calls; predicted by a per-call + per-byte model fitted to calibration reads",
	.needs_datafile = true,
	.not_cold = "its calibration reads the slice back",
	.not_alternating = "measures its two ways one after the other, each its own rounds run after a "
			   "calibration, so no round holds both arms",
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_BARS,
	.bars = { .label = { "variant" }, .value = "ms", .extra = "ns_per_byte" },
	/* per byte: a --quick run's 512 KiB slice compares with a default run's 8 MiB one */
	.headline = { { "ns per byte, one byte per read()", "variant", "1B per read", "ms", "ms_ci_low", "ms_ci_high",
			NULL, "ns", false, .per_col = "bytes", .per_scale = 1e6 } },
	.compare = { pairing_figure, "ns_per_byte", 1, "ns per byte, one byte per read()" },
	.typical_s = 18,
	.typical_quick_s = 2,
	.verdict = bytewise_verdict,
	.essay = { "21 s for 64 MiB a byte per read(), under 10 ms with 64 KiB reads", NULL, .value = 313,
		   .why = wtg_why_crossing },
	.terms = WTG_TERMS("read", "crossing", "usersys", "bufsize", "pagecache", "ci"),
	.interleaves = true,
	.run = bytewise_run,
	.plan = bytewise_plan,
};
