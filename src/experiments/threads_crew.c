/* threads_crew.c: one sample of the threads experiment (see threads_crew.h). */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "threads_crew.h"
#include "threads_moves.h"
#include "crew.h"
#include "wtg/ctx.h"

#define STACK_SIZE (256u << 10)

static void *member_main(void *arg)
{
	struct member *m = arg;
	if (m->cpu >= 0)
		m->pin_err = wtg_pin_self(m->cpu);
	wtg_policy_apply_self();
	if (wtg_crew_await_start(m->crew)) {
		struct wtg_probe p;
		m->cpu0 = sched_getcpu();
		wtg_probe_begin(&p);
		/* migrations: the probe's perf counter, else the scheduler's own count */
		const int64_t nr0 = p.migr0 < 0 ? wtg_sched_migrations_self() : -1;
		m->t0 = wtg_now_ns();
		bool going = true;
		for (int part = 0; part < m->parts && going; part++) {
			uint64_t po, pl;
			wtg_split_range(m->len, m->parts, part, &po, &pl);
			int64_t first = 0;
			for (int r = 0; r < m->reps; r++) {
				int64_t s = 0;
				if (!(going = wtg_crew_sum(m->crew, m->base + m->off + po, pl, &s)))
					break;
				if (r == 0)
					first = s;
				else if (s != first)
					m->consistent = false;
				m->reps_done++;
			}
			m->sum += first;
		}
		m->t1 = wtg_now_ns();
		const int64_t nr1 = nr0 >= 0 ? wtg_sched_migrations_self() : -1;
		wtg_probe_end(&p, &m->res);
		m->cpu1 = sched_getcpu();
		m->migrations = m->res.migrations >= 0 ? m->res.migrations : nr0 >= 0 && nr1 >= nr0 ? nr1 - nr0 : -1;
	}
	wtg_policy_unregister_self();
	wtg_crew_done(m->crew);
	return NULL;
}

/* Start n members over span bytes of map, member i pinned to cpus[i], each summing its range in
 * `parts` parts in turn. Returns how many started, with *err the error of the one that did not. */
static int spawn_members(struct wtg_crew *crew, struct member *mb, int n, const unsigned char *map, uint64_t span,
			 int reps, int parts, const int *cpus, const struct wtg_cpuset *allowed, int *err)
{
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, STACK_SIZE);
	int created = 0;
	*err = 0;
	for (int i = 0; i < n; i++) {
		mb[i].crew = crew;
		mb[i].base = map;
		mb[i].reps = reps;
		mb[i].parts = parts;
		mb[i].consistent = true;
		/* a CPU outside the process's affinity is not taken: the user's taskset stands */
		mb[i].want = cpus ? cpus[i] : -1;
		mb[i].cpu = cpus && wtg_cpuset_has(allowed, cpus[i]) ? cpus[i] : -1;
		mb[i].pin_err = cpus && mb[i].cpu < 0 ? EPERM : 0;
		mb[i].cpu0 = mb[i].cpu1 = -1;
		mb[i].migrations = -1;
		wtg_split_range(span, n, i, &mb[i].off, &mb[i].len);
		*err = wtg_crew_spawn(&mb[i].th, &attr, member_main, &mb[i]);
		if (*err != 0)
			break;
		created++;
	}
	pthread_attr_destroy(&attr);
	return created;
}

int wtg_threads_row(struct wtg_ctx *ctx, const unsigned char *map, uint64_t span, int n, int reps, int parts,
		    const int *cpus, const struct wtg_cpuset *allowed, int64_t limit_ms, struct member **out)
{
	struct wtg_crew crew;
	if (wtg_crew_init(&crew) < 0) {
		wtg_table_fail(ctx->t, "cannot set up %d threads", n);
		return ROW_FAILED;
	}
	struct member *mb = calloc((size_t)n, sizeof *mb);
	if (!mb) {
		wtg_crew_destroy(&crew);
		wtg_table_fail(ctx->t, "out of memory for %d threads", n);
		return ROW_FAILED;
	}
	int err;
	int created = spawn_members(&crew, mb, n, map, span, reps, parts, cpus, allowed, &err);
	int outcome = ROW_OK;
	if (created < n) {
		wtg_table_fail(ctx->t, "cannot start thread %d of %d: %s", created + 1, n, strerror(err));
		outcome = ROW_FAILED;
	} else {
		/* everyone at the start line, then release them together */
		int w = wtg_crew_run(ctx, &crew, n, limit_ms * 1000000);
		if (w == WTG_CREW_CANCELLED)
			outcome = ROW_CANCELLED;
		else if (w == WTG_CREW_TIMEOUT)
			outcome = ROW_STARVED;
	}
	if (outcome != ROW_OK) {
		atomic_store(&crew.stop, true);
		/* a starved member cannot see the flag until it runs again */
		wtg_policy_rescue();
		wtg_crew_finish(ctx, &crew, created);
	}
	for (int i = 0; i < created; i++)
		pthread_join(mb[i].th, NULL);
	if (atomic_load(&crew.shrank)) {
		wtg_table_fail(ctx->t, "%d thread%s: %s", n, n == 1 ? "" : "s", WTG_GUARD_SHRANK);
		outcome = ROW_FAILED;
	}
	wtg_crew_destroy(&crew);
	if (outcome != ROW_OK) {
		free(mb);
		return outcome;
	}
	*out = mb;
	return ROW_OK;
}
