/* test_relay.c: the baton of an interleaved run (wtg/relay.h): one runner measures at a time, turns
 * go round in slot order, a finished runner drops out of the turn, a cancel lets every waiter go,
 * and the rounds engine hands the baton on at the end of each replica, then warms up again. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/experiments/common.h"
#include "../../src/experiments/rounds.h"
#include "wtg/ctx.h"
#include "wtg/relay.h"
#include "unit.h"

#define RUNNERS 3
#define MAXLOG 256

struct runner {
	struct wtg_relay *r;
	int slot, turns;
	_Atomic int *inside;	/* runners between wait/pass and pass/finish: never more than one */
	_Atomic int *most;
	int *log, *nlog;	/* slots in the order they held the baton (under the relay's lock) */
	pthread_mutex_t *loglock;
	bool others[16];	/* what each pass returned */
};

static void note_turn(struct runner *ru)
{
	int in = atomic_fetch_add(ru->inside, 1) + 1;
	int m = atomic_load(ru->most);
	while (in > m && !atomic_compare_exchange_weak(ru->most, &m, in))
		;
	pthread_mutex_lock(ru->loglock);
	if (*ru->nlog < MAXLOG)
		ru->log[(*ru->nlog)++] = ru->slot;
	pthread_mutex_unlock(ru->loglock);
	usleep(1000);	/* a little work while holding the baton */
	atomic_fetch_sub(ru->inside, 1);
}

static void *run(void *arg)
{
	struct runner *ru = arg;
	wtg_relay_wait(ru->r, ru->slot);
	for (int t = 0; t < ru->turns; t++) {
		note_turn(ru);
		if (t + 1 < ru->turns)
			ru->others[t] = wtg_relay_pass(ru->r, ru->slot);
	}
	wtg_relay_finish(ru->r, ru->slot);
	return NULL;
}

static int took_log[MAXLOG], ntook;
static void took(void *arg, int slot)
{
	(void)arg;
	if (ntook < MAXLOG)
		took_log[ntook++] = slot;
}

/* Three runners of 3, 2 and 3 turns: the baton goes 0 1 2 0 1 2 0 2 (runner 1 finished after two). */
static void test_round_robin(void)
{
	struct wtg_relay r;
	atomic_bool cancel = false;
	CHECK(wtg_relay_init(&r, RUNNERS, &cancel, took, NULL) == 0);
	_Atomic int inside = 0, most = 0;
	int log[MAXLOG], nlog = 0;
	pthread_mutex_t loglock = PTHREAD_MUTEX_INITIALIZER;
	struct runner ru[RUNNERS];
	pthread_t th[RUNNERS];
	const int turns[RUNNERS] = { 3, 2, 3 };
	ntook = 0;
	for (int i = RUNNERS - 1; i >= 0; i--) {	/* started last to first: the order is the relay's */
		ru[i] = (struct runner){ .r = &r, .slot = i, .turns = turns[i], .inside = &inside, .most = &most,
					 .log = log, .nlog = &nlog, .loglock = &loglock };
		pthread_create(&th[i], NULL, run, &ru[i]);
	}
	for (int i = 0; i < RUNNERS; i++)
		pthread_join(th[i], NULL);
	const int want[] = { 0, 1, 2, 0, 1, 2, 0, 2 };
	CHECK(nlog == 8);
	CHECK(memcmp(log, want, sizeof want) == 0);
	CHECK(atomic_load(&most) == 1);	/* one runner at a time */
	CHECK(ntook == 8);		/* the new holder was named at each turn */
	CHECK(memcmp(took_log, want, sizeof want) == 0);
	CHECK(r.handovers == 7);
	CHECK(ru[0].others[0] && ru[0].others[1]);	/* each pass let another runner measure */
	CHECK(ru[2].others[0] && ru[2].others[1]);	/* ... the last one's, after runner 1 finished, too */
	CHECK(r.holder == -1);
	CHECK(wtg_relay_waited_ns(&r, 1) > 0);
	wtg_relay_destroy(&r);
}

/* A lone runner passes to itself: nothing else measured, so pass says false and never waits. */
static void test_alone(void)
{
	struct wtg_relay r;
	CHECK(wtg_relay_init(&r, 1, NULL, NULL, NULL) == 0);
	wtg_relay_wait(&r, 0);
	CHECK(!wtg_relay_pass(&r, 0));
	CHECK(r.handovers == 0);
	wtg_relay_finish(&r, 0);
	CHECK(r.holder == -1);
	wtg_relay_destroy(&r);
	CHECK(wtg_relay_init(&r, 0, NULL, NULL, NULL) < 0);
	CHECK(wtg_relay_init(&r, WTG_RELAY_MAX + 1, NULL, NULL, NULL) < 0);
}

static void *wait_only(void *arg)
{
	wtg_relay_wait(arg, 1);
	return NULL;
}

/* A cancel lets a waiting runner go (within the 100 ms it looks), though the baton never came. */
static void test_cancel(void)
{
	struct wtg_relay r;
	atomic_bool cancel = false;
	CHECK(wtg_relay_init(&r, 2, &cancel, NULL, NULL) == 0);
	pthread_t th;
	pthread_create(&th, NULL, wait_only, &r);
	usleep(20000);
	atomic_store(&cancel, true);
	pthread_join(th, NULL);	/* returns: a hang here is the failure */
	CHECK(r.holder == 0);
	wtg_relay_destroy(&r);
}

/* The rounds engine inside an interleaved run: 15 rounds in 5 replicas of 3; after rounds 3, 6, 9, 12 it
 * passes the baton and, because the other runner measured, samples the warm-up again (round
 * WTG_ROUND_RETURN, never a window's WTG_ROUND_REWARM) before the next replica. */
struct fake {
	int log_round[MAXLOG], nlog;
};

static int fake_sample(struct wtg_ctx *ctx, void *arg, int v, int round, struct wtg_rounds_sample *out)
{
	(void)ctx;
	(void)v;
	struct fake *f = arg;
	if (f->nlog < MAXLOG)
		f->log_round[f->nlog++] = round;
	out->figure = 1.0 + round;
	out->res.wall_ms = 6;
	return WTG_OK;
}

static void *other_runner(void *arg)
{
	struct wtg_relay *r = arg;
	wtg_relay_wait(r, 1);
	while (wtg_relay_pass(r, 1))
		;
	wtg_relay_finish(r, 1);
	return NULL;
}

/* The engine with `warmup` unreported samples at the start: after each of the others' turns it
 * samples the warm-up once again (the samples' sizes were set at the start), unless the spec's
 * samples warm themselves (self_warming: no warm-up again); the note says which, in the spec's words
 * when it makes that warm-up one pass (return_pass). */
static void rounds_pass(int warmup, bool self_warming, const char *return_pass)
{
	struct wtg_table t;
	wtg_table_init(&t, NULL);
	struct wtg_relay r;
	atomic_bool cancel = false;
	CHECK(wtg_relay_init(&r, 2, &cancel, NULL, NULL) == 0);
	struct wtg_options o = { .seed = 1 };
	struct wtg_ctx ctx = { .opt = &o, .t = &t, .cancel = &cancel, .relay = &r, .relay_slot = 0 };
	wtg_rng_seed(&ctx.rng, 1);
	pthread_t th;
	pthread_create(&th, NULL, other_runner, &r);
	wtg_relay_wait(&r, 0);
	struct fake f = { .nlog = 0 };
	/* no warm-up windows: the relay's passes and warm-ups again are what is logged */
	struct wtg_rounds_spec spec = { .nvariants = 1, .rounds = 15, .warmup = warmup, .no_windows = true,
					.self_warming = self_warming ? "its samples warm themselves" : NULL,
					.return_pass = return_pass, .sample = fake_sample, .arg = &f };
	struct wtg_rounds out;
	CHECK(wtg_rounds_run(&ctx, &spec, &out) == WTG_OK);
	wtg_relay_finish(&r, 0);
	pthread_join(th, NULL);
	/* warm-up (warmup samples), rounds 0-2, re-warm (one sample), 3-5, re-warm, ... 12-14 */
	int want[MAXLOG], n = 0;
	for (int w = 0; w < warmup; w++)
		want[n++] = WTG_ROUND_WARMUP;
	for (int i = 0; i < 15; i++) {
		if (i > 0 && i % 3 == 0 && !self_warming)
			want[n++] = WTG_ROUND_RETURN;
		want[n++] = i;
	}
	CHECK(f.nlog == n);
	CHECK(memcmp(f.log_round, want, (size_t)n * sizeof want[0]) == 0);
	CHECK(out.interleaved == 4);
	CHECK(out.v[0].n == 15);	/* re-warm samples are not kept */
	for (int j = 1; j < WTG_ROUNDS_REPLICAS; j++)
		CHECK(out.replica_start_s[j] >= out.replica_start_s[j - 1]);
	wtg_rounds_note(&ctx, &out, warmup);
	char want_note[160];
	snprintf(want_note, sizeof want_note, "after 4 of the replicas, each time followed by %s%s, so the replicas",
		 self_warming ? "its next round at once (no warm-up again: its samples warm themselves)"
		 : return_pass ? "a warm-up again, " : warmup > 1 ? "one warm-up sample of every variant again"
							     : "the warm-up again",
		 return_pass && !self_warming ? return_pass : "");
	bool said = false;
	for (int i = 0; i < t.nnotes; i++)
		said |= strstr(t.notes[i], want_note) != NULL;
	CHECK(said);
	wtg_rounds_free(&out);
	wtg_relay_destroy(&r);
	wtg_table_free(&t);
}

static void test_rounds_pass(void)
{
	rounds_pass(1, false, NULL);
	rounds_pass(2, false, NULL);	/* two at the start, one after each turn */
	rounds_pass(1, true, NULL);	/* none after a turn */
	rounds_pass(2, false, "one untimed pass of every row");	/* the sample function makes it one pass */
}

int main(void)
{
	test_round_robin();
	test_alone();
	test_cancel();
	test_rounds_pass();
	return unit_done("test_relay");
}
