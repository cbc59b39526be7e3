/* ceiling_verdict.c: the ceiling experiment's verdict (see ceiling.h): which suspect's row moved one
 * core's ceiling, and what that move says. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ceiling.h"
#include "wtg/experiment.h"
#include "wtg/table.h"
#include "wtg/util.h"

/* What a move of each suspect's row says: `sign` is the direction that points at the suspect (+1 a
 * rise: taking it away lifted the ceiling; -1 a fall: adding it lowered it; 0 either). */
static const struct {
	const char *suspect;
	int sign;
	const char *yes, *no;
} meaning[] = {
	{ "vector execution", 1, "the sum's vector arithmetic is part of one core's cap here",
	  "loads alone ran slower: the arithmetic is not what caps one core here" },
	{ "translation", -1, "translation is part of one core's cap here",
	  "4 KiB pages ran faster: huge pages do not lift one core's cap here" },
	{ "loop code", 0, "the loop's own code moves one core's ceiling here", "" },
	{ "load machinery", 1, "the load machinery (misses in flight) is part of one core's cap here",
	  "more misses in flight slowed it: they are not what caps one core here" },
	{ "shared path", -1, "a path shared with another core is part of one core's cap here",
	  "it ran faster beside a second thread: no shared path caps one core here" },
};

static const char *meaning_of(const char *suspect, double ratio)
{
	for (size_t i = 0; i < WTG_ARRAY_LEN(meaning); i++)
		if (strcmp(meaning[i].suspect, suspect) == 0)
			return meaning[i].sign == 0 || (ratio > 1) == (meaning[i].sign > 0) ? meaning[i].yes
											    : meaning[i].no;
	return "";
}

/* "4K pages: x0.81 [0.78-0.84]: translation is part of one core's cap here": the row whose ratio
 * lies furthest from 1 on a log scale among those whose interval does not hold 1; the reference and
 * the chase are no changes to the sum. */
int wtg_ceil_verdict(const struct wtg_table *t, char *buf, size_t len)
{
	int vc = wtg_table_col(t, "variant"), sc = wtg_table_col(t, "suspect"), rc = wtg_table_col(t, "ratio");
	int lc = wtg_table_col(t, "ratio_ci_low"), hc = wtg_table_col(t, "ratio_ci_high");
	if (vc < 0 || sc < 0 || rc < 0 || lc < 0 || hc < 0)
		return 0;
	int best = -1, judged = 0;
	for (int r = 0; r < t->nrows; r++) {
		const struct wtg_value *s = &t->rows[r].v[sc];
		double x = wtg_table_num(t, r, rc), lo = wtg_table_num(t, r, lc), hi = wtg_table_num(t, r, hc);
		if (s->type != WTG_T_TEXT || !s->s || strcmp(s->s, "reference") == 0 || strcmp(s->s, "latency") == 0 ||
		    !(x > 0) || !isfinite(lo) || !isfinite(hi))
			continue;
		judged++;
		if (lo <= 1 && hi >= 1)
			continue;
		if (best < 0 || fabs(log(x)) > fabs(log(wtg_table_num(t, best, rc))))
			best = r;
	}
	if (best < 0)
		return wtg_verdict_fmt(buf, len, judged > 0,
				       "none moved one core's ceiling beyond noise: each of the %d ratios' 95%% "
				       "intervals holds 1",
				       judged);
	const struct wtg_value *v = &t->rows[best].v[vc];
	double x = wtg_table_num(t, best, rc);
	return wtg_verdict_fmt(buf, len, v->type == WTG_T_TEXT && v->s, "%s: x%.2f [%.2f-%.2f]: %s", v->s, x,
			       wtg_table_num(t, best, lc), wtg_table_num(t, best, hc),
			       meaning_of(t->rows[best].v[sc].s, x));
}
