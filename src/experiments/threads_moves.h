/* threads_moves.h: where the threads experiment's workers ran, sample by sample (threads_moves.c):
 * each worker's CPU at the start and the end of its timed region (sched_getcpu), its migrations in
 * between (the perf software event cpu-migrations on its own thread, else /proc/thread-self/sched's
 * se.nr_migrations), and whether its CPU's core type changed (sysfs' cpu_core / cpu_atom). */
#ifndef WTG_THREADS_MOVES_H
#define WTG_THREADS_MOVES_H

#include <stdbool.h>
#include <stdint.h>

#include "wtg/ctx.h"
#include "wtg/topology.h"

struct member;

/* One row's samples so far. */
struct wtg_moves {
	int nthr;		/* workers a sample */
	int n, cap;		/* samples */
	double *migr;		/* per sample: the workers' migrations, NAN unknown */
	double *cpus;		/* per sample, per worker: start CPU then end CPU (2 x nthr values) */
	int64_t total;		/* migrations over the known samples */
	int moved;		/* samples where a worker migrated or ended on another CPU */
	int type_changes;	/* samples where a worker's core type changed */
	int unknown;		/* samples with no migration count */
};

/* A sample's n members, after their join. Returns 0, or -1 out of memory (the sample is not kept). */
int wtg_moves_add(struct wtg_moves *m, const struct wtg_topology *t, const struct member *mb, int n);
/* Beside the row's bar, short enough for 80 columns: "12 migrations in 5 samples" ("CPU changes in 5
 * samples" where not counted), "core type changes in 2 samples" (or both, joined by ", "), "" when no
 * worker moved. */
void wtg_moves_words(const struct wtg_moves *m, char *buf, size_t len);
/* The series "LABEL migrations" (per sample) and "LABEL cpus" (per sample, per worker: start and end
 * CPU). */
void wtg_moves_series(struct wtg_ctx *ctx, const struct wtg_moves *m, const char *label);
void wtg_moves_free(struct wtg_moves *m);

/* For the verdict: the first row whose GB/s fell below the next lower thread count's of its group
 * (beyond its interval) while its workers moved or changed core type: "; spread 4 threads fell to
 * 15.2 GB/s from 18.1 at 2, with 12 migrations in 5 samples"; "" when none. */
struct wtg_table;
void wtg_moves_drop_words(const struct wtg_table *t, char *buf, size_t len);

/* se.nr_migrations in a /proc/PID/sched text, -1 when absent. */
int64_t wtg_sched_migrations_parse(const char *text);
/* This thread's se.nr_migrations (/proc/thread-self/sched, under WTG_SYSFS_ROOT when set), -1 when
 * unreadable (a kernel without CONFIG_SCHED_DEBUG). */
int64_t wtg_sched_migrations_self(void);

#endif
