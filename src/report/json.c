/* json.c: schema 2, one JSON object: the run (when, how long, every option), the machine and its
 * context, the conditions, and every experiment's table with rows keyed by column name. The layout
 * is documented in wtg(1) OUTPUT and data/wtg-report.schema.json. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wtg/compare.h"
#include "wtg/conditions.h"
#include "wtg/experiment.h"
#include "wtg/figure.h"
#include "wtg/report.h"
#include "writers.h"
#include "wtg/util.h"
#include "wtg/paired.h"
#include "wtg/warmup.h"
#include "wtg/whyhere.h"

void wtg_json_string(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	const unsigned char *p = (const unsigned char *)s;
	putc('"', f);
	while (*p) {
		unsigned c = *p;
		switch (c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(f, "\\u%04x", c);
			} else {
				/* paths and CPU names are bytes; JSON must be UTF-8 */
				int n = wtg_utf8_len(p);
				if (n == 0) {
					fputs("\\ufffd", f);
					n = 1;
				} else {
					fwrite(p, 1, (size_t)n, f);
				}
				p += n;
				continue;
			}
		}
		p++;
	}
	putc('"', f);
}

static void json_real(FILE *f, double v)
{
	char buf[64];
	wtg_report_real(buf, sizeof buf, v);
	fputs(buf[0] ? buf : "null", f);
}

void wtg_json_member(FILE *f, const char *key, double v)
{
	fprintf(f, ", \"%s\": ", key);
	json_real(f, v);
}

static void json_int_or_null(FILE *f, int64_t v)
{
	if (v < 0)
		fputs("null", f);
	else
		fprintf(f, "%" PRId64, v);
}

/* A value. */
static void json_value(FILE *f, const struct wtg_value *v)
{
	switch (v->type) {
	case WTG_T_INT:
		fprintf(f, "%" PRId64, v->i);
		break;
	case WTG_T_REAL:
		json_real(f, v->r);
		break;
	case WTG_T_TEXT:
		wtg_json_string(f, v->s);
		break;
	default:
		fputs("null", f);
	}
}

void wtg_json_value(FILE *f, const struct wtg_value *v)
{
	json_value(f, v);
}

static const char *bool_str(bool b)
{
	return b ? "true" : "false";
}

static void json_key(FILE *f, int indent, const char *key)
{
	fprintf(f, "%*s\"%s\": ", indent, "", key);
}

/* "key": "text" or null for "", with a comma and newline before it unless first. */
static void json_kstr(FILE *f, int indent, const char *key, const char *v, bool first)
{
	if (!first)
		fputs(",\n", f);
	json_key(f, indent, key);
	wtg_json_string(f, v && *v ? v : NULL);
}

/* "key": n, or null when n is below zero. */
static void json_kint(FILE *f, int indent, const char *key, int64_t v)
{
	fputs(",\n", f);
	json_key(f, indent, key);
	json_int_or_null(f, v);
}

static void write_caches(FILE *f, const struct wtg_machine *m)
{
	fputs(",\n    \"caches\": [", f);
	for (int i = 0; i < m->ncaches; i++) {
		const struct wtg_cache *c = &m->caches[i];
		fprintf(f, "%s{\"level\": %d, \"type\": ", i ? ",\n      " : "\n      ", c->level);
		wtg_json_string(f, c->type);
		fprintf(f, ", \"size_bytes\": %" PRIu64 ", \"line_bytes\": ", c->size);
		json_int_or_null(f, c->line > 0 ? c->line : -1);
		fputs(", \"shared_cpus\": ", f);
		wtg_json_string(f, c->shared_cpus[0] ? c->shared_cpus : NULL);
		putc('}', f);
	}
	fputs(m->ncaches ? "\n    ]" : "]", f);
	json_kstr(f, 4, "caches_source", m->caches_source, false);
	if (m->caches_note[0])	/* only when a size was out of range */
		json_kstr(f, 4, "caches_note", m->caches_note, false);
}

static void write_mitigations(FILE *f, const struct wtg_machine *m)
{
	fputs(",\n    \"mitigations\": ", f);
	if (m->nmitigations < 0) {
		fputs("null", f);
		return;
	}
	putc('{', f);
	for (int i = 0; i < m->nmitigations; i++) {
		fputs(i ? ",\n      " : "\n      ", f);
		wtg_json_string(f, m->mitigations[i].name);
		fputs(": ", f);
		wtg_json_string(f, m->mitigations[i].status);
	}
	fputs(m->nmitigations ? "\n    }" : "}", f);
}

static void write_compiler(FILE *f)
{
	fputs(",\n    \"compiler\": {", f);
#ifdef __VERSION__
	const char *version = __VERSION__;
#else
	const char *version = NULL;
#endif
	json_kstr(f, 0, "cc", WTG_BUILD_CC, true);
	json_kstr(f, 1, "version", version, false);
	json_kstr(f, 1, "flags", WTG_BUILD_CFLAGS, false);
	putc('}', f);
}

/* "topology": packages, cores, SMT, NUMA nodes and core types (src/machine/topology.c), CPU lists as ranges. */
static void write_topology(FILE *f, const struct wtg_topology *t, const char *summary)
{
	char list[1024];
	if (!t) {
		fputs(",\n    \"topology\": null", f);
		return;
	}
	fprintf(f, ",\n    \"topology\": {\"packages\": %d, \"cores\": %d, \"smt\": %d, \"summary\": ",
		t->packages, t->cores, t->smt);
	wtg_json_string(f, summary);
	fputs(",\n      \"numa_nodes\": [", f);
	for (int i = 0; i < t->nnodes; i++) {
		const struct wtg_numa_node *nd = &t->nodes[i];
		wtg_cpuset_format(&nd->cpus, list, sizeof list);
		fprintf(f, "%s{\"node\": %d, \"cpus\": ", i ? ", " : "", nd->node);
		wtg_json_string(f, list);
		fputs(", \"memory_bytes\": ", f);
		json_int_or_null(f, nd->memory_bytes ? (int64_t)nd->memory_bytes : -1);
		fputs(", \"distances\": [", f);
		for (int j = 0; j < t->nnodes; j++)
			fprintf(f, "%s%d", j ? ", " : "", nd->distances[j]);
		fputs("]}", f);
	}
	fputs("],\n      \"core_types\": [", f);
	for (int i = 0; i < t->ntypes; i++) {
		const struct wtg_core_type *ty = &t->types[i];
		wtg_cpuset_format(&ty->cpus, list, sizeof list);
		fprintf(f, "%s{\"type\": ", i ? ", " : "");
		wtg_json_string(f, ty->name);
		fputs(", \"cpus\": ", f);
		wtg_json_string(f, list);
		fprintf(f, ", \"cpus_count\": %d, \"max_khz\": ", ty->count);
		json_int_or_null(f, ty->max_khz > 0 ? ty->max_khz : -1);
		putc('}', f);
	}
	fputs("]}", f);
}

void wtg_json_machine(FILE *f, const struct wtg_report_meta *meta)
{
	const struct wtg_machine *m = meta->machine;
	fputs("  \"machine\": {\n", f);
	json_kstr(f, 4, "hostname", m->hostname, true);
	json_kstr(f, 4, "kernel", m->kernel, false);
	json_kstr(f, 4, "os", m->os, false);
	json_kstr(f, 4, "cpu_model", m->cpu_model, false);
	json_kstr(f, 4, "cpu_id", m->cpu_id, false);
	json_kstr(f, 4, "cpu_features", m->cpu_features, false);
	fputs(",\n    \"kernels\": {", f);
	json_kstr(f, 0, "simd", m->kernel_simd, true);
	json_kstr(f, 1, "native", m->kernel_native, false);
	putc('}', f);
	json_kint(f, 4, "cpus_online", m->cpus > 0 ? m->cpus : -1);
	json_kint(f, 4, "cpus", m->cpus > 0 ? m->cpus : -1);
	json_kint(f, 4, "memory_bytes", m->memory_bytes ? (int64_t)m->memory_bytes : -1);
	json_kint(f, 4, "page_size", m->page_size > 0 ? m->page_size : -1);
	write_caches(f, m);
	json_kstr(f, 4, "thp", strcmp(m->thp, "unknown") ? m->thp : NULL, false);
	json_kstr(f, 4, "clocksource", strcmp(m->clocksource, "unknown") ? m->clocksource : NULL, false);
	json_kstr(f, 4, "governor", m->governor, false);
	fputs(",\n    \"boost\": ", f);
	fputs(m->boost < 0 ? "null" : bool_str(m->boost), f);
	fputs(",\n    \"smt\": {", f);
	json_kstr(f, 0, "control", m->smt, true);
	fputs(", \"active\": ", f);
	fputs(m->smt_active < 0 ? "null" : bool_str(m->smt_active), f);
	putc('}', f);
	write_mitigations(f, m);
	json_kstr(f, 4, "virtualization", m->virtualization, false);
	fprintf(f, ",\n    \"hypervisor\": %s,\n", bool_str(m->hypervisor));
	json_key(f, 4, "hw_counters");
	fputs(m->hw_counters ? "true" : "\"n/a (no hardware counters)\"", f);
	write_compiler(f);
	write_topology(f, meta->topo, meta->topo_summary);
	fputs(",\n", f);

	/* the worker fills df before it publishes READY; until then only the state is safe to read */
	int st = meta->df_state;
	const struct wtg_datafile *df = meta->df;
	fputs("    \"data_file\": {\n", f);
	json_key(f, 6, "state");
	wtg_json_string(f, st == WTG_DF_READY ? "ready" : st == WTG_DF_FAILED ? "failed" :
			   st == WTG_DF_NONE ? "none" : "preparing");
	fputs(",\n", f);
	json_key(f, 6, "error");
	wtg_json_string(f, st == WTG_DF_FAILED ? meta->df_error : NULL);
	fputs(",\n", f);
	json_key(f, 6, "path");
	if (st == WTG_DF_READY)
		wtg_json_string(f, df->path);
	else
		wtg_json_string(f, meta->file);
	fputs(",\n", f);
	if (st == WTG_DF_READY) {
		fprintf(f, "      \"size\": %" PRIu64 ",\n", df->size);
		json_key(f, 6, "filesystem");
		wtg_json_string(f, df->fs);
		fprintf(f, ",\n      \"known_sum\": %" PRId64 ",\n", df->sum);
		fprintf(f, "      \"direct_io\": %s,\n", bool_str(df->direct_ok));
		fprintf(f, "      \"dio_mem_align\": %u,\n", df->dio_mem_align);
		fprintf(f, "      \"dio_offset_align\": %u,\n", df->dio_offset_align);
		fprintf(f, "      \"owned\": %s\n", bool_str(df->owned));
	} else {
		fputs("      \"size\": null,\n      \"filesystem\": null,\n      \"known_sum\": null,\n"
		      "      \"direct_io\": null,\n      \"dio_mem_align\": null,\n"
		      "      \"dio_offset_align\": null,\n", f);
		fprintf(f, "      \"owned\": %s\n", bool_str(!meta->file));
	}
	fputs("    }\n  },\n", f);
}

static void write_cond(FILE *f, int indent, const struct wtg_cond_snapshot *c)
{
	fprintf(f, "{\n%*s\"burners\": %d,\n", indent + 2, "", c->burners);
	json_kstr(f, indent + 2, "burn_kind", c->burners > 0 ? wtg_burn_kind_name(c->burn_kind) : NULL, true);
	json_kstr(f, indent + 2, "policy_requested", c->background ? "background" : "normal", false);
	json_kstr(f, indent + 2, "policy_granted", wtg_report_policy_name(c->policy), false);
	json_kstr(f, indent + 2, "io_requested", c->uncached ? "uncached" : "cached", false);
	json_kstr(f, indent + 2, "io", wtg_iomode_name(c->io), false);
	fprintf(f, "\n%*s}", indent, "");
}

static void write_conditions(FILE *f, const struct wtg_report_meta *m)
{
	fputs("  \"conditions\": ", f);
	write_cond(f, 2, &m->cond);
	fputs(",\n", f);
}

/* Every option in force, defaults included. */
static void write_options(FILE *f, const struct wtg_options *o, const struct wtg_compare_pair *cmp)
{
	fputs("    \"options\": {\n      \"run\": [", f);
	int n = 0;
	for (int i = 0; i < wtg_nexperiments && i < 32; i++)
		if (o->selected[i]) {
			fputs(n++ ? ", " : "", f);
			wtg_json_string(f, wtg_experiments[i]->name);
		}
	fputs("]", f);
	json_kstr(f, 6, "format", wtg_writers[o->format].name, false);
	fputs(",\n      \"output\": [", f);
	for (int i = 0; i < o->noutputs; i++) {
		fputs(i ? ", {\"path\": " : "{\"path\": ", f);
		wtg_json_string(f, o->outputs[i].path);
		fprintf(f, ", \"format\": \"%s\"}", wtg_writers[o->outputs[i].format].name);
	}
	fputs("]", f);
	json_kstr(f, 6, "file", o->file, false);
	json_kstr(f, 6, "dir", o->file ? NULL : o->dir, false);
	fprintf(f, ",\n      \"size\": %" PRIu64 ",\n      \"quick\": %s,\n      \"threads\": %d,\n"
		   "      \"burn\": %d,\n", o->size, bool_str(o->quick),
		o->threads > 0 ? o->threads : wtg_online_cpus(),	/* 0: the default, the online CPUs */
		o->burn);
	json_kstr(f, 6, "burn_kind", wtg_burn_kind_name((enum wtg_burn_kind)o->burn_kind), true);
	fprintf(f, ",\n      \"background\": %s,\n      \"uncached\": %s,\n      \"seed\": %" PRIu64 ",\n",
		bool_str(o->background), bool_str(o->uncached), o->seed);
	fprintf(f, "      \"compare\": \"%s:%s\",\n      \"time_limit_s\": %" PRId64 ",\n",
		cmp->exp[0] ? cmp->exp : o->compare_exp ? o->compare_exp : wtg_compare_default(),
		cmp->exp[0] ? cmp->cond : o->compare_cond ? o->compare_cond : "burn",
		o->time_limit_ms / 1000);
	fputs("      \"order\": [", f);
	for (int i = 0; i < o->norder && i < 32; i++) {
		fputs(i ? ", " : "", f);
		wtg_json_string(f, o->order[i] >= 0 && o->order[i] < wtg_nexperiments ?
				   wtg_experiments[o->order[i]]->name : NULL);
	}
	fputs("],\n      \"hold_s\": ", f);
	json_real(f, o->hold_ms / 1000.0);
	fprintf(f, ",\n      \"step\": %s,\n", bool_str(o->step));
	fprintf(f, "      \"quiet\": %s,\n      \"progress\": \"%s\",\n      \"color\": %s,\n"
		   "      \"ascii\": %s\n    }", bool_str(o->quiet),
		o->progress == WTG_PROGRESS_ALWAYS ? "always" : o->progress == WTG_PROGRESS_NEVER ? "never" : "auto",
		bool_str(o->color), bool_str(o->ascii));
}

/* When, how long, with which options and from which conditions the run was made. */
static void write_run(FILE *f, const struct wtg_report_meta *m)
{
	const struct wtg_report_run *r = &m->run;
	char when[40];
	wtg_report_meta_when(m, when, sizeof when);
	fputs("  \"run\": {\n", f);
	json_kstr(f, 4, "timestamp", when, true);
	json_kstr(f, 4, "label", m->label, false);	/* --label; null without */
	fputs(",\n    \"duration_s\": ", f);
	json_real(f, m->duration_s);
	json_kstr(f, 4, "version", PACKAGE_VERSION, false);
	fputs(",\n    \"command_line\": [", f);
	const struct wtg_options *o = m->opt;
	for (int i = 0; o && i < o->argc; i++) {
		fputs(i ? ", " : "", f);
		wtg_json_string(f, o->argv[i]);
	}
	fputs("],\n", f);
	if (o)
		write_options(f, o, &m->compare);
	else
		fputs("    \"options\": null", f);
	fputs(",\n    \"conditions_at_start\": ", f);
	if (r->begun)
		write_cond(f, 4, &r->cond_start);
	else
		fputs("null", f);
	fputs("\n  },\n", f);
}

static void write_probe(FILE *f, const struct wtg_table *t)
{
	json_key(f, 6, "probe");
	if (!t->has_total) {
		fputs("null", f);
		return;
	}
	const struct wtg_probe_result *p = &t->total;
	fputs("{\"wall_ms\": ", f);
	json_real(f, p->wall_ms);
	fputs(", \"user_ms\": ", f);
	json_real(f, p->user_ms);
	fputs(", \"sys_ms\": ", f);
	json_real(f, p->sys_ms);
	fprintf(f, ", \"minflt\": %" PRId64 ", \"majflt\": %" PRId64 ", \"vcsw\": %" PRId64
		   ", \"ivcsw\": %" PRId64 ", \"cpus\": [", p->minflt, p->majflt, p->vcsw, p->ivcsw);
	int n = 0;
	for (int c = 0; c < 64; c++)
		if (p->cpus_seen & (1ull << c))
			fprintf(f, "%s%d", n++ ? ", " : "", c);
	fputs("], \"migrations\": ", f);
	json_int_or_null(f, p->migrations);
	fputs(", \"instructions\": ", f);
	json_int_or_null(f, p->instructions);
	fputs(", \"cycles\": ", f);
	json_int_or_null(f, p->cycles);
	fprintf(f, ", \"threads\": %d}", p->threads);
}

static void write_columns(FILE *f, const struct wtg_table *t)
{
	static const char *const types[] = { "na", "int", "real", "text" };
	fputs("      \"columns\": [", f);
	for (int c = 0; c < t->ncols + WTG_REPORT_NEXTRA; c++) {
		const struct wtg_column *col = wtg_report_column(t, c);
		fputs(c ? ",\n        {\"name\": " : "\n        {\"name\": ", f);
		wtg_json_string(f, col->name);
		fputs(", \"unit\": ", f);
		wtg_json_string(f, col->unit ? col->unit : "");
		fprintf(f, ", \"type\": \"%s\"", types[col->type <= WTG_T_TEXT ? col->type : 0]);
		/* the text output's precision, so that a report read back prints as it did */
		if (col->type == WTG_T_REAL)
			fprintf(f, ", \"decimals\": %d", col->decimals);
		putc('}', f);
	}
	fputs("\n      ],\n", f);
}

/* The table whose row is being written (json_cell's callback has no room for it). */
static _Thread_local const struct wtg_table *cell_table;

/* One "name": value of a row object, with the separator before all but the first. */
static void json_cell(FILE *f, const struct wtg_value *v, int i)
{
	if (i)
		fputs(", ", f);
	const struct wtg_column *col = wtg_report_column(cell_table, i);
	wtg_json_string(f, col->name);
	fputs(": ", f);
	json_value(f, v);
}

static void write_rows(FILE *f, const struct wtg_table *t)
{
	fputs("      \"rows\": [", f);
	cell_table = t;
	for (int r = 0; r < t->nrows; r++) {
		fputs(r ? ",\n        {" : "\n        {", f);
		wtg_report_row_values(f, t, &t->rows[r], json_cell);
		putc('}', f);
	}
	fputs(t->nrows ? "\n      ],\n" : "],\n", f);
}

static void write_checks_notes(FILE *f, const struct wtg_table *t)
{
	fputs("      \"checks\": [", f);
	for (int i = 0; i < t->nchecks; i++) {
		fputs(i ? ",\n        {\"name\": " : "\n        {\"name\": ", f);
		wtg_json_string(f, t->checks[i].name);
		fprintf(f, ", \"ok\": %s, \"status\": \"%s\", \"detail\": ",
			bool_str(t->checks[i].status != WTG_CHECK_FAIL), wtg_check_status_name(t->checks[i].status));
		wtg_json_string(f, t->checks[i].detail);
		putc('}', f);
	}
	fputs(t->nchecks ? "\n      ],\n" : "],\n", f);
	int ok, warn, fail;
	wtg_table_count_checks(t, &ok, &warn, &fail);
	fprintf(f, "      \"checks_summary\": {\"ok\": %d, \"warn\": %d, \"fail\": %d},\n", ok, warn, fail);
	fputs("      \"notes\": [", f);
	for (int i = 0; i < t->nnotes; i++) {
		fputs(i ? ",\n        " : "\n        ", f);
		wtg_json_string(f, t->notes[i]);
	}
	fputs(t->nnotes ? "\n      ],\n" : "],\n", f);
}

/* The descriptor's headline figures as read from t (the gate and the verdict read them so), and the
 * verdict line: a script need not know which row and column matter. A figure whose table gives no
 * interval (the median of a series) has one bootstrapped from its samples with seed, as the
 * baseline's reading has (wtg_figure_read_ci). */
static void write_headlines(FILE *f, const struct wtg_table *t, uint64_t seed)
{
	int n = 0;
	const struct wtg_headline *h = wtg_headlines_of(t->exp, &n);
	fputs("      \"headlines\": [", f);
	for (int i = 0; i < n; i++) {
		struct wtg_figure fig;
		wtg_figure_read_ci(&h[i], t, seed, &fig);
		fputs(i ? ",\n        {\"figure\": " : "\n        {\"figure\": ", f);
		wtg_json_string(f, h[i].figure);
		fputs(", \"value\": ", f);
		json_real(f, fig.found ? fig.value : NAN);
		fputs(", \"ci_low\": ", f);
		json_real(f, fig.lo);
		fputs(", \"ci_high\": ", f);
		json_real(f, fig.hi);
		fputs(", \"unit\": ", f);
		wtg_json_string(f, h[i].unit);
		fprintf(f, ", \"higher_better\": %s}", bool_str(h[i].higher_better));
	}
	fputs(n ? "\n      ],\n" : "],\n", f);
	char verdict[512];
	json_key(f, 6, "verdict");
	wtg_json_string(f, wtg_experiment_verdict(t->exp, t, verdict, sizeof verdict) > 0 ? verdict : NULL);
	fputs(",\n", f);
}

/* A paired run (--versus, wtg/paired.h): each headline figure, arm B against arm A; an experiment
 * that ran unpaired under --versus says why. */
static void write_paired(FILE *f, const struct wtg_table *t)
{
	const char *skipped = wtg_paired_skipped(t);
	if (skipped) {
		json_key(f, 6, "unpaired");
		wtg_json_string(f, skipped);
		fputs(",\n", f);
	}
	if (!wtg_table_paired(t))
		return;
	struct wtg_paired_entry pe[WTG_MAX_HEADLINES];
	int n = wtg_paired_entries(t, pe, WTG_MAX_HEADLINES);
	fputs("      \"paired\": [", f);
	for (int i = 0; i < n; i++) {
		const struct wtg_paired_stat *s = &pe[i].s;
		fputs(i ? ",\n        {\"figure\": " : "\n        {\"figure\": ", f);
		wtg_json_string(f, pe[i].figure);
		fprintf(f, ", \"kind\": \"%s\", \"ratio\": ", s->difference ? "difference" : "ratio");
		json_real(f, s->difference ? NAN : s->value);
		fputs(", \"difference\": ", f);
		json_real(f, s->difference ? s->value : NAN);
		fputs(", \"ci_low\": ", f);
		json_real(f, s->lo);
		fputs(", \"ci_high\": ", f);
		json_real(f, s->hi);
		fprintf(f, ", \"coverage_pct\": ");
		json_real(f, 100 * s->coverage);
		fprintf(f, ", \"rounds\": %zu, \"a\": ", s->n);
		json_real(f, pe[i].a);
		fputs(", \"b\": ", f);
		json_real(f, pe[i].b);
		fputs(", \"unit\": ", f);
		wtg_json_string(f, pe[i].unit);
		fputs(", \"verdict\": ", f);
		wtg_json_string(f, pe[i].verdict);
		fputs("}", f);
	}
	fputs(n ? "\n      ],\n" : "],\n", f);
}

static void write_series(FILE *f, const struct wtg_table *t)
{
	fputs("      \"series\": [", f);
	for (int i = 0; i < t->nseries; i++) {
		const struct wtg_series *sr = &t->series[i];
		fputs(i ? ",\n        {\"name\": " : "\n        {\"name\": ", f);
		wtg_json_string(f, sr->name);
		fputs(", \"unit\": ", f);
		wtg_json_string(f, sr->unit);
		/* bounded: a longer series keeps every stride-th sample, and says so */
		size_t stride = (sr->n + WTG_JSON_MAX_SAMPLES - 1) / WTG_JSON_MAX_SAMPLES;
		stride = stride ? stride : 1;
		fprintf(f, ", \"count\": %zu, \"thinned\": %s, \"note\": ", sr->n, bool_str(stride > 1));
		char note[96];
		snprintf(note, sizeof note, "every %zuth of %zu samples, in time order", stride, sr->n);
		wtg_json_string(f, stride > 1 ? note : NULL);
		if (stride == 1 && sr->nreplicas > 1) {
			/* the replicas the samples fall into, in time order: a comparison resamples them */
			fputs(", \"replicas\": [", f);
			for (int j = 0; j < sr->nreplicas; j++)
				fprintf(f, "%s%zu", j ? ", " : "", sr->replica_len[j]);
			fputs("]", f);
		}
		fputs(", \"samples\": [", f);
		for (size_t k = 0, j = 0; k < sr->n; k += stride, j++) {
			if (j)
				fputs(j % 10 ? ", " : ",\n          ", f);
			json_real(f, sr->v[k]);
		}
		fputs("]}", f);
	}
	fputs(t->nseries ? "\n      ],\n" : "],\n", f);
}

/* Every warm-up window the run kept (wtg/warmup.h): the row it warmed up, a window's length, the
 * rule, each window's median and whether the rule was met or the maximum reached. */
static void write_warmup(FILE *f, const struct wtg_table *t)
{
	fputs("      \"warmup\": [", f);
	for (int i = 0; i < t->nwarmups; i++) {
		const struct wtg_warmup_log *w = &t->warmups[i];
		fputs(i ? ",\n        {\"row\": " : "\n        {\"row\": ", f);
		wtg_json_string(f, w->row);
		fputs(", \"unit\": ", f);
		wtg_json_string(f, w->unit);
		fputs(", \"window\": ", f);
		wtg_json_string(f, w->window);
		fprintf(f, ", \"stable_windows\": %d, \"tolerance_pct\": %g, \"max_windows\": %d, \"windows\": %zu",
			WTG_WARMUP_STABLE, 100 * WTG_WARMUP_TOLERANCE, w->max, w->n);
		fprintf(f, ", \"outcome\": \"%s\", \"medians\": [",
			wtg_warmup_state_name(w->met ? WTG_WARMUP_MET : WTG_WARMUP_MAX));
		for (size_t k = 0; k < w->n; k++) {
			fputs(k ? ", " : "", f);
			json_real(f, w->medians[k]);
		}
		fputs("]}", f);
	}
	fputs(t->nwarmups ? "\n      ],\n" : "],\n", f);
}

/* A run's state, error, columns, rows, checks, notes, series, warm-up and probe (no trailing comma). */
static void write_run_body(FILE *f, const struct wtg_table *t, uint64_t seed)
{
	json_key(f, 6, "state");
	wtg_json_string(f, wtg_report_state_name(t->state));
	fputs(",\n", f);
	json_key(f, 6, "error");
	wtg_json_string(f, t->error[0] ? t->error : NULL);
	fputs(",\n", f);
	write_columns(f, t);
	write_rows(f, t);
	write_checks_notes(f, t);
	write_headlines(f, t, seed);
	write_paired(f, t);
	write_series(f, t);
	if (t->cold)
		fputs("      \"cold_cache\": true,\n", f);
	/* the machine while it ran: steal on its CPUs, their frequency range (null: n/a) */
	static const char *const state[] = { "steal_pct", "mhz_min", "mhz_max" };
	const double sv[] = { t->steal_pct, t->mhz_min, t->mhz_max };
	for (int i = 0; i < 3; i++) {
		json_key(f, 6, state[i]);
		json_real(f, sv[i]);
		fputs(",\n", f);
	}
	write_warmup(f, t);
	write_probe(f, t);
}

/* ",\n" and why_here: the likely reason run t of e, measured on machine, is far from the essay. */
static void write_why_here(FILE *f, const struct wtg_experiment *e, const struct wtg_table *t,
			   const struct wtg_machine *machine)
{
	char why[512];
	fputs(",\n", f);
	json_key(f, 6, "why_here");
	wtg_json_string(f, wtg_why_here(e, t, machine, why, sizeof why) > 0 ? why : NULL);
}

void wtg_json_table(FILE *f, const struct wtg_report_meta *m, const struct wtg_table *t, int n)
{
	fputs(n ? ",\n" : "\n", f);
	const struct wtg_experiment *e = t->exp;
	fputs("    {\n", f);
	json_key(f, 6, "name");
	wtg_json_string(f, e ? e->name : "");
	fputs(",\n", f);
	json_key(f, 6, "title");
	wtg_json_string(f, e ? e->question : "");
	fputs(",\n", f);
	char runs[512];
	json_key(f, 6, "runs");
	wtg_json_string(f, e ? wtg_experiment_runs(e, m->quick, runs, sizeof runs) : NULL);
	fputs(",\n", f);
	json_key(f, 6, "view");
	wtg_json_string(f, e ? wtg_view_name(e->view) : NULL);
	fputs(",\n", f);
	write_run_body(f, t, m->seed);
	write_why_here(f, e, t, wtg_report_machine_of(m, t));
	int idx = e ? wtg_experiment_find(e->name) : -1;
	const struct wtg_report_earlier *er = m->earlier && idx >= 0 ? &m->earlier[idx] : NULL;
	int nearlier = 0;	/* the runs before t: a saved run written as the table is not one of them */
	for (int k = 0; er && k < er->n; k++)
		nearlier += er->t[k] != t;
	if (nearlier > 0) {
		fputs(",\n      \"earlier_runs\": [", f);
		for (int k = 0, j = 0; k < er->n; k++) {
			if (er->t[k] == t)
				continue;
			fputs(j++ ? ",\n      {\n" : "\n      {\n", f);
			json_key(f, 6, "label");
			wtg_json_string(f, er->label[k]);
			fputs(",\n", f);
			write_run_body(f, er->t[k], m->seed);
			write_why_here(f, e, er->t[k], wtg_report_machine_of(m, er->t[k]));
			fputs("\n      }", f);
		}
		fputs("\n      ]", f);
	}
	if (er && er->dropped > 0)	/* the runs the dashboard's cap let go: counted, never silent */
		fprintf(f, ",\n      \"earlier_runs_dropped\": %d", er->dropped);
	fputs("\n    }", f);
}

void wtg_json_begin(FILE *f, const struct wtg_report_meta *m)
{
	fprintf(f, "{\n  \"schema\": %d,\n  \"tool\": \"wtg\",\n  \"version\": ", WTG_JSON_SCHEMA);
	wtg_json_string(f, PACKAGE_VERSION);
	fputs(",\n", f);
	write_run(f, m);
	wtg_json_machine(f, m);
	write_conditions(f, m);
	fprintf(f, "  \"seed\": %" PRIu64 ",\n", m->has_seed ? m->seed : 0);
	fprintf(f, "  \"quick\": %s,\n", bool_str(m->has_seed && m->quick));
	fputs("  \"experiments\": [", f);
}

void wtg_json_end(FILE *f, const struct wtg_report_meta *m, int n)
{
	(void)m;
	fputs(n ? "\n  ]\n}\n" : "]\n}\n", f);
}
