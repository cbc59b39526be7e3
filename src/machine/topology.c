/* topology.c: the machine's shape from sysfs (packages, cores, SMT, NUMA nodes, core types) and the
 * thread-count and placement plans the thread sweep uses. */
#include "config.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/topology.h"
#include "wtg/util.h"

/* ---- CPU sets ---- */

void wtg_cpuset_clear(struct wtg_cpuset *s)
{
	memset(s, 0, sizeof *s);
}

void wtg_cpuset_add(struct wtg_cpuset *s, int cpu)
{
	if (cpu >= 0 && cpu < WTG_TOPO_MAX_CPUS)
		s->bits[cpu / 64] |= (uint64_t)1 << (cpu % 64);
}

bool wtg_cpuset_has(const struct wtg_cpuset *s, int cpu)
{
	return cpu >= 0 && cpu < WTG_TOPO_MAX_CPUS && (s->bits[cpu / 64] >> (cpu % 64)) & 1;
}

int wtg_cpuset_count(const struct wtg_cpuset *s)
{
	int n = 0;
	for (size_t i = 0; i < WTG_ARRAY_LEN(s->bits); i++)
		n += __builtin_popcountll(s->bits[i]);
	return n;
}

static const char *parse_cpu(const char *p, long *v)
{
	if (!isdigit((unsigned char)*p))
		return NULL;
	char *end;
	*v = strtol(p, &end, 10);
	return *v >= 0 && *v < WTG_TOPO_MAX_CPUS ? end : NULL;
}

int wtg_cpuset_parse(struct wtg_cpuset *s, const char *list)
{
	wtg_cpuset_clear(s);
	const char *p = list;
	while (*p == ' ')
		p++;
	if (*p == '\0' || *p == '\n')
		return 0;
	for (;;) {
		long a, b;
		p = parse_cpu(p, &a);
		if (!p)
			return -1;
		b = a;
		if (*p == '-' && !(p = parse_cpu(p + 1, &b)))
			return -1;
		if (b < a)
			return -1;
		for (long c = a; c <= b; c++)
			wtg_cpuset_add(s, (int)c);
		if (*p == ',') {
			p++;
			continue;
		}
		return *p == '\0' || *p == '\n' ? 0 : -1;
	}
}

void wtg_cpuset_format(const struct wtg_cpuset *s, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int c = 0; c < WTG_TOPO_MAX_CPUS; c++) {
		if (!wtg_cpuset_has(s, c))
			continue;
		int e = c;
		while (e + 1 < WTG_TOPO_MAX_CPUS && wtg_cpuset_has(s, e + 1))
			e++;
		char part[32];
		if (e == c)
			snprintf(part, sizeof part, "%s%d", used ? "," : "", c);
		else
			snprintf(part, sizeof part, "%s%d-%d", used ? "," : "", c, e);
		if (used + strlen(part) + 1 > len)
			break;
		memcpy(buf + used, part, strlen(part) + 1);
		used += strlen(part);
		c = e;
	}
	if (!used && len > 4)
		wtg_strlcpy(buf, "none", len);
}

/* ---- reading ---- */

static int read_text(const struct wtg_topology *t, const char *rel, char *buf, size_t len)
{
	char path[1024];
	snprintf(path, sizeof path, "%s%s", t->root, rel);
	if (wtg_read_small(path, buf, len) <= 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static long read_long(const struct wtg_topology *t, const char *rel, long dflt)
{
	char buf[64];
	if (read_text(t, rel, buf, sizeof buf) != 0)
		return dflt;
	char *end;
	long v = strtol(buf, &end, 10);
	return end == buf ? dflt : v;
}

static int read_set(const struct wtg_topology *t, const char *rel, struct wtg_cpuset *s)
{
	char buf[8192];
	wtg_cpuset_clear(s);
	if (read_text(t, rel, buf, sizeof buf) != 0)
		return -1;
	return wtg_cpuset_parse(s, buf);
}

/* Packages and cores. A core is the set of its hardware threads (core_cpus_list, or the older
 * thread_siblings_list), named by its lowest CPU; (package, core_id) is only the fallback, since ARM
 * boards repeat core_id in every cluster. Core indices are machine-wide, in CPU order. */
static void read_cores(struct wtg_topology *t)
{
	static int pkg_ids[WTG_TOPO_MAX_CPUS], core_keys[WTG_TOPO_MAX_CPUS][2];
	int npkg = 0, ncores = 0;
	for (int c = 0; c <= t->max_cpu; c++) {
		if (!wtg_cpuset_has(&t->online, c))
			continue;
		char rel[128];
		snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
		int pkg = (int)read_long(t, rel, 0);
		int p = 0;
		while (p < npkg && pkg_ids[p] != pkg)
			p++;
		if (p == npkg)
			pkg_ids[npkg++] = pkg;
		struct wtg_cpuset sib;
		int key[2] = { -1, c };	/* (-1, lowest sibling) or (package, core_id) */
		snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu%d/topology/core_cpus_list", c);
		if (read_set(t, rel, &sib) != 0) {
			snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", c);
			read_set(t, rel, &sib);
		}
		if (wtg_cpuset_count(&sib) > 0) {
			for (int x = 0; x < WTG_TOPO_MAX_CPUS; x++)
				if (wtg_cpuset_has(&sib, x)) {
					key[1] = x;
					break;
				}
		} else {
			snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu%d/topology/core_id", c);
			key[0] = p;
			key[1] = (int)read_long(t, rel, c);
		}
		int k = 0;
		while (k < ncores && !(core_keys[k][0] == key[0] && core_keys[k][1] == key[1]))
			k++;
		if (k == ncores) {
			core_keys[ncores][0] = key[0];
			core_keys[ncores][1] = key[1];
			ncores++;
		}
		t->package_of[c] = (int16_t)p;
		t->core_of[c] = (int16_t)k;
	}
	t->packages = npkg ? npkg : 1;
	t->cores = ncores ? ncores : t->cpus_online;
	static int per_core[WTG_TOPO_MAX_CPUS];
	memset(per_core, 0, sizeof per_core);
	t->smt = 1;
	for (int c = 0; c <= t->max_cpu; c++)
		if (t->core_of[c] >= 0 && ++per_core[t->core_of[c]] > t->smt)
			t->smt = per_core[t->core_of[c]];
}

static void read_nodes(struct wtg_topology *t)
{
	struct wtg_cpuset ids;
	t->nnodes = 0;
	if (read_set(t, "/sys/devices/system/node/online", &ids) == 0) {
		for (int n = 0; n < WTG_TOPO_MAX_CPUS && t->nnodes < WTG_MAX_NODES; n++) {
			if (!wtg_cpuset_has(&ids, n))
				continue;
			struct wtg_numa_node *nd = &t->nodes[t->nnodes];
			memset(nd, 0, sizeof *nd);
			nd->node = n;
			char rel[128], buf[4096];
			snprintf(rel, sizeof rel, "/sys/devices/system/node/node%d/cpulist", n);
			read_set(t, rel, &nd->cpus);
			snprintf(rel, sizeof rel, "/sys/devices/system/node/node%d/meminfo", n);
			if (read_text(t, rel, buf, sizeof buf) == 0) {
				char *m = strstr(buf, "MemTotal:");
				unsigned long long kb = m ? strtoull(m + 9, NULL, 10) : 0;
				/* up to 1 EiB: past it, a number no machine has */
				nd->memory_bytes = kb <= (1ull << 50) ? kb * 1024 : 0;
			}
			snprintf(rel, sizeof rel, "/sys/devices/system/node/node%d/distance", n);
			if (read_text(t, rel, buf, sizeof buf) == 0) {
				char *p = buf, *end;
				for (int j = 0; j < WTG_MAX_NODES; j++, p = end) {
					long d = strtol(p, &end, 10);
					if (end == p)
						break;
					nd->distances[j] = d >= 0 && d <= 255 ? (int)d : 0;	/* the kernel's range */
				}
			}
			t->nnodes++;
		}
	}
	if (t->nnodes == 0) {	/* no NUMA information: one node holding every CPU */
		t->nnodes = 1;
		memset(&t->nodes[0], 0, sizeof t->nodes[0]);
		t->nodes[0].cpus = t->online;
		t->nodes[0].distances[0] = 10;
	}
	for (int i = 0; i < t->nnodes; i++)
		for (int c = 0; c <= t->max_cpu; c++)
			if (wtg_cpuset_has(&t->nodes[i].cpus, c) && wtg_cpuset_has(&t->online, c))
				t->node_of[c] = (int8_t)i;
	for (int c = 0; c <= t->max_cpu; c++)	/* a CPU no node lists belongs to the first */
		if (wtg_cpuset_has(&t->online, c) && t->node_of[c] < 0)
			t->node_of[c] = 0;
}

static void add_type(struct wtg_topology *t, const char *name, const struct wtg_cpuset *cpus, int capacity)
{
	if (t->ntypes >= WTG_MAX_CORE_TYPES)
		return;
	struct wtg_core_type *ty = &t->types[t->ntypes];
	memset(ty, 0, sizeof *ty);
	wtg_strlcpy(ty->name, name, sizeof ty->name);
	ty->capacity = capacity;
	for (int c = 0; c <= t->max_cpu; c++) {
		if (!wtg_cpuset_has(cpus, c) || !wtg_cpuset_has(&t->online, c))
			continue;
		wtg_cpuset_add(&ty->cpus, c);
		ty->count++;
		t->type_of[c] = (int8_t)t->ntypes;
		char rel[128];
		snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", c);
		long khz = read_long(t, rel, 0);
		if (khz > ty->max_khz)
			ty->max_khz = khz;
	}
	if (ty->count > 0)
		t->ntypes++;
}

/* Intel hybrid parts expose one PMU per core type; ARM big.LITTLE exposes cpu_capacity. */
static void read_core_types(struct wtg_topology *t)
{
	struct wtg_cpuset p, e;
	t->ntypes = 0;
	if (read_set(t, "/sys/devices/cpu_core/cpus", &p) == 0 && read_set(t, "/sys/devices/cpu_atom/cpus", &e) == 0 &&
	    wtg_cpuset_count(&p) > 0 && wtg_cpuset_count(&e) > 0) {
		add_type(t, "performance", &p, 0);
		add_type(t, "efficiency", &e, 0);
		return;
	}
	int caps[WTG_MAX_CORE_TYPES], ncaps = 0;
	bool too_many = false;
	for (int c = 0; c <= t->max_cpu; c++) {
		char rel[128];
		snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu%d/cpu_capacity", c);
		int cap = wtg_cpuset_has(&t->online, c) ? (int)read_long(t, rel, 0) : 0;
		if (cap <= 0)
			continue;
		int k = 0;
		while (k < ncaps && caps[k] != cap)
			k++;
		if (k == ncaps) {
			if (ncaps == WTG_MAX_CORE_TYPES)
				too_many = true;
			else
				caps[ncaps++] = cap;
		}
	}
	if (ncaps >= 2 && !too_many) {
		/* largest capacity first: big, then little (a third kind is "middle") */
		for (int i = 0; i < ncaps; i++)
			for (int j = i + 1; j < ncaps; j++)
				if (caps[j] > caps[i]) {
					int x = caps[i];
					caps[i] = caps[j];
					caps[j] = x;
				}
		for (int i = 0; i < ncaps; i++) {
			struct wtg_cpuset s;
			wtg_cpuset_clear(&s);
			for (int c = 0; c <= t->max_cpu; c++) {
				char rel[128];
				snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu%d/cpu_capacity", c);
				if (wtg_cpuset_has(&t->online, c) && read_long(t, rel, 0) == caps[i])
					wtg_cpuset_add(&s, c);
			}
			add_type(t, i == 0 ? "big" : i == ncaps - 1 ? "little" : "middle", &s, caps[i]);
		}
		return;
	}
	add_type(t, "all", &t->online, 0);
}

int wtg_topology_read(struct wtg_topology *t, const char *root)
{
	memset(t, 0, sizeof *t);
	if (!root)
		root = getenv("WTG_SYSFS_ROOT");
	t->root = root ? root : "";
	for (int c = 0; c < WTG_TOPO_MAX_CPUS; c++) {
		t->package_of[c] = t->core_of[c] = -1;
		t->node_of[c] = t->type_of[c] = -1;
	}
	int rc = 0;
	if (read_set(t, "/sys/devices/system/cpu/online", &t->online) != 0 || wtg_cpuset_count(&t->online) == 0) {
		rc = -1;
		wtg_cpuset_clear(&t->online);
		int n = wtg_online_cpus();
		for (int c = 0; c < n; c++)
			wtg_cpuset_add(&t->online, c);
	}
	t->cpus_online = wtg_cpuset_count(&t->online);
	for (int c = 0; c < WTG_TOPO_MAX_CPUS; c++)
		if (wtg_cpuset_has(&t->online, c))
			t->max_cpu = c;
	read_cores(t);
	read_nodes(t);
	read_core_types(t);
	return rc;
}

const char *wtg_topology_core_type(const struct wtg_topology *t, int cpu)
{
	if (cpu < 0 || cpu >= WTG_TOPO_MAX_CPUS || t->type_of[cpu] < 0)
		return NULL;
	return t->types[t->type_of[cpu]].name;
}

static struct wtg_topology this_topo;
static pthread_once_t this_once = PTHREAD_ONCE_INIT;

static void read_this(void)
{
	wtg_topology_read(&this_topo, NULL);
}

const struct wtg_topology *wtg_topology_this(void)
{
	pthread_once(&this_once, read_this);
	return &this_topo;
}

uint64_t wtg_topology_memory(const struct wtg_topology *t)
{
	uint64_t mem = 0;
	for (int i = 0; i < t->nnodes; i++)	/* each below 2^63 / WTG_MAX_NODES: no overflow */
		mem += t->nodes[i].memory_bytes < (UINT64_MAX >> 1) / WTG_MAX_NODES ? t->nodes[i].memory_bytes
										: (UINT64_MAX >> 1) / WTG_MAX_NODES;
	return mem;
}

void wtg_topology_nodes_of(const struct wtg_topology *t, const int *cpus, int n, struct wtg_cpuset *nodes)
{
	wtg_cpuset_clear(nodes);
	for (int i = 0; i < n; i++) {
		int c = cpus[i];
		int nd = c >= 0 && c < WTG_TOPO_MAX_CPUS && t->node_of[c] >= 0 ? t->node_of[c] : 0;
		wtg_cpuset_add(nodes, t->nodes[nd].node);
	}
}

int wtg_topology_remote_node(const struct wtg_topology *t, int nd)
{
	if (t->nnodes < 2)
		return nd;
	int best = (nd + 1) % t->nnodes;
	for (int j = 0; j < t->nnodes; j++)
		if (j != nd && t->nodes[nd].distances[j] > t->nodes[nd].distances[best])
			best = j;
	return best;
}

/* ---- core types seen by samples ---- */

void wtg_type_tally_add(const struct wtg_topology *t, struct wtg_type_tally *tl, int cpu)
{
	if (cpu < 0 || cpu >= WTG_TOPO_MAX_CPUS || t->type_of[cpu] < 0)
		tl->unknown++;
	else
		tl->n[t->type_of[cpu]]++;
}

void wtg_type_tally_merge(struct wtg_type_tally *a, const struct wtg_type_tally *b)
{
	for (int i = 0; i < WTG_MAX_CORE_TYPES; i++)
		a->n[i] += b->n[i];
	a->unknown += b->unknown;
}

void wtg_type_tally_format(const struct wtg_topology *t, const struct wtg_type_tally *tl, char *buf, size_t len)
{
	uint64_t total = tl->unknown;
	int seen = tl->unknown > 0, only = -1;
	for (int i = 0; i < t->ntypes; i++)
		if (tl->n[i]) {
			total += tl->n[i];
			seen++;
			only = i;
		}
	if (total == 0) {
		wtg_strlcpy(buf, "n/a", len);
		return;
	}
	if (seen == 1 && only >= 0) {
		wtg_strlcpy(buf, t->types[only].name, len);
		return;
	}
	bool done[WTG_MAX_CORE_TYPES + 1] = { false };
	size_t used = 0;
	buf[0] = '\0';
	for (int k = 0; k < seen; k++) {
		int pick = -1;	/* the largest share not yet written; index ntypes is "unknown" */
		uint64_t best = 0;
		for (int i = 0; i <= t->ntypes; i++) {
			uint64_t v = i < t->ntypes ? tl->n[i] : tl->unknown;
			if (!done[i] && v > best) {
				best = v;
				pick = i;
			}
		}
		if (pick < 0)
			break;
		done[pick] = true;
		char tag = pick < t->ntypes ? (char)toupper((unsigned char)t->types[pick].name[0]) : '?';
		int w = snprintf(buf + used, len - used, "%s%c %.0f%%", used ? " " : "", tag,
				 100.0 * (double)best / (double)total);
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
	}
}

void wtg_topology_types_note(const struct wtg_topology *t, char *buf, size_t len)
{
	if (t->ntypes < 2) {
		snprintf(buf, len, "one core type on this machine (%s, %d CPUs): core_type is the same on every row",
			 t->ntypes ? t->types[0].name : "all", t->cpus_online);
		return;
	}
	size_t used = (size_t)snprintf(buf, len, "core types:");
	for (int i = 0; i < t->ntypes && used < len; i++) {
		char cpus[128];
		wtg_cpuset_format(&t->types[i].cpus, cpus, sizeof cpus);
		used += (size_t)snprintf(buf + used, len - used, "%s %c = %s (CPUs %s)", i ? "," : "",
					 toupper((unsigned char)t->types[i].name[0]), t->types[i].name, cpus);
	}
	if (used < len)
		snprintf(buf + used, len - used,
			 "; core_type is the share of each among the CPUs the measuring threads were on at the "
			 "start and end of every timed sample (sched_getcpu); under the background policy it "
			 "shows where the kernel put them");
}

void wtg_topology_summary(const struct wtg_topology *t, char *buf, size_t len)
{
	char cores[64];
	if (t->ntypes >= 2) {
		/* cores per type: a core's type is its first CPU's */
		size_t used = 0;
		cores[0] = '\0';
		for (int i = 0; i < t->ntypes && used < sizeof cores; i++) {
			int n = 0;
			static bool seen[WTG_TOPO_MAX_CPUS];
			memset(seen, 0, sizeof seen);
			for (int c = 0; c <= t->max_cpu; c++)
				if (t->type_of[c] == i && t->core_of[c] >= 0 && !seen[t->core_of[c]]) {
					seen[t->core_of[c]] = true;
					n++;
				}
			char tag = (char)toupper((unsigned char)t->types[i].name[0]);
			used += (size_t)snprintf(cores + used, sizeof cores - used, "%s%d%c", i ? "+" : "", n, tag);
		}
		wtg_strlcpy(cores + (used < sizeof cores ? used : sizeof cores - 1), " cores",
			    sizeof cores - (used < sizeof cores ? used : sizeof cores - 1));
	} else {
		snprintf(cores, sizeof cores, "%d core%s", t->cores, t->cores == 1 ? "" : "s");
	}
	char smt[16] = "";
	if (t->smt > 1)
		snprintf(smt, sizeof smt, ", SMT%d", t->smt);
	snprintf(buf, len, "%d package%s, %s%s, %d NUMA node%s", t->packages, t->packages == 1 ? "" : "s", cores,
		 smt, t->nnodes, t->nnodes == 1 ? "" : "s");
}

/* ---- planning ---- */

const char *wtg_placement_name(enum wtg_placement p)
{
	return p == WTG_PLACE_COMPACT ? "compact" : p == WTG_PLACE_SPREAD ? "spread" : "?";
}

const char *wtg_memory_name(enum wtg_memory m)
{
	static const char *const names[] = { "local", "remote", "interleaved" };
	return (unsigned)m < WTG_ARRAY_LEN(names) ? names[m] : "?";
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int wtg_topology_thread_counts(const struct wtg_topology *t, int max, int *counts)
{
	if (max < 1)
		max = 1;
	int must[2 * WTG_MAX_NODES + 4], nmust = 0;
	must[nmust++] = 1;
	must[nmust++] = max;
	if (t->nnodes > 1 && wtg_cpuset_count(&t->nodes[0].cpus) < max)
		must[nmust++] = wtg_cpuset_count(&t->nodes[0].cpus);
	if (t->packages > 1 && t->cpus_online / t->packages < max)
		must[nmust++] = t->cpus_online / t->packages;
	if (t->cpus_online < max)
		must[nmust++] = t->cpus_online;	/* every CPU, before oversubscribing */
	int pow2[32], npow = 0;
	for (int n = 2; n < max && npow < 30; n *= 2)
		pow2[npow++] = n;
	/* thin the powers of two (keep every other, from the top) until everything fits */
	int room = WTG_MAX_COUNTS - nmust;
	while (npow > room && npow > 0) {
		int k = 0;
		for (int i = npow - 1; i >= 0; i -= 2)
			pow2[k++] = pow2[i];
		npow = k;
		qsort(pow2, (size_t)npow, sizeof *pow2, cmp_int);
	}
	int all[64], n = 0;
	for (int i = 0; i < nmust; i++)
		all[n++] = must[i];
	for (int i = 0; i < npow; i++)
		all[n++] = pow2[i];
	qsort(all, (size_t)n, sizeof *all, cmp_int);
	int out = 0;
	for (int i = 0; i < n && out < WTG_MAX_COUNTS; i++)
		if (all[i] >= 1 && all[i] <= max && (out == 0 || counts[out - 1] != all[i]))
			counts[out++] = all[i];
	return out;
}

/* The online CPUs in compact order: node by node, core by core, a core's siblings together. */
static int compact_order(const struct wtg_topology *t, int *order)
{
	int n = 0;
	for (int nd = 0; nd < t->nnodes; nd++)
		for (int core = 0; core < t->cores; core++)
			for (int c = 0; c <= t->max_cpu; c++)
				if (t->node_of[c] == nd && t->core_of[c] == core)
					order[n++] = c;
	return n;
}

/* Spread: round r takes the r-th sibling of every core, cores taken from the nodes in turn. */
static int spread_order(const struct wtg_topology *t, int *order)
{
	static int by_node[WTG_MAX_NODES][WTG_TOPO_MAX_CPUS];
	static int nby[WTG_MAX_NODES];
	int n = 0;
	for (int round = 0; round < t->smt; round++) {
		memset(nby, 0, sizeof nby);
		for (int core = 0; core < t->cores; core++) {
			int k = 0;
			for (int c = 0; c <= t->max_cpu; c++) {
				if (t->core_of[c] != core)
					continue;
				if (k++ == round) {
					int nd = t->node_of[c] >= 0 ? t->node_of[c] : 0;
					by_node[nd][nby[nd]++] = c;
				}
			}
		}
		for (int i = 0, more = 1; more; i++) {
			more = 0;
			for (int nd = 0; nd < t->nnodes; nd++)
				if (i < nby[nd]) {
					order[n++] = by_node[nd][i];
					more = 1;
				}
		}
	}
	return n;
}

int wtg_topology_place(const struct wtg_topology *t, enum wtg_placement p, int n, int *cpus)
{
	static int order[WTG_TOPO_MAX_CPUS];
	int m = p == WTG_PLACE_SPREAD ? spread_order(t, order) : compact_order(t, order);
	if (m == 0) {
		order[0] = 0;
		m = 1;
	}
	for (int i = 0; i < n; i++)
		cpus[i] = order[i % m];
	return n;
}

/* Whether the first n CPUs of placement p all lie in one node. */
static bool fits_one_node(const struct wtg_topology *t, enum wtg_placement p, int n)
{
	static int cpus[WTG_TOPO_MAX_CPUS];
	if (n > WTG_TOPO_MAX_CPUS)
		return false;
	wtg_topology_place(t, p, n, cpus);
	struct wtg_cpuset nodes;
	wtg_topology_nodes_of(t, cpus, n, &nodes);
	return wtg_cpuset_count(&nodes) == 1 && n <= t->cpus_online;
}

int wtg_topology_thread_plan(const struct wtg_topology *t, int max, struct wtg_thread_plan_row *rows)
{
	int counts[WTG_MAX_COUNTS];
	int nc = wtg_topology_thread_counts(t, max, counts), k = 0;
	bool numa = t->nnodes > 1;
	for (int p = 0; p < WTG_NPLACEMENTS; p++) {
		for (int i = 0; i < nc; i++)
			rows[k++] = (struct wtg_thread_plan_row){ counts[i], (enum wtg_placement)p,
								 WTG_MEM_LOCAL };
		for (int i = 0; numa && p == WTG_PLACE_COMPACT && i < nc; i++)
			if (fits_one_node(t, WTG_PLACE_COMPACT, counts[i]))
				rows[k++] = (struct wtg_thread_plan_row){ counts[i], WTG_PLACE_COMPACT, WTG_MEM_REMOTE };
		if (numa && p == WTG_PLACE_SPREAD)
			rows[k++] = (struct wtg_thread_plan_row){ counts[nc - 1], WTG_PLACE_SPREAD, WTG_MEM_INTERLEAVED };
	}
	return k;
}
