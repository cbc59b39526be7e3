/* crew.c: helper threads the worker supervises (threads, roofline, compare, ceiling). */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "crew.h"
#include "wtg/ctx.h"
#include "wtg/util.h"

int wtg_crew_init(struct wtg_crew *c)
{
	memset(c, 0, sizeof *c);
	pthread_condattr_t ca;
	if (pthread_condattr_init(&ca) != 0)
		return -1;
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	int rc = pthread_cond_init(&c->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (rc != 0)
		return -1;
	pthread_mutex_init(&c->lock, NULL);
	atomic_store(&c->stop, false);
	return 0;
}

void wtg_crew_destroy(struct wtg_crew *c)
{
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->lock);
}

bool wtg_crew_await_start(struct wtg_crew *c)
{
	pthread_mutex_lock(&c->lock);
	if (c->nmeters < WTG_CREW_METERED)
		wtg_starve_begin(&c->meters[c->nmeters++], wtg_gettid());
	c->ready++;
	pthread_cond_broadcast(&c->cond);
	while (!c->go)
		pthread_cond_wait(&c->cond, &c->lock);
	pthread_mutex_unlock(&c->lock);
	return !atomic_load(&c->stop);
}

void wtg_crew_done(struct wtg_crew *c)
{
	pthread_mutex_lock(&c->lock);
	c->done++;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

void wtg_crew_open(struct wtg_crew *c)
{
	pthread_mutex_lock(&c->lock);
	c->go = true;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

/* The crew's limit has passed (see wtg_crew_wait); called with the lock held. */
static bool crew_starved(struct wtg_crew *c, int n)
{
	bool wall = wtg_active_elapsed(&c->clock) >= c->limit_ns;
	if (c->nmeters < (n < WTG_CREW_METERED ? n : WTG_CREW_METERED))
		return wall;
	for (int i = 0; i < c->nmeters; i++) {
		int64_t starved = wtg_starve_sample(&c->meters[i]);
		if (starved < 0)
			return wall;
		if (starved >= c->limit_ns)
			return true;
	}
	return false;
}

int wtg_crew_wait(struct wtg_ctx *ctx, struct wtg_crew *c, int n, bool ready, bool stop_on_cancel,
		  bool limited)
{
	for (;;) {
		bool cancelled = wtg_ctx_cancelled(ctx);
		pthread_mutex_lock(&c->lock);
		bool reached = (ready ? c->ready : c->done) >= n;
		if (!reached && !(cancelled && stop_on_cancel)) {
			int64_t until = wtg_now_ns() + 100000000;
			struct timespec ts = { .tv_sec = until / 1000000000, .tv_nsec = until % 1000000000 };
			pthread_cond_timedwait(&c->cond, &c->lock, &ts);
			reached = (ready ? c->ready : c->done) >= n;
		}
		bool starved = !reached && limited && c->limit_ns > 0 && crew_starved(c, n);
		pthread_mutex_unlock(&c->lock);
		if (reached)
			return WTG_CREW_REACHED;
		if (cancelled && stop_on_cancel)
			return WTG_CREW_CANCELLED;
		if (starved)
			return WTG_CREW_TIMEOUT;
	}
}

int wtg_crew_spawn(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	sigset_t old;
	wtg_thread_sigmask(&old);
	int err = pthread_create(th, attr, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

int wtg_crew_run(struct wtg_ctx *ctx, struct wtg_crew *c, int n, int64_t limit_ns)
{
	pthread_mutex_lock(&c->lock);
	c->limit_ns = limit_ns;
	wtg_active_begin(&c->clock);
	pthread_mutex_unlock(&c->lock);
	int w = wtg_crew_wait(ctx, c, n, true, true, true);
	if (w == WTG_CREW_REACHED) {
		wtg_crew_open(c);
		w = wtg_crew_wait(ctx, c, n, false, true, true);
	}
	return w;
}

void wtg_crew_finish(struct wtg_ctx *ctx, struct wtg_crew *c, int n)
{
	wtg_crew_open(c);
	wtg_crew_wait(ctx, c, n, false, false, false);
}

int wtg_pin_self(int cpu)
{
	if (cpu < 0)
		return 0;
	size_t sz = CPU_ALLOC_SIZE(cpu + 1);
	cpu_set_t *set = CPU_ALLOC(cpu + 1);
	if (!set)
		return ENOMEM;
	CPU_ZERO_S(sz, set);
	CPU_SET_S(cpu, sz, set);
	int e = pthread_setaffinity_np(pthread_self(), sz, set);
	CPU_FREE(set);
	return e;
}
