/* roofline.c: Short on math or short on bytes? (not built yet) */
#include "config.h"

#include "common.h"

const struct wtg_experiment wtg_exp_roofline = {
	.name = "roofline",
	.question = "Short on math or short on bytes?",
	.runs = "an arithmetic loop and the byte sum under the normal and the background policy",
	.view = WTG_VIEW_BARS,
	.needs_datafile = true,
	.run = NULL,
};
