/* topology.h: packages, cores, SMT siblings, NUMA nodes and core types read from sysfs, and the
 * thread-count and placement plans built on them. Every path is rooted at WTG_SYSFS_ROOT when it is
 * set, so tests can read fixture trees of machines this one is not. */
#ifndef WTG_TOPOLOGY_H
#define WTG_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WTG_TOPO_MAX_CPUS 4096
#define WTG_MAX_NODES 64
#define WTG_MAX_CORE_TYPES 4
#define WTG_MAX_COUNTS 14

/* A set of CPU numbers. */
struct wtg_cpuset {
	uint64_t bits[WTG_TOPO_MAX_CPUS / 64];
};

void wtg_cpuset_clear(struct wtg_cpuset *s);
void wtg_cpuset_add(struct wtg_cpuset *s, int cpu);
bool wtg_cpuset_has(const struct wtg_cpuset *s, int cpu);
int wtg_cpuset_count(const struct wtg_cpuset *s);
/* Parse a kernel CPU list ("0-15,32-47", "3", "" for none). Returns 0, or -1 when malformed. */
int wtg_cpuset_parse(struct wtg_cpuset *s, const char *list);
/* The set as a CPU list with ranges ("0-15,32-47"; "none" when empty); truncated to fit len. */
void wtg_cpuset_format(const struct wtg_cpuset *s, char *buf, size_t len);

struct wtg_numa_node {
	int node;
	struct wtg_cpuset cpus;
	uint64_t memory_bytes;		/* MemTotal of the node, 0 when unknown */
	int distances[WTG_MAX_NODES];	/* to each node in order of nodes[], 0 when unknown */
};

struct wtg_core_type {
	char name[16];			/* "performance", "efficiency", "big", "little", "all" */
	struct wtg_cpuset cpus;
	int count;
	long max_khz;			/* the highest cpuinfo_max_freq among its CPUs, 0 when unknown */
	int capacity;			/* ARM cpu_capacity (1024 the largest), 0 when not exposed */
};

struct wtg_topology {
	const char *root;		/* the sysfs root read ("" for the real one) */
	struct wtg_cpuset online;
	int cpus_online;
	int max_cpu;			/* highest online CPU number */
	int packages;
	int cores;			/* physical cores among the online CPUs */
	int smt;			/* threads per core (the largest sibling group) */
	int nnodes;
	struct wtg_numa_node nodes[WTG_MAX_NODES];
	int ntypes;
	struct wtg_core_type types[WTG_MAX_CORE_TYPES];
	/* per CPU number, -1 where offline or unknown */
	int16_t package_of[WTG_TOPO_MAX_CPUS];
	int16_t core_of[WTG_TOPO_MAX_CPUS];	/* a machine-wide core index (0..cores-1), siblings share it */
	int8_t node_of[WTG_TOPO_MAX_CPUS];	/* index into nodes[] */
	int8_t type_of[WTG_TOPO_MAX_CPUS];	/* index into types[] */
};

/* Read the topology below root (NULL: $WTG_SYSFS_ROOT, else the real /sys). Falls back to one
 * package, one node and one core per online CPU where sysfs says nothing. Returns 0, or -1 when
 * not even the online CPUs can be read (t then holds the fallback for sysconf's count). */
int wtg_topology_read(struct wtg_topology *t, const char *root);
/* One line for a header: "2 packages, 96 cores, SMT2, 2 NUMA nodes" or "1 package, 6P+8E cores,
 * SMT2 on P". */
void wtg_topology_summary(const struct wtg_topology *t, char *buf, size_t len);
/* The core type CPU cpu belongs to ("performance" ...), or NULL. */
const char *wtg_topology_core_type(const struct wtg_topology *t, int cpu);
/* This machine's topology, read once (rooted at WTG_SYSFS_ROOT when set); thread-safe. */
const struct wtg_topology *wtg_topology_this(void);
/* The memory its nodes' meminfo declare together, 0 when none says. */
uint64_t wtg_topology_memory(const struct wtg_topology *t);
/* The set of nodes (their numbers, as in nodes[].node) the n CPUs cpus[] belong to. */
void wtg_topology_nodes_of(const struct wtg_topology *t, const int *cpus, int n, struct wtg_cpuset *nodes);
/* The index (into nodes[]) of the node farthest from node index nd by the distance table (the next
 * one when distances are unknown); nd itself when there is one node. */
int wtg_topology_remote_node(const struct wtg_topology *t, int nd);

/* ---- core types seen by samples ---- */

/* How often a CPU of each core type was seen (sched_getcpu() at a sample's start and end). */
struct wtg_type_tally {
	uint64_t n[WTG_MAX_CORE_TYPES];
	uint64_t unknown;		/* CPUs the topology does not know */
};
/* Count one sighting of CPU cpu (-1: sched_getcpu failed, counted unknown). */
void wtg_type_tally_add(const struct wtg_topology *t, struct wtg_type_tally *tl, int cpu);
void wtg_type_tally_merge(struct wtg_type_tally *a, const struct wtg_type_tally *b);
/* The share of sightings per core type: the type's name where one type was seen ("performance",
 * "all"), else tags and percentages, largest type first: "P 70% E 30%" ("?" for unknown CPUs);
 * "n/a" when nothing was counted. */
void wtg_type_tally_format(const struct wtg_topology *t, const struct wtg_type_tally *tl, char *buf, size_t len);
/* The note a table with a core_type column carries: that the machine has one core type, or which
 * types there are (with their CPUs) and how the column counts them. */
void wtg_topology_types_note(const struct wtg_topology *t, char *buf, size_t len);

/* ---- planning ---- */

enum wtg_placement { WTG_PLACE_COMPACT = 0, WTG_PLACE_SPREAD, WTG_NPLACEMENTS };
const char *wtg_placement_name(enum wtg_placement p);

/* Thread counts for a sweep up to max threads: 1, 2, 4, ... and max itself, plus the CPUs of one
 * node and of one package where there are several, sorted, without repeats, at most WTG_MAX_COUNTS
 * (powers of two are thinned first). Returns how many were written to counts. */
int wtg_topology_thread_counts(const struct wtg_topology *t, int max, int *counts);
/* The CPUs n threads are pinned to under placement p, in thread order, written to cpus (n entries;
 * beyond the online CPUs they wrap around). compact fills a core's SMT siblings, then the node,
 * then the next node; spread puts one thread on each core, taking the nodes in turn, before any
 * core gets a second thread. Returns n. */
int wtg_topology_place(const struct wtg_topology *t, enum wtg_placement p, int n, int *cpus);

/* Where the memory a thread reads lives (on one node, all of it is local). */
enum wtg_memory {
	WTG_MEM_LOCAL = 0,		/* each thread's part on its own CPU's node */
	WTG_MEM_REMOTE,		/* each thread's part on the node farthest from its CPU's */
	WTG_MEM_INTERLEAVED,	/* pages spread over every node in turn */
};
const char *wtg_memory_name(enum wtg_memory m);

/* One row of the thread sweep. */
struct wtg_thread_plan_row {
	int threads;
	enum wtg_placement placement;
	enum wtg_memory memory;
};
#define WTG_MAX_PLAN_ROWS (WTG_NPLACEMENTS * WTG_MAX_COUNTS + WTG_MAX_COUNTS + 1)
/* The thread sweep's rows up to max threads, placement by placement, counts ascending
 * (wtg_topology_thread_counts), every row with local memory. With several nodes two contrasts are added: compact rows whose threads fit in one node
 * again with remote memory, and the largest count spread with interleaved memory. Returns the rows
 * written (at most WTG_MAX_PLAN_ROWS). */
int wtg_topology_thread_plan(const struct wtg_topology *t, int max, struct wtg_thread_plan_row *rows);

#endif
