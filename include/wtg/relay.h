/* relay.h: an interleaved run. The experiments of a headless run that allow it (the descriptor's
 * `interleaves`) start together, each in its own measuring thread, and pass one baton between them:
 * only the holder measures, and it hands the baton on when one of its replicas ends
 * (wtg_ctx_interleave), so a row's replicas are separated in time by the other experiments' rounds
 * and see the machine in more than one regime. */
#ifndef WTG_RELAY_H
#define WTG_RELAY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define WTG_RELAY_MAX 32

struct wtg_relay {
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* CLOCK_MONOTONIC */
	int n;				/* runners */
	int holder;			/* the slot that may measure, -1 when all have finished */
	bool finished[WTG_RELAY_MAX];
	int handovers;			/* batons passed to another runner */
	atomic_bool *cancel;		/* a cancelled run lets every runner go, so each can stop */
	/* called by the new holder as it takes the baton (the session names the running experiment) */
	void (*took)(void *arg, int slot);
	void *arg;
	int64_t start_ns;		/* when the first runner took the baton */
	int64_t waited_ns[WTG_RELAY_MAX];	/* each runner's time waiting while others measured */
};

/* n runners (1..WTG_RELAY_MAX); slot 0 holds the baton first. Returns 0 or -1. */
int wtg_relay_init(struct wtg_relay *r, int n, atomic_bool *cancel, void (*took)(void *, int), void *arg);
void wtg_relay_destroy(struct wtg_relay *r);
/* Runner slot: wait for the baton (or a cancel). */
void wtg_relay_wait(struct wtg_relay *r, int slot);
/* Runner slot, holding the baton: hand it to the next runner that has not finished and wait for it
 * to come back. Returns true when another runner measured in between. */
bool wtg_relay_pass(struct wtg_relay *r, int slot);
/* How long runner slot has waited for the baton so far. */
int64_t wtg_relay_waited_ns(struct wtg_relay *r, int slot);
/* Runner slot is done: the baton goes on; the runner never waits again. */
void wtg_relay_finish(struct wtg_relay *r, int slot);

#endif
