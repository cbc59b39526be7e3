/* saved.c: the headless program's saved runs (--load, --baseline): read before anything measures,
 * checked against the outputs, converted (one) or compared (several). */
#include "config.h"

#include <signal.h>
#include <string.h>

#include "wtg/paths.h"
#include "wtg/util.h"

#include "headless_int.h"

void wtg_saved_runs_free(struct wtg_saved_runs *sr)
{
	for (int i = 0; i < sr->n; i++)
		wtg_loaded_free(&sr->l[i]);
	sr->n = 0;
	sr->nbase = 0;
}

int wtg_saved_runs_read(struct wtg_saved_runs *sr, const struct wtg_options *o)
{
	sr->n = sr->nbase = 0;
	const char *files[WTG_MAX_LOADS + 1];
	int n = 0;
	if (o->baseline)
		files[n++] = o->baseline;
	for (int i = 0; i < o->nloads; i++)
		files[n++] = o->loads[i];
	for (int i = 0; i < n; i++) {
		char err[1024];
		int got = 0;
		if (wtg_load_file_runs(files[i], &sr->l[sr->n], WTG_MAX_SAVED - sr->n, &got, err, sizeof err) < 0) {
			wtg_error("%s", err);
			wtg_saved_runs_free(sr);
			return 2;
		}
		for (int k = 0; k < got; k++)
			if (sr->l[sr->n + k].skipped[0])
				wtg_error("warning: %s: experiments this wtg does not know, left out: %s",
					  sr->l[sr->n + k].meta.path, sr->l[sr->n + k].skipped);
		sr->n += got;
		if (i == 0 && o->baseline)
			sr->nbase = got;
		if (got > 1 && got < 4 && i == 0 && o->baseline) {
			wtg_error("--baseline=%s: a --replicate document of %d runs; a baseline of several runs needs "
				  "4 or more to say where a next run falls", files[i], got);
			wtg_saved_runs_free(sr);
			return 2;
		}
	}
	return 0;
}

int wtg_headless_check_files(const struct wtg_options *o, const struct wtg_saved_runs *sr)
{
	if (o->mode == WTG_MODE_LOAD && sr->n == 1) {
		struct wtg_report_meta m;
		const struct wtg_table *tables[WTG_MAX_EXP];
		wtg_loaded_report_meta(&sr->l[0], &m, tables);
		return wtg_check_paths(o, m.wanted);
	}
	return wtg_check_paths(o, o->selected);
}

int wtg_headless_load(const struct wtg_options *o, struct wtg_saved_runs *sr)
{
	signal(SIGXFSZ, SIG_IGN);
	wtg_hl_die_on_signals();
	if (sr->n == 1) {
		/* the saved run as it was: its machine, options, start and label, not this invocation's */
		struct wtg_report_meta m;
		const struct wtg_table *tables[WTG_MAX_EXP];
		wtg_loaded_report_meta(&sr->l[0], &m, tables);
		if (o->label)
			m.label = o->label;
		struct wtg_options conv = *o;
		memcpy(conv.selected, m.wanted, sizeof conv.selected);
		struct wtg_hl_source sv = { &m, tables };
		return wtg_hl_write_outputs(NULL, &sv, &conv, 0, false);
	}
	struct wtg_gate_run runs[WTG_MAX_SAVED];
	for (int i = 0; i < sr->n; i++)
		wtg_hl_gate_run(&runs[i], &sr->l[i].meta, sr->l[i].tables, sr->l[i].present);
	return wtg_hl_compare_out(o, sr->nbase, runs, sr->n);
}
