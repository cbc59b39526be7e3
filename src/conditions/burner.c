/* burner.c: threads that keep CPUs busy with integer arithmetic (the "b" condition).
 *
 * Each burner runs an xorshift/multiply chain in registers and touches shared memory only every
 * BURN_BATCH iterations: it reads its own stop flag (on its own cache line) and adds the batch to
 * the global work counter, so wtg_burner_work() shows the burners really ran. A batch takes about
 * 0.2 ms on a current x86 core (375 M iterations/s), which is also how long a stop takes.
 * Burners block every signal but the faults (wtg_thread_sigmask: requests to quit go to the main
 * thread) and run at the normal policy.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "wtg/conditions.h"
#include "wtg/guard.h"
#include "wtg/util.h"

#define BURN_BATCH 65536u
#define BURN_MAX 1024		/* the table's size; the cap users get is wtg_burner_max() */

struct burner {
	_Alignas(64) atomic_bool stop;	/* a cache line of its own: no false sharing between burners */
	pthread_t thread;
	uint64_t result;	/* the chain's last value, so the compiler must compute it */
};

static pthread_mutex_t burn_lock = PTHREAD_MUTEX_INITIALIZER;
static struct burner *burners[BURN_MAX];	/* [0, burn_running) are live, under burn_lock */
static atomic_int burn_running;
static atomic_uint_fast64_t burn_work;

static void *burner_main(void *arg)
{
	struct burner *b = arg;
	uint64_t x = (uint64_t)(uintptr_t)b | 1, y = 0x9e3779b97f4a7c15ull;
	while (!atomic_load_explicit(&b->stop, memory_order_relaxed)) {
		for (unsigned i = 0; i < BURN_BATCH; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			y = y * 0x5851f42d4c957f2dull + x;
		}
		atomic_fetch_add_explicit(&burn_work, BURN_BATCH, memory_order_relaxed);
	}
	b->result = y;
	return NULL;
}

int wtg_burner_max(void)
{
	int n = WTG_BURN_PER_CPU * wtg_online_cpus();
	return n < 1 ? 1 : n > BURN_MAX ? BURN_MAX : n;
}

int wtg_burner_set(int n)
{
	if (n < 0 || n > wtg_burner_max())
		return -1;
	int rc = 0;
	pthread_mutex_lock(&burn_lock);
	int cur = atomic_load(&burn_running);
	/* raise every stop flag first so the extra burners wind down together */
	for (int i = n; i < cur; i++)
		atomic_store(&burners[i]->stop, true);
	for (int i = cur - 1; i >= n; i--) {
		pthread_join(burners[i]->thread, NULL);
		free(burners[i]);
		burners[i] = NULL;
		atomic_store(&burn_running, i);
	}
	if (cur < n) {
		sigset_t old;
		wtg_thread_sigmask(&old);
		pthread_attr_t attr;
		struct sched_param sp = { .sched_priority = 0 };
		pthread_attr_init(&attr);
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_OTHER);
		pthread_attr_setschedparam(&attr, &sp);
		for (int i = cur; i < n; i++) {
			struct burner *b = aligned_alloc(64, sizeof *b);
			if (!b) {
				rc = -1;
				break;
			}
			atomic_init(&b->stop, false);
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
	}
	if (rc == 0)
		rc = atomic_load(&burn_running);
	pthread_mutex_unlock(&burn_lock);
	return rc;
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
}
