/* arms.c: what the engine needs of a paired run (wtg/paired.h): whether an experiment can alternate
 * under a --versus condition, the conditions in force as an arm's state, and an arm order's memory.
 * The arms' rounds and statistics are the experiments' (src/experiments/paired.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/conditions.h"
#include "wtg/experiment.h"
#include "wtg/arms.h"
#include "wtg/util.h"

bool wtg_versus_applies(const struct wtg_experiment *e, const struct wtg_versus *v, char *why, size_t len)
{
	static const struct {
		enum wtg_versus_cond c;
		unsigned bit;
		const char *what;
	} own[] = { { WTG_VS_BURN, WTG_COND_BURN, "burners" }, { WTG_VS_BACKGROUND, WTG_COND_BACKGROUND, "its policy" },
		    { WTG_VS_UNCACHED, WTG_COND_UNCACHED, "its I/O mode" },
		    { WTG_VS_COLD, WTG_COND_COLD, "the page cache" } };
	if (len)
		why[0] = '\0';
	if (v->cond == WTG_VS_NONE)
		return false;
	for (size_t i = 0; i < WTG_ARRAY_LEN(own); i++)
		if (own[i].c == v->cond && (e->self_conditions & own[i].bit)) {
			snprintf(why, len, "%s sets %s itself", e->name, own[i].what);
			return false;
		}
	if (!e->alternates) {
		snprintf(why, len, "%s %s", e->name, e->not_alternating ? e->not_alternating
									: "does not measure in rounds that can alternate");
		return false;
	}
	if ((v->cond == WTG_VS_UNCACHED || v->cond == WTG_VS_COLD) && !e->needs_datafile) {
		snprintf(why, len, "%s reads no file", e->name);
		return false;
	}
	if (v->cond == WTG_VS_UNCACHED && e->not_uncached) {
		snprintf(why, len, "%s does not read under uncached I/O: %s", e->name, e->not_uncached);
		return false;
	}
	if (v->cond == WTG_VS_COLD && !e->measures_cold) {
		snprintf(why, len, "%s cannot measure cold: %s", e->name, e->not_cold ? e->not_cold : WTG_NOT_COLD_WHY);
		return false;
	}
	return true;
}

void wtg_arm_state_now(struct wtg_arm_state *st, bool cold)
{
	*st = (struct wtg_arm_state){ .burn = wtg_burner_count(), .kind = wtg_burner_kind(),
				      .background = wtg_policy_requested(), .uncached = wtg_uncached_requested(),
				      .cold = cold };
}

void wtg_arms_free(struct wtg_arms *a)
{
	free(a->order);
	a->order = NULL;
	a->nrounds = a->caprounds = 0;
}
