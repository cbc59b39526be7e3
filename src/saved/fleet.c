/* fleet.c: many saved runs read one at a time into what a summary needs (wtg/fleet.h): each file is
 * read through the streaming reader, its headline figures, machine and why-here sentences kept, and
 * freed before the next, so memory grows with the figures kept, not with the files. Runs of one
 * machine (the same label, else the same host name, CPU model and memory) are grouped. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/experiment.h"
#include "wtg/figure.h"
#include "wtg/fleet.h"
#include "wtg/load.h"
#include "wtg/stats.h"
#include "wtg/whyhere.h"

#include "saved.h"

static const char *const dim_names[WTG_NDIMS] = { "virtual machine", "page-table isolation", "clock source",
						  "page size", "vendor", "CPUs" };

const char *wtg_fleet_dim_name(enum wtg_fleet_dim d)
{
	return d >= 0 && d < WTG_NDIMS ? dim_names[d] : "";
}

/* An identity's slot in the index: the machine's number + 1, 0 empty. */
struct slot {
	uint64_t hash;
	int m;
};

void wtg_fleet_init(struct wtg_fleet *fl)
{
	memset(fl, 0, sizeof *fl);
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++) {
		int n;
		const struct wtg_headline *h = wtg_headlines_of(wtg_experiments[i], &n);
		for (int k = 0; k < n; k++) {
			struct wtg_fleet_fig *f = &fl->figs[fl->nfigs++];
			f->exp = i;
			f->h = &h[k];
			snprintf(f->name, sizeof f->name, k ? "%s %d" : "%s", wtg_experiments[i]->name, k + 1);
		}
	}
}

static void machine_free(struct wtg_fleet_machine *m)
{
	free(m->id);
	free(m->name);
	free(m->host);
	free(m->cpu);
	for (int d = 0; d < WTG_NDIMS; d++)
		free(m->dim[d]);
	free(m->first_file);
	free(m->last_time);
	free(m->v);
	free(m->runv);
	for (int i = 0; m->why && i < WTG_MAX_EXP; i++)
		free(m->why[i]);
	free(m->why);
}

void wtg_fleet_free(struct wtg_fleet *fl)
{
	for (int i = 0; i < fl->nm; i++)
		machine_free(&fl->m[i]);
	free(fl->m);
	free(fl->index);
	free(fl->left);
	memset(fl, 0, sizeof *fl);
}

static uint64_t fnv(const char *s, uint64_t h)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The identity of a run's machine: "L" and its saved label, else its host, CPU and memory. */
static void identity(const struct wtg_loaded *l, char *buf, size_t len)
{
	const struct wtg_machine *m = &l->meta.machine;
	if (l->saved.label_saved)
		snprintf(buf, len, "L\t%s", l->meta.label);
	else
		snprintf(buf, len, "H\t%s\t%s\t%llu", m->hostname, m->cpu_model, (unsigned long long)m->memory_bytes);
}

static int index_grow(struct wtg_fleet *fl)
{
	int cap = fl->index_cap ? fl->index_cap * 2 : 256;
	struct slot *s = calloc((size_t)cap, sizeof *s), *old = fl->index;
	if (!s)
		return -1;
	for (int i = 0; i < fl->index_cap; i++)
		if (old[i].m)
			for (int k = (int)(old[i].hash & (uint64_t)(cap - 1));; k = (k + 1) & (cap - 1))
				if (!s[k].m) {
					s[k] = old[i];
					break;
				}
	free(old);
	fl->index = s;
	fl->index_cap = cap;
	return 0;
}

/* The machine of identity id, or -1; *at the free slot where it would go. */
static int index_find(const struct wtg_fleet *fl, const char *id, uint64_t h, int *at)
{
	const struct slot *s = fl->index;
	int cap = fl->index_cap;
	for (int k = (int)(h & (uint64_t)(cap - 1));; k = (k + 1) & (cap - 1)) {
		if (!s[k].m) {
			*at = k;
			return -1;
		}
		if (s[k].hash == h && strcmp(fl->m[s[k].m - 1].id, id) == 0)
			return s[k].m - 1;
	}
}

/* "Intel", "AMD", "Arm" ... from the CPU model, else its first word. */
static void vendor_of(const char *cpu, char *buf, size_t len)
{
	static const char *const known[][2] = { { "Intel", "Intel" }, { "AMD", "AMD" }, { "Neoverse", "Arm" },
						{ "Cortex", "Arm" }, { "ARM", "Arm" }, { "Apple", "Apple" },
						{ "Ampere", "Ampere" }, { "POWER", "IBM" }, { "Hygon", "Hygon" } };
	for (size_t i = 0; i < WTG_ARRAY_LEN(known); i++)
		if (strstr(cpu, known[i][0])) {
			wtg_strlcpy(buf, known[i][1], len);
			return;
		}
	size_t n = strcspn(cpu, " (");
	snprintf(buf, len, "%.*s", (int)(n < 24 ? n : 24), n ? cpu : "unknown");
}

/* Each dimension's value for machine m. */
static void dims_of(const struct wtg_machine *m, char vals[WTG_NDIMS][64])
{
	const char *v = m->virtualization;
	if (v[0] && strcmp(v, "none") != 0)
		snprintf(vals[WTG_DIM_VM], 64, "%s", v);
	else
		snprintf(vals[WTG_DIM_VM], 64, "%s", m->hypervisor ? "hypervisor" : v[0] ? "bare metal" : "unknown");
	bool pti = false;
	for (int i = 0; i < m->nmitigations; i++)
		pti |= strstr(m->mitigations[i].status, "PTI") != NULL;
	snprintf(vals[WTG_DIM_PTI], 64, "%s", m->nmitigations < 0 ? "unknown" : pti ? "PTI" : "no PTI");
	snprintf(vals[WTG_DIM_CLOCK], 64, "%s", m->clocksource[0] ? m->clocksource : "unknown");
	if (m->page_size > 0)
		snprintf(vals[WTG_DIM_PAGE], 64, "%ld KiB pages", m->page_size / 1024);
	else
		snprintf(vals[WTG_DIM_PAGE], 64, "unknown");
	vendor_of(m->cpu_model, vals[WTG_DIM_VENDOR], 64);
	if (m->cpus > 0)
		snprintf(vals[WTG_DIM_CPUS], 64, "%d CPU%s", m->cpus, m->cpus == 1 ? "" : "s");
	else
		snprintf(vals[WTG_DIM_CPUS], 64, "unknown");
}

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

/* A new machine of identity id for l's run; its index, or -1 out of memory. */
static int machine_new(struct wtg_fleet *fl, const struct wtg_loaded *l, const char *id)
{
	if (fl->nm == fl->cap) {
		int cap = fl->cap ? fl->cap * 2 : 64;
		struct wtg_fleet_machine *p = realloc(fl->m, (size_t)cap * sizeof *p);
		if (!p)
			return -1;
		fl->m = p;
		fl->cap = cap;
	}
	struct wtg_fleet_machine *m = &fl->m[fl->nm];
	memset(m, 0, sizeof *m);
	const struct wtg_machine *mc = &l->meta.machine;
	char vals[WTG_NDIMS][64];
	dims_of(mc, vals);
	for (int d = 0; d < WTG_NDIMS; d++)
		m->dim[d] = strdup(vals[d]);
	/* a labelled run is its label alone: its host name stays out of the identity */
	m->host = dup_or_empty(l->saved.label_saved ? "" : mc->hostname);
	m->cpu = dup_or_empty(mc->cpu_model);
	m->memory = mc->memory_bytes;
	m->first_file = dup_or_empty(l->meta.path);
	m->id = strdup(id);
	m->why = calloc(WTG_MAX_EXP, sizeof *m->why);
	char name[300];
	const char *base = l->saved.label_saved ? l->meta.label : mc->hostname[0] ? mc->hostname : l->meta.label;
	wtg_strlcpy(name, base, sizeof name);
	for (int k = 2; wtg_fleet_find(fl, name) >= 0; k++)
		snprintf(name, sizeof name, "%.280s (%d)", base, k);
	m->name = strdup(name);
	bool ok = m->id && m->host && m->cpu && m->first_file && m->why && m->name;
	for (int d = 0; d < WTG_NDIMS; d++)
		ok &= m->dim[d] != NULL;
	if (!ok) {
		machine_free(m);
		return -1;
	}
	return fl->nm++;
}

int wtg_fleet_find(const struct wtg_fleet *fl, const char *name)
{
	for (int i = 0; i < fl->nm; i++)
		if (strcmp(fl->m[i].name, name) == 0)
			return i;
	for (int i = 0; i < fl->nm; i++)
		if (fl->m[i].host[0] && strcmp(fl->m[i].host, name) == 0)
			return i;
	return -1;
}

/* l's figures and why-here sentences into machine m as its next run. 0, or -1 out of memory. */
static int add_run(struct wtg_fleet *fl, struct wtg_fleet_machine *m, const struct wtg_loaded *l)
{
	double *v = realloc(m->runv, (size_t)(m->nruns + 1) * (size_t)fl->nfigs * sizeof *v);
	if (!v)
		return -1;
	m->runv = v;
	double *row = v + (size_t)m->nruns * (size_t)fl->nfigs;
	for (int f = 0; f < fl->nfigs; f++) {
		const struct wtg_fleet_fig *fg = &fl->figs[f];
		struct wtg_figure fig;
		row[f] = NAN;
		if (!l->present[fg->exp])
			continue;
		wtg_figure_read(fg->h, &l->tables[fg->exp], &fig);
		row[f] = fig.found ? fig.value : NAN;
	}
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++) {
		char why[256];
		if (!l->present[i] || wtg_why_here(wtg_experiments[i], &l->tables[i], &l->meta.machine, why, sizeof why) <= 0)
			continue;
		char *s = strdup(why);
		if (!s)
			return -1;
		free(m->why[i]);
		m->why[i] = s;
	}
	if (l->meta.timestamp[0] && (!m->last_time || strcmp(l->meta.timestamp, m->last_time) > 0)) {
		char *t = strdup(l->meta.timestamp);
		if (!t)
			return -1;
		free(m->last_time);
		m->last_time = t;
	}
	m->nruns++;
	return 0;
}

/* One run into fl: its machine found or made. */
static int add_loaded(struct wtg_fleet *fl, const struct wtg_loaded *l)
{
	char id[1024];
	identity(l, id, sizeof id);
	uint64_t h = fnv(id, 1469598103934665603ull);
	if ((fl->nm + 1) * 2 > fl->index_cap && index_grow(fl) < 0)
		return -1;
	int at = 0, i = index_find(fl, id, h, &at);
	if (i < 0) {
		if ((i = machine_new(fl, l, id)) < 0)
			return -1;
		struct slot *s = fl->index;
		s[at].hash = h;
		s[at].m = i + 1;
	}
	fl->runs++;
	return add_run(fl, &fl->m[i], l);
}

int wtg_fleet_add_file(struct wtg_fleet *fl, const char *path, char *err, size_t errlen)
{
	static struct wtg_loaded *ls;	/* room for a --replicate document's runs, kept between files */
	if (!ls && !(ls = calloc(WTG_MAX_REPLICATES, sizeof *ls))) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	int n = 0;
	if (wtg_load_file_runs(path, ls, WTG_MAX_REPLICATES, &n, err, errlen) < 0)
		return -1;
	int rc = 0;
	for (int k = 0; k < n; k++) {
		if (rc == 0 && add_loaded(fl, &ls[k]) < 0) {
			snprintf(err, errlen, "%s: out of memory", path);
			rc = -1;
		}
		wtg_loaded_free(&ls[k]);
	}
	fl->reports += rc == 0;
	return rc;
}

void wtg_fleet_finish(struct wtg_fleet *fl)
{
	int most = 1;
	for (int i = 0; i < fl->nm; i++)
		most = fl->m[i].nruns > most ? fl->m[i].nruns : most;
	double *col = malloc(2 * (size_t)most * sizeof *col), *tmp = col ? col + most : NULL;
	for (int i = 0; i < fl->nm; i++) {
		struct wtg_fleet_machine *m = &fl->m[i];
		free(m->v);
		m->v = malloc((size_t)fl->nfigs * sizeof *m->v);
		for (int f = 0; m->v && f < fl->nfigs; f++) {
			for (int r = 0; col && r < m->nruns; r++)
				col[r] = m->runv[(size_t)r * (size_t)fl->nfigs + (size_t)f];
			m->v[f] = col ? wtg_median_finite(col, (size_t)m->nruns, tmp) : NAN;
		}
	}
	free(col);
}
