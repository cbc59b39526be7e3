/* wss.c: Cache or core? Sum a working set of S bytes over and over, S in x2 steps (x4 with --quick,
 * and the slow kernels at KSIZES_QUICK sizes) from below this
 * machine's L1d to at least 4x its last-level cache (capped at a quarter of RAM): if the loop waited
 * on memory, GB/s would fall in steps as S leaves each cache. The hand SIMD sum runs at every size;
 * the scalar sum and the compiler-vectorized one at KSIZES of them spread from the first to the last,
 * a series each: a loop slower than memory draws a flat line beside the staircase. Every row is 15 or
 * more timed samples from the rounds engine, all rows in seeded random order in every round. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common.h"
#include "membuf.h"
#include "pages.h"
#include "rounds.h"
#include "why.h"
#include "wtg/ctx.h"
#include "wtg/plan.h"

#define CHUNK (4u << 10)		/* the known sums cover 4 KiB pieces */
#define MAX_SIZES 40
#define KSIZES 6			/* sizes of the scalar and the compiler-vectorized sums */
#define KSIZES_QUICK 3			/* ... with --quick: the first, the middle and the last */
#define STEP 2				/* the sizes' step ... */
#define STEP_QUICK 4			/* ... with --quick */
#define MAX_VARIANTS (MAX_SIZES + 2 * KSIZES)
#define HEADLINE_SPAN (64ull << 20) /* memory-sized: past this machine's last-level cache */
#define HEADLINE_PASSES 4

/* The kernels, slowest first; the hand SIMD sum's rows come last (the last row is the headline's). */
enum { K_SCALAR, K_AUTO, K_SIMD, NKERNELS };
static const char *const knames[NKERNELS] = { "scalar", "auto", "simd" };
/* bytes a timed sample moves before the warm-up scales them: default, --quick */
static const uint64_t kbytes[NKERNELS][2] = {
	{ 16ull << 20, 4ull << 20 }, { 64ull << 20, 16ull << 20 }, { 256ull << 20, 32ull << 20 },
};

struct wstate {
	const struct wtg_seeded_buf *buf;	/* its own allocation (shared with kernels, not the data
						 * file); size S uses the first S bytes */
	uint64_t sizes[MAX_SIZES];
	int nsizes;
	int step;			/* between consecutive sizes: STEP, or STEP_QUICK with --quick */
	int nk;				/* sizes of the scalar and the compiler-vectorized sums */
	int nvar;
	int kernel[MAX_VARIANTS];	/* variant v: kernel[v] over sizes[size[v]] */
	int size[MAX_VARIANTS];
	uint64_t pos[MAX_VARIANTS];	/* where the next sample of each variant starts */
	uint64_t vbytes[MAX_VARIANTS];	/* per timed sample of each variant: at least WTG_SAMPLE_MIN_MS */
	uint64_t llc;
	bool quick;
	int64_t total[MAX_VARIANTS];
};

static void label(const void *arg, int v, char *buf, size_t len)
{
	const struct wstate *st = arg;
	char sz[32];
	wtg_fmt_size(sz, sizeof sz, st->sizes[st->size[v]]);
	snprintf(buf, len, "%s %s", knames[st->kernel[v]], sz);
}

/* One sample of variant v (kernel k over size S): a set that fits in the LLC is first re-read once,
 * untimed, by the fast sum (the other rows ran in between), then the timed part moves st->vbytes[v]
 * with k: whole passes over S, or for a larger S a window of it that starts where the last sample of
 * v ended; a warm-up sample sets vbytes so that a sample spans at least WTG_SAMPLE_MIN_MS. */
static int sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	struct wstate *st = arg;
	uint64_t set = st->sizes[st->size[v]];
	char what[64];
	label(arg, v, what, sizeof what);
	int64_t sum;
	struct wtg_probe_result warm;
	if (set <= st->llc) {
		uint64_t at = 0;
		int rc = wtg_seeded_sum_sample(ctx, wtg_sum_bytes, st->buf, set, set, &at, what, &warm, &sum);
		if (rc != WTG_OK)
			return rc;
	} else {
		/* the LLC's worth of S before the window: no smaller set's bytes left in the caches */
		int rc = wtg_seeded_lead_in(ctx, st->buf, set, st->pos[v], st->llc, what);
		if (rc != WTG_OK)
			return rc;
	}
	uint64_t bytes = st->vbytes[v];
	int rc = wtg_seeded_sum_sample(ctx, wtg_sum_kernel(knames[st->kernel[v]])->sum, st->buf, set, bytes,
				       &st->pos[v], what, &out->res, &sum);
	if (rc != WTG_OK)
		return rc;
	if (round >= 0)
		st->total[v] += sum;
	out->figure = out->res.wall_ms > 0 ? (double)bytes / (out->res.wall_ms * 1e6) : 0;
	/* a short warm-up: more passes over a set within the LLC, a longer window of a larger one (any
	 * length: its lead-in leaves only the set's own last bytes in the caches) */
	if (round == WTG_ROUND_WARMUP) {
		bool passes = bytes >= set;
		/* its span less the time it waited for a CPU: a preempted warm-up looks long enough */
		st->vbytes[v] = wtg_rounds_sample_bytes(bytes, wtg_rounds_warmup_ms(&out->res), passes ? set : CHUNK,
							UINT64_MAX / 2);
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
	uint64_t set = st->sizes[st->size[v]];
	uint64_t bytes = st->vbytes[v];
	int n = 0;
	vals[n++] = WTG_INT(set);
	n += wtg_rounds_values(vals + n, r);
	vals[n++] = WTG_TEXT(knames[st->kernel[v]]);
	vals[n++] = WTG_TEXT(wtg_cache_level_name(ctx, set));
	vals[n++] = WTG_REAL((double)bytes / set);
	vals[n++] = WTG_REAL((double)bytes / (r->s.median * 1e6));
	vals[n++] = WTG_INT(bytes);
	vals[n++] = WTG_INT(st->total[v]);
	return n;
}

/* The bytes a sample of kernel k over a set of `set` bytes starts from: whole passes when the kernel's
 * bytes hold one, else a window. */
static uint64_t first_bytes(int k, bool quick, uint64_t set)
{
	uint64_t b = kbytes[k][quick ? 1 : 0];
	return b < set ? b : (b + set - 1) / set * set;
}

/* Variant v: kernel k over size index i. */
static void add_variant(struct wstate *st, int k, int i, bool quick)
{
	int v = st->nvar++;
	uint64_t set = st->sizes[i];
	st->kernel[v] = k;
	st->size[v] = i;
	/* windows of a set past the LLC start in its second half, which no smaller set touches */
	st->pos[v] = set > st->llc ? set / 2 / CHUNK * CHUNK : 0;
	st->vbytes[v] = first_bytes(k, quick, set);
}

/* The sizes: x2 steps (x4 with --quick) from the power of two at or below half of L1d up to the
 * memory-sized span (at least 4x the LLC, or a quarter of RAM, which then ends the list whatever its
 * size); the variants: the scalar and the compiler-vectorized sums at KSIZES (KSIZES_QUICK) of them,
 * evenly spread on the log scale from the first to the last (all of them when there are fewer), then
 * the hand SIMD sum at every size. */
static void wss_sizes(struct wtg_ctx *ctx, struct wstate *st)
{
	const bool quick = st->quick = ctx->opt->quick;
	st->llc = wtg_ctx_llc(ctx);
	uint64_t lo = CHUNK, top = wtg_dram_span(ctx);
	for (int i = 0; i < 40 && lo * 2 <= wtg_ctx_l1d(ctx) / 2; i++)	/* L1d is at most 1 TiB */
		lo *= 2;
	st->nsizes = 0;
	st->step = quick ? STEP_QUICK : STEP;
	for (uint64_t s = lo; s < top && st->nsizes < MAX_SIZES - 1; s *= (uint64_t)st->step)
		st->sizes[st->nsizes++] = s;
	st->sizes[st->nsizes++] = top;
	st->nvar = 0;
	const int ksizes = quick ? KSIZES_QUICK : KSIZES;
	int nk = st->nk = st->nsizes < ksizes ? st->nsizes : ksizes;
	for (int k = K_SCALAR; k < K_SIMD; k++)
		for (int j = 0; j < nk; j++)
			add_variant(st, k, nk > 1 ? (int)lround((double)j * (st->nsizes - 1) / (nk - 1)) : 0, quick);
	for (int i = 0; i < st->nsizes; i++)
		add_variant(st, K_SIMD, i, quick);
}

extern const struct wtg_experiment wtg_exp_wss;

static const struct wtg_column cols[] = {
	{ "wss", "B", WTG_T_INT, 0 },
	WTG_ROUNDS("gbps", "GB/s", 2),
	{ "kernel", "", WTG_T_TEXT, 0 },
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
		       "sizes %s .. %s in x%d steps (below L1d up to at least 4x the %s last-level cache, or a "
		       "quarter of RAM); the first S bytes of one seeded buffer of its own (%s); "
		       "level: the smallest cache S fits in (%s caches)",
		       lo, hi, st->step, llc, huge,
		       ctx->machine && ctx->machine->caches_source ? ctx->machine->caches_source : "assumed");
	wtg_table_note(ctx->t,
		       "kernel: simd, the hand SIMD sum (%s), at every size; scalar (%s) and auto (%s) at %d "
		       "sizes spread from the first to the last: a loop slower than memory cannot show the "
		       "caches",
		       wtg_sum_simd_name(), wtg_sum_kernel("scalar")->detail, wtg_sum_kernel("auto")->detail,
		       st->nk);
	if (ctx->machine && ctx->machine->caches_note[0])
		wtg_table_note(ctx->t, "%s", ctx->machine->caches_note);
	wtg_table_note(ctx->t,
		       "a sample: a set that fits in the last-level cache is re-read once untimed by the SIMD "
		       "sum (other rows ran in between), then at least %llu MB (simd), %llu MB (auto) or %llu MB "
		       "(scalar) are timed: whole passes over S, or for a larger S a window of it starting "
		       "where its last sample ended (first in its second half, which no smaller set touches), "
		       "after an untimed lead-in of the last-level cache's worth of S just before it, so the "
		       "caches hold S's own last bytes and no smaller set's; a row whose warm-up sample took "
		       "less than 7.5 ms moves more (enough for 7.5 ms at the warm-up's rate, so a warmer "
		       "round's sample still spans 5 ms; past one pass, whole passes), its second warm-up "
		       "sample sized by the first and sizing the rounds; every sample's sum checked",
		       (unsigned long long)(kbytes[K_SIMD][ctx->opt->quick] / 1000000),
		       (unsigned long long)(kbytes[K_AUTO][ctx->opt->quick] / 1000000),
		       (unsigned long long)(kbytes[K_SCALAR][ctx->opt->quick] / 1000000));
	wtg_rounds_note(ctx, r, warmup);
}

static void add_checks(struct wtg_ctx *ctx, const struct wstate *st, const struct wtg_rounds *r)
{
	for (int v = 0; v < r->nvariants; v++) {
		char name[64];
		label(st, v, name, sizeof name);
		wtg_check_sums_row(ctx, name, (int)r->v[v].n, st->total[v]);
		wtg_rounds_checks(ctx, name, "GB/s", &r->v[v]);
	}
}

static int wss_run(struct wtg_ctx *ctx)
{
	wtg_experiment_columns(&wtg_exp_wss, ctx->t);
	wtg_table_mark_caches(ctx->t, ctx->machine);
	struct wstate *st = calloc(1, sizeof *st);
	if (!st) {
		wtg_table_fail(ctx->t, "out of memory");
		return WTG_ERR;
	}
	wss_sizes(ctx, st);
	wtg_ctx_progress(ctx, 0, 1, "filling the buffer");
	int rc = wtg_dram_buf_get(ctx, &wtg_exp_wss, &st->buf);
	struct wtg_rounds r = { 0 };
	const struct wtg_rounds_spec spec = {
		/* two warm-up samples a row, the second sized by the first and sizing the rounds: a first
		 * one of a few hundred microseconds read a cache-sized set at half the rounds' rate */
		.nvariants = st->nvar, .rounds = WTG_ROUNDS_MIN, .warmup = 2, .unit = "GB/s",
		.sample = sample, .row = row, .arg = st, .label = label, .restart = restart,
		/* sample() re-reads a set within the LLC before timing it */
		.self_warming = "every sample warms its own working set first",
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

/* compare's figure: GB/s of the fast sum over a memory-sized span of the data file, mapped and
 * prefaulted first so the figure is the sum's, not the page cache's or the fault path's. */
static double pairing_figure(struct wtg_ctx *ctx)
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

/* The work of a run over the variants of st: the buffer filled once, then every variant's samples
 * (warm-up and timed, a set within the LLC re-read once untimed first), and the warm-up windows of
 * the first variant at their most. A sample of a slow kernel spans about as long as one of the
 * SIMD sum (each is grown to 5 ms), so it counts the SIMD sum's bytes. */
static double planned_bytes(const struct wstate *st)
{
	double work = (double)st->sizes[st->nsizes - 1];
	for (int v = 0; v < st->nvar; v++) {
		uint64_t set = st->sizes[st->size[v]];
		uint64_t bytes = st->kernel[v] == K_SIMD ? st->vbytes[v] : first_bytes(K_SIMD, st->quick, set);
		double one = (double)(bytes + (set <= st->llc ? set : 0));
		work += (double)(WTG_ROUNDS_MIN + 1) * one;
		if (v == 0)
			work += (double)(WTG_ROUNDS_WARM_WINDOW *
					 wtg_rounds_warm_max(&(const struct wtg_options){ .quick = st->quick })) * one;
	}
	return work;
}

/* --dry-run: the rows wss_sizes gives on this machine; the typical time scales with the bytes
 * summed against those of the reference machine (this machine's L1d, a 32 MiB LLC assumed). */
static void wss_plan(struct wtg_plan *p)
{
	static const char *const names[] = { "wss", "kernel", "level", "passes", "bytes" };
	struct wtg_ctx ctx = { .opt = p->opt, .machine = p->machine };
	struct wstate *st = calloc(2, sizeof *st);
	if (!st) {
		p->failed = true;
		return;
	}
	wss_sizes(&ctx, st);
	wtg_plan_columns(p, names, (int)WTG_ARRAY_LEN(names));
	for (int v = 0; v < st->nvar; v++) {
		uint64_t set = st->sizes[st->size[v]];
		const struct wtg_value row[] = { WTG_INT(set), WTG_TEXT(knames[st->kernel[v]]),
						 WTG_TEXT(wtg_cache_level_name(&ctx, set)),
						 WTG_REAL((double)st->vbytes[v] / set), WTG_INT(st->vbytes[v]) };
		wtg_plan_row(p, row);
	}
	wtg_rounds_plan(p, 1);
	p->work = planned_bytes(st);
	struct wtg_ctx ref = { .opt = p->opt };	/* no machine: the assumed caches */
	wss_sizes(&ref, st + 1);
	p->ref_work = planned_bytes(st + 1);
	free(st);
	snprintf(p->how, sizeof p->how, "typical time x bytes summed here / on a machine with a 32M LLC");
}

/* Kernel k's rows at its smallest and its largest size, -1 when it has none (yet). */
static void kernel_ends(const struct wtg_table *t, const char *k, int *first, int *last)
{
	int kc = wtg_table_col(t, "kernel"), wc = wtg_table_col(t, "wss");
	*first = *last = -1;
	for (int r = 0; kc >= 0 && wc >= 0 && r < t->nrows; r++) {
		const struct wtg_value *v = &t->rows[r].v[kc];
		if (v->type != WTG_T_TEXT || !v->s || strcmp(v->s, k) != 0)
			continue;
		double w = wtg_table_num(t, r, wc);
		if (*first < 0 || w < wtg_table_num(t, *first, wc))
			*first = r;
		if (*last < 0 || w > wtg_table_num(t, *last, wc))
			*last = r;
	}
}

/* The series of row r: its label, as add_checks names it ("scalar 16K"). */
static void row_series(const struct wtg_table *t, int r, char *buf, size_t len)
{
	int kc = wtg_table_col(t, "kernel"), wc = wtg_table_col(t, "wss");
	char sz[32];
	wtg_fmt_size(sz, sizeof sz, (uint64_t)wtg_table_num(t, r, wc));
	snprintf(buf, len, "%s %s", t->rows[r].v[kc].s, sz);
}

/* What kernel_fall finds: the ratio, its CI, the two GB/s and the two rows' levels. */
struct fall {
	double ratio, lo, hi, gsmall, glarge;
	const char *lsmall, *llarge;
};

/* The level text of row r ("L1", "DRAM"), "?" when the table has none. */
static const char *level_of(const struct wtg_table *t, int r)
{
	int c = wtg_table_col(t, "level");
	const struct wtg_value *v = c >= 0 ? &t->rows[r].v[c] : NULL;
	return v && v->type == WTG_T_TEXT && v->s ? v->s : "?";
}

/* Kernel k's fall from its smallest size to its largest: GB/s there over GB/s here, with the 95% CI
 * of that ratio (a bootstrap of the two rows' samples). ratio NAN when k has not two sizes yet. */
static void kernel_fall(const struct wtg_table *t, const char *k, struct fall *f)
{
	int first, last;
	kernel_ends(t, k, &first, &last);
	f->ratio = f->lo = f->hi = f->gsmall = f->glarge = NAN;
	if (first < 0 || last == first)
		return;
	f->lsmall = level_of(t, first);
	f->llarge = level_of(t, last);
	char sf[64], sl[64];
	row_series(t, first, sf, sizeof sf);
	row_series(t, last, sl, sizeof sl);
	int gc = wtg_table_col(t, "gbps");
	f->gsmall = wtg_table_num(t, first, gc);
	f->glarge = wtg_table_num(t, last, gc);
	f->ratio = wtg_verdict_ratio(t, first, last, "gbps", sf, sl, &f->lo, &f->hi);
}

/* A run saved before wss had its kernels (one SIMD series, no kernel column): the range its sizes
 * summed at. */
static int old_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	int gc = wtg_table_col(t, "gbps");
	double lo = NAN, hi = NAN;
	for (int r = 0; gc >= 0 && r < t->nrows; r++) {
		double g = wtg_table_num(t, r, gc);
		if (isfinite(g)) {
			lo = isnan(lo) || g < lo ? g : lo;
			hi = isnan(hi) || g > hi ? g : hi;
		}
	}
	if (isnan(lo))
		return 0;
	return wtg_verdict_fmt(buf, len, true, "one core sums %.1f to %.1f GB/s, cache or DRAM", lo, hi);
}

#define FLAT_MAX 1.25	/* a series whose smallest size sums at most this much faster than its largest is flat */

/* A sentence read aloud, from the series that falls least from its smallest size to its largest and
 * the one that falls most: "a slow loop hides the memory hierarchy: scalar sums 1.9 GB/s in L1 and
 * 1.9 in DRAM, while simd falls 3.4-fold" (the flat line and the staircase, told apart by their
 * falls' intervals); "the loops fall alike: ..." when their intervals overlap; "every loop slows in
 * DRAM: ..." when even the flattest falls by more than x1.25. What follows the first ": " is what
 * the dashboard's "here:" keeps. */
static int wss_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	if (wtg_table_col(t, "kernel") < 0)
		return old_verdict(t, buf, len);
	int flat = -1, steep = -1;
	struct fall f[NKERNELS];
	for (int k = 0; k < NKERNELS; k++) {
		kernel_fall(t, knames[k], &f[k]);
		if (!isfinite(f[k].ratio))
			continue;
		if (flat < 0 || f[k].ratio < f[flat].ratio)
			flat = k;
		if (steep < 0 || f[k].ratio > f[steep].ratio)
			steep = k;
	}
	if (flat < 0)
		return 0;
	const struct fall *a = &f[flat];
	bool is_flat = a->ratio <= FLAT_MAX;
	if (steep == flat)
		return wtg_verdict_fmt(buf, len, true, "%s in %s: %s sums %.1f GB/s in %s and %.1f in %s",
				       is_flat ? "flat" : "slower", a->llarge, knames[flat], a->gsmall, a->lsmall, a->glarge,
				       a->llarge);
	bool apart = is_flat && isfinite(a->hi) && isfinite(f[steep].lo) ? f[steep].lo > a->hi : f[steep].ratio > FLAT_MAX;
	char lead[64];
	if (!is_flat)
		snprintf(lead, sizeof lead, "every loop slows in %s", a->llarge);
	else
		snprintf(lead, sizeof lead, "%s", apart ? "a slow loop hides the memory hierarchy" : "the loops fall alike");
	return wtg_verdict_fmt(buf, len, true, "%s: %s sums %.1f GB/s in %s and %.1f in %s, %s%s falls %.1f-fold", lead,
			       knames[flat], a->gsmall, a->lsmall, a->glarge, a->llarge, is_flat && apart ? "while " : "",
			       knames[steep], f[steep].ratio);
}

const struct wtg_experiment wtg_exp_wss = {
	.name = "wss",
	.question = "Cache or core?",
	.runs = "sum a working set from below L1d to 4x the last-level cache repeatedly, hand SIMD at every size, scalar and compiler-vectorized at 6 (x4 steps and 3 with --quick); GB/s per size",
	.needs_datafile = false,
	.shares_dram_buf = true,
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_SWEEP,
	/* the sizes follow the machine: the axis takes the data's range */
	.sweep = { .x = "wss", .y = { "gbps" }, .group = "kernel", .xtitle = "working set", .cache_marks = true,
		   .ylog = true },
	.headline = { { "GB/s over the largest span", NULL, NULL, "gbps", "gbps_ci_low", "gbps_ci_high", NULL,
			"GB/s", true, .work_col = "wss" } },
	.compare = { pairing_figure, "gbps", 2, "GB/s summing a memory-sized span of the file" },
	.typical_s = 13,
	.typical_quick_s = 4,
	.verdict = wss_verdict,
	.essay = { "a flat 17 GB/s from 16 KiB (L1) to 64 MiB (DRAM): core-bound", NULL, .value = 17,
		   .why = wtg_why_wss },
	.terms = WTG_TERMS("wss", "caches", "dram", "corebound", "membound", "gbps", "simd"),
	.interleaves = true,
	.alternates = true,
	.run = wss_run,
	.plan = wss_plan,
};
