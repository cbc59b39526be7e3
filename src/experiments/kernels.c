/* kernels.c: Is it the arithmetic? The same byte sum three ways over a cache-resident buffer (half of
 * this machine's L1d) and a memory-sized one (at least 4x its last-level cache): a scalar loop, the
 * compiler's vectorized loop and the hand SIMD loop. Every row is 11 or more timed samples from the
 * rounds engine, all six variants in seeded random order in every round. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "common.h"

#define CACHE_BYTES (32ull << 20) /* bytes a cache-resident sample moves: whole passes */
#define CACHE_BYTES_QUICK (8ull << 20)
#define MEM_BYTES (128ull << 20) /* bytes a memory-sized sample moves: a window of the buffer */
#define MEM_BYTES_QUICK (32ull << 20)
#define CHUNK (4u << 10) /* the known sums cover 4 KiB pieces */

struct kernel {
	const char *name;
	wtg_sum_fn fn;
};

static const struct kernel kernels[] = {
	{ "scalar", wtg_sum_scalar },
	{ "auto", wtg_sum_auto },
	{ "simd", wtg_sum_simd },
};

enum { NKERNELS = 3 };

/* What kernel k runs, in words for the impl column. */
static const char *impl_of(int k)
{
	return k == 2 ? wtg_sum_simd_name() : k == 1 ? "compiler" : "scalar";
}

struct kstate {
	struct wtg_seeded_buf cache;	/* the cache-resident buffer */
	const struct wtg_seeded_buf *buf[2];	/* cache-resident, memory-sized (shared with wss) */
	uint64_t bytes[2];		/* per sample */
	uint64_t pos;			/* where the next memory window starts: each reads new bytes */
	int64_t total[2 * NKERNELS];	/* checked sums of the timed samples */
	char size[2][32];
};

/* Variant v: kernel v % NKERNELS over buffer v / NKERNELS. */
static void label(void *arg, int v, char *buf, size_t len)
{
	struct kstate *st = arg;
	snprintf(buf, len, "%s %s", kernels[v % NKERNELS].name, st->size[v / NKERNELS]);
}

static int sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	struct kstate *st = arg;
	int w = v / NKERNELS;
	const struct wtg_seeded_buf *b = st->buf[w];
	uint64_t zero = 0, *pos = w ? &st->pos : &zero;
	char what[96];
	label(arg, v, what, sizeof what);
	int64_t sum;
	int rc = wtg_seeded_sum_sample(ctx, kernels[v % NKERNELS].fn, b, b->size, st->bytes[w], pos, what,
				       &out->res, &sum);
	if (rc != WTG_OK)
		return rc;
	if (round >= 0)
		st->total[v] += sum;
	out->figure = out->res.wall_ms > 0 ? (double)st->bytes[w] / (out->res.wall_ms * 1e6) : 0;
	return WTG_OK;
}

static void set_columns(struct wtg_ctx *ctx)
{
	struct wtg_column cols[WTG_MAX_COLS] = {
		{ "kernel", "", WTG_T_TEXT, 0 },
		{ "wss", "B", WTG_T_INT, 0 },
	};
	int n = 2;
	n += wtg_rounds_columns(cols + n, "gbps", "GB/s", 2);
	cols[n++] = (struct wtg_column){ "ms", "ms", WTG_T_REAL, 2 };
	cols[n++] = (struct wtg_column){ "bytes", "B", WTG_T_INT, 0 };
	cols[n++] = (struct wtg_column){ "sum", "", WTG_T_INT, 0 };
	cols[n++] = (struct wtg_column){ "impl", "", WTG_T_TEXT, 0 };
	cols[n++] = (struct wtg_column){ "level", "", WTG_T_TEXT, 0 };
	wtg_table_set_columns(ctx->t, cols, n);
}

/* The row of variant v, from its samples so far. */
static int row(struct wtg_ctx *ctx, void *arg, int v, const struct wtg_rounds_result *r, struct wtg_value *vals)
{
	struct kstate *st = arg;
	int w = v / NKERNELS, k = v % NKERNELS;
	int n = 0;
	vals[n++] = WTG_TEXT(kernels[k].name);
	vals[n++] = WTG_INT(st->buf[w]->size);
	n += wtg_rounds_values(vals + n, r);
	vals[n++] = WTG_REAL((double)st->bytes[w] / (r->s.median * 1e6));
	vals[n++] = WTG_INT(st->bytes[w]);
	vals[n++] = WTG_INT(st->total[v]);
	vals[n++] = WTG_TEXT(impl_of(k));
	vals[n++] = WTG_TEXT(wtg_cache_level_name(ctx, st->buf[w]->size));
	return n;
}

/* The checks of every row: all sums matched, the CI, the drift. */
static void add_checks(struct wtg_ctx *ctx, struct kstate *st, const struct wtg_rounds *r)
{
	for (int v = 0; v < r->nvariants; v++) {
		char name[64];
		label(st, v, name, sizeof name);
		wtg_check_sums_row(ctx, name, (int)r->v[v].n, st->total[v]);
		wtg_rounds_checks(ctx, name, "GB/s", &r->v[v]);
	}
}

static int run(struct wtg_ctx *ctx)
{
	const bool quick = ctx->opt->quick;
	set_columns(ctx);
	struct kstate st = {
		.bytes = { quick ? CACHE_BYTES_QUICK : CACHE_BYTES, quick ? MEM_BYTES_QUICK : MEM_BYTES },
	};
	uint64_t l1 = wtg_ctx_l1d(ctx) / 2 / CHUNK * CHUNK;
	wtg_ctx_progress(ctx, 0, 1, "filling the buffers");
	/* seeded bytes; the known sums come from the generator, not from any of the kernels */
	int rc = wtg_seeded_buf_init(ctx, &ctx->rng, &st.cache, l1 ? l1 : CHUNK, CHUNK);
	st.buf[0] = &st.cache;
	if (rc == WTG_OK)
		rc = wtg_dram_buf_get(ctx, &st.buf[1]);
	if (rc == WTG_OK) {
		for (int w = 0; w < 2; w++)
			wtg_fmt_size(st.size[w], sizeof st.size[w], st.buf[w]->size);
		/* a cache sample is whole passes; a memory window never reaches past the buffer's end */
		st.bytes[0] = (st.bytes[0] + st.buf[0]->size - 1) / st.buf[0]->size * st.buf[0]->size;
		if (st.bytes[1] > st.buf[1]->size / 4)
			st.bytes[1] = st.buf[1]->size / 4 / CHUNK * CHUNK;
	}
	struct wtg_rounds r = { 0 };
	const struct wtg_rounds_spec spec = {
		.nvariants = 2 * NKERNELS, .rounds = WTG_ROUNDS_MIN, .warmup = 1,
		.sample = sample, .row = row, .arg = &st, .label = label,
	};
	if (rc == WTG_OK)
		rc = wtg_rounds_run(ctx, &spec, &r);
	if (rc == WTG_OK)
		add_checks(ctx, &st, &r);
	wtg_seeded_buf_free(&st.cache);
	/* a headless run that measures wss next keeps the memory-sized buffer for it */
	int wss = wtg_experiment_find("wss");
	wtg_dram_buf_done(ctx->opt->mode == WTG_MODE_RUN && wss >= 0 && ctx->opt->selected[wss]);
	if (rc != WTG_OK)
		return rc;
	wtg_ctx_progress(ctx, 1, 1, "done");
	wtg_table_note(ctx->t,
		       "scalar: one add per byte; auto: the plain loop as the compiler vectorizes it; "
		       "simd: hand psadbw loop, %s picked at run time",
		       wtg_sum_simd_name());
	char llc[32];
	wtg_fmt_size(llc, sizeof llc, wtg_ctx_llc(ctx));
	wtg_table_note(ctx->t,
		       "buffers: %s (half of L1d, cache-resident) and %s (at least 4x the %s last-level cache "
		       "or a quarter of RAM, memory-sized, the one wss sweeps), seeded bytes whose known sums "
		       "come from the generator, not from a kernel",
		       st.size[0], st.size[1], llc);
	wtg_table_note(ctx->t,
		       "a sample: %llu MB in whole passes over the cache-resident buffer, or a %llu MB window "
		       "of the memory-sized one, each window starting where the last ended (so it comes "
		       "from memory); every sample's sum checked",
		       (unsigned long long)(st.bytes[0] / 1000000), (unsigned long long)(st.bytes[1] / 1000000));
	wtg_rounds_note(ctx, &r, spec.warmup);
	wtg_rounds_free(&r);
	return WTG_OK;
}

const struct wtg_experiment wtg_exp_kernels = {
	.name = "kernels",
	.question = "Is it the arithmetic?",
	.runs = "scalar, compiler-vectorized and hand SIMD byte sums over an L1-resident and a memory-sized (4x LLC) buffer",
	.view = WTG_VIEW_BARS,
	.needs_datafile = false,
	.run = run,
};
