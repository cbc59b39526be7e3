/* kernels.c: Is it the arithmetic? The same byte sum four ways over a cache-sized and a
 * memory-sized buffer: a scalar loop, the compiler's vectorized loop for the build's baseline ISA,
 * the same loop compiled for this CPU's ISA (what -march=native buys) and the hand SIMD loop. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "common.h"

#define CACHE_WSS (16u << 10) /* half of a typical 32 KiB L1d: stays in L1 */
#define MEM_WSS (256ull << 20) /* far past any last-level cache */
#define MEM_WSS_QUICK (64ull << 20)
#define TARGET_BYTES (2000000000ull) /* bytes each row moves */
#define TARGET_BYTES_QUICK (256ull << 20)

static const char *const kernels[] = { "scalar", "auto", "native", "simd" };

enum { NKERNELS = 4 };

static int run(struct wtg_ctx *ctx)
{
	const bool quick = ctx->opt->quick;
	const size_t sizes[2] = { CACHE_WSS, (size_t)(quick ? MEM_WSS_QUICK : MEM_WSS) };
	const uint64_t target = quick ? TARGET_BYTES_QUICK : TARGET_BYTES;
	const struct wtg_column cols[] = {
		{ "kernel", "", WTG_T_TEXT, 0 },
		{ "wss", "B", WTG_T_INT, 0 },
		{ "gbps", "GB/s", WTG_T_REAL, 2 },
		{ "ms", "ms", WTG_T_REAL, 1 },
		{ "passes", "count", WTG_T_INT, 0 },
		{ "bytes", "B", WTG_T_INT, 0 },
		{ "sum", "", WTG_T_INT, 0 },
		{ "impl", "", WTG_T_TEXT, 0 },
	};
	wtg_table_set_columns(ctx->t, cols, (int)WTG_ARRAY_LEN(cols));

	int rc = WTG_OK;
	int step = 0, nsteps = 2 * NKERNELS;
	for (int w = 0; w < 2 && rc == WTG_OK; w++) {
		size_t wss = sizes[w];
		char sz[32], label[64];
		wtg_fmt_size(sz, sizeof sz, wss);
		unsigned char *buf = wtg_aligned_alloc(4096, wss);
		if (!buf) {
			wtg_table_fail(ctx->t, "cannot allocate a %s buffer", sz);
			return WTG_ERR;
		}
		/* seeded bytes; the known sum comes from the generator, not from any of the kernels */
		int64_t known = wtg_fill_seeded(&ctx->rng, buf, wss);
		uint64_t passes = (target + wss - 1) / wss;
		int order[NKERNELS] = { 0, 1, 2, 3 };
		wtg_shuffle_int(&ctx->rng, order, NKERNELS);
		for (int k = 0; k < NKERNELS && rc == WTG_OK; k++) {
			const char *kname = kernels[order[k]];
			const struct wtg_sum_kernel *kn = wtg_sum_kernel(kname);
			snprintf(label, sizeof label, "%s %s", kname, sz);
			wtg_ctx_progress(ctx, step++, nsteps, label);
			if (wtg_ctx_cancelled(ctx)) {
				rc = WTG_CANCELLED;
				break;
			}
			/* fixed warm-up rule: one unreported pass, which must give the known sum too */
			char what[96];
			snprintf(what, sizeof what, "%s, %llu passes", label, (unsigned long long)passes);
			struct wtg_probe_result res;
			rc = wtg_sum_passes_checked(ctx, kn->sum, buf, wss, passes, known, label, what, &res);
			if (rc != WTG_OK)
				break;
			uint64_t bytes = passes * wss;
			double gbps = res.wall_ms > 0 ? (double)bytes / (res.wall_ms * 1e6) : 0;
			const struct wtg_value v[] = {
				WTG_TEXT(kname), WTG_INT(wss), WTG_REAL(gbps), WTG_REAL(res.wall_ms),
				WTG_INT(passes), WTG_INT(bytes), WTG_INT(known), WTG_TEXT(kn->isa),
			};
			wtg_table_add_row(ctx->t, v, (int)WTG_ARRAY_LEN(v), &res);
		}
		free(buf);
	}
	if (rc != WTG_OK)
		return rc;
	wtg_ctx_progress(ctx, nsteps, nsteps, "done");
	char csz[32], msz[32];
	wtg_fmt_size(csz, sizeof csz, sizes[0]);
	wtg_fmt_size(msz, sizeof msz, sizes[1]);
	for (int k = 0; k < NKERNELS; k++)
		wtg_table_note(ctx->t, "%s: %s", kernels[k], wtg_sum_kernel(kernels[k])->detail);
	wtg_table_note(ctx->t,
		       "buffers of %s (cache-resident) and %s (memory-sized) filled with seeded bytes; "
		       "the known sum comes from the generator, not from a kernel",
		       csz, msz);
	wtg_table_note(ctx->t,
		       "each row: one unreported warm-up pass, then %llu MB in whole passes; the four "
		       "kernels run in seeded random order per buffer",
		       (unsigned long long)(target / 1000000));
	return WTG_OK;
}

const struct wtg_experiment wtg_exp_kernels = {
	.name = "kernels",
	.question = "Is it the arithmetic?",
	.runs = "scalar, compiler-vectorized and hand SIMD byte sums over cache- and memory-sized buffers",
	.view = WTG_VIEW_BARS,
	.needs_datafile = false,
	.run = run,
};
