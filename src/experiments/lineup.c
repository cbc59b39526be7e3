/* lineup.c: what the program hands the engine: the registry's experiments, and compare's first pair. */
#include "config.h"

#include <stdbool.h>

#include "wtg/compare.h"
#include "wtg/experiment.h"
#include "wtg/options.h"
#include "wtg/session.h"

bool wtg_options_need_datafile(const struct wtg_options *o)
{
	return wtg_need_datafile(o, wtg_experiments, wtg_nexperiments);
}

int wtg_session_init(struct wtg_session *s, const struct wtg_options *opt, const char *argv0)
{
	struct wtg_compare_pair pair;
	wtg_compare_pair_of(opt, &pair);
	return wtg_session_open(s, opt, argv0, wtg_experiments, wtg_nexperiments, &pair);
}
