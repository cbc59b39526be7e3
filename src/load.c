/* load.c: the strict reader of saved runs. jansson parses; every field wtg reads is checked for its
 * type, range and size against data/wtg-report.schema.json, and the first problem ends the load with
 * one line naming the file, the place and what was wrong. Unknown extra fields are ignored. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <jansson.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <yajl/yajl_parse.h>

#include "wtg/experiment.h"
#include "wtg/load.h"
#include "wtg/report.h"
#include "wtg/util.h"

/* Sizes past which a file is not a wtg report, whatever it says. */
#define MAX_ROWS 10000000
#define MAX_LIST 100000
#define MAX_TEXT 65536

struct srows;

/* The reader's state: where it is (for messages) and the first error. */
struct rd {
	const char *name;
	char *err;
	size_t errlen;
	bool failed;
	char where[256];	/* "experiments[2].rows[5]" */
	struct srows *streamed;	/* rows read while streaming, each standing in the tree as an empty array */
};

/* Type masks for want(). */
enum { T_STR = 1, T_INT = 2, T_REAL = 4, T_BOOL = 8, T_NULL = 16, T_OBJ = 32, T_ARR = 64, T_NUM = T_INT | T_REAL };

static int fail(struct rd *r, const char *key, const char *fmt, ...) WTG_PRINTF(3, 4);

static int fail(struct rd *r, const char *key, const char *fmt, ...)
{
	if (r->failed)
		return -1;
	char msg[384];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	const char *dot = r->where[0] && key ? "." : "";
	snprintf(r->err, r->errlen, "%s: %s%s%s%s%s", r->name, r->where, dot, key ? key : "",
		 r->where[0] || key ? ": " : "", msg);
	r->failed = true;
	return -1;
}

static const char *type_words(int mask)
{
	switch (mask) {
	case T_STR: return "a string";
	case T_STR | T_NULL: return "a string or null";
	case T_INT: return "an integer";
	case T_INT | T_NULL: return "an integer or null";
	case T_NUM: return "a number";
	case T_NUM | T_NULL: return "a number or null";
	case T_BOOL: return "true or false";
	case T_BOOL | T_NULL: return "true, false or null";
	case T_OBJ: return "an object";
	case T_OBJ | T_NULL: return "an object or null";
	case T_ARR: return "an array";
	}
	return "of another type";
}

static int type_of(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING: return T_STR;
	case JSON_INTEGER: return T_INT;
	case JSON_REAL: return T_REAL;
	case JSON_TRUE:
	case JSON_FALSE: return T_BOOL;
	case JSON_NULL: return T_NULL;
	case JSON_OBJECT: return T_OBJ;
	case JSON_ARRAY: return T_ARR;
	}
	return 0;
}

/* obj[key], which must be there and be one of the types in mask; NULL after an error. */
static json_t *want(struct rd *r, json_t *obj, const char *key, int mask)
{
	if (r->failed)
		return NULL;
	json_t *v = json_object_get(obj, key);
	if (!v) {
		fail(r, key, "missing");
		return NULL;
	}
	if (!(type_of(v) & mask)) {
		fail(r, key, "should be %s", type_words(mask));
		return NULL;
	}
	if (json_is_string(v) && json_string_length(v) > MAX_TEXT) {
		fail(r, key, "longer than %d bytes", MAX_TEXT);
		return NULL;
	}
	return v;
}

/* A string field copied into buf ("" for null). */
static void want_str(struct rd *r, json_t *obj, const char *key, char *buf, size_t len, bool nullable)
{
	json_t *v = want(r, obj, key, T_STR | (nullable ? T_NULL : 0));
	buf[0] = '\0';
	if (v && json_is_string(v))
		wtg_strlcpy(buf, json_string_value(v), len);
}

/* An integer field in [lo, hi]; null gives dflt when nullable. */
static int64_t want_int(struct rd *r, json_t *obj, const char *key, int64_t lo, int64_t hi, bool nullable,
			int64_t dflt)
{
	json_t *v = want(r, obj, key, T_INT | (nullable ? T_NULL : 0));
	if (!v || json_is_null(v))
		return dflt;
	json_int_t n = json_integer_value(v);
	if (n < lo || n > hi) {
		fail(r, key, "%" JSON_INTEGER_FORMAT " is out of range (%" PRId64 " to %" PRId64 ")", n, lo, hi);
		return dflt;
	}
	return n;
}

static int want_bool(struct rd *r, json_t *obj, const char *key, bool nullable)
{
	json_t *v = want(r, obj, key, T_BOOL | (nullable ? T_NULL : 0));
	return !v || json_is_null(v) ? -1 : json_is_true(v);
}

/* Append "[i]" or ".key" to the place; returns the old length to restore. */
static size_t enter(struct rd *r, const char *key, long idx)
{
	size_t n = strlen(r->where);
	if (idx >= 0)
		snprintf(r->where + n, sizeof r->where - n, "%s%s[%ld]", n && key ? "." : "", key ? key : "", idx);
	else
		snprintf(r->where + n, sizeof r->where - n, "%s%s", n ? "." : "", key);
	return n;
}

static void leave(struct rd *r, size_t n)
{
	r->where[n] = '\0';
}

/* obj[key] as an array of at most max items. */
static json_t *want_array(struct rd *r, json_t *obj, const char *key, size_t max)
{
	json_t *a = want(r, obj, key, T_ARR);
	if (a && json_array_size(a) > max) {
		fail(r, key, "%zu items, more than %zu", json_array_size(a), max);
		return NULL;
	}
	return a;
}

/* obj[key] when it is there (older reports may lack it), of one of the types in mask; NULL when
 * missing or after an error. */
static json_t *maybe(struct rd *r, json_t *obj, const char *key, int mask)
{
	if (r->failed || !json_object_get(obj, key))
		return NULL;
	return want(r, obj, key, mask);
}

/* A string that lives as long as the document (the arena), or NULL for null and "". */
static const char *doc_str(json_t *v)
{
	return json_is_string(v) && json_string_length(v) ? json_string_value(v) : NULL;
}

/* An optional boolean: true only when there and true. */
static bool maybe_true(struct rd *r, json_t *obj, const char *key)
{
	json_t *v = maybe(r, obj, key, T_BOOL);
	return v && json_is_true(v);
}

/* obj[key] as an object (null allowed when nullable; a missing one allowed when optional), entered
 * for messages (leave(r, *back) after); NULL when it is not there, null, or wrong. */
static json_t *open_object(struct rd *r, json_t *obj, const char *key, bool nullable, bool optional,
			   size_t *back)
{
	json_t *v = optional ? maybe(r, obj, key, T_OBJ | (nullable ? T_NULL : 0)) :
			       want(r, obj, key, T_OBJ | (nullable ? T_NULL : 0));
	if (!v || json_is_null(v))
		return NULL;
	*back = enter(r, key, -1);
	return v;
}

/* "0-3,5" into s; "none" is the empty set. */
static void want_cpus(struct rd *r, json_t *obj, const char *key, struct wtg_cpuset *s)
{
	char list[1024];
	want_str(r, obj, key, list, sizeof list, true);
	if (!r->failed && strcmp(list, "none") && wtg_cpuset_parse(s, list) < 0)
		fail(r, key, "'%s' is not a CPU list", list);
	if (!strcmp(list, "none"))
		wtg_cpuset_clear(s);
}

/* Call fn on each item of obj[key] (an array of at most max objects), with the place set, until
 * one fails. */
static void each_object(struct rd *r, json_t *obj, const char *key, size_t max,
			void (*fn)(struct rd *r, json_t *item, void *arg), void *arg)
{
	json_t *a = want_array(r, obj, key, max);
	size_t i;
	json_t *v;
	json_array_foreach(a, i, v) {
		size_t back = enter(r, key, (long)i);
		if (!json_is_object(v))
			fail(r, NULL, "should be an object");
		else
			fn(r, v, arg);
		leave(r, back);
		if (r->failed)
			return;
	}
}

static void read_node(struct rd *r, json_t *v, void *arg)
{
	struct wtg_topology *t = arg;
	struct wtg_numa_node *nd = &t->nodes[t->nnodes];
	nd->node = (int)want_int(r, v, "node", 0, 1 << 20, false, 0);
	want_cpus(r, v, "cpus", &nd->cpus);
	nd->memory_bytes = (uint64_t)want_int(r, v, "memory_bytes", 0, INT64_MAX, true, 0);
	json_t *d = want_array(r, v, "distances", WTG_MAX_NODES);
	size_t k;
	json_t *x;
	json_array_foreach(d, k, x) {
		if (!json_is_integer(x) || json_integer_value(x) < 0 || json_integer_value(x) > 1 << 20) {
			fail(r, "distances", "item %zu should be an integer from 0 to %d", k, 1 << 20);
			return;
		}
		nd->distances[k] = (int)json_integer_value(x);
	}
	t->nnodes += !r->failed;
}

static void read_core_type(struct rd *r, json_t *v, void *arg)
{
	struct wtg_topology *t = arg;
	struct wtg_core_type *ty = &t->types[t->ntypes];
	want_str(r, v, "type", ty->name, sizeof ty->name, false);
	want_cpus(r, v, "cpus", &ty->cpus);
	ty->count = (int)want_int(r, v, "cpus_count", 0, WTG_TOPO_MAX_CPUS, false, 0);
	ty->max_khz = (long)want_int(r, v, "max_khz", 1, INT32_MAX, true, 0);
	t->ntypes += !r->failed;
}

/* machine.topology, null in reports from before it was read. */
static void read_topology(struct rd *r, json_t *mach, struct wtg_run_saved *sv)
{
	size_t back;
	json_t *v = open_object(r, mach, "topology", true, true, &back);
	if (!v)
		return;
	struct wtg_topology *t = &sv->topo;
	t->root = "";
	t->packages = (int)want_int(r, v, "packages", 0, WTG_TOPO_MAX_CPUS, false, 0);
	t->cores = (int)want_int(r, v, "cores", 0, WTG_TOPO_MAX_CPUS, false, 0);
	t->smt = (int)want_int(r, v, "smt", 0, 64, false, 0);
	want_str(r, v, "summary", sv->topo_summary, sizeof sv->topo_summary, true);
	each_object(r, v, "numa_nodes", WTG_MAX_NODES, read_node, t);
	each_object(r, v, "core_types", WTG_MAX_CORE_TYPES, read_core_type, t);
	for (int i = 0; i < t->nnodes; i++)
		for (int c = 0; c < WTG_TOPO_MAX_CPUS; c++)
			if (wtg_cpuset_has(&t->nodes[i].cpus, c))
				wtg_cpuset_add(&t->online, c);
	t->cpus_online = wtg_cpuset_count(&t->online);
	sv->has_topo = !r->failed;
	leave(r, back);
}

/* machine.data_file: its state and, when it was ready, what wtg knew of it. */
static void read_datafile(struct rd *r, json_t *mach, struct wtg_run_saved *sv)
{
	size_t back;
	json_t *v = open_object(r, mach, "data_file", false, false, &back);
	if (!v)
		return;
	static const char *const states[] = { "none", "preparing", "ready", "failed" };
	char st[16];
	want_str(r, v, "state", st, sizeof st, false);
	int k = 0;
	while (k < 4 && strcmp(st, states[k]))
		k++;
	if (!r->failed && k == 4)
		fail(r, "state", "'%s' is not none, preparing, ready or failed", st);
	sv->df_state = (enum wtg_df_state)(k < 4 ? k : 0);
	want_str(r, v, "error", sv->df_error, sizeof sv->df_error, true);
	json_t *path = want(r, v, "path", T_STR | T_NULL);
	want_str(r, v, "path", sv->df.path, sizeof sv->df.path, true);
	sv->df_path = doc_str(path);
	bool ready = sv->df_state == WTG_DF_READY;
	sv->df.size = (uint64_t)want_int(r, v, "size", 0, INT64_MAX, !ready, 0);
	want_str(r, v, "filesystem", sv->df.fs, sizeof sv->df.fs, !ready);
	sv->df.sum = want_int(r, v, "known_sum", 0, INT64_MAX, !ready, 0);
	sv->df.direct_ok = want_bool(r, v, "direct_io", !ready) == 1;
	sv->df.dio_mem_align = (unsigned)want_int(r, v, "dio_mem_align", 0, 1 << 30, !ready, 0);
	sv->df.dio_offset_align = (unsigned)want_int(r, v, "dio_offset_align", 0, 1 << 30, !ready, 0);
	sv->df.owned = want_bool(r, v, "owned", false) == 1;
	sv->df.lock_fd = -1;
	leave(r, back);
}

static void read_mitigations(struct rd *r, json_t *mach, struct wtg_machine *m)
{
	json_t *v = maybe(r, mach, "mitigations", T_OBJ | T_NULL);
	if (!v || json_is_null(v))
		return;
	m->nmitigations = 0;
	const char *key;
	json_t *x;
	json_object_foreach(v, key, x) {
		if (!json_is_string(x)) {
			size_t back = enter(r, "mitigations", -1);
			fail(r, key, "should be a string");
			leave(r, back);
			return;
		}
		if (m->nmitigations == WTG_MAX_MITIGATIONS)
			continue;
		wtg_strlcpy(m->mitigations[m->nmitigations].name, key, sizeof m->mitigations[0].name);
		wtg_strlcpy(m->mitigations[m->nmitigations].status, json_string_value(x),
			    sizeof m->mitigations[0].status);
		m->nmitigations++;
	}
}

/* The names in obj[key] as registry indices; unknown ones are left out. */
static int read_names(struct rd *r, json_t *obj, const char *key, int *idx, int max)
{
	json_t *a = maybe(r, obj, key, T_ARR);
	size_t i;
	json_t *x;
	int n = 0;
	json_array_foreach(a, i, x) {
		if (!json_is_string(x)) {
			fail(r, key, "item %zu should be a string", i);
			return 0;
		}
		int e = wtg_experiment_find(json_string_value(x));
		if (e >= 0 && e < 32 && n < max)
			idx[n++] = e;
	}
	return n;
}

static void read_outputs(struct rd *r, json_t *v, struct wtg_options *o)
{
	json_t *a = maybe(r, v, "output", T_ARR);
	size_t i;
	json_t *x;
	json_array_foreach(a, i, x) {
		size_t back = enter(r, "output", (long)i);
		json_t *path = json_is_object(x) ? want(r, x, "path", T_STR) : NULL;
		json_t *fmt = path ? want(r, x, "format", T_STR) : NULL;
		int f = fmt ? wtg_format_parse(json_string_value(fmt)) : -1;
		if (!json_is_object(x))
			fail(r, NULL, "should be an object");
		else if (fmt && f < 0)
			fail(r, "format", "'%s' is not a format", json_string_value(fmt));
		leave(r, back);
		if (r->failed)
			return;
		if (o->noutputs < WTG_MAX_OUTPUTS)
			o->outputs[o->noutputs++] = (struct wtg_output){ json_string_value(path), (enum wtg_format)f };
	}
}

/* run.options beyond what the gate compares: the rest of what the run was asked to do. */
static void read_more_options(struct rd *r, json_t *v, struct wtg_run_saved *sv)
{
	struct wtg_options *o = &sv->opt;
	int idx[32];
	for (int i = 0, n = read_names(r, v, "run", idx, 32); i < n; i++)
		o->selected[idx[i]] = true;
	o->norder = read_names(r, v, "order", o->order, 32);
	json_t *x = maybe(r, v, "format", T_STR);
	o->format = (enum wtg_format)(x && wtg_format_parse(json_string_value(x)) >= 0 ?
				      wtg_format_parse(json_string_value(x)) : 0);
	read_outputs(r, v, o);
	o->file = doc_str(maybe(r, v, "file", T_STR | T_NULL));
	o->dir = doc_str(maybe(r, v, "dir", T_STR | T_NULL));
	char cmp[96] = "";
	if ((x = maybe(r, v, "compare", T_STR)))
		wtg_strlcpy(cmp, json_string_value(x), sizeof cmp);
	char *colon = strchr(cmp, ':');
	if (colon)
		*colon = '\0';
	wtg_strlcpy(sv->compare_exp, cmp, sizeof sv->compare_exp);
	wtg_strlcpy(sv->compare_cond, colon ? colon + 1 : "", sizeof sv->compare_cond);
	o->compare_exp = sv->compare_exp[0] ? sv->compare_exp : NULL;
	o->compare_cond = sv->compare_cond[0] ? sv->compare_cond : NULL;
	if (json_object_get(v, "time_limit_s"))
		o->time_limit_ms = want_int(r, v, "time_limit_s", 0, INT64_MAX / 1000, false, 0) * 1000;
	x = maybe(r, v, "hold_s", T_NUM | T_NULL);
	o->hold_ms = x && json_is_number(x) && json_number_value(x) >= 0 && json_number_value(x) < 1e6 ?
		     (int)lround(json_number_value(x) * 1000) : 0;
	o->step = maybe_true(r, v, "step");
	o->quiet = maybe_true(r, v, "quiet");
	o->color = maybe_true(r, v, "color");
	o->ascii = maybe_true(r, v, "ascii");
	const char *p = doc_str(maybe(r, v, "progress", T_STR));
	o->progress = p && !strcmp(p, "always") ? WTG_PROGRESS_ALWAYS :
		      p && !strcmp(p, "never") ? WTG_PROGRESS_NEVER : WTG_PROGRESS_AUTO;
}

/* run.command_line into the saved options' argv (the strings stay in the document). */
static void read_command_line(struct rd *r, json_t *run, struct wtg_run_saved *sv)
{
	struct wtg_options *o = &sv->opt;
	json_t *a = want_array(r, run, "command_line", MAX_LIST);
	size_t n = a ? json_array_size(a) : 0;
	if (!n)
		return;
	sv->command_line = calloc(n + 1, sizeof *sv->command_line);
	o->argv = sv->command_line;
	if (!o->argv) {
		fail(r, "command_line", "%s", strerror(ENOMEM));
		return;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *x = json_array_get(a, i);
		if (!json_is_string(x)) {
			fail(r, "command_line", "item %zu should be a string", i);
			return;
		}
		sv->command_line[o->argc++] = json_string_value(x);
	}
}

/* "2026-11-30T19:26:36Z" -> ns since the epoch; -1 when it is not that form. */
static int64_t parse_iso8601(const char *s)
{
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	char z = 0;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
		   &tm.tm_min, &tm.tm_sec, &z) != 7 || z != 'Z')
		return -1;
	if (tm.tm_year < 1970 || tm.tm_year > 9999 || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 ||
	    tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (int64_t)timegm(&tm) * 1000000000;
}

/* An experiment's probe: the totals over its run, or null. */
static void read_probe(struct rd *r, json_t *exp, struct wtg_table *t)
{
	size_t back;
	json_t *v = open_object(r, exp, "probe", true, false, &back);
	if (!v)
		return;
	struct wtg_probe_result *p = &t->total;
	memset(p, 0, sizeof *p);
	json_t *x;
	p->wall_ms = (x = want(r, v, "wall_ms", T_NUM | T_NULL)) && json_is_number(x) ? json_number_value(x) : NAN;
	p->user_ms = (x = want(r, v, "user_ms", T_NUM | T_NULL)) && json_is_number(x) ? json_number_value(x) : NAN;
	p->sys_ms = (x = want(r, v, "sys_ms", T_NUM | T_NULL)) && json_is_number(x) ? json_number_value(x) : NAN;
	p->minflt = want_int(r, v, "minflt", INT64_MIN, INT64_MAX, false, 0);
	p->majflt = want_int(r, v, "majflt", INT64_MIN, INT64_MAX, false, 0);
	p->vcsw = want_int(r, v, "vcsw", INT64_MIN, INT64_MAX, false, 0);
	p->ivcsw = want_int(r, v, "ivcsw", INT64_MIN, INT64_MAX, false, 0);
	json_t *cpus = want_array(r, v, "cpus", 64);
	size_t i;
	json_array_foreach(cpus, i, x) {
		if (!json_is_integer(x) || json_integer_value(x) < 0 || json_integer_value(x) > 63) {
			fail(r, "cpus", "item %zu should be an integer from 0 to 63", i);
			break;
		}
		p->cpus_seen |= 1ull << json_integer_value(x);
	}
	p->migrations = want_int(r, v, "migrations", 0, INT64_MAX, true, -1);
	p->instructions = want_int(r, v, "instructions", 0, INT64_MAX, true, -1);
	p->cycles = want_int(r, v, "cycles", 0, INT64_MAX, true, -1);
	p->threads = (int)want_int(r, v, "threads", 0, 1 << 20, false, 0);
	t->has_total = !r->failed;
	leave(r, back);
}

static void read_caches(struct rd *r, json_t *mach, struct wtg_machine *m)
{
	json_t *a = want_array(r, mach, "caches", 64);
	size_t i;
	json_t *c;
	json_array_foreach(a, i, c) {
		size_t back = enter(r, "caches", (long)i);
		if (!json_is_object(c)) {
			fail(r, NULL, "should be an object");
			return;
		}
		struct wtg_cache tmp;
		tmp.level = (int)want_int(r, c, "level", 1, 16, false, 0);
		want_str(r, c, "type", tmp.type, sizeof tmp.type, false);
		tmp.size = (uint64_t)want_int(r, c, "size_bytes", 0, INT64_MAX, false, 0);
		tmp.line = (int)want_int(r, c, "line_bytes", 1, 1 << 20, true, 0);
		want_str(r, c, "shared_cpus", tmp.shared_cpus, sizeof tmp.shared_cpus, true);
		leave(r, back);
		if (r->failed)
			return;
		if (m->ncaches < WTG_MAX_CACHES)
			m->caches[m->ncaches++] = tmp;
	}
}

/* The machine block: the fields a reader shows and the gate compares. */
static void read_machine(struct rd *r, json_t *root, struct wtg_machine *m)
{
	json_t *mach = want(r, root, "machine", T_OBJ);
	if (!mach)
		return;
	size_t back = enter(r, "machine", -1);
	want_str(r, mach, "hostname", m->hostname, sizeof m->hostname, true);
	want_str(r, mach, "kernel", m->kernel, sizeof m->kernel, true);
	want_str(r, mach, "os", m->os, sizeof m->os, true);
	want_str(r, mach, "cpu_model", m->cpu_model, sizeof m->cpu_model, true);
	m->cpus = (int)want_int(r, mach, "cpus_online", 1, 1 << 20, true, -1);
	m->memory_bytes = (uint64_t)want_int(r, mach, "memory_bytes", 1, INT64_MAX, true, 0);
	m->page_size = (long)want_int(r, mach, "page_size", 1, 1 << 30, true, -1);
	read_caches(r, mach, m);
	want_str(r, mach, "thp", m->thp, sizeof m->thp, true);
	want_str(r, mach, "clocksource", m->clocksource, sizeof m->clocksource, true);
	want_str(r, mach, "governor", m->governor, sizeof m->governor, true);
	m->boost = want_bool(r, mach, "boost", true);
	want_str(r, mach, "virtualization", m->virtualization, sizeof m->virtualization, true);
	m->hypervisor = want_bool(r, mach, "hypervisor", false) == 1;
	json_t *hw = want(r, mach, "hw_counters", T_BOOL | T_STR);
	m->hw_counters = hw && json_is_true(hw);
	m->nmitigations = -1;
	read_mitigations(r, mach, m);
	json_t *smt = maybe(r, mach, "smt", T_OBJ | T_NULL);
	if (json_is_object(smt)) {
		size_t in = enter(r, "smt", -1);
		want_str(r, smt, "control", m->smt, sizeof m->smt, true);
		m->smt_active = want_bool(r, smt, "active", true);
		leave(r, in);
	}
	/* the writer's own words; any other is the file's */
	const char *src = doc_str(maybe(r, mach, "caches_source", T_STR | T_NULL));
	static const char *const sources[] = { "sysfs", "sysconf", "none" };
	m->caches_source = "file";
	for (int i = 0; src && i < 3; i++)
		if (!strcmp(src, sources[i]))
			m->caches_source = sources[i];
	leave(r, back);
}

static void read_cond(struct rd *r, json_t *obj, const char *key, struct wtg_cond_snapshot *c)
{
	size_t back;
	json_t *v = open_object(r, obj, key, false, false, &back);
	if (!v)
		return;
	char word[32];
	c->burners = (int)want_int(r, v, "burners", 0, 1 << 20, false, 0);
	want_str(r, v, "burn_kind", word, sizeof word, true);
	c->burn_kind = strcmp(word, "stream") == 0 ? WTG_BURN_STREAM : WTG_BURN_SPIN;
	want_str(r, v, "policy_requested", word, sizeof word, false);
	c->background = strcmp(word, "background") == 0;
	want_str(r, v, "policy_granted", word, sizeof word, true);
	c->policy = strcmp(word, "background") == 0 ? 1 : strcmp(word, "normal") == 0 ? 0 : -1;
	want_str(r, v, "io_requested", word, sizeof word, false);
	c->uncached = strcmp(word, "uncached") == 0;
	want_str(r, v, "io", word, sizeof word, false);
	c->io = strcmp(word, "direct") == 0 ? WTG_IO_DIRECT : strcmp(word, "evicting") == 0 ? WTG_IO_EVICTING :
									WTG_IO_CACHED;
	leave(r, back);
}

static void read_options(struct rd *r, json_t *run, struct wtg_run_options *o, struct wtg_run_saved *sv)
{
	size_t back;
	json_t *v = open_object(r, run, "options", true, false, &back);
	if (!v)
		return;
	o->known = true;
	o->quick = want_bool(r, v, "quick", false) == 1;
	o->size = (uint64_t)want_int(r, v, "size", 0, INT64_MAX, false, 0);
	o->threads = (int)want_int(r, v, "threads", 1, 1 << 20, false, 1);
	o->burn = (int)want_int(r, v, "burn", 0, 1 << 20, false, 0);
	want_str(r, v, "burn_kind", o->burn_kind, sizeof o->burn_kind, false);
	o->background = want_bool(r, v, "background", false) == 1;
	o->uncached = want_bool(r, v, "uncached", false) == 1;
	o->seed = (uint64_t)want_int(r, v, "seed", 0, INT64_MAX, false, 0);
	struct wtg_options *so = &sv->opt;
	so->quick = o->quick;
	so->size = o->size;
	so->threads = o->threads;
	so->burn = o->burn;
	so->burn_kind = !strcmp(o->burn_kind, "stream") ? WTG_BURN_STREAM : WTG_BURN_SPIN;
	so->background = o->background;
	so->uncached = o->uncached;
	so->seed = o->seed;
	read_more_options(r, v, sv);
	sv->has_opt = !r->failed;
	leave(r, back);
}

/* schema, tool, the run block, the machine, the conditions. */
static void read_meta(struct rd *r, json_t *root, struct wtg_run_meta *m, struct wtg_run_saved *sv)
{
	json_t *run = want(r, root, "run", T_OBJ);
	if (!run)
		return;
	want_str(r, root, "version", m->version, sizeof m->version, false);
	size_t back = enter(r, "run", -1);
	want_str(r, run, "timestamp", m->timestamp, sizeof m->timestamp, false);
	sv->start_real_ns = parse_iso8601(m->timestamp);
	if (!r->failed && sv->start_real_ns < 0)
		fail(r, "timestamp", "'%s' is not a UTC time like 2026-11-30T19:26:36Z", m->timestamp);
	json_t *d = want(r, run, "duration_s", T_NUM | T_NULL);
	m->duration_s = d && json_is_number(d) ? json_number_value(d) : NAN;
	if (d && json_is_number(d) && !(m->duration_s >= 0))
		fail(r, "duration_s", "below zero");
	read_command_line(r, run, sv);
	read_options(r, run, &m->opt, sv);
	json_t *label = json_object_get(run, "label");	/* optional: reports before --label lack it */
	if (label && !json_is_string(label) && !json_is_null(label))
		fail(r, "label", "should be a string or null");
	else if (label && json_is_string(label) && json_string_length(label))
		wtg_strlcpy(m->label, json_string_value(label), sizeof m->label);
	sv->label_saved = m->label[0] != '\0';
	json_t *start = maybe(r, run, "conditions_at_start", T_OBJ | T_NULL);
	if (json_is_object(start)) {
		read_cond(r, run, "conditions_at_start", &sv->cond_start);
		sv->begun = true;
	}
	leave(r, back);
	read_machine(r, root, &m->machine);
	json_t *mach = json_object_get(root, "machine");
	if (json_is_object(mach)) {
		back = enter(r, "machine", -1);
		read_topology(r, mach, sv);
		read_datafile(r, mach, sv);
		leave(r, back);
	}
	read_cond(r, root, "conditions", &m->cond);
	sv->seed = (uint64_t)want_int(r, root, "seed", 0, INT64_MAX, false, 0);
	sv->quick = want_bool(r, root, "quick", false) == 1;
}

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
static int read_columns(struct rd *r, json_t *exp, struct wtg_table *t, int *ntotal)
{
	json_t *a = want_array(r, exp, "columns", WTG_MAX_COLS + WTG_REPORT_NEXTRA);
	if (!a)
		return -1;
	int n = (int)json_array_size(a), own = n;
	struct wtg_column cols[WTG_MAX_COLS + WTG_REPORT_NEXTRA];
	for (int i = 0; i < n; i++) {
		json_t *c = json_array_get(a, (size_t)i);
		size_t back = enter(r, "columns", i);
		json_t *name = json_is_object(c) ? want(r, c, "name", T_STR) : NULL;
		json_t *unit = name ? want(r, c, "unit", T_STR) : NULL;
		json_t *type = unit ? want(r, c, "type", T_STR) : NULL;
		if (!json_is_object(c))
			fail(r, NULL, "should be an object");
		int ty = -1;
		for (int k = 0; type && k < 4; k++)
			if (strcmp(json_string_value(type), type_names[k]) == 0)
				ty = k;
		if (type && ty < 0)
			fail(r, "type", "'%s' is not na, int, real or text", json_string_value(type));
		int dec = -1;	/* optional: reports before it print reals as the registry says */
		if (type && json_object_get(c, "decimals"))
			dec = (int)want_int(r, c, "decimals", 0, 17, false, -1);
		leave(r, back);
		if (r->failed)
			return -1;
		cols[i] = (struct wtg_column){ json_string_value(name), json_string_value(unit), (enum wtg_vtype)ty,
					       dec >= 0 ? dec : declared_decimals(t->exp, json_string_value(name), ty) };
		for (int k = 0; k < i; k++)
			if (strcmp(cols[k].name, cols[i].name) == 0)
				return fail(r, NULL, "column '%s' is given twice", cols[i].name);
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
		return fail(r, "columns", "%d columns, more than %d", own, WTG_MAX_COLS);
	wtg_table_set_columns(t, cols, own);
	*ntotal = n;
	return own;
}

/* One cell: the column's type or null. Text points into the document (the table copies it). */
static int read_cell(struct rd *r, json_t *row, const struct wtg_column *col, struct wtg_value *out)
{
	json_t *v = json_object_get(row, col->name);
	if (!v)
		return fail(r, col->name, "missing");
	*out = WTG_NA;
	if (json_is_null(v))
		return 0;
	switch (col->type) {
	case WTG_T_INT:
		if (!json_is_integer(v))
			return fail(r, col->name, "should be an integer or null");
		*out = WTG_INT(json_integer_value(v));
		return 0;
	case WTG_T_REAL:
		if (!json_is_number(v))
			return fail(r, col->name, "should be a number or null");
		*out = WTG_REAL(json_number_value(v));
		return 0;
	case WTG_T_TEXT:
		if (!json_is_string(v) || json_string_length(v) > MAX_TEXT)
			return fail(r, col->name, "should be a string or null");
		*out = WTG_TEXT(json_string_value(v));
		return 0;
	default:
		return fail(r, col->name, "should be null (its column's type is na)");
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
static void row_extras(const struct wtg_value *x, struct wtg_row *row)
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
}

static int take_streamed(struct rd *r, json_t *a, struct wtg_table *t);

static int read_rows(struct rd *r, json_t *exp, struct wtg_table *t, int own, int ntotal)
{
	json_t *a = want_array(r, exp, "rows", MAX_ROWS);
	if (!a)
		return -1;
	int rc = take_streamed(r, a, t);
	if (rc <= 0)
		return rc;
	struct wtg_value v[WTG_MAX_COLS + WTG_REPORT_NEXTRA];
	size_t i;
	json_t *row;
	json_array_foreach(a, i, row) {
		size_t back = enter(r, "rows", (long)i);
		if (!json_is_object(row))
			return fail(r, NULL, "should be an object");
		for (int c = 0; c < ntotal; c++) {
			const struct wtg_column *col = c < own ? &t->cols[c] : &wtg_report_extra_cols[c - own];
			if (read_cell(r, row, col, &v[c]) < 0)
				return -1;
		}
		leave(r, back);
		wtg_table_add_row(t, v, own, NULL);
		struct wtg_row *last = &t->rows[t->nrows - 1];
		if (ntotal > own)
			row_extras(v + own, last);
		else
			memset(&last->cond, 0, sizeof last->cond);
		last->t_ns = 0;
	}
	return 0;
}

static int read_checks(struct rd *r, json_t *exp, struct wtg_table *t)
{
	json_t *a = want_array(r, exp, "checks", MAX_LIST);
	size_t i;
	json_t *c;
	json_array_foreach(a, i, c) {
		size_t back = enter(r, "checks", (long)i);
		if (!json_is_object(c))
			return fail(r, NULL, "should be an object");
		char name[256], status[8];
		want_str(r, c, "name", name, sizeof name, false);
		want_bool(r, c, "ok", false);
		want_str(r, c, "status", status, sizeof status, false);
		json_t *detail = want(r, c, "detail", T_STR | T_NULL);
		if (!r->failed && strcmp(status, "ok") && strcmp(status, "warn") && strcmp(status, "fail"))
			fail(r, "status", "'%s' is not ok, warn or fail", status);
		leave(r, back);
		if (r->failed)
			return -1;
		const char *d = json_is_string(detail) ? json_string_value(detail) : "";
		if (!strcmp(status, "warn"))
			wtg_table_warn(t, name, "%s", d);
		else
			wtg_table_check(t, name, !strcmp(status, "ok"), "%s", d);
	}
	json_t *notes = want_array(r, exp, "notes", MAX_LIST);
	json_array_foreach(notes, i, c) {
		if (!json_is_string(c) || json_string_length(c) > MAX_TEXT) {
			size_t back = enter(r, "notes", (long)i);
			fail(r, NULL, "should be a string");
			leave(r, back);
			return -1;
		}
		wtg_table_note(t, "%s", json_string_value(c));
	}
	return r->failed ? -1 : 0;
}

static int read_series(struct rd *r, json_t *exp, struct wtg_table *t)
{
	json_t *a = want_array(r, exp, "series", MAX_LIST);
	size_t i;
	json_t *s;
	double *buf = NULL;
	json_array_foreach(a, i, s) {
		size_t back = enter(r, "series", (long)i);
		if (!json_is_object(s))
			return fail(r, NULL, "should be an object");
		json_t *name = want(r, s, "name", T_STR), *unit = want(r, s, "unit", T_STR | T_NULL);
		int64_t count = want_int(r, s, "count", 0, INT64_MAX, false, 0);
		want_bool(r, s, "thinned", false);
		want(r, s, "note", T_STR | T_NULL);
		json_t *samples = want_array(r, s, "samples", WTG_JSON_MAX_SAMPLES);
		size_t n = samples ? json_array_size(samples) : 0;
		if (samples && (int64_t)n > count)
			fail(r, "samples", "%zu samples, more than its count %" PRId64, n, count);
		double *grown = r->failed ? buf : realloc(buf, (n ? n : 1) * sizeof *buf);
		if (!grown)
			fail(r, "samples", "%s", strerror(ENOMEM));
		else
			buf = grown;
		for (size_t k = 0; !r->failed && k < n; k++) {
			json_t *x = json_array_get(samples, k);
			if (!json_is_number(x) && !json_is_null(x))
				fail(r, "samples", "item %zu should be a number or null", k);
			else
				buf[k] = json_is_null(x) ? NAN : json_number_value(x);
		}
		leave(r, back);
		if (r->failed)
			break;
		wtg_table_add_series(t, json_string_value(name), json_is_string(unit) ? json_string_value(unit) : "",
				     buf, n);
	}
	free(buf);
	return r->failed ? -1 : 0;
}

/* The parsed document lives in an arena of its own: jansson allocates each value and each key
 * separately, and malloc/free of millions of small blocks was most of a large file's load time.
 * Freeing a value is a no-op; the arena goes as a whole with the loaded run. */
#define ARENA_CHUNK (32u << 20)
struct arena {
	struct arena *next;
	size_t used, cap, bytes;	/* bytes: the whole mapping */
	max_align_t data[];
};
static _Thread_local struct arena **arena_head;	/* the arena being filled, while parsing */

/* Chunks are mapped with their pages populated at once: faulting them in one by one was a third of
 * a large file's load time. */
static void *arena_malloc(size_t n)
{
	if (!arena_head)
		return malloc(n);
	n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	struct arena *a = *arena_head;
	if (!a || a->cap - a->used < n) {
		/* 256 KiB first, doubling to 32 MiB: a small file maps little */
		size_t grow = a ? (a->cap < ARENA_CHUNK / 2 ? a->cap * 2 : ARENA_CHUNK) : ARENA_CHUNK / 128;
		size_t cap = n > grow ? n : grow;
		size_t bytes = sizeof *a + cap;
		void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		a = p;
		a->next = *arena_head;
		a->used = 0;
		a->cap = cap;
		a->bytes = bytes;
		*arena_head = a;
	}
	void *p = (char *)a->data + a->used;
	a->used += n;
	return p;
}

static void arena_free(void *p)
{
	(void)p;	/* the arena goes whole (arena_release) */
}

static void arena_release(struct arena *a)
{
	while (a) {
		struct arena *next = a->next;
		munmap(a, a->bytes);
		a = next;
	}
}

/* --- the streaming parse ---------------------------------------------------------------------
 * A large report is mostly its experiments' rows. yajl reads the document as a stream of events:
 * everything but the rows becomes the tree json_loadb would build (the walk reads it unchanged),
 * while each experiment's rows go straight into a table of their own, cell by cell as read_cell
 * checks them, and stand in the tree as an empty array that read_rows recognizes. Whatever the
 * stream cannot judge as jansson does (a syntax error, a duplicate key, \u0000 or a surrogate, a
 * vertical tab or form feed, a number out of range, a string jansson's UTF-8 rules refuse, a
 * document that is not an object, great depth) abandons it, and json_loadb parses the file again:
 * its verdict and message are the reader's. */
#define STREAM_MAX_DEPTH 1024
#define STREAM_MAX_NUMBER 512

/* An experiment's rows, read while streaming. */
struct srows {
	struct srows *next;
	json_t *stand_in;		/* the empty array standing for them in the tree */
	struct wtg_table t;		/* the rows, under the columns read_columns reads */
	int own, ntotal;
	const struct wtg_column *cols[WTG_MAX_COLS + WTG_REPORT_NEXTRA];
	size_t lens[WTG_MAX_COLS + WTG_REPORT_NEXTRA];
	size_t count;			/* items in the array */
	long bad;			/* the first bad item, -1 for none */
	const char *bad_key;		/* its column (NULL: the item itself) */
	const char *bad_msg;
};

enum { F_OBJ, F_ARR, F_ROWS, F_ROW };

struct frame {
	int kind;
	bool exps;		/* F_ARR: the top level's experiments */
	bool exp;		/* F_OBJ: one of them */
	json_t *node;		/* F_OBJ, F_ARR */
	char *key;		/* F_OBJ: the key whose value is being read */
};

/* One scalar as the lexer gave it. */
struct scalar {
	int type;		/* T_STR, T_INT, T_REAL, T_BOOL, T_NULL */
	int64_t i;
	double d;
	const char *s;
	size_t len;
};

struct stream {
	bool bail;		/* json_loadb must judge this document */
	int depth;
	struct frame st[STREAM_MAX_DEPTH];
	json_t *root;
	struct srows *rows;	/* every rows array read, newest first */
	locale_t c_locale;
	/* the row being read */
	struct wtg_value v[WTG_MAX_COLS + WTG_REPORT_NEXTRA];
	unsigned char seen[WTG_MAX_COLS + WTG_REPORT_NEXTRA];	/* 0 missing, 1 good, 2 bad */
	int col, guess;		/* the pending key's column (-1: a field wtg does not read) */
	char *text;		/* the row's text cells, back to back */
	size_t ntext, captext;
	char *other;		/* the row's other keys (to refuse one given twice), NUL-separated */
	size_t nother, capother;
};

static int bail(struct stream *s)
{
	s->bail = true;
	return 0;	/* yajl stops */
}

/* Append n bytes to a growing buffer; false without memory. */
static bool buf_add(char **buf, size_t *len, size_t *cap, const char *p, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t c = *cap ? *cap : 256;
		while (c < *len + n + 1)
			c *= 2;
		char *b = realloc(*buf, c);
		if (!b)
			return false;
		*buf = b;
		*cap = c;
	}
	memcpy(*buf + *len, p, n);
	(*buf)[*len + n] = '\0';
	*len += n + 1;
	return true;
}

/* Bytes jansson would refuse as UTF-8 (only strings with bytes past ASCII are asked). */
static bool bad_utf8(const char *p, size_t n)
{
	size_t k = 0;
	while (k < n && !((unsigned char)p[k] & 0x80))
		k++;
	if (k == n)
		return false;
	json_t *x = json_stringn(p, n);
	json_decref(x);
	return x == NULL;
}

static struct frame *top(struct stream *s)
{
	return s->depth ? &s->st[s->depth - 1] : NULL;
}

/* A finished value into the container being built (or as the document). */
static int put_tree(struct stream *s, json_t *v)
{
	struct frame *f = top(s);
	if (!v)
		return bail(s);
	if (!f) {
		s->root = v;	/* jansson takes an object or an array only */
		return json_is_object(v) || json_is_array(v) ? 1 : bail(s);
	}
	if (f->kind == F_ARR)
		return json_array_append_new(f->node, v) < 0 ? bail(s) : 1;
	if (f->kind == F_OBJ) {
		bool twice = json_object_get(f->node, f->key) != NULL;
		int rc = twice ? -1 : json_object_set_new(f->node, f->key, v);
		free(f->key);
		f->key = NULL;
		return rc < 0 ? bail(s) : 1;
	}
	struct srows *rw = s->rows;	/* a container inside the rows: never a good cell or item */
	if (f->kind == F_ROWS && rw->bad < 0 && rw->count <= MAX_ROWS) {
		rw->bad = (long)rw->count;
		rw->bad_key = NULL;
		rw->bad_msg = "should be an object";
	}
	if (f->kind == F_ROWS)
		rw->count++;
	return 1;
}

/* A scalar into the row being read: checked as read_cell checks it. */
static void put_cell(struct stream *s, const struct scalar *x)
{
	int c = s->col;
	if (c < 0)
		return;
	const struct wtg_column *col = s->rows->cols[c];
	struct wtg_value *v = &s->v[c];
	bool good = true;
	*v = WTG_NA;
	if (x->type == T_NULL)
		;
	else if (col->type == WTG_T_INT && x->type == T_INT)
		*v = WTG_INT(x->i);
	else if (col->type == WTG_T_REAL && (x->type & T_NUM))
		*v = WTG_REAL(x->type == T_INT ? (double)x->i : x->d);
	else if (col->type == WTG_T_TEXT && x->type == T_STR && x->len <= MAX_TEXT) {
		*v = WTG_TEXT(NULL);
		v->i = (int64_t)s->ntext;	/* its place in text, while text may move */
		good = buf_add(&s->text, &s->ntext, &s->captext, x->s, x->len);
	} else
		good = false;
	s->seen[c] = good ? 1 : 2;
}

/* A scalar: a cell, a rows item (never good), or a tree value. */
static int put_scalar(struct stream *s, const struct scalar *x)
{
	struct frame *f = top(s);
	if (x->type == T_STR && bad_utf8(x->s, x->len))
		return bail(s);
	if (f && f->kind == F_ROW) {
		put_cell(s, x);
		return 1;
	}
	if (f && f->kind == F_ROWS)
		return put_tree(s, json_null());
	json_t *v;
	switch (x->type) {
	case T_STR: v = json_stringn(x->s, x->len); break;
	case T_INT: v = json_integer(x->i); break;
	case T_REAL: v = json_real(x->d); break;
	case T_BOOL: v = json_boolean(x->i); break;
	default: v = json_null(); break;
	}
	return put_tree(s, v);
}

static int on_null(void *ctx)
{
	struct scalar x = { .type = T_NULL };
	return put_scalar(ctx, &x);
}

static int on_bool(void *ctx, int b)
{
	struct scalar x = { .type = T_BOOL, .i = b };
	return put_scalar(ctx, &x);
}

static int on_string(void *ctx, const unsigned char *p, size_t n)
{
	struct scalar x = { .type = T_STR, .s = (const char *)p, .len = n };
	return put_scalar(ctx, &x);
}

/* The value of a number in yajl's form (-?int(.frac)?([eE][+-]?exp)?) when it is exactly
 * computable: at most 2^53 as an integer of its digits, times or divided by a power of ten of at most
 * 22 (both exact doubles, so one rounding, the same as strtod's). false: ask strtod. */
static bool exact_double(const char *p, size_t n, double *out)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
					1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	uint64_t m = 0;
	int sig = 0, scale = 0, e = 0, esign = 1;
	size_t k = p[0] == '-';
	bool frac = false;
	for (; k < n && p[k] != 'e' && p[k] != 'E'; k++) {
		if (p[k] == '.') {
			frac = true;
			continue;
		}
		sig += m || p[k] != '0';
		m = sig <= 19 ? m * 10 + (uint64_t)(p[k] - '0') : m;
		scale -= frac;
	}
	if (k < n) {
		k++;
		if (p[k] == '+' || p[k] == '-')
			esign = p[k++] == '-' ? -1 : 1;
		for (; k < n && e < 1000; k++)
			e = e * 10 + (p[k] - '0');
	}
	scale += esign * e;
	if (sig > 19 || m > (1ull << 53) || scale < -22 || scale > 22)
		return false;
	double d = scale < 0 ? (double)m / pow10[-scale] : (double)m * pow10[scale];
	*out = p[0] == '-' ? -d : d;
	return true;
}

/* A number as jansson reads it: an integer without '.', 'e' or 'E' (one past int64 is refused),
 * else a double (one past its range is refused). */
static int on_number(void *ctx, const char *p, size_t n)
{
	struct stream *s = ctx;
	struct scalar x = { .type = T_INT };
	for (size_t k = 0; k < n && x.type == T_INT; k++)
		if (p[k] == '.' || p[k] == 'e' || p[k] == 'E')
			x.type = T_REAL;
	size_t digits = n - (p[0] == '-');
	if (x.type == T_INT && digits <= 18) {
		for (size_t k = n - digits; k < n; k++)
			x.i = x.i * 10 + (p[k] - '0');
		x.i = p[0] == '-' ? -x.i : x.i;
		return put_scalar(s, &x);
	}
	if (x.type == T_REAL && exact_double(p, n, &x.d))
		return put_scalar(s, &x);
	char buf[STREAM_MAX_NUMBER];
	if (n >= sizeof buf)
		return bail(s);
	memcpy(buf, p, n);
	buf[n] = '\0';
	errno = 0;
	if (x.type == T_INT)
		x.i = strtoll(buf, NULL, 10);
	else
		x.d = strtod_l(buf, NULL, s->c_locale);
	if (errno == ERANGE && (x.type == T_INT || isinf(x.d)))
		return bail(s);
	return put_scalar(s, &x);
}

/* A key: kept for the value in a tree object; a column in a row. */
static int on_key(void *ctx, const unsigned char *key, size_t n)
{
	struct stream *s = ctx;
	struct frame *f = &s->st[s->depth - 1];	/* keys come inside an object */
	if (f->kind == F_OBJ) {
		f->key = strndup((const char *)key, n);
		return f->key && strlen(f->key) == n ? 1 : bail(s);
	}
	struct srows *rw = s->rows;
	int c = s->guess < rw->ntotal ? s->guess : 0;
	for (int k = 0; k < rw->ntotal && !(rw->lens[c] == n && !memcmp(rw->cols[c]->name, key, n)); k++)
		c = c + 1 < rw->ntotal ? c + 1 : 0;
	if (rw->ntotal && rw->lens[c] == n && !memcmp(rw->cols[c]->name, key, n)) {
		if (s->seen[c])
			return bail(s);	/* given twice */
		s->seen[c] = 2;
		s->col = c;
		s->guess = c + 1;
		return 1;
	}
	s->col = -1;
	for (size_t o = 0; o < s->nother; o += strlen(s->other + o) + 1)
		if (strlen(s->other + o) == n && !memcmp(s->other + o, key, n))
			return bail(s);
	if (memchr(key, '\0', n) || bad_utf8((const char *)key, n) ||
	    !buf_add(&s->other, &s->nother, &s->capother, (const char *)key, n))
		return bail(s);
	return 1;
}

/* A new container on the stack (exp, exps: what it is in the report); false when too deep. */
static bool push(struct stream *s, int kind, json_t *node, bool exp, bool exps)
{
	if (s->depth == STREAM_MAX_DEPTH || (kind <= F_ARR && !node))
		return false;
	s->st[s->depth++] = (struct frame){ .kind = kind, .node = node, .exp = exp, .exps = exps };
	return true;
}

static int on_start_map(void *ctx)
{
	struct stream *s = ctx;
	struct frame *f = top(s);
	if (f && f->kind == F_ROWS) {
		memset(s->seen, 0, sizeof s->seen);
		s->ntext = s->nother = 0;
		s->col = -1;
		s->guess = 0;
		return push(s, F_ROW, NULL, false, false) ? 1 : bail(s);
	}
	bool exp = f && f->kind == F_ARR && f->exps;
	return push(s, F_OBJ, json_object(), exp, false) ? 1 : bail(s);
}

/* The row just read into its table, or its first bad cell (in column order) noted. */
static void end_row(struct stream *s)
{
	struct srows *rw = s->rows;
	if (rw->bad < 0 && rw->count < MAX_ROWS) {
		for (int c = 0; c < rw->ntotal && rw->bad < 0; c++) {
			if (s->seen[c] == 1)
				continue;
			rw->bad = (long)rw->count;
			rw->bad_key = rw->cols[c]->name;
			rw->bad_msg = !s->seen[c] ? "missing" :
				      rw->cols[c]->type == WTG_T_INT ? "should be an integer or null" :
				      rw->cols[c]->type == WTG_T_REAL ? "should be a number or null" :
				      rw->cols[c]->type == WTG_T_TEXT ? "should be a string or null" :
				      "should be null (its column's type is na)";
		}
	}
	if (rw->bad < 0 && rw->count < MAX_ROWS) {
		for (int c = 0; c < rw->ntotal; c++)
			if (s->v[c].type == WTG_T_TEXT)
				s->v[c].s = s->text + s->v[c].i;
		wtg_table_add_row(&rw->t, s->v, rw->own, NULL);
		struct wtg_row *last = &rw->t.rows[rw->t.nrows - 1];
		if (rw->ntotal > rw->own)
			row_extras(s->v + rw->own, last);
		else
			memset(&last->cond, 0, sizeof last->cond);
		last->t_ns = 0;
	}
	rw->count++;
}

static int on_end_map(void *ctx)
{
	struct stream *s = ctx;
	struct frame f = s->st[--s->depth];
	if (f.kind == F_ROW) {
		end_row(s);
		return 1;
	}
	free(f.key);
	return put_tree(s, f.node);
}

/* experiments[i].rows, when the columns came first and are good: streamed into a table. */
static bool start_rows(struct stream *s, struct frame *f)
{
	json_t *cols = json_object_get(f->node, "columns");
	if (!f->exp || strcmp(f->key, "rows") || !cols || json_object_get(f->node, "rows"))
		return false;
	struct srows *rw = calloc(1, sizeof *rw);
	if (!rw)
		return false;
	char err[8];
	struct rd r = { .name = "", .err = err, .errlen = sizeof err };
	wtg_table_init(&rw->t, NULL);
	rw->own = read_columns(&r, f->node, &rw->t, &rw->ntotal);
	if (rw->own < 0 || !(rw->stand_in = json_array()) || !push(s, F_ROWS, NULL, false, false)) {
		wtg_table_free(&rw->t);
		free(rw);
		return false;
	}
	for (int c = 0; c < rw->ntotal; c++) {
		rw->cols[c] = c < rw->own ? &rw->t.cols[c] : &wtg_report_extra_cols[c - rw->own];
		rw->lens[c] = strlen(rw->cols[c]->name);
	}
	rw->bad = -1;
	rw->next = s->rows;
	s->rows = rw;
	return true;
}

static int on_start_array(void *ctx)
{
	struct stream *s = ctx;
	struct frame *f = top(s);
	if (f && f->kind == F_OBJ && start_rows(s, f))
		return 1;
	bool exps = f && f == &s->st[0] && f->kind == F_OBJ && !strcmp(f->key, "experiments");
	return push(s, F_ARR, json_array(), false, exps) ? 1 : bail(s);
}

static int on_end_array(void *ctx)
{
	struct stream *s = ctx;
	struct frame f = s->st[--s->depth];
	return put_tree(s, f.kind == F_ROWS ? json_incref(s->rows->stand_in) : f.node);
}

static const yajl_callbacks stream_callbacks = {
	.yajl_null = on_null,
	.yajl_boolean = on_bool,
	.yajl_number = on_number,
	.yajl_string = on_string,
	.yajl_start_map = on_start_map,
	.yajl_map_key = on_key,
	.yajl_end_map = on_end_map,
	.yajl_start_array = on_start_array,
	.yajl_end_array = on_end_array,
};

/* The rows of a streamed stand-in into t: 0, or -1 with the first problem as the walk would name
 * it; 1 when a is not a stand-in. */
static int take_streamed(struct rd *r, json_t *a, struct wtg_table *t)
{
	struct srows *rw = r->streamed;
	while (rw && rw->stand_in != a)
		rw = rw->next;
	if (!rw)
		return 1;
	if (rw->count > MAX_ROWS)
		return fail(r, "rows", "%zu items, more than %zu", rw->count, (size_t)MAX_ROWS);
	if (rw->bad >= 0) {
		enter(r, "rows", rw->bad);
		return fail(r, rw->bad_key, "%s", rw->bad_msg);
	}
	if (rw->t.ncols != t->ncols)
		return fail(r, "rows", "not read as its columns say");
	struct wtg_row *rows = t->rows;
	int n = t->nrows, cap = t->caprows;
	t->rows = rw->t.rows;
	t->nrows = rw->t.nrows;
	t->caprows = rw->t.caprows;
	t->gen += rw->t.gen;
	t->version += rw->t.version;
	rw->t.rows = rows;
	rw->t.nrows = n;
	rw->t.caprows = cap;
	return 0;
}

static void stream_free(struct stream *s)
{
	while (s->rows) {
		struct srows *next = s->rows->next;
		wtg_table_free(&s->rows->t);
		free(s->rows);
		s->rows = next;
	}
	for (int d = 0; d < s->depth; d++)
		free(s->st[d].key);
	free(s->text);
	free(s->other);
	if (s->c_locale)
		freelocale(s->c_locale);
	free(s);
}

/* What yajl reads otherwise than jansson: a vertical tab or a form feed (yajl takes them for space,
 * jansson refuses them), \u0000 (yajl drops it, jansson refuses it) and a UTF-16 surrogate escape
 * (yajl lets a lone one through, jansson refuses it); an escape cut by the chunk's end counts too.
 * *carry says the last chunk ended in a backslash. */
static bool has_odd_escape(const char *p, size_t n, bool *carry)
{
	if ((*carry && n && p[0] == 'u') || memchr(p, '\v', n) || memchr(p, '\f', n))
		return true;
	for (const char *q = p; (q = memchr(q, '\\', (size_t)(p + n - q))); q++) {
		if (q + 1 < p + n && q[1] != 'u')
			continue;
		if (q + 6 > p + n || !memcmp(q + 2, "0000", 4))
			return true;
		if ((q[2] == 'd' || q[2] == 'D') && strchr("89abcdefABCDEF", q[3]))
			return true;
	}
	*carry = n && p[n - 1] == '\\';
	return false;
}

static const char *const state_names[] = { "idle", "running", "done", "failed", "cancelled" };

/* One experiment into the table its name picks; unknown names are listed in l->skipped. */
static int read_experiment(struct rd *r, json_t *exp, struct wtg_loaded *l)
{
	if (!json_is_object(exp))
		return fail(r, NULL, "should be an object");
	char name[64], state[16];
	want_str(r, exp, "name", name, sizeof name, false);
	want(r, exp, "title", T_STR);
	want(r, exp, "runs", T_STR | T_NULL);
	want(r, exp, "view", T_STR | T_NULL);
	want_str(r, exp, "state", state, sizeof state, false);
	json_t *error = want(r, exp, "error", T_STR | T_NULL);
	want(r, exp, "checks_summary", T_OBJ);
	if (r->failed)
		return -1;
	int st = -1;
	for (int k = 0; k < 5; k++)
		if (!strcmp(state, state_names[k]))
			st = k;
	if (st < 0)
		return fail(r, "state", "'%s' is not idle, running, done, failed or cancelled", state);
	int idx = wtg_experiment_find(name);
	if (idx < 0 || idx >= WTG_MAX_EXP) {
		size_t n = strlen(l->skipped);
		snprintf(l->skipped + n, sizeof l->skipped - n, "%s%s", n ? ", " : "", name);
		return 0;
	}
	if (l->present[idx])
		return fail(r, "name", "experiment '%s' is given twice", name);
	struct wtg_table *t = &l->tables[idx];
	int ntotal = 0, own = read_columns(r, exp, t, &ntotal);
	if (own < 0 || read_rows(r, exp, t, own, ntotal) < 0 || read_checks(r, exp, t) < 0 ||
	    read_series(r, exp, t) < 0)
		return -1;
	read_probe(r, exp, t);
	if (r->failed)
		return -1;
	t->state = (enum wtg_state)st;
	if (json_is_string(error))
		wtg_strlcpy(t->error, json_string_value(error), sizeof t->error);
	l->present[idx] = true;
	l->npresent++;
	return 0;
}

/* schema first (an older or newer layout is named before anything else is checked), then the rest. */
static int read_root(struct rd *r, json_t *root, struct wtg_loaded *l)
{
	if (!json_is_object(root))
		return fail(r, NULL, "not a wtg report (the top level is not an object)");
	json_t *tool = json_object_get(root, "tool");
	json_t *schema = json_object_get(root, "schema");
	if (!json_is_string(tool) || strcmp(json_string_value(tool), "wtg") != 0)
		return fail(r, NULL, "not a wtg report (no \"tool\": \"wtg\")");
	if (!json_is_integer(schema))
		return fail(r, "schema", "missing or not an integer");
	json_int_t v = json_integer_value(schema);
	if (v < WTG_LOAD_SCHEMA_MIN)
		return fail(r, NULL, "schema %" JSON_INTEGER_FORMAT " is older than this wtg reads (schema %d; "
			    "write the report again with this wtg)", v, WTG_LOAD_SCHEMA_MIN);
	if (v > WTG_LOAD_SCHEMA_MAX)
		return fail(r, NULL, "schema %" JSON_INTEGER_FORMAT " is newer than this wtg reads (up to "
			    "schema %d)", v, WTG_LOAD_SCHEMA_MAX);
	l->meta.schema = (int)v;
	read_meta(r, root, &l->meta, &l->saved);
	json_t *exps = want_array(r, root, "experiments", WTG_MAX_EXP * 4);
	size_t i;
	json_t *e;
	json_array_foreach(exps, i, e) {
		size_t back = enter(r, "experiments", (long)i);
		if (read_experiment(r, e, l) < 0)
			return -1;
		leave(r, back);
	}
	return r->failed ? -1 : 0;
}

void wtg_load_label_from_path(const char *path, char *buf, size_t len)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	wtg_strlcpy(buf, base, len);
	char *dot = strrchr(buf, '.');
	if (dot && dot != buf)
		*dot = '\0';
	if (!buf[0])
		wtg_strlcpy(buf, path, len);
}

static void loaded_init(struct wtg_loaded *l, const char *name)
{
	memset(l, 0, sizeof *l);
	for (int i = 0; i < WTG_MAX_EXP; i++)
		wtg_table_init(&l->tables[i], i < wtg_nexperiments ? wtg_experiments[i] : NULL);
	l->meta.duration_s = NAN;
	l->meta.machine.cpus = -1;
	l->meta.machine.boost = -1;
	l->meta.machine.smt_active = -1;
	l->meta.machine.nmitigations = -1;
	wtg_strlcpy(l->meta.path, name, sizeof l->meta.path);
}

void wtg_loaded_free(struct wtg_loaded *l)
{
	for (int i = 0; i < WTG_MAX_EXP; i++)
		wtg_table_free(&l->tables[i]);
	arena_release(l->strings);	/* the document, column names and units with it */
	l->strings = NULL;
	free(l->saved.command_line);
	l->saved.command_line = NULL;
	l->saved.opt.argv = NULL;
	l->saved.opt.argc = 0;
}

/* Parse with jansson alone and walk the tree: the reader of anything the stream gives up on. */
static int load_whole(const char *buf, size_t len, const char *name, struct wtg_loaded *l, char *err,
		      size_t errlen)
{
	struct rd r = { .name = name, .err = err, .errlen = errlen };
	json_error_t je;
	struct arena *doc = NULL;
	json_set_alloc_funcs(arena_malloc, arena_free);
	arena_head = &doc;
	json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	arena_head = NULL;
	l->strings = doc;
	if (!root) {
		snprintf(err, errlen, "%s: line %d column %d: %s", name, je.line, je.column, je.text);
		wtg_loaded_free(l);
		return -1;
	}
	if (read_root(&r, root, l) < 0) {
		wtg_loaded_free(l);
		return -1;
	}
	if (!l->meta.label[0])
		wtg_load_label_from_path(name, l->meta.label, sizeof l->meta.label);
	return 0;
}

/* A streaming parse under way. */
struct sparse {
	struct stream *s;
	yajl_handle h;
	struct arena *doc;	/* the tree's arena */
	bool carry;		/* the last chunk ended in a backslash */
};

static void sparse_free(struct sparse *sp)
{
	if (sp->h)
		yajl_free(sp->h);
	if (sp->s)
		stream_free(sp->s);
	arena_release(sp->doc);
	memset(sp, 0, sizeof *sp);
}

static bool sparse_begin(struct sparse *sp)
{
	memset(sp, 0, sizeof *sp);
	sp->s = calloc(1, sizeof *sp->s);
	if (sp->s)
		sp->s->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (sp->s && sp->s->c_locale)
		sp->h = yajl_alloc(&stream_callbacks, NULL, sp->s);
	if (!sp->h) {
		sparse_free(sp);
		return false;
	}
	/* jansson's own rules judge every string with bytes past ASCII (bad_utf8, json_stringn) */
	yajl_config(sp->h, yajl_dont_validate_strings, 1);
	return true;
}

/* The next n bytes of the document (n == 0: the end); false when jansson must judge it. */
static bool sparse_feed(struct sparse *sp, const char *p, size_t n)
{
	if (n && has_odd_escape(p, n, &sp->carry))
		return false;
	json_set_alloc_funcs(arena_malloc, arena_free);
	arena_head = &sp->doc;
	yajl_status st = n ? yajl_parse(sp->h, (const unsigned char *)p, n) : yajl_complete_parse(sp->h);
	arena_head = NULL;
	return st == yajl_status_ok && !sp->s->bail && (n || sp->s->root);
}

/* The walk over a streamed document: l owns the arena from here. */
static int sparse_walk(struct sparse *sp, const char *name, struct wtg_loaded *l, char *err, size_t errlen)
{
	struct rd r = { .name = name, .err = err, .errlen = errlen, .streamed = sp->s->rows };
	l->strings = sp->doc;
	sp->doc = NULL;
	int rc = read_root(&r, sp->s->root, l);
	sparse_free(sp);
	if (rc < 0) {
		wtg_loaded_free(l);
		return -1;
	}
	if (!l->meta.label[0])
		wtg_load_label_from_path(name, l->meta.label, sizeof l->meta.label);
	return 0;
}

int wtg_load_buffer(const char *buf, size_t len, const char *name, struct wtg_loaded *l, char *err,
		    size_t errlen)
{
	loaded_init(l, name);
	if (len == 0) {
		snprintf(err, errlen, "%s: empty file, not a wtg report", name);
		wtg_loaded_free(l);
		return -1;
	}
	struct sparse sp;
	if (sparse_begin(&sp)) {
		if (sparse_feed(&sp, buf, len) && sparse_feed(&sp, NULL, 0))
			return sparse_walk(&sp, name, l, err, errlen);
		sparse_free(&sp);
	}
	return load_whole(buf, len, name, l, err, errlen);
}

/* path opened for reading: a regular file of at most WTG_LOAD_MAX_BYTES; -1 with the reason in err. */
static int open_report(const char *path, size_t *size, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	const char *why = S_ISDIR(st.st_mode) ? "is a folder, not a report file" :
			  !S_ISREG(st.st_mode) ? "is not a regular file" :
			  (uint64_t)st.st_size > WTG_LOAD_MAX_BYTES ? "is larger than 1G, not a wtg report" : NULL;
	if (why) {
		snprintf(err, errlen, "%s: %s", path, why);
		close(fd);
		return -1;
	}
	*size = (size_t)st.st_size;
	return fd;
}

/* Up to n bytes of fd into buf; -1 with the reason in err on a read error or an early end. */
static ssize_t read_some(int fd, const char *path, char *buf, size_t n, char *err, size_t errlen)
{
	for (;;) {
		ssize_t got = read(fd, buf, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			snprintf(err, errlen, "%s: %s", path, got < 0 ? strerror(errno) : "changed while being read");
		return got <= 0 ? -1 : got;
	}
}

/* The whole file into memory. */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	size_t size;
	int fd = open_report(path, &size, err, errlen);
	if (fd < 0)
		return NULL;
	char *buf = malloc(size + 1);
	size_t got = 0;
	while (buf && got < size) {
		ssize_t n = read_some(fd, path, buf + got, size - got, err, errlen);
		if (n < 0) {
			free(buf);
			close(fd);
			return NULL;
		}
		got += (size_t)n;
	}
	close(fd);
	if (!buf)
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
	*len = got;
	return buf;
}

/* The file through the streaming parse, a chunk at a time (the file is never whole in memory):
 * 0 or -1 as wtg_load_file, 1 when jansson must judge it. */
#define STREAM_CHUNK (1u << 20)
static int load_streamed(const char *path, struct wtg_loaded *l, char *err, size_t errlen)
{
	size_t size;
	int fd = open_report(path, &size, err, errlen);
	if (fd < 0)
		return -1;
	struct sparse sp;
	char *chunk = size ? malloc(STREAM_CHUNK) : NULL;
	bool ok = chunk && sparse_begin(&sp);
	size_t done = 0;
	while (ok && done < size) {
		size_t want = size - done < STREAM_CHUNK ? size - done : STREAM_CHUNK;
		ssize_t n = read_some(fd, path, chunk, want, err, errlen);
		ok = n > 0 && sparse_feed(&sp, chunk, (size_t)n);
		done += n > 0 ? (size_t)n : 0;
	}
	close(fd);
	free(chunk);
	if (ok && sparse_feed(&sp, NULL, 0))
		return sparse_walk(&sp, path, l, err, errlen);
	if (chunk)
		sparse_free(&sp);
	return 1;
}

int wtg_load_buffer_whole(const char *buf, size_t len, const char *name, struct wtg_loaded *l, char *err,
			  size_t errlen)
{
	loaded_init(l, name);
	if (len)
		return load_whole(buf, len, name, l, err, errlen);
	return wtg_load_buffer(buf, len, name, l, err, errlen);	/* says it is empty */
}

int wtg_load_file(const char *path, struct wtg_loaded *l, char *err, size_t errlen)
{
	loaded_init(l, path);
	int rc = load_streamed(path, l, err, errlen);
	if (rc <= 0)
		return rc;
	size_t len = 0;
	char *buf = slurp(path, &len, err, errlen);
	if (!buf) {
		wtg_loaded_free(l);
		return -1;
	}
	rc = wtg_load_buffer_whole(buf, len, path, l, err, errlen);
	free(buf);
	return rc;
}

void wtg_run_meta_live(struct wtg_run_meta *m, const struct wtg_session *s)
{
	memset(m, 0, sizeof *m);
	const struct wtg_options *o = s->opt;
	wtg_strlcpy(m->label, o && o->label ? o->label : "live", sizeof m->label);
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
