/* test_registry.c: the experiment registry holds together. Every experiment declares its columns,
 * and every column its view, headlines and compare pairing name is among them (with the right
 * type); names do not repeat; compare's choices, its default and its error message come from the
 * registry; a table gets exactly the declared columns; the runs line has --quick's counts. Broken declarations are caught, with the
 * word that is wrong in the reason. Under c each experiment that reads the data file is cold or says
 * why not. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "wtg/compare.h"
#include "wtg/ctx.h"
#include "wtg/experiment.h"
#include "wtg/figure.h"
#include "wtg/table.h"
#include "wtg/util.h"

static void test_every_declaration(void)
{
	CHECK(wtg_nexperiments > 0);
	for (int i = 0; i < wtg_nexperiments; i++) {
		const struct wtg_experiment *e = wtg_experiments[i];
		char why[256] = "";
		int rc = wtg_experiment_check(e, why, sizeof why);
		if (rc != 0)
			fprintf(stderr, "  %s\n", why);
		CHECK(rc == 0);
		CHECK(e->run != NULL);
		CHECK(e->typical_s > 0 && e->typical_quick_s > 0 && e->typical_quick_s <= e->typical_s);
		/* the registry finds each name at its own place: no name repeats */
		CHECK(wtg_experiment_find(e->name) == i);
		for (int k = 0; k < i; k++)
			CHECK(strcmp(wtg_experiments[k]->name, e->name) != 0);
	}
}

/* Every experiment sums itself up in a headline figure (a count is one), and every headline figure
 * has an interval: its row's CI columns, or, for the median of a series, the interval the readers
 * bootstrap from its samples (wtg_figure_read_ci). */
static void test_headlines(void)
{
	for (int i = 0; i < wtg_nexperiments; i++) {
		const struct wtg_experiment *e = wtg_experiments[i];
		int n = 0;
		const struct wtg_headline *h = wtg_headlines_of(e, &n);
		if (n == 0)
			fprintf(stderr, "  %s declares no headline figure\n", e->name);
		CHECK(n > 0);
		for (int k = 0; k < n; k++) {
			bool ci = h[k].col ? h[k].lo_col && h[k].hi_col : h[k].series != NULL;
			if (!ci)
				fprintf(stderr, "  %s: '%s' has no interval\n", e->name, h[k].figure);
			CHECK(ci);
		}
	}
}

/* The runs line a report prints says the counts of the run it reports: by default the declared line
 * (--list, help and the man page show it), with --quick its own counts; without runs_with the
 * declared line both ways. */
static void test_runs_line(void)
{
	int quick_lines = 0;
	for (int i = 0; i < wtg_nexperiments; i++) {
		const struct wtg_experiment *e = wtg_experiments[i];
		char buf[512];
		CHECK_STR(wtg_experiment_runs(e, false, buf, sizeof buf), e->runs);
		const char *q = wtg_experiment_runs(e, true, buf, sizeof buf);
		CHECK(q != NULL && q[0] != '\0');
		CHECK((e->runs_with != NULL) == (strcmp(q, e->runs) != 0));
		quick_lines += e->runs_with != NULL;
	}
	CHECK(quick_lines >= 4);
	char buf[512];
	const struct wtg_experiment *sc = wtg_experiments[wtg_experiment_find("syscall")];
	CHECK(strstr(wtg_experiment_runs(sc, true, buf, sizeof buf), ", 100 batches each;") != NULL);
	CHECK(strstr(wtg_experiment_runs(sc, false, buf, sizeof buf), ", 200 batches each;") != NULL);
	const struct wtg_experiment *ce = wtg_experiments[wtg_experiment_find("ceiling")];
	CHECK(strstr(wtg_experiment_runs(ce, true, buf, sizeof buf), " rounds of 16 MB windows;") != NULL);
	CHECK(strstr(wtg_experiment_runs(ce, false, buf, sizeof buf), " rounds of 32 MB windows;") != NULL);
	/* ceiling comes last: the tabs before it keep their keys, and it is read after kernels and wss,
	 * whose memory-sized buffer it shares */
	CHECK(wtg_experiment_find("ceiling") == wtg_nexperiments - 1);
	CHECK(ce->shares_dram_buf && ce->view == WTG_VIEW_BARS && ce->plan != NULL);
}

static void test_table_gets_the_declared_columns(void)
{
	for (int i = 0; i < wtg_nexperiments; i++) {
		const struct wtg_experiment *e = wtg_experiments[i];
		struct wtg_table t;
		wtg_table_init(&t, e);
		wtg_experiment_columns(e, &t);
		CHECK(t.ncols == e->ncols);
		for (int c = 0; c < t.ncols && c < e->ncols; c++) {
			CHECK_STR(t.cols[c].name, e->cols[c].name);
			CHECK(wtg_table_col(&t, e->cols[c].name) == c);
		}
		wtg_table_free(&t);
	}
}

static void test_compare_choices(void)
{
	char choices[512], *save = NULL;
	wtg_compare_choices(choices, sizeof choices, " ");
	CHECK(choices[0] != '\0');
	int n = 0;
	for (char *w = strtok_r(choices, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		/* every choice names a known experiment that compare can pair */
		int i = wtg_experiment_find(w);
		CHECK(i >= 0);
		CHECK(wtg_compare_target(w) != NULL);
		CHECK(i >= 0 && wtg_experiments[i]->compare.fn != NULL);
		n++;
	}
	int pairable = 0, defaults = 0;
	for (int i = 0; i < wtg_nexperiments; i++) {
		pairable += wtg_experiments[i]->compare.fn != NULL;
		defaults += wtg_experiments[i]->compare.is_default;
		if (wtg_experiments[i]->compare.is_default)
			CHECK(wtg_experiments[i]->compare.fn != NULL);
	}
	CHECK(n == pairable);
	CHECK(defaults == 1);
	const char *d = wtg_compare_default();
	CHECK(d != NULL && wtg_compare_target(d) != NULL);
	CHECK(wtg_compare_target("no-such-experiment") == NULL);
	CHECK(wtg_compare_target("compare") == NULL);	/* compare does not pair itself */
	wtg_compare_choices(choices, sizeof choices, ", ");
	CHECK(strstr(choices, d) != NULL);
	CHECK(strstr(choices, ", ") != NULL || pairable == 1);
	wtg_compare_choices(choices, 3, " ");	/* no room for one name: nothing, not half of it */
	CHECK_STR(choices, "");

	char conds[128];
	wtg_compare_conditions(conds, sizeof conds, " ");
	CHECK_STR(conds, "burn background uncached cold");
	CHECK(wtg_compare_condition("burn") && wtg_compare_condition("cold"));
	CHECK(!wtg_compare_condition("rain") && !wtg_compare_condition(""));
	wtg_compare_conditions(conds, 8, " ");	/* cut at a whole word */
	CHECK_STR(conds, "burn");
}

/* The pair compare starts with, and v's walk: each condition in turn, then the next experiment
 * compare can pair, round to the first again. */
static void test_compare_pairs(void)
{
	struct wtg_compare_pair p;
	wtg_compare_pair_of(NULL, &p);
	CHECK_STR(p.exp, wtg_compare_default());
	CHECK_STR(p.cond, "burn");
	struct wtg_options o = { .compare_exp = "valley", .compare_cond = "cold" };
	wtg_compare_pair_of(&o, &p);
	CHECK_STR(p.exp, "valley");
	CHECK_STR(p.cond, "cold");

	wtg_compare_pair_of(NULL, &p);
	const char *conds[] = { "background", "uncached", "cold", "burn" };
	for (int i = 0; i < 3; i++) {
		wtg_compare_next(&p);
		CHECK_STR(p.exp, wtg_compare_default());
		CHECK_STR(p.cond, conds[i]);
	}
	int pairable = 0;
	for (int i = 0; i < wtg_nexperiments; i++)
		pairable += wtg_compare_target(wtg_experiments[i]->name) != NULL;
	/* after the last condition, the next pairable experiment; all of them, then the first again */
	char seen[32][32] = { { 0 } };
	int n = 0;
	for (int k = 0; k < pairable; k++) {
		wtg_compare_next(&p);	/* from cold: the next experiment, with burn */
		CHECK_STR(p.cond, "burn");
		CHECK(wtg_compare_target(p.exp) != NULL);
		bool again = false;
		for (int j = 0; j < n; j++)
			again |= strcmp(seen[j], p.exp) == 0;
		CHECK(!again);
		if (n < 32)
			wtg_strlcpy(seen[n++], p.exp, sizeof seen[0]);
		for (int i = 0; i < 3; i++)
			wtg_compare_next(&p);
		CHECK_STR(p.cond, "cold");
	}
	CHECK_STR(p.exp, wtg_compare_default());	/* round to the first again */
}

/* ---- broken declarations are caught ---- */

static double figure(struct wtg_ctx *ctx)
{
	(void)ctx;
	return 1;
}

static int fixture_run(struct wtg_ctx *ctx)
{
	(void)ctx;
	return WTG_OK;
}

static const struct wtg_column cols[] = {
	{ "size", "B", WTG_T_INT, 0 },
	{ "gbps", "GB/s", WTG_T_REAL, 2 },
	{ "mode", "", WTG_T_TEXT, 0 },
};

static const struct wtg_experiment good = {
	.name = "fixture",
	.question = "Does the checker pass a sound declaration?",
	.runs = "nothing",
	WTG_COLUMNS(cols),
	.view = WTG_VIEW_SWEEP,
	.sweep = { .x = "size", .y = { "gbps" }, .group = "mode", .xtitle = "size" },
	.headline = { { "GB/s, the largest size", "size", "65536", "gbps", NULL, NULL, NULL, "GB/s", true } },
	.compare = { figure, "gbps", 2, "GB/s" },
	.run = fixture_run,
};

/* The checker refuses e, and its reason names `word`. */
static void refused(const struct wtg_experiment *e, const char *word)
{
	char why[256] = "";
	CHECK(wtg_experiment_check(e, why, sizeof why) == -1);
	if (!strstr(why, word))
		fprintf(stderr, "  '%s' does not name '%s'\n", why, word);
	CHECK(strstr(why, word) != NULL);
}

static void test_broken(void)
{
	char why[256];
	CHECK(wtg_experiment_check(&good, why, sizeof why) == 0);

	struct wtg_experiment e = good;
	e.run = NULL;	/* every experiment has a run function */
	refused(&e, "no run function");
	e = good;
	e.sweep.y[1] = "p99_ns";
	refused(&e, "p99_ns");
	e = good;
	e.sweep.x = "mode";	/* a text x */
	refused(&e, "numeric");
	e = good;
	e.sweep.x = NULL;
	refused(&e, "sweep");
	e = good;
	e.view = WTG_VIEW_BARS;	/* bars without their spec */
	refused(&e, "bars");
	e.bars = (struct wtg_bars_spec){ .label = { "mode" }, .value = "gbps", .extra = "ms" };
	refused(&e, "'ms'");
	e.bars.extra = NULL;
	e.bars.ci[0] = "gbps_ci_low";
	refused(&e, "gbps_ci_low");
	e = good;
	e.view = WTG_VIEW_HISTOGRAM;
	refused(&e, "histogram");
	e.hist.label = "size";	/* a numeric label */
	refused(&e, "text");
	e = good;
	e.headline[1] = (struct wtg_headline){ "ns", NULL, NULL, "median_ns", NULL, NULL, NULL, "ns", false };
	refused(&e, "median_ns");
	e = good;
	e.headline[0].key_col = "rows";
	refused(&e, "'rows'");
	e = good;
	e.headline[0].unit = "MB/s";	/* not its column's unit */
	refused(&e, "MB/s");
	e = good;
	e.headline[0].lo_col = "gbps";	/* one end of a CI */
	refused(&e, "CI");
	e = good;
	e.headline[0].col = "mode";
	refused(&e, "numeric");
	e = good;
	e.headline[0].col = NULL;	/* neither a value column nor a series */
	refused(&e, "value");
	e = good;
	e.compare.col = "ns_per_fault";
	refused(&e, "ns_per_fault");
	e = good;
	e.counters.counter = "rep";
	refused(&e, "'rep'");

	static const struct wtg_column twice[] = { { "size", "B", WTG_T_INT, 0 }, { "size", "B", WTG_T_INT, 0 } };
	e = good;
	e.cols = twice;
	e.ncols = 2;
	e.sweep = (struct wtg_sweep_spec){ .x = "size", .y = { "size" }, .xtitle = "size" };
	e.headline[0].figure = NULL;
	e.compare.fn = NULL;
	e.compare.col = NULL;
	refused(&e, "twice");
	e = good;
	e.ncols = 0;
	refused(&e, "columns");
	e = good;
	e.name = "";
	refused(&e, "name");
}

/* Under c every experiment that reads the data file measures it cold, sets the page cache itself, or
 * says in 40 columns why it cannot be cold (the notice "evicted: 65,536 -> 0 pages; not cold: ..."
 * fits 80 columns); one that reads no data file declares no such reason. */
static void test_cold(void)
{
	for (int i = 0; i < wtg_nexperiments; i++) {
		const struct wtg_experiment *e = wtg_experiments[i];
		bool sets = e->measures_cold || (e->self_conditions & WTG_COND_COLD);
		if (e->needs_datafile && !sets && !e->not_cold)
			unit_diag("%s reads the data file and says nothing of c", e->name);
		CHECK(!e->needs_datafile || sets || (e->not_cold && strlen(e->not_cold) <= 40));
		CHECK(e->needs_datafile || !e->not_cold);
		CHECK(!(sets && e->not_cold));
	}
	const struct wtg_experiment *u = wtg_experiments[wtg_experiment_find("uncached")];
	CHECK(u->self_conditions & WTG_COND_COLD);
	CHECK(wtg_experiments[wtg_experiment_find("mmap")]->measures_cold);
	CHECK(wtg_experiments[wtg_experiment_find("valley")]->measures_cold);
}

int main(void)
{
	test_every_declaration();
	test_headlines();
	test_runs_line();
	test_table_gets_the_declared_columns();
	test_compare_choices();
	test_compare_pairs();
	test_broken();
	test_cold();
	return unit_done("test_registry");
}
