/* crew.h: helper threads the worker supervises. */
#ifndef WTG_EXPERIMENTS_CREW_H
#define WTG_EXPERIMENTS_CREW_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wtg/conditions.h"
#include "wtg/ctx.h"
#include "wtg/guard.h"

#define WTG_CREW_METERED 16	/* members whose starvation is metered: the first to reach the start line */

/* Helper threads the worker supervises: they wait at the start line, run, and report done; the worker
 * waits in slices of at most 100 ms calling wtg_ctx_cancelled(), so it stays responsive. */
struct wtg_crew {
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* CLOCK_MONOTONIC */
	int ready, done;
	bool go;
	atomic_bool stop;	/* members stop at their next check */
	atomic_bool shrank;	/* a member's read hit the end of a shrunken mapping (then stop is set) */
	/* wtg_crew_run's limit: how long a member may be starved (wtg_starve_meter), under lock */
	int64_t limit_ns;
	struct wtg_active_clock clock;	/* since wtg_crew_run */
	int nmeters;
	struct wtg_starve_meter meters[WTG_CREW_METERED];
};

enum { WTG_CREW_REACHED = 0, WTG_CREW_CANCELLED, WTG_CREW_TIMEOUT };

int wtg_crew_init(struct wtg_crew *c);
void wtg_crew_destroy(struct wtg_crew *c);
/* Member: announce readiness and wait for the start; false when told to stop instead. */
bool wtg_crew_await_start(struct wtg_crew *c);
void wtg_crew_done(struct wtg_crew *c);
/* Worker: give the start (with stop set, members leave without working). */
void wtg_crew_open(struct wtg_crew *c);
/* Worker: wait until n members are ready (ready) or done (!ready). Returns WTG_CREW_REACHED, or
 * WTG_CREW_CANCELLED when the run was cancelled (only if stop_on_cancel), or WTG_CREW_TIMEOUT (only if
 * limited) once a metered member has been starved for the crew's limit_ns: runnable, waiting for a
 * CPU, so a stopped process never times out. Members not yet at the start line are not metered yet: until
 * they all are, the time since wtg_crew_run (wtg_active_clock: stops left out) stands in, as it does
 * where schedstat is unreadable. */
int wtg_crew_wait(struct wtg_ctx *ctx, struct wtg_crew *c, int n, bool ready, bool stop_on_cancel,
		  bool limited);
/* Start a thread (a member, or any helper; attr may be NULL) with every signal but the faults blocked
 * (wtg_thread_sigmask), so requests to quit stay with the main thread. Returns pthread_create's result. */
int wtg_crew_spawn(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);
/* Worker: wait until n members are ready, give the start, wait until they are done; cancel and the
 * starvation limit (limit_ns, 0: none) as in wtg_crew_wait (WTG_CREW_REACHED once all n are done). */
int wtg_crew_run(struct wtg_ctx *ctx, struct wtg_crew *c, int n, int64_t limit_ns);
/* Worker, after setting stop (and rescuing starved members): give the start and wait, whatever
 * cancel says, until the n members started are done, so they can be joined. */
void wtg_crew_finish(struct wtg_ctx *ctx, struct wtg_crew *c, int n);

/* Pin the calling thread to cpu (-1: leave it where it may run); returns 0 or the error. */
int wtg_pin_self(int cpu);

#define WTG_CREW_PIECE (16u << 20)	/* members look at the stop flag this often */

/* Member: add the byte sum of p[0, len) (a mapping of the data file) to *sum in WTG_CREW_PIECE
 * pieces, looking at the stop flag before each; false when told to stop (*sum is then partial). Each
 * piece is read under the SIGBUS guard: a read past the end of a shrunken file sets shrank and stop.
 * Inline: it runs in timed loops. */
static inline bool wtg_crew_sum(struct wtg_crew *c, const unsigned char *p, uint64_t len, int64_t *sum)
{
	for (uint64_t off = 0; off < len; off += WTG_CREW_PIECE) {
		if (atomic_load(&c->stop))
			return false;
		uint64_t n = len - off < WTG_CREW_PIECE ? len - off : WTG_CREW_PIECE;
		if (wtg_guard_sum(p + off, (size_t)n, sum) < 0) {
			atomic_store(&c->shrank, true);
			atomic_store(&c->stop, true);
			return false;
		}
	}
	return true;
}


#endif
