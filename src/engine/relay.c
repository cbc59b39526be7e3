/* relay.c: one baton among the measuring threads of an interleaved run (see wtg/relay.h). */
#include "config.h"

#include <time.h>

#include "wtg/relay.h"
#include "wtg/util.h"

int wtg_relay_init(struct wtg_relay *r, int n, atomic_bool *cancel, void (*took)(void *, int), void *arg)
{
	if (n < 1 || n > WTG_RELAY_MAX)
		return -1;
	*r = (struct wtg_relay){ .n = n, .holder = 0, .cancel = cancel, .took = took, .arg = arg };
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	int rc = pthread_cond_init(&r->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (rc != 0)
		return -1;
	pthread_mutex_init(&r->lock, NULL);
	return 0;
}

void wtg_relay_destroy(struct wtg_relay *r)
{
	pthread_cond_destroy(&r->cond);
	pthread_mutex_destroy(&r->lock);
}

static bool cancelled(const struct wtg_relay *r)
{
	return r->cancel && atomic_load(r->cancel);
}

/* Under lock: wait until slot holds the baton or the run is cancelled, looking at cancel every
 * 100 ms (a cancel does not signal the condition). */
static void await_turn(struct wtg_relay *r, int slot)
{
	int64_t t0 = wtg_now_ns();
	while (r->holder != slot && !cancelled(r)) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 100000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&r->cond, &r->lock, &ts);
	}
	r->waited_ns[slot] += wtg_now_ns() - t0;
}

/* Under lock: the next runner after slot that has not finished (slot itself when it is the only
 * one left, -1 when none is). */
static int next_runner(const struct wtg_relay *r, int slot)
{
	for (int k = 1; k <= r->n; k++) {
		int i = (slot + k) % r->n;
		if (!r->finished[i])
			return i;
	}
	return -1;
}

static void took(struct wtg_relay *r, int slot)
{
	if (r->start_ns == 0)
		r->start_ns = wtg_now_ns();
	if (r->took)
		r->took(r->arg, slot);
}

void wtg_relay_wait(struct wtg_relay *r, int slot)
{
	pthread_mutex_lock(&r->lock);
	await_turn(r, slot);
	if (r->holder == slot)
		took(r, slot);
	pthread_mutex_unlock(&r->lock);
}

bool wtg_relay_pass(struct wtg_relay *r, int slot)
{
	pthread_mutex_lock(&r->lock);
	int next = next_runner(r, slot);
	bool other = next >= 0 && next != slot;
	if (other) {
		r->holder = next;
		r->handovers++;
		pthread_cond_broadcast(&r->cond);
		await_turn(r, slot);
		if (r->holder == slot)
			took(r, slot);
	}
	pthread_mutex_unlock(&r->lock);
	return other;
}

void wtg_relay_finish(struct wtg_relay *r, int slot)
{
	pthread_mutex_lock(&r->lock);
	r->finished[slot] = true;
	if (r->holder == slot) {
		r->holder = next_runner(r, slot);
		if (r->holder >= 0)
			r->handovers++;
		pthread_cond_broadcast(&r->cond);
	}
	pthread_mutex_unlock(&r->lock);
}

int64_t wtg_relay_waited_ns(struct wtg_relay *r, int slot)
{
	pthread_mutex_lock(&r->lock);
	int64_t ns = r->waited_ns[slot];
	pthread_mutex_unlock(&r->lock);
	return ns;
}
