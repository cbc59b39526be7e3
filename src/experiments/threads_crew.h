/* threads_crew.h: one sample of the threads experiment (threads_crew.c): N threads, each pinned to its
 * CPU where the process may run there, released together to sum their contiguous ranges of a mapping,
 * each range in a number of parts one after another, every part summed `reps` times. */
#ifndef WTG_THREADS_CREW_H
#define WTG_THREADS_CREW_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "common.h"
#include "crew.h"
#include "wtg/ctx.h"
#include "wtg/topology.h"

struct member {
	pthread_t th;
	struct wtg_crew *crew;
	const unsigned char *base;
	uint64_t off, len;
	int reps;
	int parts;	/* its range in this many parts, each summed reps times before the next (1: whole) */
	int want;	/* the CPU its placement gives, -1: none */
	int cpu;	/* the CPU to pin to, -1: none */
	/* results, read after the join */
	int pin_err;	/* pthread_setaffinity_np's error, 0: pinned */
	int cpu0, cpu1;	/* sched_getcpu() at the start and the end of the timed region */
	int64_t migrations;	/* between them: perf's cpu-migrations, else schedstat's, -1 unknown */
	int64_t sum; /* of the first repetition */
	bool consistent; /* every repetition gave that sum */
	int reps_done;
	int64_t t0, t1;
	struct wtg_probe_result res;
};

/* How a sample ended. */
enum { ROW_OK = 0, ROW_CANCELLED, ROW_STARVED, ROW_FAILED };

/* One sample: n members over span bytes of map (each its range in `parts` parts in turn), member i
 * pinned to cpus[i] when allowed has it (cpus NULL: none pinned), starved after limit_ms. Fills *out
 * (the caller frees it) on ROW_OK; a failure is said in the table. */
int wtg_threads_row(struct wtg_ctx *ctx, const unsigned char *map, uint64_t span, int n, int reps, int parts,
		    const int *cpus, const struct wtg_cpuset *allowed, int64_t limit_ms, struct member **out);

#endif
