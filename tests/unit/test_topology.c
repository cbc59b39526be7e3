/* test_topology.c: CPU lists, and the topology and plans read from the sysfs trees of five machines
 * (tests/fixtures/mksysfs.py): this VM, a two-socket 192-CPU server, a four-node EPYC, an Intel
 * hybrid laptop and an ARM phone board. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "wtg/probe.h"
#include "wtg/topology.h"
#include "wtg/util.h"

static struct wtg_topology topo;
static char root[64];

static int load(const char *name)
{
	const char *src = getenv("top_srcdir");
	/* the interpreter tests/python.sh picks: $PYTHON, else the system's, else python3 on PATH */
	const char *py = getenv("PYTHON");
	if (!py || !*py)
		py = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
	char cmd[768];
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s' && '%s' '%s/tests/fixtures/mksysfs.py' %s '%s'", root,
		 root, py, src ? src : ".", name, root);
	if (system(cmd) != 0) {
		fprintf(stderr, "cannot write the %s fixture\n", name);
		return -1;
	}
	return wtg_topology_read(&topo, root);
}

static void list_of(const struct wtg_cpuset *s, char *buf, size_t len)
{
	wtg_cpuset_format(s, buf, len);
}

/* Every online CPU once in the first cpus_online places. */
static int covers_all(const int *cpus, int n)
{
	struct wtg_cpuset seen;
	wtg_cpuset_clear(&seen);
	for (int i = 0; i < n; i++) {
		if (!wtg_cpuset_has(&topo.online, cpus[i]) || wtg_cpuset_has(&seen, cpus[i]))
			return 0;
		wtg_cpuset_add(&seen, cpus[i]);
	}
	return wtg_cpuset_count(&seen) == topo.cpus_online;
}

static int has_count(const int *counts, int n, int v)
{
	for (int i = 0; i < n; i++)
		if (counts[i] == v)
			return 1;
	return 0;
}

static int sorted_unique(const int *counts, int n)
{
	for (int i = 1; i < n; i++)
		if (counts[i] <= counts[i - 1])
			return 0;
	return 1;
}

static void test_cpusets(void)
{
	struct wtg_cpuset s;
	char buf[128];
	CHECK(wtg_cpuset_parse(&s, "0-15,32-47\n") == 0);
	CHECK(wtg_cpuset_count(&s) == 32);
	list_of(&s, buf, sizeof buf);
	CHECK_STR(buf, "0-15,32-47");
	CHECK(wtg_cpuset_parse(&s, "3") == 0 && wtg_cpuset_has(&s, 3) && wtg_cpuset_count(&s) == 1);
	list_of(&s, buf, sizeof buf);
	CHECK_STR(buf, "3");
	CHECK(wtg_cpuset_parse(&s, "0,2,4-5,7") == 0);
	list_of(&s, buf, sizeof buf);
	CHECK_STR(buf, "0,2,4-5,7");
	CHECK(wtg_cpuset_parse(&s, "") == 0 && wtg_cpuset_count(&s) == 0);
	list_of(&s, buf, sizeof buf);
	CHECK_STR(buf, "none");
	CHECK(wtg_cpuset_parse(&s, "3-1") == -1);
	CHECK(wtg_cpuset_parse(&s, "a") == -1);
	CHECK(wtg_cpuset_parse(&s, "1,,2") == -1);
	CHECK(wtg_cpuset_parse(&s, "1-") == -1);
	CHECK(wtg_cpuset_parse(&s, "99999") == -1);
	/* the probe's mask of the CPUs a measurement ran on prints the same way */
	wtg_probe_cpus_str(0x3, buf, sizeof buf);
	CHECK_STR(buf, "0-1");
	wtg_probe_cpus_str(0x1, buf, sizeof buf);
	CHECK_STR(buf, "0");
	wtg_probe_cpus_str(0xffff0000ffffull | (1ull << 63), buf, sizeof buf);
	CHECK_STR(buf, "0-15,32-47,63");
	wtg_probe_cpus_str(0, buf, sizeof buf);
	CHECK_STR(buf, "?");
	wtg_probe_cpus_str(0x55, buf, 6);
	CHECK_STR(buf, "0,2,4");
	/* a list too long for the buffer is cut at a whole range */
	CHECK(wtg_cpuset_parse(&s, "0,2,4,6,8,10,12,14") == 0);
	list_of(&s, buf, 9);	/* "0,2,4,6,8" needs 10 bytes */
	CHECK_STR(buf, "0,2,4,6");
}

static void test_vm2(void)
{
	char buf[256];
	int counts[WTG_MAX_COUNTS], cpus[8];
	CHECK(load("vm2") == 0);
	CHECK(topo.cpus_online == 2 && topo.packages == 1 && topo.cores == 2 && topo.smt == 1);
	CHECK(topo.nnodes == 1 && topo.nodes[0].memory_bytes == 4ull << 30);
	CHECK(topo.ntypes == 1);	/* every cpu_capacity equal: one core type */
	wtg_topology_summary(&topo, buf, sizeof buf);
	CHECK_STR(buf, "1 package, 2 cores, 1 NUMA node");
	int n = wtg_topology_thread_counts(&topo, 2, counts);
	CHECK(n == 2 && counts[0] == 1 && counts[1] == 2);
	wtg_topology_place(&topo, WTG_PLACE_COMPACT, 2, cpus);
	CHECK(covers_all(cpus, 2));
	wtg_topology_place(&topo, WTG_PLACE_SPREAD, 3, cpus);
	CHECK(covers_all(cpus, 2) && cpus[2] == cpus[0]);	/* beyond the CPUs: wraps around */
	/* one node: two placements x (1, 2), all local, no remote or interleaved rows */
	struct wtg_thread_plan_row plan[WTG_MAX_PLAN_ROWS];
	n = wtg_topology_thread_plan(&topo, 2, plan);
	CHECK(n == 4);
	CHECK(plan[0].threads == 1 && plan[0].placement == WTG_PLACE_COMPACT && plan[1].threads == 2);
	CHECK(plan[2].threads == 1 && plan[2].placement == WTG_PLACE_SPREAD && plan[3].threads == 2);
	for (int i = 0; i < n; i++)
		CHECK(plan[i].memory == WTG_MEM_LOCAL);
	CHECK_STR(wtg_memory_name(WTG_MEM_LOCAL), "local");
	CHECK(wtg_topology_remote_node(&topo, 0) == 0);
	wtg_topology_types_note(&topo, buf, sizeof buf);
	CHECK_STR(buf, "one core type on this machine (all, 2 CPUs): core_type is the same on every row");
	/* every CPU maps to the one type */
	struct wtg_type_tally tl = { { 0 }, 0 };
	wtg_type_tally_format(&topo, &tl, buf, sizeof buf);
	CHECK_STR(buf, "n/a");
	wtg_type_tally_add(&topo, &tl, 0);
	wtg_type_tally_add(&topo, &tl, 1);
	wtg_type_tally_format(&topo, &tl, buf, sizeof buf);
	CHECK_STR(buf, "all");
}

static void test_server192(void)
{
	char buf[256];
	int counts[WTG_MAX_COUNTS];
	static int cpus[400];
	CHECK(load("server192") == 0);
	CHECK(topo.cpus_online == 192 && topo.packages == 2 && topo.cores == 96 && topo.smt == 2);
	CHECK(topo.nnodes == 2);
	list_of(&topo.nodes[0].cpus, buf, sizeof buf);
	CHECK_STR(buf, "0-47,96-143");
	list_of(&topo.nodes[1].cpus, buf, sizeof buf);
	CHECK_STR(buf, "48-95,144-191");
	CHECK(topo.nodes[1].memory_bytes == 256ull << 30);
	CHECK(topo.nodes[0].distances[0] == 10 && topo.nodes[0].distances[1] == 21);
	CHECK(topo.package_of[150] == 1 && topo.core_of[150] == topo.core_of[54]);	/* siblings */
	wtg_topology_summary(&topo, buf, sizeof buf);
	CHECK_STR(buf, "2 packages, 96 cores, SMT2, 2 NUMA nodes");

	int n = wtg_topology_thread_counts(&topo, 192, counts);
	CHECK(n >= 6 && n <= WTG_MAX_COUNTS && sorted_unique(counts, n));
	CHECK(has_count(counts, n, 1) && has_count(counts, n, 96) && has_count(counts, n, 192));
	CHECK(counts[n - 1] == 192);
	/* --threads beyond the CPUs keeps every CPU as a count of its own */
	n = wtg_topology_thread_counts(&topo, 384, counts);
	CHECK(has_count(counts, n, 192) && counts[n - 1] == 384 && n <= WTG_MAX_COUNTS);

	/* compact: a core's two threads first; spread: one thread per core, the nodes in turn */
	wtg_topology_place(&topo, WTG_PLACE_COMPACT, 4, cpus);
	CHECK(cpus[0] == 0 && cpus[1] == 96 && cpus[2] == 1 && cpus[3] == 97);
	wtg_topology_place(&topo, WTG_PLACE_SPREAD, 4, cpus);
	CHECK(cpus[0] == 0 && cpus[1] == 48 && cpus[2] == 1 && cpus[3] == 49);
	wtg_topology_place(&topo, WTG_PLACE_SPREAD, 96, cpus);
	int firsts = 0;
	for (int i = 0; i < 96; i++)
		firsts += cpus[i] < 96;	/* the first 96 threads take one thread of every core */
	CHECK(firsts == 96);
	wtg_topology_place(&topo, WTG_PLACE_SPREAD, 192, cpus);
	CHECK(covers_all(cpus, 192));
	wtg_topology_place(&topo, WTG_PLACE_COMPACT, 192, cpus);
	CHECK(covers_all(cpus, 192));
	/* compact fills node 0 before touching node 1 */
	wtg_topology_place(&topo, WTG_PLACE_COMPACT, 96, cpus);
	int on0 = 0;
	for (int i = 0; i < 96; i++)
		on0 += topo.node_of[cpus[i]] == 0;
	CHECK(on0 == 96);

	/* the plan: compact and spread over the counts, all local; compact again with remote memory
	 * for the counts that fit in node 0 (1 .. 96), the largest count spread over interleaved memory */
	struct wtg_thread_plan_row plan[WTG_MAX_PLAN_ROWS];
	int np = wtg_topology_thread_plan(&topo, 192, plan);
	n = wtg_topology_thread_counts(&topo, 192, counts);
	int local[WTG_NPLACEMENTS] = { 0 }, remote = 0, inter = 0;
	for (int i = 0; i < np; i++) {
		if (plan[i].memory == WTG_MEM_LOCAL)
			local[plan[i].placement]++;
		if (plan[i].memory == WTG_MEM_REMOTE) {
			CHECK(plan[i].placement == WTG_PLACE_COMPACT && plan[i].threads <= 96);
			remote++;
		}
		if (plan[i].memory == WTG_MEM_INTERLEAVED) {
			CHECK(plan[i].placement == WTG_PLACE_SPREAD && plan[i].threads == 192);
			inter++;
		}
	}
	CHECK(local[WTG_PLACE_COMPACT] == n && local[WTG_PLACE_SPREAD] == n);
	int fit = 0;
	for (int i = 0; i < n; i++)
		fit += counts[i] <= 96;	/* the counts whose compact threads fit in node 0 */
	CHECK(remote == fit && fit >= 2 && fit < n && inter == 1 && np == 2 * n + fit + 1);
	CHECK(np <= WTG_MAX_PLAN_ROWS && plan[0].threads == 1 && plan[np - 1].threads == 192);
	CHECK(wtg_topology_remote_node(&topo, 0) == 1 && wtg_topology_remote_node(&topo, 1) == 0);
	struct wtg_cpuset nodes;
	wtg_topology_place(&topo, WTG_PLACE_SPREAD, 4, cpus);
	wtg_topology_nodes_of(&topo, cpus, 4, &nodes);
	list_of(&nodes, buf, sizeof buf);
	CHECK_STR(buf, "0-1");
	wtg_topology_place(&topo, WTG_PLACE_COMPACT, 4, cpus);
	wtg_topology_nodes_of(&topo, cpus, 4, &nodes);
	list_of(&nodes, buf, sizeof buf);
	CHECK_STR(buf, "0");
}

static void test_epyc4(void)
{
	char buf[256];
	int counts[WTG_MAX_COUNTS], cpus[8];
	CHECK(load("epyc4") == 0);
	CHECK(topo.cpus_online == 128 && topo.packages == 1 && topo.cores == 64 && topo.smt == 2);
	CHECK(topo.nnodes == 4);
	list_of(&topo.nodes[2].cpus, buf, sizeof buf);
	CHECK_STR(buf, "32-47,96-111");
	CHECK(topo.nodes[3].distances[0] == 12 && topo.nodes[3].distances[3] == 10);
	wtg_topology_summary(&topo, buf, sizeof buf);
	CHECK_STR(buf, "1 package, 64 cores, SMT2, 4 NUMA nodes");
	int n = wtg_topology_thread_counts(&topo, 128, counts);
	CHECK(sorted_unique(counts, n) && has_count(counts, n, 1) && has_count(counts, n, 32) &&
	      counts[n - 1] == 128);
	wtg_topology_place(&topo, WTG_PLACE_SPREAD, 4, cpus);
	CHECK(cpus[0] == 0 && cpus[1] == 16 && cpus[2] == 32 && cpus[3] == 48);	/* one per node */
	/* the remote node is the farthest by the distance table */
	int far = wtg_topology_remote_node(&topo, 0);
	for (int j = 0; j < topo.nnodes; j++)
		CHECK(topo.nodes[0].distances[j] <= topo.nodes[0].distances[far]);
	CHECK(far != 0);
	struct wtg_thread_plan_row plan[WTG_MAX_PLAN_ROWS];
	int np = wtg_topology_thread_plan(&topo, 128, plan);
	CHECK(np <= WTG_MAX_PLAN_ROWS && plan[np - 1].memory == WTG_MEM_INTERLEAVED);
}

static void test_hybrid(void)
{
	char buf[256];
	CHECK(load("hybrid") == 0);
	CHECK(topo.cpus_online == 16 && topo.cores == 12 && topo.smt == 2 && topo.nnodes == 1);
	CHECK(topo.ntypes == 2);
	CHECK_STR(topo.types[0].name, "performance");
	CHECK(topo.types[0].count == 8 && topo.types[0].max_khz == 4700000);
	CHECK_STR(topo.types[1].name, "efficiency");
	CHECK(topo.types[1].count == 8 && topo.types[1].max_khz == 3400000);
	CHECK_STR(wtg_topology_core_type(&topo, 9), "efficiency");
	CHECK_STR(wtg_topology_core_type(&topo, 1), "performance");
	CHECK(wtg_topology_core_type(&topo, 99) == NULL);
	wtg_topology_summary(&topo, buf, sizeof buf);
	CHECK_STR(buf, "1 package, 4P+8E cores, SMT2, 1 NUMA node");

	/* samples' CPUs map to their core types: 7 on P-cores, 3 on E-cores */
	struct wtg_type_tally tl = { { 0 }, 0 }, more = { { 0 }, 0 };
	for (int i = 0; i < 7; i++)
		wtg_type_tally_add(&topo, &tl, i);
	for (int i = 0; i < 3; i++)
		wtg_type_tally_add(&topo, &more, 8 + i);
	wtg_type_tally_format(&topo, &tl, buf, sizeof buf);
	CHECK_STR(buf, "performance");	/* one type seen: its name */
	wtg_type_tally_merge(&tl, &more);
	CHECK(tl.n[0] == 7 && tl.n[1] == 3 && tl.unknown == 0);
	wtg_type_tally_format(&topo, &tl, buf, sizeof buf);
	CHECK_STR(buf, "P 70% E 30%");
	/* a CPU the topology does not know, or sched_getcpu's failure, is "?" */
	wtg_type_tally_add(&topo, &more, -1);
	wtg_type_tally_add(&topo, &more, 99);
	wtg_type_tally_format(&topo, &more, buf, sizeof buf);
	CHECK_STR(buf, "E 60% ? 40%");
	wtg_topology_types_note(&topo, buf, sizeof buf);
	CHECK(strstr(buf, "core types: P = performance (CPUs 0-7), E = efficiency (CPUs 8-15); ") == buf);
}

static void test_phone(void)
{
	char buf[256];
	CHECK(load("phone") == 0);
	/* core_id repeats in each cluster, yet every CPU is a core of its own */
	CHECK(topo.cpus_online == 8 && topo.cores == 8 && topo.smt == 1);
	CHECK(topo.ntypes == 3);
	CHECK_STR(topo.types[0].name, "big");
	CHECK(topo.types[0].count == 1 && topo.types[0].capacity == 1024);
	CHECK_STR(topo.types[1].name, "middle");
	CHECK(topo.types[1].count == 3);
	CHECK_STR(topo.types[2].name, "little");
	CHECK(topo.types[2].count == 4 && topo.types[2].max_khz == 1800000);
	wtg_topology_summary(&topo, buf, sizeof buf);
	CHECK_STR(buf, "1 package, 1B+3M+4L cores, 1 NUMA node");

	/* the big core is the type of its CPU, whichever number it has; shares by size */
	struct wtg_type_tally tl = { { 0 }, 0 };
	for (int c = 0; c < 8; c++)
		wtg_type_tally_add(&topo, &tl, c);
	CHECK(tl.n[0] == 1 && tl.n[1] == 3 && tl.n[2] == 4);
	wtg_type_tally_format(&topo, &tl, buf, sizeof buf);
	CHECK_STR(buf, "L 50% M 38% B 12%");
	wtg_topology_types_note(&topo, buf, sizeof buf);
	CHECK(strstr(buf, "B = big (CPUs ") && strstr(buf, "M = middle") && strstr(buf, "L = little"));
}

static void test_empty_root(void)
{
	/* a root with nothing in it: the fallback is sysconf's CPUs, one node, one core type */
	char cmd[160];
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", root, root);
	CHECK(system(cmd) == 0);
	CHECK(wtg_topology_read(&topo, root) == -1);
	CHECK(topo.cpus_online == wtg_online_cpus() && topo.nnodes == 1 && topo.packages == 1);
	CHECK(topo.ntypes == 1 && topo.smt == 1);
}

int main(void)
{
	snprintf(root, sizeof root, "/tmp/wtg-test-topology-%d", (int)getpid());
	test_cpusets();
	test_vm2();
	test_server192();
	test_epyc4();
	test_hybrid();
	test_phone();
	test_empty_root();
	/* this machine reads without error and agrees with sysconf */
	CHECK(wtg_topology_read(&topo, "") == 0);
	CHECK(topo.cpus_online == wtg_online_cpus());
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
	return unit_done("test_topology");
}
