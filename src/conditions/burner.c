/* burner.c: threads that keep CPUs busy (the "b" condition), of two kinds.
 *
 * A spin burner runs an xorshift/multiply chain in registers and touches shared memory only every
 * BURN_BATCH iterations: it reads its own stop flag (on its own cache line) and adds the batch to
 * the global work counter, so wtg_burner_work() shows the burners really ran. A batch takes about
 * 0.2 ms on a current x86 core (375 M iterations/s), which is also how long a stop takes. It takes
 * CPU time and nothing else: memory-bound work beside it barely notices.
 *
 * A stream burner first writes a buffer of its own, larger than the last-level cache, then reads and
 * writes back every word of it over and over (loads and stores, so every line crosses the memory bus
 * twice), checking its stop flag every STREAM_CHUNK bytes (well under a millisecond). It takes memory bandwidth and evicts the caches, as a neighbour's database would;
 * its work counter counts cache lines updated. The buffer is made inside the burner thread, so
 * starting burners never blocks the caller on page faults.
 *
 * Burners block every signal but the faults (wtg_thread_sigmask: requests to quit go to the main
 * thread) and run at the normal policy.
 *
 * While held (wtg_burner_hold, a paired run's arms), burners turned off are parked rather than
 * ended: each stops at its next check, says so, and sleeps on a condition variable (no CPU, its
 * caches and memory untouched) until turned on again, when it resumes where it stopped; a stream
 * burner keeps its buffer written. Every burner reports when it has done a batch of its steady work
 * since it was started or resumed (wtg_burner_going), so a caller waits for that rather than a guess.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wtg/conditions.h"
#include "wtg/guard.h"
#include "wtg/machine.h"
#include "wtg/util.h"

#define BURN_BATCH 65536u
#define BURN_MAX 1024		/* the table's size; the cap users get is wtg_burner_max() */
#define STREAM_CHUNK (1u << 20)

enum { RUN, PARK, EXIT };	/* a burner's state as asked */

struct burner {
	_Alignas(64) atomic_int state;	/* a cache line of its own: no false sharing between burners */
	atomic_bool going;		/* a steady batch done since started or resumed */
	bool parked;			/* it sleeps in park_point (under park_lock) */
	pthread_t thread;
	enum wtg_burn_kind kind;
	size_t bytes;		/* stream: the buffer's size */
	uint64_t result;	/* the chain's last value or the sum read, so the compiler must compute it */
};

static pthread_mutex_t burn_lock = PTHREAD_MUTEX_INITIALIZER;
static struct burner *burners[BURN_MAX];	/* [0, burn_running) are live, under burn_lock */
static atomic_int burn_running;
static atomic_int burn_kind;	/* enum wtg_burn_kind of the running burners */
static atomic_uint_fast64_t burn_work;
static int burn_parked;		/* burners[burn_running, + burn_parked) sleep, of burn_kind */
static bool burn_hold;		/* turning burners off parks them */
static enum wtg_burn_kind parked_kind;
static pthread_mutex_t park_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t park_wake = PTHREAD_COND_INITIALIZER, park_ack = PTHREAD_COND_INITIALIZER;

/* Called where a burner's state is not RUN: parks until it is RUN again. Returns true to end. */
static bool park_point(struct burner *b)
{
	if (atomic_load(&b->state) == EXIT)
		return true;
	pthread_mutex_lock(&park_lock);
	b->parked = true;
	pthread_cond_broadcast(&park_ack);
	while (atomic_load(&b->state) == PARK)
		pthread_cond_wait(&park_wake, &park_lock);
	b->parked = false;
	pthread_mutex_unlock(&park_lock);
	return atomic_load(&b->state) == EXIT;
}

/* Whether burner b should stop its work here (ending, or after a park that ends it). */
static bool halt(struct burner *b)
{
	return atomic_load_explicit(&b->state, memory_order_relaxed) != RUN && park_point(b);
}

static void *stream_main(struct burner *b)
{
	size_t n = b->bytes / sizeof(uint64_t);
	uint64_t *p = mmap(NULL, b->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	/* written first: untouched anonymous memory reads as one shared zero page, all cache hits */
	const size_t chunk = STREAM_CHUNK / sizeof(uint64_t);
	for (size_t i = 0; i < n && !halt(b); i += chunk) {
		size_t end = i + chunk < n ? i + chunk : n;
		for (size_t j = i; j < end; j++)
			p[j] = j * 0x9e3779b97f4a7c15ull;
		atomic_fetch_add_explicit(&burn_work, (end - i) * sizeof(uint64_t) / 64, memory_order_relaxed);
	}
	/* then read and write back every word: each cache line is loaded and, dirty, written back, twice
	 * the memory traffic of loads alone (about 2.4x on this project's VM), at the full rate of
	 * eight independent words a line */
	while (!halt(b)) {
		for (size_t i = 0; i < n && !halt(b); i += chunk) {
			size_t end = i + chunk < n ? i + chunk : n;
			for (size_t j = i; j + 8 <= end; j += 8) {
				p[j] += 1;
				p[j + 1] += 1;
				p[j + 2] += 1;
				p[j + 3] += 1;
				p[j + 4] += 1;
				p[j + 5] += 1;
				p[j + 6] += 1;
				p[j + 7] += 1;
			}
			atomic_fetch_add_explicit(&burn_work, (end - i) * sizeof(uint64_t) / 64, memory_order_relaxed);
			atomic_store_explicit(&b->going, true, memory_order_relaxed);
		}
	}
	uint64_t acc = p[0];
	b->result = acc;
	munmap(p, b->bytes);
	return NULL;
}

static void *burner_main(void *arg)
{
	struct burner *b = arg;
	if (b->kind == WTG_BURN_STREAM)
		return stream_main(b);
	uint64_t x = (uint64_t)(uintptr_t)b | 1, y = 0x9e3779b97f4a7c15ull;
	while (!halt(b)) {
		for (unsigned i = 0; i < BURN_BATCH; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			y = y * 0x5851f42d4c957f2dull + x;
		}
		atomic_fetch_add_explicit(&burn_work, BURN_BATCH, memory_order_relaxed);
		atomic_store_explicit(&b->going, true, memory_order_relaxed);
	}
	b->result = y;
	return NULL;
}

int wtg_burner_max(void)
{
	int n = WTG_BURN_PER_CPU * wtg_online_cpus();
	return n < 1 ? 1 : n > BURN_MAX ? BURN_MAX : n;
}

const char *wtg_burn_kind_name(enum wtg_burn_kind k)
{
	return k == WTG_BURN_STREAM ? "stream" : "spin";
}

int wtg_burn_kind_parse(const char *word)
{
	if (strcmp(word, "spin") == 0)
		return WTG_BURN_SPIN;
	if (strcmp(word, "stream") == 0)
		return WTG_BURN_STREAM;
	return -1;
}

enum wtg_burn_kind wtg_burner_kind(void)
{
	return (enum wtg_burn_kind)atomic_load(&burn_kind);
}

uint64_t wtg_burner_stream_bytes(int n)
{
	struct wtg_machine m;
	memset(&m, 0, sizeof m);
	wtg_machine_read_caches(&m, NULL);
	const struct wtg_cache *llc = wtg_machine_llc(&m);
	uint64_t want = llc ? llc->size + llc->size / 2 : 0;
	if (want < (64u << 20))
		want = 64u << 20;
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	if (pages > 0 && psz > 0 && n > 0) {
		uint64_t cap = (uint64_t)pages * (uint64_t)psz / 4 / (uint64_t)n;
		if (want > cap)
			want = cap;
	}
	want &= ~(uint64_t)(STREAM_CHUNK - 1);	/* whole chunks */
	return want ? want : STREAM_CHUNK;
}

int wtg_burner_set(int n)
{
	return wtg_burner_set_kind(n, wtg_burner_kind());
}

/* Burners [from, to) ended and freed (parked ones woken to end); under burn_lock. */
static void end_range(int from, int to)
{
	for (int i = from; i < to; i++)
		atomic_store(&burners[i]->state, EXIT);
	pthread_mutex_lock(&park_lock);
	pthread_cond_broadcast(&park_wake);
	pthread_mutex_unlock(&park_lock);
	for (int i = to - 1; i >= from; i--) {
		pthread_join(burners[i]->thread, NULL);
		free(burners[i]);
		burners[i] = NULL;
	}
}

/* Burners [from, to) parked, returning once each says it sleeps; under burn_lock. */
static void park_range(int from, int to)
{
	for (int i = from; i < to; i++)
		atomic_store(&burners[i]->state, PARK);
	pthread_mutex_lock(&park_lock);
	for (int i = from; i < to; i++)
		while (!burners[i]->parked)
			pthread_cond_wait(&park_ack, &park_lock);
	pthread_mutex_unlock(&park_lock);
	for (int i = from; i < to; i++)
		pthread_setname_np(burners[i]->thread, "wtg-parked");	/* top -H tells them apart */
}

/* Burners [from, to) started afresh, from index from; returns -1 when one cannot be; under burn_lock. */
static int start_range(int from, int to, enum wtg_burn_kind kind)
{
	int rc = 0;
	sigset_t old;
	wtg_thread_sigmask(&old);
	pthread_attr_t attr;
	struct sched_param sp = { .sched_priority = 0 };
	pthread_attr_init(&attr);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_OTHER);
	pthread_attr_setschedparam(&attr, &sp);
	size_t stream_bytes = kind == WTG_BURN_STREAM ? (size_t)wtg_burner_stream_bytes(to) : 0;
	for (int i = from; i < to; i++) {
		struct burner *b = aligned_alloc(64, sizeof *b);
		if (!b) {
			rc = -1;
			break;
		}
		atomic_init(&b->state, RUN);
		atomic_init(&b->going, false);
		b->parked = false;
		b->kind = kind;
		b->bytes = stream_bytes;
		/* born at the normal policy: a caller in SCHED_IDLE would otherwise hand its policy
		 * down, and an idle thread on busy CPUs might never run to change it. Without the
		 * privilege to leave SCHED_IDLE, inherit. */
		int e = pthread_create(&b->thread, &attr, burner_main, b);
		if (e == EPERM)
			e = pthread_create(&b->thread, NULL, burner_main, b);
		if (e != 0) {
			free(b);
			rc = -1;
			break;
		}
		pthread_setname_np(b->thread, "wtg-burner");	/* for top -H and the tests */
		burners[i] = b;
		atomic_store(&burn_running, i + 1);
	}
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int wtg_burner_set_kind(int n, enum wtg_burn_kind kind)
{
	if (n < 0 || n > wtg_burner_max())
		return -1;
	int rc = 0;
	pthread_mutex_lock(&burn_lock);
	int cur = atomic_load(&burn_running);
	enum wtg_burn_kind was = (enum wtg_burn_kind)atomic_load(&burn_kind);
	if (kind != was && cur > 0 && n > 0) {
		/* another kind: every burner, running or parked, is replaced */
		end_range(0, cur + burn_parked);
		cur = burn_parked = 0;
		atomic_store(&burn_running, 0);
	}
	atomic_store(&burn_kind, (int)(n == 0 ? WTG_BURN_SPIN : kind));	/* off: the next spin unless asked */
	/* parked ones go when no longer held, or when those to resume or to park are of another kind */
	if (burn_parked > 0 && (!burn_hold || (n > cur && parked_kind != kind) || (n < cur && parked_kind != was))) {
		end_range(cur, cur + burn_parked);
		burn_parked = 0;
	}
	if (n < cur && burn_hold) {
		park_range(n, cur);	/* they join those parked already, just above the running ones */
		burn_parked += cur - n;
		parked_kind = was;
		atomic_store(&burn_running, n);
	} else if (n < cur) {
		end_range(n, cur);
		atomic_store(&burn_running, n);
	}
	if (cur < n && burn_parked > 0) {	/* the parked ones first: they resume where they stopped */
		int k = burn_parked < n - cur ? burn_parked : n - cur;
		for (int i = cur; i < cur + k; i++) {
			pthread_setname_np(burners[i]->thread, "wtg-burner");
			atomic_store(&burners[i]->going, false);
			atomic_store(&burners[i]->state, RUN);
		}
		pthread_mutex_lock(&park_lock);
		pthread_cond_broadcast(&park_wake);
		pthread_mutex_unlock(&park_lock);
		burn_parked -= k;
		cur += k;
		atomic_store(&burn_running, cur);
	}
	if (cur < n)
		rc = start_range(cur, n, kind);
	if (rc == 0)
		rc = atomic_load(&burn_running);
	pthread_mutex_unlock(&burn_lock);
	return rc;
}

void wtg_burner_hold(bool on)
{
	pthread_mutex_lock(&burn_lock);
	burn_hold = on;
	if (!on && burn_parked > 0) {
		int cur = atomic_load(&burn_running);
		end_range(cur, cur + burn_parked);
		burn_parked = 0;
	}
	pthread_mutex_unlock(&burn_lock);
}

bool wtg_burner_going(void)
{
	bool all = true;
	pthread_mutex_lock(&burn_lock);
	for (int i = 0; i < atomic_load(&burn_running) && all; i++)
		all = atomic_load(&burners[i]->going);
	pthread_mutex_unlock(&burn_lock);
	return all;
}

int wtg_burner_count(void)
{
	return atomic_load(&burn_running);
}

uint64_t wtg_burner_work(void)
{
	return atomic_load_explicit(&burn_work, memory_order_relaxed);
}

void wtg_burner_stop_all(void)
{
	wtg_burner_set(0);
	wtg_burner_hold(false);	/* the parked ones too */
}
