/* tables.c: a saved run's experiments into the tables the experiments fill: rows (walked, or taken
 * from the stream; columns.c reads the columns), checks, notes, series, the probe; the document's
 * top level. */
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
		/* optional (runs saved before it was written have none): the replicas' sizes */
		size_t len[WTG_SERIES_MAX_REPLICAS];
		int nrep = 0;
		json_t *ra = sv_maybe(r, s, "replicas", T_ARR | T_NULL);
		if (ra && json_array_size(ra) > WTG_SERIES_MAX_REPLICAS)
			sv_fail(r, "replicas", "%zu items, more than %d", json_array_size(ra), WTG_SERIES_MAX_REPLICAS);
		else if (ra && json_is_array(ra)) {
			size_t k;
			json_t *x;
			json_array_foreach(ra, k, x) {
				if (!json_is_integer(x) || json_integer_value(x) < 1) {
					sv_fail(r, "replicas", "item %zu should be a count of samples, 1 or more", k);
					break;
				}
				len[nrep++] = (size_t)json_integer_value(x);
			}
		}
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
		size_t held = 0;
		for (int j = 0; j < nrep; j++)
			held += len[j];
		if (!r->failed && nrep && held != n)
			sv_fail(r, "replicas", "the replicas hold %zu samples, the series %zu", held, n);
		sv_leave(r, back);
		if (r->failed)
			break;
		wtg_table_add_series(t, json_string_value(name), json_is_string(unit) ? json_string_value(unit) : "",
				     buf, n);
		wtg_table_series_replicas(t, json_string_value(name), len, nrep);
	}
	free(buf);
	return r->failed ? -1 : 0;
}

/* An experiment's probe: the totals over its run, or null. */
static void read_probe(struct rd *r, json_t *exp, struct wtg_table *t)
{
	t->cold = sv_maybe_true(r, exp, "cold_cache");	/* measured cold (c); older files lack it */
	/* the machine while it ran; older files lack them */
	static const char *const state[] = { "steal_pct", "mhz_min", "mhz_max" };
	double *into[] = { &t->steal_pct, &t->mhz_min, &t->mhz_max };
	for (int i = 0; i < 3; i++) {
		json_t *x = sv_maybe(r, exp, state[i], T_NUM | T_NULL);
		*into[i] = x && json_is_number(x) ? json_number_value(x) : NAN;
		if (!isnan(*into[i]) && !(i ? *into[i] > 0 && *into[i] < 1e6 : *into[i] >= 0 && *into[i] <= 100))
			sv_fail(r, state[i], i ? "should be a frequency in MHz" : "should be a percentage from 0 to 100");
	}
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

/* What the live run marked on its axis from the machine (wss: the cache sizes), from the saved
 * machine block: a replayed tab draws what the live one drew. */
static void saved_marks(struct wtg_table *t, const struct wtg_loaded *l)
{
	if (t->exp && t->exp->sweep.cache_marks && t->nxmarks == 0)
		wtg_table_mark_caches(t, &l->meta.machine);
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
	json_t *dropped = sv_maybe(r, exp, "earlier_runs_dropped", T_INT);
	if (dropped && json_integer_value(dropped) > 0)	/* said on the tab: runs were let go */
		l->dropped[idx] = json_integer_value(dropped) < 1000000 ? (int)json_integer_value(dropped) : 1000000;
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
		saved_marks(&run->t, l);
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
	saved_marks(t, l);
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
