/* kernels.c: Is it the arithmetic? (not built yet) */
#include "config.h"

#include "common.h"

const struct wtg_experiment wtg_exp_kernels = {
	.name = "kernels",
	.question = "Is it the arithmetic?",
	.runs = "scalar, compiler-vectorized and hand SIMD byte sums over cache- and memory-sized buffers",
	.view = WTG_VIEW_BARS,
	.needs_datafile = false,
	.run = NULL,
};
