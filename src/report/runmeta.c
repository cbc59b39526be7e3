/* runmeta.c: a run's metadata for the comparison (the live one) and for writing a loaded run again. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "wtg/load.h"
#include "wtg/report.h"
#include "wtg/util.h"

void wtg_run_meta_live(struct wtg_run_meta *m, const struct wtg_session *s)
{
	memset(m, 0, sizeof *m);
	const struct wtg_options *o = s->opt;
	m->label = o && o->label ? o->label : "live";
	wtg_strlcpy(m->version, PACKAGE_VERSION, sizeof m->version);
	const struct wtg_report_run *run = wtg_report_run_info();
	if (run->begun)
		wtg_report_iso8601(m->timestamp, sizeof m->timestamp, run->start_real_ns);
	m->duration_s = wtg_report_duration_s();
	m->schema = WTG_JSON_SCHEMA;
	m->machine = s->machine;
	wtg_cond_snapshot(&m->cond, NULL);
	if (!o)
		return;
	struct wtg_run_options *ro = &m->opt;
	ro->known = true;
	ro->quick = o->quick;
	ro->size = o->size;
	ro->threads = o->threads > 0 ? o->threads : wtg_online_cpus();
	ro->burn = o->burn;
	wtg_strlcpy(ro->burn_kind, wtg_burn_kind_name((enum wtg_burn_kind)o->burn_kind), sizeof ro->burn_kind);
	ro->background = o->background;
	ro->uncached = o->uncached;
	ro->seed = o->seed;
}

void wtg_loaded_report_meta(const struct wtg_loaded *l, struct wtg_report_meta *m,
			    const struct wtg_table **tables)
{
	const struct wtg_run_saved *sv = &l->saved;
	memset(m, 0, sizeof *m);
	m->machine = &l->meta.machine;
	m->topo = sv->has_topo ? &sv->topo : NULL;
	m->topo_summary = sv->has_topo ? sv->topo_summary : NULL;
	m->df_state = sv->df_state;
	m->df = &sv->df;
	m->df_error = sv->df_error[0] ? sv->df_error : NULL;
	m->file = sv->df_state == WTG_DF_READY ? NULL : sv->df_path;
	m->cond = l->meta.cond;
	m->opt = sv->has_opt ? &sv->opt : NULL;
	m->has_seed = true;
	m->seed = sv->seed;
	m->quick = sv->quick;
	m->label = sv->label_saved ? l->meta.label : NULL;
	/* a report without conditions_at_start (the dashboard's save) dates itself by its writing */
	m->run.begun = sv->begun;
	m->run.ended = sv->begun;
	m->run.start_real_ns = sv->start_real_ns;
	m->run.cond_start = sv->cond_start;
	m->written_real_ns = sv->start_real_ns;
	m->duration_s = l->meta.duration_s;
	for (int i = 0; i < WTG_MAX_EXP; i++) {
		tables[i] = &l->tables[i];
		m->wanted[i] = l->present[i];
		if (!l->present[i])
			continue;
		int ok, warn, fail;
		wtg_table_count_checks(&l->tables[i], &ok, &warn, &fail);
		m->ntables++;
		m->tally.experiments++;
		m->tally.failed_experiments += l->tables[i].state != WTG_DONE;
		m->tally.ok += ok;
		m->tally.warn += warn;
		m->tally.fail += fail;
	}
}
