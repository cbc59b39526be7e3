/* roofline.c: Short on math or short on bytes? A roofline: integer kernels whose arithmetic
 * intensity (64-bit integer ops per byte) runs from 1/64 to 64 in powers of two, over a
 * cache-resident buffer (half the L1 data cache) and a memory-sized one (twice the last-level cache,
 * within limits). Below some intensity the time is set by the bytes (GB/s flat, Gop/s rising with
 * the intensity), above it by the math (Gop/s flat); where the two roofs meet is the ridge point.
 *
 * Kernels, per 64-byte line of the buffer: at 1/64 .. 1/8 ops per byte, add k = 1, 2, 4 or 8 of the
 * line's eight words into accumulators (k ops); at 1/4 .. 64, R = 1 .. 256 rounds of eight
 * multiply-add chains (16 ops per round), the first round taking in the line's words, so every
 * byte is read and every op is done. Each sample's accumulators are compared with a reference
 * computed differently (word by word, or the rounds folded into one affine map), outside the timed
 * region. --quick measures every other intensity (1/64, 1/16, .. 64: 7 per buffer instead of 13).
 * Every (buffer, intensity) is a variant of the rounds engine: >= 15 samples in seeded
 * order per round. The background policy is a condition like everywhere else (the p key). */
#include "config.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "membuf.h"
#include "wtg/ctx.h"
#include "wtg/plan.h"
#include "rounds.h"
#include "wtg/topology.h"

#define LINE 64
#define WORDS 8			/* 64-bit words per line */
#define NINT 13			/* intensities 2^-6 .. 2^6 ops per byte */
#define NADD 4			/* the first four are the add kernel (k = 1, 2, 4, 8) */
#define STEP_QUICK 2		/* --quick: every other intensity, 1/64, 1/16, .. 64 */
#define MUL 0x9e3779b97f4a7c15ull	/* odd: the chains never collapse to zero */
#define INC 0x632be59bd9b4e019ull
#define OPS_TARGET (128ull << 20)	/* ops per sample ... */
#define OPS_TARGET_QUICK (16ull << 20)
#define BYTES_CAP (128ull << 20)	/* ... but at most this many bytes */
#define BYTES_CAP_QUICK (16ull << 20)
#define MEM_MIN (64ull << 20)		/* the memory buffer: 2 x LLC within these */
#define MEM_MAX (1ull << 30)
#define MEM_MIN_QUICK (32ull << 20)
#define MEM_MAX_QUICK (256ull << 20)
#define WARMUP 2	/* unreported samples per variant: the second re-sizes the sample from a warm start */
#define SAMPLE_PASSES_MAX 64	/* a sample grows to at most this many times the byte cap */
#define L1_FALLBACK (32u << 10)
#define FILL_PIECE (16u << 20)		/* the buffers are filled in pieces of this many bytes */
#define REF_BLOCK (256u << 10)		/* the memory buffer's reference table: one entry per block */

enum { BUF_CACHE = 0, BUF_MEM, NBUF };
/* What runs at each intensity (the texts outlive the rows that point at them). */
static const char *const kernel_names[NINT] = {
	"add 1/line",	"add 2/line",	 "add 4/line",	  "add 8/line",	    "mul-add x1",
	"mul-add x2",	"mul-add x4",	 "mul-add x8",	  "mul-add x16",    "mul-add x32",
	"mul-add x64",	"mul-add x128",	 "mul-add x256",
};
static const char *const buf_names[NBUF] = { "cache", "memory" };

/* Stops the compiler from folding the rounds of a chain into fewer operations. */
#define KEEP8(a, b, c, d, e, f, g, h) \
	__asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h))

struct buffer {
	uint64_t *w;
	bool shared;		/* w is the start of the shared memory-sized buffer, not ours to free */
	size_t size;		/* bytes, a multiple of LINE */
	size_t cursor;		/* where the next sample starts: samples walk round the buffer */
};

struct roof {
	struct buffer b[NBUF];
	uint64_t ops_target, bytes_cap;
	int nint, step;		/* intensities per buffer, and the step in NINT's grid between them */
	/* a variant whose samples are whole passes over its buffer starts every walk at the same place:
	 * its reference result (for that start and length) is computed once and every sample compared */
	struct { uint64_t bytes; size_t start; uint64_t want[WORDS]; bool ok; } ref[NBUF * NINT];
	uint64_t vbytes[NBUF * NINT];	/* per sample of each variant, grown at its warm-up to span at
					 * least WTG_SAMPLE_MIN_MS (0: not yet, sample_bytes) */
	/* the memory buffer's reference, folded per REF_BLOCK bytes in one pass before the rounds: each
	 * block's word sums (the add kernel: st[j] += sum[j], j < k) and, per multiply-add intensity the
	 * run measures, the block's affine map from zero (h = alpha^lines h + fold[j]); a walk composes
	 * the blocks it covers and takes its partial ends line by line (NULL: no table, line by line) */
	struct {
		size_t nblk;
		uint64_t *sum;			/* nblk x WORDS */
		uint64_t *fold[NINT];		/* nblk x WORDS per multiply-add index, NULL when not run */
		uint64_t apow[NINT];		/* alpha^(lines per block) */
	} tab;
	uint64_t checked, mismatched;	/* samples compared with the reference */
	double ridge[NBUF];		/* ops per byte; NAN until the rounds are over */
	struct wtg_type_tally types[NBUF * NINT];	/* core types at each timed sample's start and end */
	char type_list[NBUF * NINT][48];
};

/* ---- the kernels ---- */

static inline __attribute__((always_inline)) void add_k(const uint64_t *w, size_t lines, int k, uint64_t *acc)
{
	uint64_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
	uint64_t a4 = acc[4], a5 = acc[5], a6 = acc[6], a7 = acc[7];
	for (size_t l = 0; l < lines; l++, w += WORDS) {
		a0 += w[0];
		if (k > 1)
			a1 += w[1];
		if (k > 2) {
			a2 += w[2];
			a3 += w[3];
		}
		if (k > 4) {
			a4 += w[4];
			a5 += w[5];
			a6 += w[6];
			a7 += w[7];
		}
	}
	acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
	acc[4] = a4, acc[5] = a5, acc[6] = a6, acc[7] = a7;
}

/* The add kernel, specialised per k so no test is left in the loop. */
static void add_lines(const uint64_t *w, size_t lines, int k, uint64_t *acc)
{
	switch (k) {
	case 1:
		add_k(w, lines, 1, acc);
		break;
	case 2:
		add_k(w, lines, 2, acc);
		break;
	case 4:
		add_k(w, lines, 4, acc);
		break;
	default:
		add_k(w, lines, 8, acc);
		break;
	}
}

/* The multiply-add kernel: per line, h = h x MUL + word, then R - 1 rounds of h = h x MUL + INC. */
static void mul_lines(const uint64_t *w, size_t lines, int rounds, uint64_t *h)
{
	uint64_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4], h5 = h[5], h6 = h[6], h7 = h[7];
	for (size_t l = 0; l < lines; l++, w += WORDS) {
		h0 = h0 * MUL + w[0];
		h1 = h1 * MUL + w[1];
		h2 = h2 * MUL + w[2];
		h3 = h3 * MUL + w[3];
		h4 = h4 * MUL + w[4];
		h5 = h5 * MUL + w[5];
		h6 = h6 * MUL + w[6];
		h7 = h7 * MUL + w[7];
		for (int r = 1; r < rounds; r++) {
			h0 = h0 * MUL + INC;
			h1 = h1 * MUL + INC;
			h2 = h2 * MUL + INC;
			h3 = h3 * MUL + INC;
			h4 = h4 * MUL + INC;
			h5 = h5 * MUL + INC;
			h6 = h6 * MUL + INC;
			h7 = h7 * MUL + INC;
			KEEP8(h0, h1, h2, h3, h4, h5, h6, h7);
		}
	}
	h[0] = h0, h[1] = h1, h[2] = h2, h[3] = h3, h[4] = h4, h[5] = h5, h[6] = h6, h[7] = h7;
}

/* ---- the reference: the same results another way ---- */

/* The affine map of one line's R rounds of intensity index idx >= NADD: h -> alpha h + beta w + gamma. */
static void affine_of(int idx, uint64_t *alpha, uint64_t *beta, uint64_t *gamma)
{
	const int rounds = 1 << (idx - NADD);
	uint64_t b = 1, g = 0;
	for (int r = 1; r < rounds; r++) {
		g = g * MUL + INC;
		b *= MUL;
	}
	*alpha = b * MUL, *beta = b, *gamma = g;
}

/* The map h -> a h + b w + g, word by word, over `lines` lines from the h given (a = b = 1, g = 0:
 * the words' sums), all modulo 2^64. */
static void fold_lines(const uint64_t *w, size_t lines, uint64_t a, uint64_t b, uint64_t g, uint64_t *h)
{
	uint64_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4], h5 = h[5], h6 = h[6], h7 = h[7];
	for (size_t l = 0; l < lines; l++, w += WORDS) {
		h0 = a * h0 + b * w[0] + g;
		h1 = a * h1 + b * w[1] + g;
		h2 = a * h2 + b * w[2] + g;
		h3 = a * h3 + b * w[3] + g;
		h4 = a * h4 + b * w[4] + g;
		h5 = a * h5 + b * w[5] + g;
		h6 = a * h6 + b * w[6] + g;
		h7 = a * h7 + b * w[7] + g;
	}
	h[0] = h0, h[1] = h1, h[2] = h2, h[3] = h3, h[4] = h4, h[5] = h5, h[6] = h6, h[7] = h7;
}

/* Word by word for the add kernel (every word of each line summed, the first k kept); for the
 * multiply-add kernel the R rounds folded into one affine map per line, h = M^R h + M^(R-1) word +
 * INC (M^(R-2) + ... + 1). */
static void reference(const uint64_t *w, size_t lines, int idx, uint64_t *st)
{
	if (idx < NADD) {
		uint64_t a[WORDS] = { 0 };
		fold_lines(w, lines, 1, 1, 0, a);
		for (int j = 0; j < 1 << idx; j++)
			st[j] += a[j];
		return;
	}
	uint64_t alpha, beta, gamma;
	affine_of(idx, &alpha, &beta, &gamma);
	fold_lines(w, lines, alpha, beta, gamma, st);
}

/* The memory buffer's reference table (rf->tab): every block's word sums, and its map from zero under
 * each multiply-add intensity the run measures, word by word in one pass. Returns 0, or -1 (out of
 * memory: the references walk line by line). */
static int ref_table(struct roof *rf)
{
	const struct buffer *b = &rf->b[BUF_MEM];
	const size_t lines = REF_BLOCK / LINE, nblk = b->size / REF_BLOCK;
	int midx[NINT], nm = 0;
	uint64_t al[NINT], be[NINT], ga[NINT];
	for (int i = 0; i < rf->nint; i++) {
		const int idx = i * rf->step;
		if (idx < NADD)
			continue;
		affine_of(idx, &al[nm], &be[nm], &ga[nm]);
		midx[nm++] = idx;
	}
	if (nblk == 0 || !(rf->tab.sum = calloc(nblk * WORDS, sizeof(uint64_t))))
		return -1;
	for (int m = 0; m < nm; m++) {
		if (!(rf->tab.fold[midx[m]] = calloc(nblk * WORDS, sizeof(uint64_t))))
			return -1;
		uint64_t a = 1;
		for (size_t l = 0; l < lines; l++)
			a *= al[m];
		rf->tab.apow[midx[m]] = a;
	}
	/* block by block (a block stays in the L2 while each map reads it again) */
	for (size_t k = 0; k < nblk; k++) {
		const uint64_t *w = b->w + k * (REF_BLOCK / sizeof(uint64_t));
		fold_lines(w, lines, 1, 1, 0, rf->tab.sum + k * WORDS);	/* the tables start zeroed */
		for (int m = 0; m < nm; m++)
			fold_lines(w, lines, al[m], be[m], ga[m], rf->tab.fold[midx[m]] + k * WORDS);
	}
	rf->tab.nblk = nblk;
	return 0;
}

static void ref_table_free(struct roof *rf)
{
	free(rf->tab.sum);
	for (int i = 0; i < NINT; i++)
		free(rf->tab.fold[i]);
	memset(&rf->tab, 0, sizeof rf->tab);
}

/* The reference over [at, at + n) of the memory buffer (within it, whole lines): line by line up to
 * the first block boundary, the table's blocks, line by line after the last. */
static void reference_blocks(const struct roof *rf, size_t at, size_t n, int idx, uint64_t *st)
{
	const struct buffer *b = &rf->b[BUF_MEM];
	const uint64_t *tab = idx < NADD ? rf->tab.sum : rf->tab.fold[idx];
	size_t first = (at + REF_BLOCK - 1) / REF_BLOCK, last = (at + n) / REF_BLOCK;	/* whole blocks [first, last) */
	if (!tab || last > rf->tab.nblk)
		last = rf->tab.nblk;
	if (!tab || first >= last) {
		reference(b->w + at / sizeof(uint64_t), n / LINE, idx, st);
		return;
	}
	const size_t head = first * REF_BLOCK - at, body = (last - first) * REF_BLOCK;
	reference(b->w + at / sizeof(uint64_t), head / LINE, idx, st);
	const int k = idx < NADD ? 1 << idx : WORDS;
	for (size_t blk = first; blk < last; blk++)
		for (int j = 0; j < k; j++)
			st[j] = idx < NADD ? st[j] + tab[blk * WORDS + j] : rf->tab.apow[idx] * st[j] + tab[blk * WORDS + j];
	reference(b->w + (at + head + body) / sizeof(uint64_t), (n - head - body) / LINE, idx, st);
}

/* Ops per line of intensity index idx: k adds, or 16 per multiply-add round. */
static uint64_t ops_per_line(int idx)
{
	return idx < NADD ? (uint64_t)1 << idx : (uint64_t)16 << (idx - NADD);
}

static double intensity(int idx)
{
	return ldexp(1.0, idx - 6);
}

/* Bytes of one sample: OPS_TARGET worth of ops, at most BYTES_CAP, whole lines. */
static uint64_t sample_bytes(const struct roof *rf, int idx)
{
	uint64_t lines = rf->ops_target / ops_per_line(idx);
	if (lines * LINE > rf->bytes_cap)
		lines = rf->bytes_cap / LINE;
	return (lines ? lines : 1) * LINE;
}

/* Variant v's buffer and intensity index: nint variants per buffer, step apart in the full grid. */
static int buf_of(const struct roof *rf, int v)
{
	return v / rf->nint;
}

static int idx_of(const struct roof *rf, int v)
{
	return v % rf->nint * rf->step;
}

/* Run the kernel, or the reference (rf given: the memory buffer's through its table), over `bytes` of
 * b from `start`, wrapping round the buffer. */
static void walk(const struct buffer *b, size_t start, uint64_t bytes, int idx, uint64_t *st, const struct roof *ref)
{
	size_t at = start;
	while (bytes) {
		size_t n = b->size - at < bytes ? b->size - at : (size_t)bytes;
		const uint64_t *w = b->w + at / sizeof(uint64_t);
		if (ref && b == &ref->b[BUF_MEM])
			reference_blocks(ref, at, n, idx, st);
		else if (ref)
			reference(w, n / LINE, idx, st);
		else if (idx < NADD)
			add_lines(w, n / LINE, 1 << idx, st);
		else
			mul_lines(w, n / LINE, 1 << (idx - NADD), st);
		bytes -= n;
		at = (at + n) % b->size;
	}
}

/* The reference accumulators of variant v's walk over `bytes` from `start` (want holds the start
 * values): walked another way, or kept from an earlier sample of whole passes from the same start. */
static void reference_of(struct roof *rf, int v, const struct buffer *b, size_t start, uint64_t bytes,
			 uint64_t *want)
{
	if (rf->ref[v].ok && rf->ref[v].bytes == bytes && rf->ref[v].start == start) {
		memcpy(want, rf->ref[v].want, sizeof rf->ref[v].want);
		return;
	}
	walk(b, start, bytes, idx_of(rf, v), want, rf);
	if (bytes % b->size == 0) {
		rf->ref[v].bytes = bytes;
		rf->ref[v].start = start;
		memcpy(rf->ref[v].want, want, sizeof rf->ref[v].want);
		rf->ref[v].ok = true;
	}
}

/* One sample of variant v (buf_of, idx_of): the timed walk, then the reference. */
static int sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	struct roof *rf = arg;
	struct buffer *b = &rf->b[buf_of(rf, v)];
	const int idx = idx_of(rf, v);
	const uint64_t bytes = rf->vbytes[v] ? rf->vbytes[v] : sample_bytes(rf, idx);
	uint64_t st[WORDS] = { 1, 2, 3, 4, 5, 6, 7, 8 }, want[WORDS] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	const size_t start = b->cursor;
	struct wtg_probe p;
	const int cpu0 = sched_getcpu();
	wtg_probe_begin(&p);
	walk(b, start, bytes, idx, st, NULL);
	wtg_probe_end(&p, &out->res);
	if (round >= 0) {
		wtg_type_tally_add(wtg_topology_this(), &rf->types[v], cpu0);
		wtg_type_tally_add(wtg_topology_this(), &rf->types[v], sched_getcpu());
	}
	b->cursor = (size_t)((start + bytes) % b->size);
	reference_of(rf, v, b, start, bytes, want);
	uint64_t x = 0;
	for (int i = 0; i < WORDS; i++)
		x ^= st[i];
	wtg_sink += x;
	rf->checked++;
	if (memcmp(st, want, sizeof st) != 0) {
		rf->mismatched++;
		wtg_table_fail(ctx->t, "%s buffer, %g ops per byte: the kernel's accumulators differ from the "
				       "reference's",
			       buf_names[buf_of(rf, v)], intensity(idx));
		return WTG_ERR;
	}
	out->figure = out->res.wall_ms > 0 ? (double)bytes / (out->res.wall_ms * 1e6) : 0;
	/* a short warm-up: more lines per sample (the walk goes on round the buffer), the same ops per
	 * byte, in whole passes over a buffer within the byte cap; at most SAMPLE_PASSES_MAX times the
	 * byte cap */
	if (round == WTG_ROUND_WARMUP)
		rf->vbytes[v] = wtg_rounds_sample_bytes(bytes, wtg_rounds_warmup_ms(&out->res),
							b->size <= rf->bytes_cap ? b->size : LINE,
							rf->bytes_cap * SAMPLE_PASSES_MAX);
	return WTG_OK;
}

static void label_of(const void *arg, int v, char *buf, size_t len)
{
	const struct roof *rf = arg;
	int idx = idx_of(rf, v);
	if (idx < 6)
		snprintf(buf, len, "%s 1/%d op/B", buf_names[buf_of(rf, v)], 1 << (6 - idx));
	else
		snprintf(buf, len, "%s %d ops/B", buf_names[buf_of(rf, v)], 1 << (idx - 6));
}

/* ---- the table ---- */

extern const struct wtg_experiment wtg_exp_roofline;

static const struct wtg_column cols[] = {
	{ "buffer", "", WTG_T_TEXT, 0 },
	{ "wss", "B", WTG_T_INT, 0 },
	{ "ops_per_byte", "ops/B", WTG_T_REAL, 4 },
	WTG_ROUNDS("gbps", "GB/s", 2),
	{ "gops", "Gop/s", WTG_T_REAL, 2 },
	{ "gops_ci_low", "Gop/s", WTG_T_REAL, 2 },
	{ "gops_ci_high", "Gop/s", WTG_T_REAL, 2 },
	{ "ms", "ms", WTG_T_REAL, 3 },
	{ "bytes", "B", WTG_T_INT, 0 },
	{ "ops", "count", WTG_T_INT, 0 },
	{ "kernel", "", WTG_T_TEXT, 0 },
	{ "bound", "", WTG_T_TEXT, 0 },
	{ "core_type", "", WTG_T_TEXT, 0 },
};

/* The roofs of one buffer from its medians: the best GB/s (the bytes roof), the best Gop/s (the
 * math roof), and the ridge where they meet, math roof / bytes roof ops per byte. */
static double ridge_of(const struct roof *rf, const struct wtg_rounds *r, int buf, double *bw, double *ops)
{
	*bw = *ops = 0;
	for (int v = buf * rf->nint; v < (buf + 1) * rf->nint; v++) {
		double g = r->v[v].s.median;
		*bw = fmax(*bw, g);
		*ops = fmax(*ops, g * intensity(idx_of(rf, v)));
	}
	return *bw > 0 ? *ops / *bw : NAN;
}

/* The row of variant v from its samples so far; bound stays n/a until the ridges are known. */
static int row_of(struct wtg_ctx *ctx, void *arg, int v, const struct wtg_rounds_result *res,
		  struct wtg_value *vals)
{
	(void)ctx;
	struct roof *rf = arg;
	const int buf = buf_of(rf, v), i = idx_of(rf, v);
	const double in = intensity(i), ridge = rf->ridge[buf];
	wtg_type_tally_format(wtg_topology_this(), &rf->types[v], rf->type_list[v], sizeof rf->type_list[v]);
	const uint64_t bytes = rf->vbytes[v] ? rf->vbytes[v] : sample_bytes(rf, i);
	vals[0] = WTG_TEXT(buf_names[buf]);
	vals[1] = WTG_INT(rf->b[buf].size);
	vals[2] = WTG_REAL(in);
	int k = 3 + wtg_rounds_values(&vals[3], res);
	const struct wtg_value more[] = {
		WTG_REAL(res->s.median * in),
		WTG_REAL(res->s.ci_low * in),
		WTG_REAL(res->s.ci_high * in),
		res->s.median > 0 ? WTG_REAL((double)bytes / (res->s.median * 1e6)) : WTG_NA,
		WTG_INT(bytes),
		WTG_INT(bytes / LINE * ops_per_line(i)),
		WTG_TEXT(kernel_names[i]),
		isnan(ridge) ? WTG_NA : WTG_TEXT(in < ridge ? "bytes" : "math"),
		WTG_TEXT(rf->type_list[v]),
	};
	memcpy(&vals[k], more, sizeof more);
	return k + (int)WTG_ARRAY_LEN(more);
}

/* Once every median is final: the ridges, then each row again with its bound, and its checks. */
static void final_rows(struct wtg_ctx *ctx, struct roof *rf, const struct wtg_rounds *r)
{
	double bw, ops;
	for (int buf = 0; buf < NBUF; buf++)
		rf->ridge[buf] = ridge_of(rf, r, buf, &bw, &ops);
	for (int v = 0; v < r->nvariants; v++) {
		struct wtg_value vals[WTG_MAX_COLS];
		int n = wtg_arms_tag(ctx, vals, row_of(ctx, rf, v, &r->v[v], vals), 0);	/* arm A's, paired */
		wtg_table_set_row(ctx->t, v, vals, n, &r->v[v].probe);
		char label[48];
		label_of(rf, v, label, sizeof label);
		wtg_rounds_checks(ctx, label, "GB/s", &r->v[v]);
	}
}

static void notes(struct wtg_ctx *ctx, const struct roof *rf, const struct wtg_rounds *r)
{
	for (int buf = 0; buf < NBUF; buf++) {
		double bw, ops, ridge = ridge_of(rf, r, buf, &bw, &ops);
		char sz[32];
		wtg_fmt_size(sz, sizeof sz, rf->b[buf].size);
		wtg_table_note(ctx->t,
			       "%s (%s%s): the time switches from bytes to math at about %.3g ops per byte "
			       "(bytes roof %.1f GB/s, math roof %.2f Gop/s: the best medians)",
			       buf_names[buf], sz,
			       rf->b[buf].shared ? ", the first bytes of the memory-sized buffer this run filled once "
						   "for kernels, wss and ceiling" : "",
			       ridge, bw, ops);
	}
	wtg_table_note(ctx->t,
		       "ops are 64-bit integer adds and multiplies; bytes are whole 64-byte lines: 1/64 .. "
		       "1/8 ops per byte add 1, 2, 4 or 8 words of each line, 1/4 .. 64 run 1 .. 256 "
		       "rounds of 8 multiply-add chains per line (the first taking in the words)");
	if (rf->step > 1)
		wtg_table_note(ctx->t,
			       "--quick measures every other intensity (1/64, 1/16, 1/4, 1, 4, 16, 64 ops per byte: "
			       "add 1 or 4 words, 1, 4, 16, 64 or 256 rounds), %d per buffer; the ridge is read "
			       "from these",
			       rf->nint);
	wtg_table_note(ctx->t,
		       "a sample moves about %llu M ops or at most %llu MiB, more lines where that spans less "
		       "than %.0f ms at the warm-up's rate (the bytes column; whole passes over the cache "
		       "buffer), walking round the buffer from where the last one stopped; all %llu samples' results matched a reference computed "
		       "another way, outside the timed region (word by word, the multiply-add rounds of a line "
		       "folded into one map; %s)",
		       (unsigned long long)(rf->ops_target >> 20), (unsigned long long)(rf->bytes_cap >> 20),
		       WTG_SAMPLE_MIN_MS, (unsigned long long)rf->checked,
		       rf->tab.nblk ? "over the memory buffer, each 256 KiB block's sums and maps folded once before "
				      "the rounds and composed, its partial ends line by line"
				    : "over the memory buffer line by line");
	wtg_rounds_note(ctx, r, WARMUP);
	char types[512];
	wtg_topology_types_note(wtg_topology_this(), types, sizeof types);
	wtg_table_note(ctx->t, "%s", types);
	const struct wtg_cache *llc = ctx->machine ? wtg_machine_llc(ctx->machine) : NULL;
	if (llc && rf->b[BUF_MEM].size < 2 * llc->size) {
		char a[32], b[32];
		wtg_fmt_size(a, sizeof a, rf->b[BUF_MEM].size);
		wtg_fmt_size(b, sizeof b, llc->size);
		wtg_table_note(ctx->t, "the memory buffer (%s) is smaller than twice the last-level cache (%s): "
				       "part of it may be served from that cache",
			       a, b);
	}
}

/* The two buffers: half the L1 data cache, and twice the last-level cache within limits, both
 * filled from the seeded generator (which also faults every page in before timing). */
/* The two buffers' sizes: half of L1d, and twice the LLC within the memory bounds. */
static void buffer_sizes(const struct wtg_ctx *ctx, struct roof *rf)
{
	const bool quick = ctx->opt->quick;
	uint64_t l1 = ctx->machine ? wtg_machine_cache_size(ctx->machine, 1) : 0;
	const struct wtg_cache *llc = ctx->machine ? wtg_machine_llc(ctx->machine) : NULL;
	uint64_t lo = quick ? MEM_MIN_QUICK : MEM_MIN, hi = quick ? MEM_MAX_QUICK : MEM_MAX;
	uint64_t mem = llc ? 2 * llc->size : lo;
	mem = mem < lo ? lo : mem > hi ? hi : mem;
	rf->b[BUF_CACHE].size = (size_t)((l1 ? l1 : L1_FALLBACK) / 2 / LINE * LINE);
	rf->b[BUF_MEM].size = (size_t)(mem / LINE * LINE);
}

static int make_buffers(struct wtg_ctx *ctx, struct roof *rf)
{
	buffer_sizes(ctx, rf);
	for (int i = 0; i < NBUF; i++) {
		/* the memory buffer: the first bytes of the one kernels, wss and ceiling share, when an
		 * experiment of this run has filled it and it is large enough (its bytes are seeded too;
		 * the kernels' reference is computed from whatever they hold) */
		const struct wtg_seeded_buf *sh = i == BUF_MEM ? wtg_dram_buf_peek(ctx, &wtg_exp_roofline) : NULL;
		if (sh && sh->size >= rf->b[i].size) {
			rf->b[i].w = (uint64_t *)(void *)sh->p;
			rf->b[i].shared = true;
			continue;
		}
		rf->b[i].w = wtg_aligned_alloc(4096, rf->b[i].size);
		if (!rf->b[i].w) {
			wtg_table_fail(ctx->t, "out of memory for a %zu-byte buffer", rf->b[i].size);
			return WTG_ERR;
		}
		struct wtg_rng g;
		wtg_rng_seed(&g, wtg_ctx_seed(ctx, 100u + (unsigned)i));
		/* in pieces, so a slow fill (a busy machine, the background policy) still shows progress */
		for (size_t off = 0; off < rf->b[i].size; off += FILL_PIECE) {
			size_t n = rf->b[i].size - off < FILL_PIECE ? rf->b[i].size - off : FILL_PIECE;
			wtg_fill_seeded(&g, (unsigned char *)rf->b[i].w + off, n);
			if (wtg_ctx_cancelled(ctx))
				return WTG_CANCELLED;
		}
	}
	return WTG_OK;
}

/* A run's targets: ops per sample and its byte cap. */
static struct roof roof_of(const struct wtg_options *o)
{
	const int step = o->quick ? STEP_QUICK : 1;
	return (struct roof){ .ops_target = o->quick ? OPS_TARGET_QUICK : OPS_TARGET,
			      .bytes_cap = o->quick ? BYTES_CAP_QUICK : BYTES_CAP, .ridge = { NAN, NAN },
			      .nint = (NINT - 1) / step + 1, .step = step };
}

static int roofline_run(struct wtg_ctx *ctx)
{
	struct roof rf = roof_of(ctx->opt);
	wtg_experiment_columns(&wtg_exp_roofline, ctx->t);
	const int nsteps = 1 + wtg_rounds_steps(ctx->opt, NBUF * rf.nint, WTG_ROUNDS_MIN, WARMUP);
	wtg_ctx_progress(ctx, 0, nsteps, "filling the buffers");
	wtg_first_look(ctx);
	int rc = make_buffers(ctx, &rf);
	if (rc == WTG_OK && ref_table(&rf) < 0)
		ref_table_free(&rf);	/* out of memory: the references walk line by line */
	struct wtg_rounds r;
	if (rc == WTG_OK) {
		struct wtg_rounds_spec spec = { .nvariants = NBUF * rf.nint, .rounds = WTG_ROUNDS_MIN, .warmup = WARMUP,
						.unit = "GB/s",
						.sample = sample, .row = row_of, .arg = &rf, .label = label_of,
						.first_step = 1, .nsteps = nsteps,
						/* as kernels: passes over an L1-sized buffer, or a walk on
						 * through the memory-sized one */
						.self_warming = "a cache-buffer sample makes many passes over half "
								    "the L1d, the first loading it, and a memory-buffer "
								    "sample walks on from where the last one stopped" };
		rc = wtg_rounds_run(ctx, &spec, &r);
	}
	if (rc == WTG_OK) {
		final_rows(ctx, &rf, &r);
		wtg_table_check(ctx->t, "results", rf.mismatched == 0,
				"%llu samples: every kernel's accumulators equal the reference's",
				(unsigned long long)rf.checked);
		notes(ctx, &rf, &r);
		wtg_rounds_free(&r);
		wtg_ctx_progress(ctx, nsteps, nsteps, "done");
	}
	ref_table_free(&rf);
	for (int i = 0; i < NBUF; i++)
		if (!rf.b[i].shared)
			free(rf.b[i].w);
	wtg_dram_buf_done(ctx, &wtg_exp_roofline);
	return rc;
}

/* --dry-run: every intensity measured (every other in --quick) over the two buffers buffer_sizes gives on this machine. */
static void roofline_plan(struct wtg_plan *p)
{
	static const char *const names[] = { "buffer", "wss", "ops_per_byte", "kernel", "bytes", "ops" };
	struct wtg_ctx ctx = { .opt = p->opt, .machine = p->machine };
	struct roof rf = roof_of(p->opt);
	buffer_sizes(&ctx, &rf);
	wtg_plan_columns(p, names, 6);
	for (int v = 0; v < NBUF * rf.nint; v++) {
		int idx = idx_of(&rf, v);
		uint64_t bytes = sample_bytes(&rf, idx);
		const struct wtg_value row[] = { WTG_TEXT(buf_names[buf_of(&rf, v)]), WTG_INT(rf.b[buf_of(&rf, v)].size),
						 WTG_REAL(intensity(idx)), WTG_TEXT(kernel_names[idx]), WTG_INT(bytes),
						 WTG_INT(bytes / LINE * ops_per_line(idx)) };
		wtg_plan_row(p, row);
	}
	wtg_rounds_plan(p, WARMUP);
}

/* "memory: bytes-bound below 0.06 ops a byte (35 GB/s), math-bound above (2.2 Gop/s)": the ridge
 * of the memory-sized buffer from its medians, as the notes give it. */
static int roofline_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	const char *b = buf_names[NBUF - 1];
	double bw = wtg_verdict_extreme(t, "buffer", b, "gbps", 1, NULL);
	double ops = wtg_verdict_extreme(t, "buffer", b, "gops", 1, NULL);
	if (!(bw > 0) || !(ops > 0)) {
		b = buf_names[0];
		bw = wtg_verdict_extreme(t, "buffer", b, "gbps", 1, NULL);
		ops = wtg_verdict_extreme(t, "buffer", b, "gops", 1, NULL);
	}
	return wtg_verdict_fmt(buf, len, bw > 0 && ops > 0,
			       "%s: bytes-bound below %.2g ops a byte (%.0f GB/s), math-bound above (%.2g Gop/s)", b,
			       ops / bw, bw, ops);
}

const struct wtg_experiment wtg_exp_roofline = {
	.name = "roofline",
	.question = "Short on math or short on bytes?",
	.runs = "integer kernels from 1/64 to 64 ops per byte over a cache-resident and a memory-sized "
		"buffer; GB/s and Gop/s against intensity, >= 15 seeded rounds each; the ridge point",
	.needs_datafile = false,
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_SWEEP,
	.sweep = { .x = "ops_per_byte", .y = { "gops" }, .group = "buffer", .xlo = 1.0 / 64, .xhi = 64,
		   .xtitle = "integer ops per byte", .ylog = true, .ridge_rate = "gbps" },
	.headline = { { "Gop/s, memory-sized buffer at the highest intensity", NULL, NULL, "gops", "gops_ci_low",
			"gops_ci_high", NULL, "Gop/s", true, .work_col = "wss" } },
	.verdict = roofline_verdict,
	.typical_s = 15,
	.typical_quick_s = 4,
	.terms = WTG_TERMS("roofline", "intensity", "corebound", "membound", "background"),
	.interleaves = true,
	.shares_dram_buf = true,
	.alternates = true,
	.run = roofline_run,
	.plan = roofline_plan,
};
