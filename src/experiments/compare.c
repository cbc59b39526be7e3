/* compare.c: Did the condition change it? (not built yet) */
#include "config.h"

#include "common.h"

const struct wtg_experiment wtg_exp_compare = {
	.name = "compare",
	.question = "Did the condition change it?",
	.runs = "paired A/B of an experiment's headline figure, condition off and on, seeded order",
	.view = WTG_VIEW_BARS,
	.needs_datafile = true,
	.run = NULL,
};
