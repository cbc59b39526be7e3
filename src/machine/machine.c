/* machine.c: the machine block (CPU, pages, kernel, clock source, hypervisor, THP). */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>
#include <sys/utsname.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "wtg/kernels.h"
#include "wtg/machine.h"
#include "wtg/probe.h"
#include "wtg/topology.h"
#include "wtg/util.h"

/* The next line of text at *pos (NUL-terminated in place), or NULL at the end. */
static char *next_line(char **pos)
{
	char *line = *pos;
	if (!line || !*line)
		return NULL;
	char *nl = strchr(line, '\n');
	if (nl)
		*nl++ = '\0';
	*pos = nl;
	return line;
}

/* arm64 cores by their MIDR fields (the "CPU implementer" and "CPU part" lines of /proc/cpuinfo), as
 * the vendors' manuals and the kernel's arch/arm64/include/asm/cputype.h number them. */
static const struct {
	unsigned implementer;
	const char *name;
} arm_implementers[] = {
	{ 0x41, "Arm" }, { 0x42, "Broadcom" }, { 0x43, "Cavium" }, { 0x46, "Fujitsu" }, { 0x48, "HiSilicon" },
	{ 0x4e, "NVIDIA" }, { 0x50, "Applied Micro" }, { 0x51, "Qualcomm" }, { 0x61, "Apple" }, { 0x6d, "Microsoft" },
	{ 0xc0, "Ampere" },
};

static const struct {
	unsigned implementer, part;
	const char *name;
} arm_cores[] = {
	{ 0x41, 0xd03, "Cortex-A53" }, { 0x41, 0xd04, "Cortex-A35" }, { 0x41, 0xd05, "Cortex-A55" },
	{ 0x41, 0xd07, "Cortex-A57" }, { 0x41, 0xd08, "Cortex-A72" }, { 0x41, 0xd09, "Cortex-A73" },
	{ 0x41, 0xd0a, "Cortex-A75" }, { 0x41, 0xd0b, "Cortex-A76" }, { 0x41, 0xd0c, "Neoverse N1" },
	{ 0x41, 0xd0d, "Cortex-A77" }, { 0x41, 0xd40, "Neoverse V1" }, { 0x41, 0xd41, "Cortex-A78" },
	{ 0x41, 0xd44, "Cortex-X1" }, { 0x41, 0xd46, "Cortex-A510" }, { 0x41, 0xd47, "Cortex-A710" },
	{ 0x41, 0xd48, "Cortex-X2" }, { 0x41, 0xd49, "Neoverse N2" }, { 0x41, 0xd4a, "Neoverse E1" },
	{ 0x41, 0xd4b, "Cortex-A78C" }, { 0x41, 0xd4d, "Cortex-A715" }, { 0x41, 0xd4e, "Cortex-X3" },
	{ 0x41, 0xd4f, "Neoverse V2" }, { 0x41, 0xd80, "Cortex-A520" }, { 0x41, 0xd81, "Cortex-A720" },
	{ 0x41, 0xd82, "Cortex-X4" }, { 0x41, 0xd84, "Neoverse V3" }, { 0x41, 0xd8e, "Neoverse N3" },
	{ 0x43, 0x0af, "ThunderX2" }, { 0x46, 0x001, "A64FX" }, { 0x48, 0xd01, "Kunpeng 920" },
	{ 0x4e, 0x004, "Carmel" }, { 0x51, 0x800, "Kryo 2xx Gold" }, { 0x51, 0x801, "Kryo 2xx Silver" },
	{ 0x51, 0x802, "Kryo 3xx Gold" }, { 0x51, 0x803, "Kryo 3xx Silver" }, { 0x51, 0x804, "Kryo 4xx Gold" },
	{ 0x51, 0x805, "Kryo 4xx Silver" }, { 0x61, 0x022, "M1 Icestorm" }, { 0x61, 0x023, "M1 Firestorm" },
	{ 0x61, 0x032, "M2 Blizzard" }, { 0x61, 0x033, "M2 Avalanche" }, { 0x61, 0x024, "M1 Pro Icestorm" },
	{ 0x61, 0x025, "M1 Pro Firestorm" }, { 0x61, 0x028, "M1 Max Icestorm" }, { 0x61, 0x029, "M1 Max Firestorm" },
	{ 0x61, 0x034, "M2 Pro Blizzard" }, { 0x61, 0x035, "M2 Pro Avalanche" }, { 0x61, 0x038, "M2 Max Blizzard" },
	{ 0x61, 0x039, "M2 Max Avalanche" }, { 0x51, 0x001, "Oryon" }, { 0xc0, 0xac3, "AmpereOne" },
	{ 0xc0, 0xac4, "AmpereOne" },
};

const char *wtg_arm_implementer_name(unsigned implementer)
{
	for (size_t i = 0; i < WTG_ARRAY_LEN(arm_implementers); i++)
		if (arm_implementers[i].implementer == implementer)
			return arm_implementers[i].name;
	return NULL;
}

const char *wtg_arm_core_name(unsigned implementer, unsigned part)
{
	for (size_t i = 0; i < WTG_ARRAY_LEN(arm_cores); i++)
		if (arm_cores[i].implementer == implementer && arm_cores[i].part == part)
			return arm_cores[i].name;
	return NULL;
}

/* The features the byte sums choose by, in the order cpu_features lists them. */
static const char *const simd_features[] = { "sse2", "avx2", "avx512bw", "avx512_vnni", "avx_vnni",
					     "asimd", "asimddp", "sve", "sve2", "i8mm" };

/* Whether the space-separated list has the word. */
static bool has_word(const char *list, const char *word)
{
	const size_t n = strlen(word);
	for (const char *p = strstr(list, word); p; p = strstr(p + 1, word))
		if ((p == list || p[-1] == ' ' || p[-1] == '\t') && (p[n] == '\0' || p[n] == ' ' || p[n] == '\t'))
			return true;
	return false;
}

/* "Arm Neoverse N1", "Apple M1 Firestorm", "Arm part 0xd99" (unknown part), "implementer 0x99 part 0x1". */
static void arm_core_words(char *buf, size_t len, unsigned implementer, unsigned part)
{
	const char *vendor = wtg_arm_implementer_name(implementer), *core = wtg_arm_core_name(implementer, part);
	if (vendor && core)
		snprintf(buf, len, "%s %s", vendor, core);
	else if (vendor)
		snprintf(buf, len, "%s part 0x%03x", vendor, part);
	else
		snprintf(buf, len, "implementer 0x%02x part 0x%03x", implementer, part);
}

/* arm64: the distinct cores (implementer, part) in the order the CPUs list them, up to 4 */
struct arm_cores_seen {
	unsigned implementer[4], part[4];
	int n;
	long cur_implementer;	/* the current processor block's, -1 before its line */
};

static void arm_core_seen(struct arm_cores_seen *a, unsigned part)
{
	if (a->cur_implementer < 0)
		return;
	for (int i = 0; i < a->n; i++)
		if (a->implementer[i] == (unsigned)a->cur_implementer && a->part[i] == part)
			return;
	if (a->n < 4) {
		a->implementer[a->n] = (unsigned)a->cur_implementer;
		a->part[a->n++] = part;
	}
}

void wtg_machine_parse_cpuinfo(struct wtg_machine *m, char *text)
{
	char *pos = text, *line;
	bool got_model = false, got_flags = false;
	int processors = 0;
	char midr[4][16] = { "", "", "", "" };	/* CPU 0's implementer, part, variant, revision */
	char x86[3][16] = { "", "", "" };	/* CPU 0's family, model, stepping */
	static const char *const midr_keys[4] = { "CPU implementer", "CPU part", "CPU variant", "CPU revision" };
	static const char *const x86_keys[3] = { "cpu family", "model", "stepping" };
	struct arm_cores_seen seen = { .n = 0, .cur_implementer = -1 };
	while ((line = next_line(&pos)) != NULL) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		char *val = colon + 1, *k = colon;
		while (*val == ' ' || *val == '\t')
			val++;
		while (k > line && (k[-1] == ' ' || k[-1] == '\t'))
			k--;
		*k = '\0';	/* line is the key now */
		if (strcmp(line, "processor") == 0) {
			processors++;
			seen.cur_implementer = -1;
		} else if (!got_model && (strcmp(line, "model name") == 0 || strcmp(line, "Model") == 0)) {
			wtg_strlcpy(m->cpu_model, val, sizeof m->cpu_model);
			got_model = true;
		} else if (strcmp(line, "flags") == 0 || strcmp(line, "Features") == 0) {
			if (has_word(val, "hypervisor"))
				m->hypervisor = true;
			for (size_t i = 0; !got_flags && i < WTG_ARRAY_LEN(simd_features); i++)
				if (has_word(val, simd_features[i]))
					snprintf(m->cpu_features + strlen(m->cpu_features),
						 sizeof m->cpu_features - strlen(m->cpu_features), "%s%s",
						 m->cpu_features[0] ? " " : "", simd_features[i]);
			got_flags = true;
		}
		for (int i = 0; i < 4; i++)
			if (strcmp(line, midr_keys[i]) == 0) {
				if (processors <= 1)
					wtg_strlcpy(midr[i], val, sizeof midr[i]);
				if (i == 0)
					seen.cur_implementer = (long)strtoul(val, NULL, 0);
				else if (i == 1)
					arm_core_seen(&seen, (unsigned)strtoul(val, NULL, 0));
			}
		for (int i = 0; i < 3 && processors <= 1; i++)
			if (strcmp(line, x86_keys[i]) == 0)
				wtg_strlcpy(x86[i], val, sizeof x86[i]);
	}
	if (midr[0][0] && midr[1][0])
		snprintf(m->cpu_id, sizeof m->cpu_id, "implementer %s part %s variant %s revision %s", midr[0], midr[1],
			 midr[2][0] ? midr[2] : "?", midr[3][0] ? midr[3] : "?");
	else if (x86[0][0] && x86[1][0])
		snprintf(m->cpu_id, sizeof m->cpu_id, "family %s model %s stepping %s", x86[0], x86[1],
			 x86[2][0] ? x86[2] : "?");
	/* arm64 names no model: the cores' names, big and little joined ("Arm Cortex-A76 + Arm Cortex-A55") */
	size_t o = 0;
	for (int i = 0; i < seen.n && o < sizeof m->cpu_model; i++) {
		char words[64];
		arm_core_words(words, sizeof words, seen.implementer[i], seen.part[i]);
		o += (size_t)snprintf(m->cpu_model + o, sizeof m->cpu_model - o, "%s%s", i ? " + " : "", words);
	}
}

/* The CPU model, its numbers and features, and the hypervisor flag from /proc/cpuinfo. */
static void read_cpuinfo(struct wtg_machine *m)
{
	char *text = wtg_read_text("/proc/cpuinfo");
	if (text)
		wtg_machine_parse_cpuinfo(m, text);
	free(text);
}

void wtg_machine_read(struct wtg_machine *m)
{
	memset(m, 0, sizeof *m);
	wtg_strlcpy(m->cpu_model, "unknown CPU", sizeof m->cpu_model);
	read_cpuinfo(m);
	wtg_strlcpy(m->kernel_simd, wtg_sum_simd_name(), sizeof m->kernel_simd);
	wtg_strlcpy(m->kernel_native, wtg_sum_kernel("native")->isa, sizeof m->kernel_native);
	/* the CPUs the topology counts (a WTG_SYSFS_ROOT tree's, else this machine's): one source */
	m->cpus = wtg_topology_this()->cpus_online;
	m->page_size = sysconf(_SC_PAGESIZE);
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(m->kernel, sizeof m->kernel, "%s %s %s", u.sysname, u.release, u.machine);
	wtg_read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", m->clocksource,
		      sizeof m->clocksource);
	if (!m->clocksource[0])
		wtg_strlcpy(m->clocksource, "unknown", sizeof m->clocksource);
	char thp[128];
	wtg_read_line("/sys/kernel/mm/transparent_hugepage/enabled", thp, sizeof thp);
	char *l = strchr(thp, '['), *r = l ? strchr(l, ']') : NULL;
	if (l && r) {
		*r = '\0';
		wtg_strlcpy(m->thp, l + 1, sizeof m->thp);
	} else {
		wtg_strlcpy(m->thp, thp[0] ? thp : "unknown", sizeof m->thp);
	}
	m->hw_counters = wtg_probe_have_hw_counters();
	wtg_machine_read_caches(m, getenv("WTG_SYSFS_ROOT"));
	wtg_machine_read_context(m, getenv("WTG_SYSFS_ROOT"));
}

/* wtg_read_line on root + path. */
static void read_rooted(const char *root, const char *path, char *buf, size_t len)
{
	char full[512];
	snprintf(full, sizeof full, "%s%s", root, path);
	wtg_read_line(full, buf, len);
}

/* PRETTY_NAME of os-release (/etc, else /usr/lib), unquoted; else NAME and VERSION_ID. */
static void read_os(struct wtg_machine *m, const char *root)
{
	static const char *const paths[] = { "/etc/os-release", "/usr/lib/os-release" };
	char name[128] = "", version[64] = "";
	for (size_t i = 0; i < WTG_ARRAY_LEN(paths) && !m->os[0] && !name[0]; i++) {
		char full[512];
		snprintf(full, sizeof full, "%s%s", root, paths[i]);
		char text[4096], *pos = text, *line;
		if (wtg_read_small(full, text, sizeof text) <= 0)
			continue;
		while ((line = next_line(&pos)) != NULL) {
			char *eq = strchr(line, '=');
			if (!eq)
				continue;
			*eq = '\0';
			char *v = eq + 1;
			size_t n = strlen(v);
			if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
				v[n - 1] = '\0';
				v++;
			}
			if (strcmp(line, "PRETTY_NAME") == 0)
				wtg_strlcpy(m->os, v, sizeof m->os);
			else if (strcmp(line, "NAME") == 0)
				wtg_strlcpy(name, v, sizeof name);
			else if (strcmp(line, "VERSION_ID") == 0)
				wtg_strlcpy(version, v, sizeof version);
		}
	}
	if (!m->os[0] && name[0])
		snprintf(m->os, sizeof m->os, "%s%s%s", name, version[0] ? " " : "", version);
}

/* The hypervisor's name: cpuid leaf 0x40000000 where the hypervisor flag is set, else
 * /sys/hypervisor/type; "none" on bare metal, "" when it cannot be told. */
static void read_virtualization(struct wtg_machine *m, const char *root)
{
	char type[32];
	read_rooted(root, "/sys/hypervisor/type", type, sizeof type);
	if (type[0]) {
		wtg_strlcpy(m->virtualization, type, sizeof m->virtualization);
		return;
	}
	if (!m->hypervisor) {
		wtg_strlcpy(m->virtualization, "none", sizeof m->virtualization);
		return;
	}
#if defined(__x86_64__) || defined(__i386__)
	static const struct { const char *sig, *name; } known[] = {
		{ "KVMKVMKVM", "kvm" }, { "Microsoft Hv", "microsoft" }, { "VMwareVMware", "vmware" },
		{ "XenVMMXenVMM", "xen" }, { "TCGTCGTCGTCG", "qemu" }, { "ACRNACRNACRN", "acrn" },
		{ "bhyve bhyve ", "bhyve" }, { " lrpepyh  vr", "parallels" }, { "VBoxVBoxVBox", "oracle" },
		{ "QNXQVMBSQG", "qnx" }, { "Linux KVM Hv", "kvm" },
	};
	unsigned a, b, c, d;
	__cpuid(0x40000000, a, b, c, d);
	char sig[13];
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	for (size_t i = 0; i < WTG_ARRAY_LEN(known); i++)
		if (strncmp(sig, known[i].sig, strlen(known[i].sig)) == 0) {
			wtg_strlcpy(m->virtualization, known[i].name, sizeof m->virtualization);
			return;
		}
#endif
	wtg_strlcpy(m->virtualization, "unknown hypervisor", sizeof m->virtualization);
}

/* One line per file of /sys/devices/system/cpu/vulnerabilities, sorted by name. */
static void read_mitigations(struct wtg_machine *m, const char *root)
{
	char dir[512];
	snprintf(dir, sizeof dir, "%s/sys/devices/system/cpu/vulnerabilities", root);
	struct dirent **list = NULL;
	int n = scandir(dir, &list, NULL, alphasort);
	m->nmitigations = n < 0 ? -1 : 0;
	for (int i = 0; i < n; i++) {
		const char *name = list[i]->d_name;
		if (name[0] != '.' && m->nmitigations < WTG_MAX_MITIGATIONS) {
			char path[800];
			snprintf(path, sizeof path, "%s/%s", dir, name);
			int k = m->nmitigations;
			wtg_read_line(path, m->mitigations[k].status, sizeof m->mitigations[k].status);
			wtg_strlcpy(m->mitigations[k].name, name, sizeof m->mitigations[k].name);
			m->nmitigations++;
		}
		free(list[i]);
	}
	free(list);
}

/* "1"/"0" as a flag; -1 when empty or anything else. */
static int flag(const char *s)
{
	return strcmp(s, "1") == 0 ? 1 : strcmp(s, "0") == 0 ? 0 : -1;
}

void wtg_machine_read_context(struct wtg_machine *m, const char *root)
{
	root = root ? root : "";
	if (gethostname(m->hostname, sizeof m->hostname) < 0)
		m->hostname[0] = '\0';
	m->hostname[sizeof m->hostname - 1] = '\0';
	read_os(m, root);
	long pages = sysconf(_SC_PHYS_PAGES);
	m->memory_bytes = pages > 0 && m->page_size > 0 ? (uint64_t)pages * (uint64_t)m->page_size : 0;
	/* a fixture tree is another machine: its nodes' memory, where they say */
	uint64_t tree = root[0] ? wtg_topology_memory(wtg_topology_this()) : 0;
	if (tree)
		m->memory_bytes = tree;
	read_rooted(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", m->governor,
		    sizeof m->governor);
	char buf[32];
	read_rooted(root, "/sys/devices/system/cpu/cpufreq/boost", buf, sizeof buf);
	m->boost = flag(buf);
	if (m->boost < 0) {	/* intel_pstate says it the other way round */
		read_rooted(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", buf, sizeof buf);
		m->boost = flag(buf) < 0 ? -1 : !flag(buf);
	}
	read_rooted(root, "/sys/devices/system/cpu/smt/control", m->smt, sizeof m->smt);
	read_rooted(root, "/sys/devices/system/cpu/smt/active", buf, sizeof buf);
	m->smt_active = flag(buf);
	read_mitigations(m, root);
	read_virtualization(m, root);
}

/* "48K", "2048K", "32M" as sysfs writes sizes: digits, one optional unit, then nothing but white
 * space. 0 when it is not such a text or says more than UINT64_MAX bytes. */
static uint64_t parse_cache_size(const char *s)
{
	if (*s < '0' || *s > '9')
		return 0;	/* no sign, no space before: a size the kernel writes */
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	int shift = 0;
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	default: break;
	}
	end += strspn(end, " \t\n");
	if (errno || *end || v > (UINT64_MAX >> shift))
		return 0;
	return (uint64_t)v << shift;
}

bool wtg_cache_size_sane(uint64_t bytes)
{
	return bytes >= WTG_CACHE_MIN && bytes <= WTG_CACHE_MAX;
}

/* The note a cache left out leaves: the first one's words (note_more adds how many more). */
static void note_left_out(struct wtg_machine *m, const char *where, const char *text)
{
	if (m->caches_left_out++ > 0)
		return;
	char esc[48];
	wtg_escape(esc, sizeof esc, text);
	snprintf(m->caches_note, sizeof m->caches_note, "%s size \"%s\" is not between 1K and 1T: left out",
		 where, esc);
}

/* " (and N more)" after the note when more than one cache was left out. */
static void note_more(struct wtg_machine *m)
{
	size_t n = strlen(m->caches_note);
	if (m->caches_left_out > 1 && n < sizeof m->caches_note)
		snprintf(m->caches_note + n, sizeof m->caches_note - n, " (and %d more)", m->caches_left_out - 1);
}

static void add_cache(struct wtg_machine *m, int level, const char *type, uint64_t size, int line,
		      const char *shared)
{
	if (m->ncaches >= WTG_MAX_CACHES || level <= 0 || level > 9 || !wtg_cache_size_sane(size))
		return;
	struct wtg_cache *c = &m->caches[m->ncaches++];
	c->level = level;
	wtg_strlcpy(c->type, type, sizeof c->type);
	c->size = size;
	c->line = line > 0 && line <= 4096 ? line : 0;
	wtg_strlcpy(c->shared_cpus, shared ? shared : "", sizeof c->shared_cpus);
}

/* A decimal number of 0 .. 65536 (a cache level, a line size) alone on its line; -1 otherwise. */
static int small_number(const char *s)
{
	char *end;
	long v = *s >= '0' && *s <= '9' ? strtol(s, &end, 10) : -1;
	return v >= 0 && v <= 65536 && *end == '\0' ? (int)v : -1;
}

/* cpu0/cache/indexN of root into m; sizes out of range leave a note instead of a cache. */
static void read_sysfs_caches(struct wtg_machine *m, const char *root)
{
	for (int i = 0; i < 16; i++) {
		char base[512], path[600], level[16], type[32], size[32], line[16], shared[64];
		snprintf(base, sizeof base, "%s/sys/devices/system/cpu/cpu0/cache/index%d", root, i);
		snprintf(path, sizeof path, "%s/level", base);
		wtg_read_line(path, level, sizeof level);
		if (!level[0])
			break;
		snprintf(path, sizeof path, "%s/type", base);
		wtg_read_line(path, type, sizeof type);
		snprintf(path, sizeof path, "%s/size", base);
		wtg_read_line(path, size, sizeof size);
		snprintf(path, sizeof path, "%s/coherency_line_size", base);
		wtg_read_line(path, line, sizeof line);
		snprintf(path, sizeof path, "%s/shared_cpu_list", base);
		wtg_read_line(path, shared, sizeof shared);
		uint64_t bytes = parse_cache_size(size);
		if (size[0] && !wtg_cache_size_sane(bytes)) {
			char where[32];
			snprintf(where, sizeof where, "cache index%d", i);
			note_left_out(m, where, size);
		}
		add_cache(m, small_number(level), type[0] ? type : "Unified", bytes, small_number(line), shared);
	}
}

void wtg_machine_read_caches(struct wtg_machine *m, const char *root)
{
	m->ncaches = 0;
	m->caches_left_out = 0;
	m->caches_note[0] = '\0';
	if (!root)
		root = "";
	read_sysfs_caches(m, root);
	note_more(m);
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
		if (size > 0 && !wtg_cache_size_sane((uint64_t)size)) {
			char where[32], text[24];
			snprintf(where, sizeof where, "sysconf L%d %s", sc[i].level, sc[i].type);
			snprintf(text, sizeof text, "%ld", size);
			note_left_out(m, where, text);
		}
		if (size > 0)
			add_cache(m, sc[i].level, sc[i].type, (uint64_t)size, line > 0 ? (int)line : 0, NULL);
	}
#endif
	note_more(m);
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
