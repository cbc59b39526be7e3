/* json.c: one JSON object with the machine, the conditions and every experiment's table. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "wtg/conditions.h"
#include "wtg/experiment.h"
#include "wtg/report.h"

int wtg_report_utf8_len(const unsigned char *p)
{
	unsigned c = p[0];
	int n;
	unsigned min;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		min = 0x10000;
	} else {
		return 0;
	}
	unsigned cp = c & (0x3fu >> (n - 1));
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

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
				int n = wtg_report_utf8_len(p);
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

static void json_int_or_null(FILE *f, int64_t v)
{
	if (v < 0)
		fputs("null", f);
	else
		fprintf(f, "%" PRId64, v);
}

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

static const char *bool_str(bool b)
{
	return b ? "true" : "false";
}

static void json_key(FILE *f, int indent, const char *key)
{
	fprintf(f, "%*s\"%s\": ", indent, "", key);
}

static void write_machine(FILE *f, struct wtg_session *s)
{
	const struct wtg_machine *m = &s->machine;
	fputs("  \"machine\": {\n", f);
	json_key(f, 4, "cpu_model");
	wtg_json_string(f, m->cpu_model);
	fprintf(f, ",\n    \"cpus\": %d,\n    \"page_size\": %ld,\n", m->cpus, m->page_size);
	json_key(f, 4, "kernel");
	wtg_json_string(f, m->kernel);
	fputs(",\n", f);
	json_key(f, 4, "clocksource");
	wtg_json_string(f, m->clocksource);
	fprintf(f, ",\n    \"hypervisor\": %s,\n", bool_str(m->hypervisor));
	json_key(f, 4, "thp");
	wtg_json_string(f, m->thp);
	fputs(",\n", f);
	json_key(f, 4, "hw_counters");
	fputs(m->hw_counters ? "true" : "\"n/a (no hardware counters)\"", f);
	fputs(",\n", f);

	/* the worker fills df before it publishes READY; until then only the state is safe to read */
	int st = atomic_load(&s->df_state);
	const struct wtg_datafile *df = &s->df;
	fputs("    \"data_file\": {\n", f);
	json_key(f, 6, "state");
	wtg_json_string(f, st == WTG_DF_READY ? "ready" : st == WTG_DF_FAILED ? "failed" : "preparing");
	fputs(",\n", f);
	json_key(f, 6, "error");
	wtg_json_string(f, st == WTG_DF_FAILED ? s->df_error : NULL);
	fputs(",\n", f);
	json_key(f, 6, "path");
	if (st == WTG_DF_READY)
		wtg_json_string(f, df->path);
	else
		wtg_json_string(f, s->opt ? s->opt->file : NULL);
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
		fprintf(f, "      \"owned\": %s\n", bool_str(!(s->opt && s->opt->file)));
	}
	fputs("    }\n  },\n", f);
}

static void write_conditions(FILE *f, struct wtg_session *s)
{
	bool ready = atomic_load(&s->df_state) == WTG_DF_READY;
	struct wtg_cond_snapshot c;
	wtg_cond_snapshot(&c, ready ? &s->df : NULL);
	fputs("  \"conditions\": {\n", f);
	fprintf(f, "    \"burners\": %d,\n", c.burners);
	json_key(f, 4, "policy_requested");
	wtg_json_string(f, c.background ? "background" : "normal");
	fputs(",\n", f);
	json_key(f, 4, "policy_granted");
	wtg_json_string(f, wtg_report_policy_name(c.policy));
	fputs(",\n", f);
	json_key(f, 4, "io_requested");
	wtg_json_string(f, c.uncached ? "uncached" : "cached");
	fputs(",\n", f);
	json_key(f, 4, "io");
	wtg_json_string(f, wtg_iomode_name(c.io));
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
		fprintf(f, ", \"type\": \"%s\"}", types[col->type <= WTG_T_TEXT ? col->type : 0]);
	}
	fputs("\n      ],\n", f);
}

/* One value of a row, with the separator before all but the first. */
static void json_cell(FILE *f, const struct wtg_value *v, int i)
{
	if (i)
		fputs(", ", f);
	json_value(f, v);
}

static void write_rows(FILE *f, const struct wtg_table *t)
{
	fputs("      \"rows\": [", f);
	for (int r = 0; r < t->nrows; r++) {
		fputs(r ? ",\n        [" : "\n        [", f);
		wtg_report_row_values(f, t, &t->rows[r], json_cell);
		putc(']', f);
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
	fputs("      \"notes\": [", f);
	for (int i = 0; i < t->nnotes; i++) {
		fputs(i ? ",\n        " : "\n        ", f);
		wtg_json_string(f, t->notes[i]);
	}
	fputs(t->nnotes ? "\n      ],\n" : "],\n", f);
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
		fputs(", \"samples\": [", f);
		for (size_t k = 0; k < sr->n; k++) {
			if (k)
				fputs(k % 10 ? ", " : ",\n          ", f);
			json_real(f, sr->v[k]);
		}
		fputs("]}", f);
	}
	fputs(t->nseries ? "\n      ],\n" : "],\n", f);
}

static void write_experiment(FILE *f, const struct wtg_table *t, int n)
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
	json_key(f, 6, "runs");
	wtg_json_string(f, e ? e->runs : NULL);
	fputs(",\n", f);
	json_key(f, 6, "view");
	wtg_json_string(f, e ? wtg_view_name(e->view) : NULL);
	fputs(",\n", f);
	json_key(f, 6, "state");
	wtg_json_string(f, wtg_report_state_name(t->state));
	fputs(",\n", f);
	json_key(f, 6, "error");
	wtg_json_string(f, t->error[0] ? t->error : NULL);
	fputs(",\n", f);
	write_columns(f, t);
	write_rows(f, t);
	write_checks_notes(f, t);
	write_series(f, t);
	write_probe(f, t);
	fputs("\n    }", f);
}

int wtg_report_json(FILE *f, struct wtg_session *s, const bool *which)
{
	locale_t old = wtg_report_locale_begin();
	fputs("{\n  \"tool\": \"wtg\",\n  \"version\": ", f);
	wtg_json_string(f, PACKAGE_VERSION);
	fputs(",\n", f);
	write_machine(f, s);
	write_conditions(f, s);
	fprintf(f, "  \"seed\": %" PRIu64 ",\n", s->opt ? s->opt->seed : 0);
	fprintf(f, "  \"quick\": %s,\n", bool_str(s->opt && s->opt->quick));
	fputs("  \"experiments\": [", f);
	int n = wtg_report_each(f, s, which, write_experiment);
	fputs(n ? "\n  ]\n}\n" : "]\n}\n", f);
	wtg_report_locale_end(old);
	return ferror(f) ? -1 : 0;
}
