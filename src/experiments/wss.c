/* wss.c: Cache or core? Sum a working set of S bytes over and over, S in x2 steps from below this
 * machine's L1d to at least 4x its last-level cache (capped at a quarter of RAM): if the loop waited
 * on memory, GB/s would fall in steps as S leaves each cache. Every size is a row of 15 or more timed
 * samples from the rounds engine, the sizes in seeded random order in every round. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common.h"
#include "wtg/plan.h"

#define CHUNK (4u << 10)		/* the known sums cover 4 KiB pieces */
#define SAMPLE_BYTES (256ull << 20)	/* bytes a timed sample moves */
#define SAMPLE_BYTES_QUICK (32ull << 20)
#define MAX_SIZES 40
#define HEADLINE_SPAN (64ull << 20) /* memory-sized: past this machine's last-level cache */
#define HEADLINE_PASSES 4

struct wstate {
	const struct wtg_seeded_buf *buf;	/* its own allocation (shared with kernels, not the data
						 * file); size S uses the first S bytes */
	uint64_t sizes[MAX_SIZES];
	int nsizes;
	uint64_t pos[MAX_SIZES];	/* where the next sample of each size starts */
	uint64_t bytes;			/* per timed sample, before the warm-up scales it */
	uint64_t vbytes[MAX_SIZES];	/* per timed sample of each size: at least WTG_SAMPLE_MIN_MS */
	uint64_t llc;
	int64_t total[MAX_SIZES];
};

static void label(const void *arg, int v, char *buf, size_t len)
{
	const struct wstate *st = arg;
	wtg_fmt_size(buf, len, st->sizes[v]);
}

/* One sample of size S: a set that fits in the LLC is first re-read once, untimed (the other sizes
 * ran in between), then the timed part moves st->vbytes[v]: whole passes over S, or for a larger S a
 * window of it that starts where the last sample of S ended; the warm-up sample sets vbytes so that a
 * sample spans at least WTG_SAMPLE_MIN_MS. */
static int sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	struct wstate *st = arg;
	uint64_t set = st->sizes[v];
	char what[64];
	label(arg, v, what, sizeof what);
	int64_t sum;
	struct wtg_probe_result warm;
	if (set <= st->llc) {
		uint64_t at = 0;
		int rc = wtg_seeded_sum_sample(ctx, wtg_sum_bytes, st->buf, set, set, &at, what, &warm, &sum);
		if (rc != WTG_OK)
			return rc;
	}
	uint64_t bytes = st->vbytes[v];
	int rc = wtg_seeded_sum_sample(ctx, wtg_sum_bytes, st->buf, set, bytes, &st->pos[v], what, &out->res,
				       &sum);
	if (rc != WTG_OK)
		return rc;
	if (round >= 0)
		st->total[v] += sum;
	out->figure = out->res.wall_ms > 0 ? (double)bytes / (out->res.wall_ms * 1e6) : 0;
	/* a short warm-up: more passes over a set within the LLC, a longer window of a larger one (up to
	 * a quarter of it, so the window still comes from memory) */
	if (round < 0) {
		bool passes = bytes >= set;
		uint64_t cap = set <= st->llc ? UINT64_MAX / 2 : set / 4 > bytes ? set / 4 : bytes;
		st->vbytes[v] = wtg_rounds_sample_bytes(bytes, out->res.wall_ms, passes ? set : CHUNK, cap);
		if (st->vbytes[v] > set)	/* a window grown past S: whole passes */
			st->vbytes[v] = (st->vbytes[v] + set - 1) / set * set;
	}
	return WTG_OK;
}

/* The rounds start again (a key changed the conditions): the dropped samples' sums go too. */
static void restart(void *arg)
{
	struct wstate *st = arg;
	memset(st->total, 0, sizeof st->total);
}

static int row(struct wtg_ctx *ctx, void *arg, int v, const struct wtg_rounds_result *r, struct wtg_value *vals)
{
	struct wstate *st = arg;
	uint64_t set = st->sizes[v];
	uint64_t bytes = st->vbytes[v];
	int n = 0;
	vals[n++] = WTG_INT(set);
	n += wtg_rounds_values(vals + n, r);
	vals[n++] = WTG_TEXT(wtg_cache_level_name(ctx, set));
	vals[n++] = WTG_REAL((double)bytes / set);
	vals[n++] = WTG_REAL((double)bytes / (r->s.median * 1e6));
	vals[n++] = WTG_INT(bytes);
	vals[n++] = WTG_INT(st->total[v]);
	return n;
}

/* The sizes: x2 steps from the power of two at or below half of L1d up to the memory-sized span
 * (at least 4x the LLC, or a quarter of RAM, which then ends the list whatever its size). */
static void wss_sizes(struct wtg_ctx *ctx, struct wstate *st)
{
	st->bytes = ctx->opt->quick ? SAMPLE_BYTES_QUICK : SAMPLE_BYTES;
	st->llc = wtg_ctx_llc(ctx);
	uint64_t lo = CHUNK, top = wtg_dram_span(ctx);
	for (int i = 0; i < 40 && lo * 2 <= wtg_ctx_l1d(ctx) / 2; i++)	/* L1d is at most 1 TiB */
		lo *= 2;
	st->nsizes = 0;
	for (uint64_t s = lo; s < top && st->nsizes < MAX_SIZES - 1; s *= 2)
		st->sizes[st->nsizes++] = s;
	st->sizes[st->nsizes++] = top;
	/* windows of a set past the LLC start in its second half, which no smaller set touches */
	for (int v = 0; v < st->nsizes; v++) {
		uint64_t set = st->sizes[v];
		st->pos[v] = set > st->llc ? set / 2 / CHUNK * CHUNK : 0;
		st->vbytes[v] = st->bytes < set ? st->bytes : (st->bytes + set - 1) / set * set;
	}
}

/* Mark each cache level's size on the sweep's x axis. */
static void mark_caches(struct wtg_ctx *ctx)
{
	if (!ctx->machine)
		return;
	for (int level = 1; level <= 4; level++) {
		uint64_t s = wtg_machine_cache_size(ctx->machine, level);
		if (!s)
			continue;
		char sz[32], label[40];
		wtg_fmt_size(sz, sizeof sz, s);
		snprintf(label, sizeof label, "L%d %s", level, sz);
		wtg_table_add_xmark(ctx->t, (double)s, label);
	}
}

extern const struct wtg_experiment wtg_exp_wss;

static const struct wtg_column cols[] = {
	{ "wss", "B", WTG_T_INT, 0 },
	WTG_ROUNDS("gbps", "GB/s", 2),
	{ "level", "", WTG_T_TEXT, 0 },
	{ "passes", "count", WTG_T_REAL, 2 },
	{ "ms", "ms", WTG_T_REAL, 2 },
	{ "bytes", "B", WTG_T_INT, 0 },
	{ "sum", "", WTG_T_INT, 0 },
};

static void add_notes(struct wtg_ctx *ctx, const struct wstate *st, const struct wtg_rounds *r, int warmup)
{
	char lo[32], hi[32], llc[32], huge[64];
	wtg_huge_phrase(ctx, huge, sizeof huge, st->buf->huge, st->buf->size);
	wtg_fmt_size(lo, sizeof lo, st->sizes[0]);
	wtg_fmt_size(hi, sizeof hi, st->sizes[st->nsizes - 1]);
	wtg_fmt_size(llc, sizeof llc, st->llc);
	wtg_table_note(ctx->t,
		       "sizes %s .. %s in x2 steps (below L1d up to at least 4x the %s last-level cache, or a "
		       "quarter of RAM); the first S bytes of one seeded buffer of its own (%s); "
		       "level: the smallest cache S fits in (%s caches); kernel: %s",
		       lo, hi, llc, huge,
		       ctx->machine && ctx->machine->caches_source ? ctx->machine->caches_source : "assumed",
		       wtg_sum_simd_name());
	if (ctx->machine && ctx->machine->caches_note[0])
		wtg_table_note(ctx->t, "%s", ctx->machine->caches_note);
	wtg_table_note(ctx->t,
		       "a sample: a set that fits in the last-level cache is re-read once untimed (other "
		       "sizes ran in between), then at least %llu MB are timed: whole passes over S, or for a "
		       "larger S a window of it starting where its last sample ended (first in its second "
		       "half, which no smaller set touches); a size whose warm-up sample took less than 5 ms "
		       "moves more (enough for 1.5 times that at the warm-up's rate; a window up to a quarter of "
		       "S); every sample's sum checked",
		       (unsigned long long)(st->bytes / 1000000));
	wtg_rounds_note(ctx, r, warmup);
}

static void add_checks(struct wtg_ctx *ctx, const struct wstate *st, const struct wtg_rounds *r)
{
	for (int v = 0; v < r->nvariants; v++) {
		char name[32];
		label(st, v, name, sizeof name);
		wtg_check_sums_row(ctx, name, (int)r->v[v].n, st->total[v]);
		wtg_rounds_checks(ctx, name, "GB/s", &r->v[v]);
	}
}

static int wss_run(struct wtg_ctx *ctx)
{
	wtg_experiment_columns(&wtg_exp_wss, ctx->t);
	mark_caches(ctx);
	struct wstate *st = calloc(1, sizeof *st);
	if (!st) {
		wtg_table_fail(ctx->t, "out of memory");
		return WTG_ERR;
	}
	wss_sizes(ctx, st);
	wtg_ctx_progress(ctx, 0, 1, "filling the buffer");
	int rc = wtg_dram_buf_get(ctx, &st->buf);
	struct wtg_rounds r = { 0 };
	const struct wtg_rounds_spec spec = {
		.nvariants = st->nsizes, .rounds = WTG_ROUNDS_MIN, .warmup = 1, .unit = "GB/s",
		.sample = sample, .row = row, .arg = st, .label = label, .restart = restart,
	};
	if (rc == WTG_OK)
		rc = wtg_rounds_run(ctx, &spec, &r);
	wtg_dram_buf_done(ctx, &wtg_exp_wss);
	if (rc == WTG_OK) {
		wtg_ctx_progress(ctx, 1, 1, "done");
		add_checks(ctx, st, &r);
		add_notes(ctx, st, &r, spec.warmup);
	}
	wtg_rounds_free(&r);
	free(st);
	return rc;
}

struct headline_job {
	struct wtg_ctx *ctx;
	const unsigned char *m;
	uint64_t span;
	int rc;
	int64_t sum;
	struct wtg_probe_result res;
};

/* The headline's passes over the mapping, run under the SIGBUS guard. */
static void headline_passes(void *arg)
{
	struct headline_job *j = arg;
	j->rc = wtg_sum_passes(j->ctx, wtg_sum_bytes, j->m, j->span, HEADLINE_PASSES, &j->sum, &j->res);
}

/* Headline for compare: GB/s of the fast sum over a memory-sized span of the data file, mapped and
 * prefaulted first so the figure is the sum's, not the page cache's or the fault path's. */
static double headline(struct wtg_ctx *ctx)
{
	uint64_t span = wtg_datafile_span(ctx->df, HEADLINE_SPAN);
	unsigned char *m = wtg_map_prefaulted(ctx, span);
	if (!m)
		return NAN;
	int64_t want = wtg_datafile_prefix_sum(ctx->df, span);
	struct headline_job j = { .ctx = ctx, .m = m, .span = span };
	int guarded = wtg_guard_call(headline_passes, &j);
	munmap(m, span);
	if (guarded < 0) {
		wtg_table_fail(ctx->t, "wss headline: %s", WTG_GUARD_SHRANK);
		return NAN;
	}
	int64_t sum = j.sum;
	struct wtg_probe_result res = j.res;
	if (j.rc != WTG_OK)
		return NAN;
	if (sum != want * HEADLINE_PASSES) {
		wtg_check_sum(ctx, "wss headline", sum, want * HEADLINE_PASSES);
		return NAN;
	}
	return res.wall_ms > 0 ? (double)(span * HEADLINE_PASSES) / (res.wall_ms * 1e6) : NAN;
}

/* The work of a run over sizes st: the buffer filled once, then every size's samples (warm-up and
 * timed, a set within the LLC re-read once untimed first). */
static double planned_bytes(const struct wstate *st)
{
	double work = (double)st->sizes[st->nsizes - 1];
	for (int v = 0; v < st->nsizes; v++) {
		uint64_t set = st->sizes[v];
		uint64_t bytes = st->bytes < set ? st->bytes : (st->bytes + set - 1) / set * set;
		work += (double)(WTG_ROUNDS_MIN + 1) * (double)(bytes + (set <= st->llc ? set : 0));
	}
	return work;
}

/* --dry-run: the sizes wss_sizes gives on this machine; the typical time scales with the bytes
 * summed against those of the reference machine (this machine's L1d, a 32 MiB LLC assumed). */
static void wss_plan(struct wtg_plan *p)
{
	static const char *const names[] = { "wss", "level", "passes", "bytes" };
	struct wtg_ctx ctx = { .opt = p->opt, .machine = p->machine };
	struct wstate st = { 0 };
	wss_sizes(&ctx, &st);
	wtg_plan_columns(p, names, (int)WTG_ARRAY_LEN(names));
	for (int v = 0; v < st.nsizes; v++) {
		uint64_t set = st.sizes[v];
		uint64_t bytes = st.bytes < set ? st.bytes : (st.bytes + set - 1) / set * set;
		const struct wtg_value row[] = { WTG_INT(set), WTG_TEXT(wtg_cache_level_name(&ctx, set)),
						 WTG_REAL((double)bytes / set), WTG_INT(bytes) };
		wtg_plan_row(p, row);
	}
	wtg_rounds_plan(p, 1);
	p->work = planned_bytes(&st);
	struct wtg_ctx ref = { .opt = p->opt };	/* no machine: the assumed caches */
	struct wstate rst = { 0 };
	wss_sizes(&ref, &rst);
	p->ref_work = planned_bytes(&rst);
	snprintf(p->how, sizeof p->how, "typical time x bytes summed here / on a machine with a 32M LLC");
}

/* "one core: 12.0 to 14.1 GB/s from L1 to DRAM" (the flat line, or its slope). */
static int wss_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	int c = wtg_table_col(t, "gbps");
	double lo = INFINITY, hi = -INFINITY;
	for (int r = 0; c >= 0 && r < t->nrows; r++) {
		double v = wtg_table_num(t, r, c);
		if (isfinite(v)) {
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
	}
	return wtg_verdict_fmt(buf, len, isfinite(lo), "one core sums %.1f to %.1f GB/s, cache or DRAM", lo, hi);
}

const struct wtg_experiment wtg_exp_wss = {
	.name = "wss",
	.question = "Cache or core?",
	.runs = "sum a working set from below L1d to 4x the last-level cache repeatedly; GB/s per size",
	.needs_datafile = false,
	.shares_dram_buf = true,
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_SWEEP,
	/* the sizes follow the machine: the axis takes the data's range */
	.sweep = { .x = "wss", .y = { "gbps" }, .xtitle = "working set", .cache_marks = true },
	.headline = { { "GB/s over the largest span", NULL, NULL, "gbps", "gbps_ci_low", "gbps_ci_high", NULL,
			"GB/s", true } },
	.compare = { headline, "gbps", 2, "GB/s summing a memory-sized span of the file" },
	.typical_s = 4,
	.typical_quick_s = 1,
	.verdict = wss_verdict,
	.essay = { "a flat 17 GB/s from 16 KiB (L1) to 64 MiB (DRAM): core-bound", NULL },
	.run = wss_run,
	.plan = wss_plan,
};
