/* meta.c: what a saved run says about itself: the run block, its options and command line, the
 * machine (caches, mitigations, topology, data file) and the conditions. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "saved.h"

#include "wtg/report.h"

static void read_node(struct rd *r, json_t *v, void *arg)
{
	struct wtg_topology *t = arg;
	struct wtg_numa_node *nd = &t->nodes[t->nnodes];
	nd->node = (int)sv_want_int(r, v, "node", 0, 1 << 20, false, 0);
	sv_want_cpus(r, v, "cpus", &nd->cpus);
	nd->memory_bytes = (uint64_t)sv_want_int(r, v, "memory_bytes", 0, INT64_MAX, true, 0);
	json_t *d = sv_want_array(r, v, "distances", WTG_MAX_NODES);
	size_t k;
	json_t *x;
	json_array_foreach(d, k, x) {
		if (!json_is_integer(x) || json_integer_value(x) < 0 || json_integer_value(x) > 1 << 20) {
			sv_fail(r, "distances", "item %zu should be an integer from 0 to %d", k, 1 << 20);
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
	sv_want_str(r, v, "type", ty->name, sizeof ty->name, false);
	sv_want_cpus(r, v, "cpus", &ty->cpus);
	ty->count = (int)sv_want_int(r, v, "cpus_count", 0, WTG_TOPO_MAX_CPUS, false, 0);
	ty->max_khz = (long)sv_want_int(r, v, "max_khz", 1, INT32_MAX, true, 0);
	t->ntypes += !r->failed;
}

/* machine.topology, null in reports from before it was read. */
static void read_topology(struct rd *r, json_t *mach, struct wtg_run_saved *sv)
{
	size_t back;
	json_t *v = sv_open_object(r, mach, "topology", true, true, &back);
	if (!v)
		return;
	struct wtg_topology *t = &sv->topo;
	t->root = "";
	t->packages = (int)sv_want_int(r, v, "packages", 0, WTG_TOPO_MAX_CPUS, false, 0);
	t->cores = (int)sv_want_int(r, v, "cores", 0, WTG_TOPO_MAX_CPUS, false, 0);
	t->smt = (int)sv_want_int(r, v, "smt", 0, 64, false, 0);
	sv_want_str(r, v, "summary", sv->topo_summary, sizeof sv->topo_summary, true);
	sv_each_object(r, v, "numa_nodes", WTG_MAX_NODES, read_node, t);
	sv_each_object(r, v, "core_types", WTG_MAX_CORE_TYPES, read_core_type, t);
	for (int i = 0; i < t->nnodes; i++)
		for (int c = 0; c < WTG_TOPO_MAX_CPUS; c++)
			if (wtg_cpuset_has(&t->nodes[i].cpus, c))
				wtg_cpuset_add(&t->online, c);
	t->cpus_online = wtg_cpuset_count(&t->online);
	sv->has_topo = !r->failed;
	sv_leave(r, back);
}

/* machine.data_file: its state and, when it was ready, what wtg knew of it. */
static void read_datafile(struct rd *r, json_t *mach, struct wtg_run_saved *sv)
{
	size_t back;
	json_t *v = sv_open_object(r, mach, "data_file", false, false, &back);
	if (!v)
		return;
	static const char *const states[] = { "none", "preparing", "ready", "failed" };
	char st[16];
	sv_want_str(r, v, "state", st, sizeof st, false);
	int k = 0;
	while (k < 4 && strcmp(st, states[k]))
		k++;
	if (!r->failed && k == 4)
		sv_fail(r, "state", "'%s' is not none, preparing, ready or failed", st);
	sv->df_state = (enum wtg_df_state)(k < 4 ? k : 0);
	sv_want_str(r, v, "error", sv->df_error, sizeof sv->df_error, true);
	json_t *path = sv_want(r, v, "path", T_STR | T_NULL);
	sv_want_str(r, v, "path", sv->df.path, sizeof sv->df.path, true);
	sv->df_path = sv_doc_str(path);
	bool ready = sv->df_state == WTG_DF_READY;
	sv->df.size = (uint64_t)sv_want_int(r, v, "size", 0, INT64_MAX, !ready, 0);
	sv_want_str(r, v, "filesystem", sv->df.fs, sizeof sv->df.fs, !ready);
	sv->df.sum = sv_want_int(r, v, "known_sum", 0, INT64_MAX, !ready, 0);
	sv->df.direct_ok = sv_want_bool(r, v, "direct_io", !ready) == 1;
	sv->df.dio_mem_align = (unsigned)sv_want_int(r, v, "dio_mem_align", 0, 1 << 30, !ready, 0);
	sv->df.dio_offset_align = (unsigned)sv_want_int(r, v, "dio_offset_align", 0, 1 << 30, !ready, 0);
	sv->df.owned = sv_want_bool(r, v, "owned", false) == 1;
	sv->df.lock_fd = -1;
	sv_leave(r, back);
}

static void read_mitigations(struct rd *r, json_t *mach, struct wtg_machine *m)
{
	json_t *v = sv_maybe(r, mach, "mitigations", T_OBJ | T_NULL);
	if (!v || json_is_null(v))
		return;
	m->nmitigations = 0;
	const char *key;
	json_t *x;
	json_object_foreach(v, key, x) {
		if (!json_is_string(x)) {
			size_t back = sv_enter(r, "mitigations", -1);
			sv_fail(r, key, "should be a string");
			sv_leave(r, back);
			return;
		}
		size_t back = sv_enter(r, "mitigations", -1);
		if (m->nmitigations == WTG_MAX_MITIGATIONS)
			sv_fail(r, NULL, "more than %d", WTG_MAX_MITIGATIONS);
		else if (sv_copy_whole(r, NULL, m->mitigations[m->nmitigations].name, sizeof m->mitigations[0].name,
				    key, strlen(key)))
			sv_copy_whole(r, key, m->mitigations[m->nmitigations].status, sizeof m->mitigations[0].status,
				   json_string_value(x), json_string_length(x));
		sv_leave(r, back);
		if (r->failed)
			return;
		m->nmitigations++;
	}
}

/* The names in obj[key] as registry indices; unknown ones are left out. */
static int read_names(struct rd *r, json_t *obj, const char *key, int *idx, int max)
{
	json_t *a = sv_maybe(r, obj, key, T_ARR);
	size_t i;
	json_t *x;
	int n = 0;
	json_array_foreach(a, i, x) {
		if (!json_is_string(x)) {
			sv_fail(r, key, "item %zu should be a string", i);
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
	json_t *a = sv_maybe(r, v, "output", T_ARR);
	size_t i;
	json_t *x;
	json_array_foreach(a, i, x) {
		size_t back = sv_enter(r, "output", (long)i);
		json_t *path = json_is_object(x) ? sv_want(r, x, "path", T_STR) : NULL;
		json_t *fmt = path ? sv_want(r, x, "format", T_STR) : NULL;
		int f = fmt ? wtg_format_parse(json_string_value(fmt)) : -1;
		if (!json_is_object(x))
			sv_fail(r, NULL, "should be an object");
		else if (fmt && f < 0)
			sv_fail(r, "format", "'%s' is not a format", json_string_value(fmt));
		sv_leave(r, back);
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
	json_t *x = sv_maybe(r, v, "format", T_STR);
	o->format = (enum wtg_format)(x && wtg_format_parse(json_string_value(x)) >= 0 ?
				      wtg_format_parse(json_string_value(x)) : 0);
	read_outputs(r, v, o);
	o->file = sv_doc_str(sv_maybe(r, v, "file", T_STR | T_NULL));
	o->dir = sv_doc_str(sv_maybe(r, v, "dir", T_STR | T_NULL));
	char cmp[96] = "";
	if ((x = sv_maybe(r, v, "compare", T_STR)))
		sv_copy_whole(r, "compare", cmp, sizeof cmp, json_string_value(x), json_string_length(x));
	char *colon = strchr(cmp, ':');
	if (colon)
		*colon = '\0';
	const char *cond = colon ? colon + 1 : "";
	if (sv_copy_whole(r, "compare", sv->compare_exp, sizeof sv->compare_exp, cmp, strlen(cmp)))
		sv_copy_whole(r, "compare", sv->compare_cond, sizeof sv->compare_cond, cond, strlen(cond));
	o->compare_exp = sv->compare_exp[0] ? sv->compare_exp : NULL;
	o->compare_cond = sv->compare_cond[0] ? sv->compare_cond : NULL;
	if (json_object_get(v, "time_limit_s"))
		o->time_limit_ms = sv_want_int(r, v, "time_limit_s", 0, INT64_MAX / 1000, false, 0) * 1000;
	x = sv_maybe(r, v, "hold_s", T_NUM | T_NULL);
	o->hold_ms = x && json_is_number(x) && json_number_value(x) >= 0 && json_number_value(x) < 1e6 ?
		     (int)lround(json_number_value(x) * 1000) : 0;
	o->step = sv_maybe_true(r, v, "step");
	o->quiet = sv_maybe_true(r, v, "quiet");
	o->color = sv_maybe_true(r, v, "color");
	o->ascii = sv_maybe_true(r, v, "ascii");
	const char *p = sv_doc_str(sv_maybe(r, v, "progress", T_STR));
	o->progress = p && !strcmp(p, "always") ? WTG_PROGRESS_ALWAYS :
		      p && !strcmp(p, "never") ? WTG_PROGRESS_NEVER : WTG_PROGRESS_AUTO;
}

/* run.command_line into the saved options' argv (the strings stay in the document). */
static void read_command_line(struct rd *r, json_t *run, struct wtg_run_saved *sv)
{
	struct wtg_options *o = &sv->opt;
	json_t *a = sv_want_array(r, run, "command_line", MAX_LIST);
	size_t n = a ? json_array_size(a) : 0;
	if (!n)
		return;
	sv->command_line = calloc(n + 1, sizeof *sv->command_line);
	o->argv = sv->command_line;
	if (!o->argv) {
		sv_fail(r, "command_line", "%s", strerror(ENOMEM));
		return;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *x = json_array_get(a, i);
		if (!json_is_string(x)) {
			sv_fail(r, "command_line", "item %zu should be a string", i);
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
	/* ns since the epoch in an int64_t end in April 2262, so later years are not this form */
	if (tm.tm_year < 1970 || tm.tm_year > 2261 || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 ||
	    tm.tm_mday > 31 || tm.tm_hour < 0 || tm.tm_hour > 23 || tm.tm_min < 0 || tm.tm_min > 59 ||
	    tm.tm_sec < 0 || tm.tm_sec > 60)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	time_t t = timegm(&tm);
	if (t < 0 || (int64_t)t > INT64_MAX / 1000000000)
		return -1;
	return (int64_t)t * 1000000000;
}

static void read_caches(struct rd *r, json_t *mach, struct wtg_machine *m)
{
	json_t *a = sv_want_array(r, mach, "caches", 64);
	size_t i;
	json_t *c;
	json_array_foreach(a, i, c) {
		size_t back = sv_enter(r, "caches", (long)i);
		if (!json_is_object(c)) {
			sv_fail(r, NULL, "should be an object");
			return;
		}
		struct wtg_cache tmp;
		tmp.level = (int)sv_want_int(r, c, "level", 1, 16, false, 0);
		sv_want_str(r, c, "type", tmp.type, sizeof tmp.type, false);
		tmp.size = (uint64_t)sv_want_int(r, c, "size_bytes", 0, INT64_MAX, false, 0);
		tmp.line = (int)sv_want_int(r, c, "line_bytes", 1, 1 << 20, true, 0);
		sv_want_str(r, c, "shared_cpus", tmp.shared_cpus, sizeof tmp.shared_cpus, true);
		sv_leave(r, back);
		if (r->failed)
			return;
		if (m->ncaches < WTG_MAX_CACHES)
			m->caches[m->ncaches++] = tmp;
	}
}

/* The machine block: the fields a reader shows and the gate compares. */
static void read_machine(struct rd *r, json_t *root, struct wtg_machine *m)
{
	json_t *mach = sv_want(r, root, "machine", T_OBJ);
	if (!mach)
		return;
	size_t back = sv_enter(r, "machine", -1);
	sv_want_str(r, mach, "hostname", m->hostname, sizeof m->hostname, true);
	sv_want_str(r, mach, "kernel", m->kernel, sizeof m->kernel, true);
	sv_want_str(r, mach, "os", m->os, sizeof m->os, true);
	sv_want_str(r, mach, "cpu_model", m->cpu_model, sizeof m->cpu_model, true);
	/* newer fields: a run saved before them has none */
	json_t *v;
	if (json_is_string(v = sv_maybe(r, mach, "cpu_id", T_STR | T_NULL)))
		wtg_strlcpy(m->cpu_id, json_string_value(v), sizeof m->cpu_id);
	if (json_is_string(v = sv_maybe(r, mach, "cpu_features", T_STR | T_NULL)))
		wtg_strlcpy(m->cpu_features, json_string_value(v), sizeof m->cpu_features);
	json_t *kernels = sv_maybe(r, mach, "kernels", T_OBJ);
	if (json_is_string(v = sv_maybe(r, kernels, "simd", T_STR | T_NULL)))
		wtg_strlcpy(m->kernel_simd, json_string_value(v), sizeof m->kernel_simd);
	if (json_is_string(v = sv_maybe(r, kernels, "native", T_STR | T_NULL)))
		wtg_strlcpy(m->kernel_native, json_string_value(v), sizeof m->kernel_native);
	m->cpus = (int)sv_want_int(r, mach, "cpus_online", 1, 1 << 20, true, -1);
	m->memory_bytes = (uint64_t)sv_want_int(r, mach, "memory_bytes", 1, INT64_MAX, true, 0);
	m->page_size = (long)sv_want_int(r, mach, "page_size", 1, 1 << 30, true, -1);
	read_caches(r, mach, m);
	sv_want_str(r, mach, "thp", m->thp, sizeof m->thp, true);
	sv_want_str(r, mach, "clocksource", m->clocksource, sizeof m->clocksource, true);
	sv_want_str(r, mach, "governor", m->governor, sizeof m->governor, true);
	m->boost = sv_want_bool(r, mach, "boost", true);
	sv_want_str(r, mach, "virtualization", m->virtualization, sizeof m->virtualization, true);
	m->hypervisor = sv_want_bool(r, mach, "hypervisor", false) == 1;
	json_t *hw = sv_want(r, mach, "hw_counters", T_BOOL | T_STR);
	m->hw_counters = hw && json_is_true(hw);
	m->nmitigations = -1;
	read_mitigations(r, mach, m);
	json_t *smt = sv_maybe(r, mach, "smt", T_OBJ | T_NULL);
	if (json_is_object(smt)) {
		size_t in = sv_enter(r, "smt", -1);
		sv_want_str(r, smt, "control", m->smt, sizeof m->smt, true);
		m->smt_active = sv_want_bool(r, smt, "active", true);
		sv_leave(r, in);
	}
	/* the writer's own words; any other is the file's */
	const char *src = sv_doc_str(sv_maybe(r, mach, "caches_source", T_STR | T_NULL));
	static const char *const sources[] = { "sysfs", "sysconf", "none" };
	m->caches_source = "file";
	for (int i = 0; src && i < 3; i++)
		if (!strcmp(src, sources[i]))
			m->caches_source = sources[i];
	sv_leave(r, back);
}

static void read_cond(struct rd *r, json_t *obj, const char *key, struct wtg_cond_snapshot *c)
{
	size_t back;
	json_t *v = sv_open_object(r, obj, key, false, false, &back);
	if (!v)
		return;
	char word[32];
	c->burners = (int)sv_want_int(r, v, "burners", 0, 1 << 20, false, 0);
	sv_want_str(r, v, "burn_kind", word, sizeof word, true);
	c->burn_kind = strcmp(word, "stream") == 0 ? WTG_BURN_STREAM : WTG_BURN_SPIN;
	sv_want_str(r, v, "policy_requested", word, sizeof word, false);
	c->background = strcmp(word, "background") == 0;
	sv_want_str(r, v, "policy_granted", word, sizeof word, true);
	c->policy = strcmp(word, "background") == 0 ? 1 : strcmp(word, "normal") == 0 ? 0 : -1;
	sv_want_str(r, v, "io_requested", word, sizeof word, false);
	c->uncached = strcmp(word, "uncached") == 0;
	sv_want_str(r, v, "io", word, sizeof word, false);
	c->io = strcmp(word, "direct") == 0 ? WTG_IO_DIRECT : strcmp(word, "evicting") == 0 ? WTG_IO_EVICTING :
									WTG_IO_CACHED;
	sv_leave(r, back);
}

static void read_options(struct rd *r, json_t *run, struct wtg_run_options *o, struct wtg_run_saved *sv)
{
	size_t back;
	json_t *v = sv_open_object(r, run, "options", true, false, &back);
	if (!v)
		return;
	o->known = true;
	o->quick = sv_want_bool(r, v, "quick", false) == 1;
	o->size = (uint64_t)sv_want_int(r, v, "size", 0, INT64_MAX, false, 0);
	o->threads = (int)sv_want_int(r, v, "threads", 1, 1 << 20, false, 1);
	o->burn = (int)sv_want_int(r, v, "burn", 0, 1 << 20, false, 0);
	sv_want_str(r, v, "burn_kind", o->burn_kind, sizeof o->burn_kind, false);
	o->background = sv_want_bool(r, v, "background", false) == 1;
	o->uncached = sv_want_bool(r, v, "uncached", false) == 1;
	o->seed = (uint64_t)sv_want_int(r, v, "seed", 0, INT64_MAX, false, 0);
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
	sv_leave(r, back);
}

/* schema, tool, the run block, the machine, the conditions. */
void sv_read_meta(struct rd *r, json_t *root, struct wtg_run_meta *m, struct wtg_run_saved *sv)
{
	json_t *run = sv_want(r, root, "run", T_OBJ);
	if (!run)
		return;
	sv_want_str(r, root, "version", m->version, sizeof m->version, false);
	size_t back = sv_enter(r, "run", -1);
	sv_want_str(r, run, "timestamp", m->timestamp, sizeof m->timestamp, false);
	sv->start_real_ns = parse_iso8601(m->timestamp);
	if (!r->failed && sv->start_real_ns < 0)
		sv_fail(r, "timestamp", "'%s' is not a UTC time like 2026-11-30T19:26:36Z", m->timestamp);
	json_t *d = sv_want(r, run, "duration_s", T_NUM | T_NULL);
	m->duration_s = d && json_is_number(d) ? json_number_value(d) : NAN;
	if (d && json_is_number(d) && !(m->duration_s >= 0))
		sv_fail(r, "duration_s", "below zero");
	read_command_line(r, run, sv);
	read_options(r, run, &m->opt, sv);
	json_t *label = json_object_get(run, "label");	/* optional: reports before --label lack it */
	if (label && !json_is_string(label) && !json_is_null(label))
		sv_fail(r, "label", "should be a string or null");
	else if (label && json_is_string(label) && json_string_length(label))
		m->label = json_string_value(label);	/* whole: the document lives with the run */
	sv->label_saved = m->label != NULL;
	json_t *start = sv_maybe(r, run, "conditions_at_start", T_OBJ | T_NULL);
	if (json_is_object(start)) {
		read_cond(r, run, "conditions_at_start", &sv->cond_start);
		sv->begun = true;
	}
	sv_leave(r, back);
	read_machine(r, root, &m->machine);
	json_t *mach = json_object_get(root, "machine");
	if (json_is_object(mach)) {
		back = sv_enter(r, "machine", -1);
		read_topology(r, mach, sv);
		read_datafile(r, mach, sv);
		sv_leave(r, back);
	}
	read_cond(r, root, "conditions", &m->cond);
	sv->seed = (uint64_t)sv_want_int(r, root, "seed", 0, INT64_MAX, false, 0);
	sv->quick = sv_want_bool(r, root, "quick", false) == 1;
}
