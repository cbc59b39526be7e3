/* machine.c: the machine block (CPU, pages, kernel, clock source, hypervisor, THP). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "wtg/machine.h"
#include "wtg/probe.h"
#include "wtg/util.h"

static void read_line(const char *path, char *buf, size_t len)
{
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

void wtg_machine_read(struct wtg_machine *m)
{
	memset(m, 0, sizeof *m);
	wtg_strlcpy(m->cpu_model, "unknown CPU", sizeof m->cpu_model);
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (f) {
		char line[4096];
		bool got_model = false;
		while (fgets(line, sizeof line, f)) {
			char *colon = strchr(line, ':');
			if (!colon)
				continue;
			char *val = colon + 1;
			while (*val == ' ' || *val == '\t')
				val++;
			val[strcspn(val, "\n")] = '\0';
			if (!got_model && (strncmp(line, "model name", 10) == 0 || strncmp(line, "Model", 5) == 0)) {
				wtg_strlcpy(m->cpu_model, val, sizeof m->cpu_model);
				got_model = true;
			} else if (strncmp(line, "flags", 5) == 0 && strstr(val, " hypervisor")) {
				m->hypervisor = true;
			}
		}
		fclose(f);
	}
	m->cpus = wtg_online_cpus();
	m->page_size = sysconf(_SC_PAGESIZE);
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(m->kernel, sizeof m->kernel, "%s %s %s", u.sysname, u.release, u.machine);
	read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", m->clocksource,
		  sizeof m->clocksource);
	if (!m->clocksource[0])
		wtg_strlcpy(m->clocksource, "unknown", sizeof m->clocksource);
	char thp[128];
	read_line("/sys/kernel/mm/transparent_hugepage/enabled", thp, sizeof thp);
	char *l = strchr(thp, '['), *r = l ? strchr(l, ']') : NULL;
	if (l && r) {
		*r = '\0';
		wtg_strlcpy(m->thp, l + 1, sizeof m->thp);
	} else {
		wtg_strlcpy(m->thp, thp[0] ? thp : "unknown", sizeof m->thp);
	}
	m->hw_counters = wtg_probe_have_hw_counters();
	wtg_machine_read_caches(m, getenv("WTG_SYSFS_ROOT"));
}

/* "48K", "2048K", "32M" as sysfs writes sizes; 0 when unreadable. */
static uint64_t parse_cache_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (end == s)
		return 0;
	switch (*end) {
	case 'K': case 'k': return (uint64_t)v << 10;
	case 'M': case 'm': return (uint64_t)v << 20;
	case 'G': case 'g': return (uint64_t)v << 30;
	default: return (uint64_t)v;
	}
}

static void add_cache(struct wtg_machine *m, int level, const char *type, uint64_t size, int line,
		      const char *shared)
{
	if (m->ncaches >= WTG_MAX_CACHES || level <= 0 || size == 0)
		return;
	struct wtg_cache *c = &m->caches[m->ncaches++];
	c->level = level;
	wtg_strlcpy(c->type, type, sizeof c->type);
	c->size = size;
	c->line = line;
	wtg_strlcpy(c->shared_cpus, shared ? shared : "", sizeof c->shared_cpus);
}

void wtg_machine_read_caches(struct wtg_machine *m, const char *root)
{
	m->ncaches = 0;
	if (!root)
		root = "";
	for (int i = 0; i < 16; i++) {
		char base[512], path[600], level[16], type[32], size[32], line[16], shared[64];
		snprintf(base, sizeof base, "%s/sys/devices/system/cpu/cpu0/cache/index%d", root, i);
		snprintf(path, sizeof path, "%s/level", base);
		read_line(path, level, sizeof level);
		if (!level[0])
			break;
		snprintf(path, sizeof path, "%s/type", base);
		read_line(path, type, sizeof type);
		snprintf(path, sizeof path, "%s/size", base);
		read_line(path, size, sizeof size);
		snprintf(path, sizeof path, "%s/coherency_line_size", base);
		read_line(path, line, sizeof line);
		snprintf(path, sizeof path, "%s/shared_cpu_list", base);
		read_line(path, shared, sizeof shared);
		add_cache(m, atoi(level), type[0] ? type : "Unified", parse_cache_size(size), atoi(line), shared);
	}
	if (m->ncaches > 0) {
		m->caches_source = "sysfs";
		return;
	}
	if (root[0]) {	/* a fixture tree without caches: do not mix in this machine's */
		m->caches_source = "none";
		return;
	}
#ifdef _SC_LEVEL1_DCACHE_SIZE
	/* a virtual machine may hide cpu0/cache; the C library reads cpuid */
	static const struct { int level; const char *type; int size, line; } sc[] = {
		{ 1, "Data", _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL1_DCACHE_LINESIZE },
		{ 1, "Instruction", _SC_LEVEL1_ICACHE_SIZE, _SC_LEVEL1_ICACHE_LINESIZE },
		{ 2, "Unified", _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL2_CACHE_LINESIZE },
		{ 3, "Unified", _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL3_CACHE_LINESIZE },
		{ 4, "Unified", _SC_LEVEL4_CACHE_SIZE, _SC_LEVEL4_CACHE_LINESIZE },
	};
	for (size_t i = 0; i < WTG_ARRAY_LEN(sc); i++) {
		long size = sysconf(sc[i].size), line = sysconf(sc[i].line);
		if (size > 0)
			add_cache(m, sc[i].level, sc[i].type, (uint64_t)size, line > 0 ? (int)line : 0, NULL);
	}
#endif
	m->caches_source = m->ncaches > 0 ? "sysconf" : "none";
}

uint64_t wtg_machine_cache_size(const struct wtg_machine *m, int level)
{
	for (int i = 0; i < m->ncaches; i++)
		if (m->caches[i].level == level && strcmp(m->caches[i].type, "Instruction") != 0)
			return m->caches[i].size;
	return 0;
}

const struct wtg_cache *wtg_machine_llc(const struct wtg_machine *m)
{
	const struct wtg_cache *best = NULL;
	for (int i = 0; i < m->ncaches; i++)
		if (strcmp(m->caches[i].type, "Instruction") != 0 && (!best || m->caches[i].level > best->level))
			best = &m->caches[i];
	return best;
}
