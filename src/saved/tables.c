/* tables.c: a saved run's experiments into the tables the experiments fill: columns, rows (walked,
 * or taken from the stream), checks, notes, series, the probe; the document's top level. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "saved.h"

#include "wtg/experiment.h"
#include "wtg/report.h"

static const char *const type_names[] = { "na", "int", "real", "text" };

/* Decimals for a column saved without them: the registry's for a declared column of that name and
 * type, else 3 for a real. */
static int declared_decimals(const struct wtg_experiment *e, const char *name, int type)
{
	for (int i = 0; e && i < e->ncols; i++)
		if (!strcmp(e->cols[i].name, name) && (int)e->cols[i].type == type)
			return e->cols[i].decimals;
	return type == WTG_T_REAL ? 3 : 0;
}

/* The columns: the experiment's own, then (when the file has them) the report's extra ones, which
 * go back into each row's probe and conditions. Returns how many are the table's own. */
int sv_read_columns(struct rd *r, json_t *exp, struct wtg_table *t, int *ntotal)
{
	json_t *a = sv_want_array(r, exp, "columns", WTG_MAX_COLS + WTG_REPORT_NEXTRA);
	if (!a)
		return -1;
	int n = (int)json_array_size(a), own = n;
	struct wtg_column cols[WTG_MAX_COLS + WTG_REPORT_NEXTRA];
	for (int i = 0; i < n; i++) {
		json_t *c = json_array_get(a, (size_t)i);
		size_t back = sv_enter(r, "columns", i);
		json_t *name = json_is_object(c) ? sv_want(r, c, "name", T_STR) : NULL;
		json_t *unit = name ? sv_want(r, c, "unit", T_STR) : NULL;
		json_t *type = unit ? sv_want(r, c, "type", T_STR) : NULL;
		if (!json_is_object(c))
			sv_fail(r, NULL, "should be an object");
		int ty = -1;
		for (int k = 0; type && k < 4; k++)
			if (strcmp(json_string_value(type), type_names[k]) == 0)
				ty = k;
		if (type && ty < 0)
			sv_fail(r, "type", "'%s' is not na, int, real or text", json_string_value(type));
		int dec = -1;	/* optional: reports before it print reals as the registry says */
		if (type && json_object_get(c, "decimals"))
			dec = (int)sv_want_int(r, c, "decimals", 0, 17, false, -1);
		sv_leave(r, back);
		if (r->failed)
			return -1;
		cols[i] = (struct wtg_column){ json_string_value(name), json_string_value(unit), (enum wtg_vtype)ty,
					       dec >= 0 ? dec : declared_decimals(t->exp, json_string_value(name), ty) };
		for (int k = 0; k < i; k++)
			if (strcmp(cols[k].name, cols[i].name) == 0)
				return sv_fail(r, NULL, "column '%s' is given twice", cols[i].name);
	}
	/* the extra columns end the list when the file has them, in this order */
	if (n >= WTG_REPORT_NEXTRA) {
		bool extra = true;
		for (int k = 0; k < WTG_REPORT_NEXTRA; k++)
			extra = extra && !strcmp(cols[n - WTG_REPORT_NEXTRA + k].name, wtg_report_extra_cols[k].name);
		if (extra)
			own = n - WTG_REPORT_NEXTRA;
	}
	if (own > WTG_MAX_COLS)
		return sv_fail(r, "columns", "%d columns, more than %d", own, WTG_MAX_COLS);
	wtg_table_set_columns(t, cols, own);
	*ntotal = n;
	return own;
}

/* One cell: the column's type or null. Text points into the document (the table copies it). */
static int read_cell(struct rd *r, json_t *row, const struct wtg_column *col, struct wtg_value *out)
{
	json_t *v = json_object_get(row, col->name);
	if (!v)
		return sv_fail(r, col->name, "missing");
	*out = WTG_NA;
	if (json_is_null(v))
		return 0;
	switch (col->type) {
	case WTG_T_INT:
		if (!json_is_integer(v))
			return sv_fail(r, col->name, "should be an integer or null");
		*out = WTG_INT(json_integer_value(v));
		return 0;
	case WTG_T_REAL:
		if (!json_is_number(v))
			return sv_fail(r, col->name, "should be a number or null");
		*out = WTG_REAL(json_number_value(v));
		return 0;
	case WTG_T_TEXT:
		if (!json_is_string(v))
			return sv_fail(r, col->name, "should be a string or null");
		if (json_string_length(v) > MAX_TEXT)
			return sv_fail(r, col->name, TOO_LONG);
		*out = WTG_TEXT(json_string_value(v));
		return 0;
	default:
		return sv_fail(r, col->name, "should be null (its column's type is na)");
	}
}

/* "0-3,5" -> a mask of the first 64 CPUs. */
static uint64_t cpu_mask(const char *s)
{
	uint64_t m = 0;
	while (s && *s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (end == s)
			break;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s)
				break;
		}
		for (long c = a < 0 ? 0 : a; c <= b && c < 64; c++)
			m |= 1ull << c;
		s = *end == ',' ? end + 1 : end;
	}
	return m;
}

/* The extra cells of a row back into its probe and conditions. */
void sv_row_extras(const struct wtg_value *x, struct wtg_row *row)
{
	row->has_probe = x[0].type != WTG_T_NA;
	if (row->has_probe) {
		struct wtg_probe_result *p = &row->probe;
		memset(p, 0, sizeof *p);
		p->wall_ms = x[0].r;
		p->user_ms = x[1].type ? x[1].r : NAN;
		p->sys_ms = x[2].type ? x[2].r : NAN;
		p->minflt = x[3].i;
		p->majflt = x[4].i;
		p->vcsw = x[5].i;
		p->ivcsw = x[6].i;
		p->cpus_seen = x[7].type == WTG_T_TEXT ? cpu_mask(x[7].s) : 0;
		p->migrations = x[8].type == WTG_T_INT ? x[8].i : -1;
		p->instructions = p->cycles = -1;
	}
	memset(&row->cond, 0, sizeof row->cond);
	row->cond.burners = x[9].type == WTG_T_INT ? (int)x[9].i : 0;
	row->cond.policy = x[10].type != WTG_T_TEXT ? -1 : !strcmp(x[10].s, "background") ? 1 : 0;
	const char *io = x[11].type == WTG_T_TEXT ? x[11].s : "";
	row->cond.io = !strcmp(io, "direct") ? WTG_IO_DIRECT : !strcmp(io, "evicting") ? WTG_IO_EVICTING :
										 WTG_IO_CACHED;
	/* a run measured in the background or uncached was asked to be: its label says so */
	row->cond.background = row->cond.policy == 1;
	row->cond.uncached = row->cond.io != WTG_IO_CACHED;
}

static int read_rows(struct rd *r, json_t *exp, struct wtg_table *t, int own, int ntotal)
{
	json_t *a = sv_want_array(r, exp, "rows", MAX_ROWS);
	if (!a)
		return -1;
	int rc = sv_take_streamed(r, a, t);
	if (rc <= 0)
		return rc;
	struct wtg_value v[WTG_MAX_COLS + WTG_REPORT_NEXTRA];
	size_t i;
	json_t *row;
	json_array_foreach(a, i, row) {
		size_t back = sv_enter(r, "rows", (long)i);
		if (!json_is_object(row))
			return sv_fail(r, NULL, "should be an object");
		for (int c = 0; c < ntotal; c++) {
			const struct wtg_column *col = c < own ? &t->cols[c] : &wtg_report_extra_cols[c - own];
			if (read_cell(r, row, col, &v[c]) < 0)
				return -1;
		}
		sv_leave(r, back);
		wtg_table_add_row(t, v, own, NULL);
		struct wtg_row *last = &t->rows[t->nrows - 1];
		if (ntotal > own)
			sv_row_extras(v + own, last);
		else
			memset(&last->cond, 0, sizeof last->cond);
		last->t_ns = 0;
	}
	return 0;
}

static int read_checks(struct rd *r, json_t *exp, struct wtg_table *t)
{
	json_t *a = sv_want_array(r, exp, "checks", MAX_LIST);
	size_t i;
	json_t *c;
	json_array_foreach(a, i, c) {
		size_t back = sv_enter(r, "checks", (long)i);
		if (!json_is_object(c))
			return sv_fail(r, NULL, "should be an object");
		char name[256], status[8];
		sv_want_str(r, c, "name", name, sizeof name, false);
		sv_want_bool(r, c, "ok", false);
		sv_want_str(r, c, "status", status, sizeof status, false);
		json_t *detail = sv_want(r, c, "detail", T_STR | T_NULL);
		if (!r->failed && strcmp(status, "ok") && strcmp(status, "warn") && strcmp(status, "fail"))
			sv_fail(r, "status", "'%s' is not ok, warn or fail", status);
		sv_leave(r, back);
		if (r->failed)
			return -1;
		const char *d = json_is_string(detail) ? json_string_value(detail) : "";
		if (!strcmp(status, "warn"))
			wtg_table_warn(t, name, "%s", d);
		else
			wtg_table_check(t, name, !strcmp(status, "ok"), "%s", d);
	}
	json_t *notes = sv_want_array(r, exp, "notes", MAX_LIST);
	json_array_foreach(notes, i, c) {
		if (!json_is_string(c) || json_string_length(c) > MAX_TEXT) {
			size_t back = sv_enter(r, "notes", (long)i);
			if (json_is_string(c))
				sv_fail(r, NULL, TOO_LONG);
			else
				sv_fail(r, NULL, "should be a string");
			sv_leave(r, back);
			return -1;
		}
		wtg_table_note(t, "%s", json_string_value(c));
	}
	return r->failed ? -1 : 0;
}

static int read_series(struct rd *r, json_t *exp, struct wtg_table *t)
{
	json_t *a = sv_want_array(r, exp, "series", MAX_LIST);
	size_t i;
	json_t *s;
	double *buf = NULL;
	json_array_foreach(a, i, s) {
		size_t back = sv_enter(r, "series", (long)i);
		if (!json_is_object(s))
			return sv_fail(r, NULL, "should be an object");
		json_t *name = sv_want(r, s, "name", T_STR), *unit = sv_want(r, s, "unit", T_STR | T_NULL);
		int64_t count = sv_want_int(r, s, "count", 0, INT64_MAX, false, 0);
		sv_want_bool(r, s, "thinned", false);
		sv_want(r, s, "note", T_STR | T_NULL);
		json_t *samples = sv_want_array(r, s, "samples", WTG_JSON_MAX_SAMPLES);
		size_t n = samples ? json_array_size(samples) : 0;
		if (samples && (int64_t)n > count)
			sv_fail(r, "samples", "%zu samples, more than its count %" PRId64, n, count);
		double *grown = r->failed ? buf : realloc(buf, (n ? n : 1) * sizeof *buf);
		if (!grown)
			sv_fail(r, "samples", "%s", strerror(ENOMEM));
		else
			buf = grown;
		for (size_t k = 0; !r->failed && k < n; k++) {
			json_t *x = json_array_get(samples, k);
			if (!json_is_number(x) && !json_is_null(x))
				sv_fail(r, "samples", "item %zu should be a number or null", k);
			else
				buf[k] = json_is_null(x) ? NAN : json_number_value(x);
		}
		sv_leave(r, back);
		if (r->failed)
			break;
		wtg_table_add_series(t, json_string_value(name), json_is_string(unit) ? json_string_value(unit) : "",
				     buf, n);
	}
	free(buf);
	return r->failed ? -1 : 0;
}

/* An experiment's probe: the totals over its run, or null. */
static void read_probe(struct rd *r, json_t *exp, struct wtg_table *t)
{
	size_t back;
	json_t *v = sv_open_object(r, exp, "probe", true, false, &back);
	if (!v)
		return;
	struct wtg_probe_result *p = &t->total;
	memset(p, 0, sizeof *p);
	json_t *x;
	p->wall_ms = (x = sv_want(r, v, "wall_ms", T_NUM | T_NULL)) && json_is_number(x) ? json_number_value(x) : NAN;
	p->user_ms = (x = sv_want(r, v, "user_ms", T_NUM | T_NULL)) && json_is_number(x) ? json_number_value(x) : NAN;
	p->sys_ms = (x = sv_want(r, v, "sys_ms", T_NUM | T_NULL)) && json_is_number(x) ? json_number_value(x) : NAN;
	p->minflt = sv_want_int(r, v, "minflt", INT64_MIN, INT64_MAX, false, 0);
	p->majflt = sv_want_int(r, v, "majflt", INT64_MIN, INT64_MAX, false, 0);
	p->vcsw = sv_want_int(r, v, "vcsw", INT64_MIN, INT64_MAX, false, 0);
	p->ivcsw = sv_want_int(r, v, "ivcsw", INT64_MIN, INT64_MAX, false, 0);
	json_t *cpus = sv_want_array(r, v, "cpus", 64);
	size_t i;
	json_array_foreach(cpus, i, x) {
		if (!json_is_integer(x) || json_integer_value(x) < 0 || json_integer_value(x) > 63) {
			sv_fail(r, "cpus", "item %zu should be an integer from 0 to 63", i);
			break;
		}
		p->cpus_seen |= 1ull << json_integer_value(x);
	}
	p->migrations = sv_want_int(r, v, "migrations", 0, INT64_MAX, true, -1);
	p->instructions = sv_want_int(r, v, "instructions", 0, INT64_MAX, true, -1);
	p->cycles = sv_want_int(r, v, "cycles", 0, INT64_MAX, true, -1);
	p->threads = (int)sv_want_int(r, v, "threads", 0, 1 << 20, false, 0);
	t->has_total = !r->failed;
	sv_leave(r, back);
}

static const char *const state_names[] = { "idle", "running", "done", "failed", "cancelled" };

/* A run's state: its index in state_names, or -1 after naming the problem. */
static int read_state(struct rd *r, json_t *obj)
{
	char state[16];
	sv_want_str(r, obj, "state", state, sizeof state, false);
	if (r->failed)
		return -1;
	for (int k = 0; k < 5; k++)
		if (!strcmp(state, state_names[k]))
			return k;
	return sv_fail(r, "state", "'%s' is not idle, running, done, failed or cancelled", state);
}

/* One of earlier_runs: a label, then a run as an experiment holds it. */
static int read_earlier_run(struct rd *r, json_t *v, struct wtg_loaded_run *run)
{
	if (!json_is_object(v))
		return sv_fail(r, NULL, "should be an object");
	json_t *label = sv_want(r, v, "label", T_STR);
	json_t *error = sv_want(r, v, "error", T_STR | T_NULL);
	int st = read_state(r, v);
	if (r->failed || st < 0)
		return -1;
	run->label = sv_doc_str(label) ? sv_doc_str(label) : "";
	struct wtg_table *t = &run->t;
	int ntotal = 0, own = sv_read_columns(r, v, t, &ntotal);
	if (own < 0 || read_rows(r, v, t, own, ntotal) < 0 || read_checks(r, v, t) < 0 || read_series(r, v, t) < 0)
		return -1;
	read_probe(r, v, t);
	t->state = (enum wtg_state)st;
	if (json_is_string(error) && !sv_copy_whole(r, "error", t->error, sizeof t->error, json_string_value(error),
						 json_string_length(error)))
		return -1;
	return r->failed ? -1 : 0;
}

/* An experiment's earlier_runs (optional): the runs its tab showed before the saved one. */
static int read_earlier(struct rd *r, json_t *exp, struct wtg_loaded *l, int idx)
{
	json_t *a = sv_maybe(r, exp, "earlier_runs", T_ARR);
	if (!a || r->failed)
		return r->failed ? -1 : 0;
	size_t n = json_array_size(a);
	if (n > WTG_LOAD_MAX_EARLIER)
		return sv_fail(r, "earlier_runs", "%zu runs, more than %d", n, WTG_LOAD_MAX_EARLIER);
	if (n == 0)
		return 0;
	l->earlier[idx] = calloc(n, sizeof *l->earlier[idx]);
	if (!l->earlier[idx])
		return sv_fail(r, "earlier_runs", "%s", strerror(ENOMEM));
	for (size_t i = 0; i < n; i++) {
		struct wtg_loaded_run *run = &l->earlier[idx][i];
		wtg_table_init(&run->t, wtg_experiments[idx]);
		l->nearlier[idx]++;
		size_t back = sv_enter(r, "earlier_runs", (long)i);
		if (read_earlier_run(r, json_array_get(a, i), run) < 0)
			return -1;
		sv_leave(r, back);
	}
	return 0;
}

/* One experiment into the table its name picks; unknown names are listed in l->skipped. */
static int read_experiment(struct rd *r, json_t *exp, struct wtg_loaded *l)
{
	if (!json_is_object(exp))
		return sv_fail(r, NULL, "should be an object");
	char name[64];
	sv_want_str(r, exp, "name", name, sizeof name, false);
	sv_want(r, exp, "title", T_STR);
	sv_want(r, exp, "runs", T_STR | T_NULL);
	sv_want(r, exp, "view", T_STR | T_NULL);
	int st = read_state(r, exp);
	json_t *error = sv_want(r, exp, "error", T_STR | T_NULL);
	sv_want(r, exp, "checks_summary", T_OBJ);
	if (r->failed || st < 0)
		return -1;
	int idx = wtg_experiment_find(name);
	if (idx < 0 || idx >= WTG_MAX_EXP) {
		size_t n = strlen(l->skipped), room = sizeof l->skipped - n;
		if (n + strlen(name) + 2 + sizeof ", and more" < sizeof l->skipped)
			snprintf(l->skipped + n, room, "%s%s", n ? ", " : "", name);
		else if (!strstr(l->skipped, ", and more"))
			snprintf(l->skipped + n, room, ", and more");	/* said, not cut */
		return 0;
	}
	if (l->present[idx])
		return sv_fail(r, "name", "experiment '%s' is given twice", name);
	struct wtg_table *t = &l->tables[idx];
	int ntotal = 0, own = sv_read_columns(r, exp, t, &ntotal);
	if (own < 0 || read_rows(r, exp, t, own, ntotal) < 0 || read_checks(r, exp, t) < 0 ||
	    read_series(r, exp, t) < 0)
		return -1;
	read_probe(r, exp, t);
	if (r->failed)
		return -1;
	t->state = (enum wtg_state)st;
	if (json_is_string(error) && !sv_copy_whole(r, "error", t->error, sizeof t->error, json_string_value(error),
						 json_string_length(error)))
		return -1;
	if (read_earlier(r, exp, l, idx) < 0)
		return -1;
	l->present[idx] = true;
	l->npresent++;
	return 0;
}

/* schema first (an older or newer layout is named before anything else is checked), then the rest. */
int sv_read_root(struct rd *r, json_t *root, struct wtg_loaded *l)
{
	if (!json_is_object(root))
		return sv_fail(r, NULL, "not a wtg report (the top level is not an object)");
	json_t *tool = json_object_get(root, "tool");
	json_t *schema = json_object_get(root, "schema");
	if (!json_is_string(tool) || strcmp(json_string_value(tool), "wtg") != 0)
		return sv_fail(r, NULL, "not a wtg report (no \"tool\": \"wtg\")");
	if (!json_is_integer(schema))
		return sv_fail(r, "schema", "missing or not an integer");
	json_int_t v = json_integer_value(schema);
	if (v < WTG_LOAD_SCHEMA_MIN)
		return sv_fail(r, NULL, "schema %" JSON_INTEGER_FORMAT " is older than this wtg reads (schema %d; "
			    "write the report again with this wtg)", v, WTG_LOAD_SCHEMA_MIN);
	if (v > WTG_LOAD_SCHEMA_MAX)
		return sv_fail(r, NULL, "schema %" JSON_INTEGER_FORMAT " is newer than this wtg reads (up to "
			    "schema %d)", v, WTG_LOAD_SCHEMA_MAX);
	l->meta.schema = (int)v;
	sv_read_meta(r, root, &l->meta, &l->saved);
	json_t *exps = sv_want_array(r, root, "experiments", WTG_MAX_EXP * 4);
	size_t i;
	json_t *e;
	json_array_foreach(exps, i, e) {
		size_t back = sv_enter(r, "experiments", (long)i);
		if (read_experiment(r, e, l) < 0)
			return -1;
		sv_leave(r, back);
	}
	return r->failed ? -1 : 0;
}
