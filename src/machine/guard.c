/* guard.c: SIGBUS from a shrunken file mapping, turned into an error return, and the fault signals
 * no thread blocks (see wtg/guard.h).
 *
 * Each thread has its own jump target, armed only while a guarded read runs; the handler runs in the
 * faulting thread (SIGBUS from a fault is thread-directed), so it sees that thread's target. The
 * jump does not restore the signal mask (sigsetjmp(.., 0): no system call on the fast path), so the
 * escaped thread unblocks SIGBUS itself afterwards.
 */
#include "config.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include "wtg/guard.h"
#include "wtg/kernels.h"

static _Thread_local sigjmp_buf *volatile guard_target;

static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT };

void wtg_thread_sigmask(sigset_t *old)
{
	sigset_t set;
	sigfillset(&set);
	for (size_t i = 0; i < sizeof fault_signals / sizeof fault_signals[0]; i++)
		sigdelset(&set, fault_signals[i]);
	pthread_sigmask(SIG_SETMASK, &set, old);
}

void wtg_guard_escape(int sig)
{
	sigjmp_buf *t = guard_target;
	if (sig != SIGBUS || !t)
		return;
	guard_target = NULL;
	siglongjmp(*t, 1);
}

int wtg_guard_call(void (*fn)(void *arg), void *arg)
{
	sigjmp_buf target;
	if (sigsetjmp(target, 0)) {
		sigset_t bus;
		sigemptyset(&bus);
		sigaddset(&bus, SIGBUS);
		pthread_sigmask(SIG_UNBLOCK, &bus, NULL);
		return -1;
	}
	guard_target = &target;
	fn(arg);
	guard_target = NULL;
	return 0;
}

struct sum_job {
	const unsigned char *p;
	size_t n;
	int64_t sum;
};

static void sum_job_run(void *arg)
{
	struct sum_job *j = arg;
	j->sum = wtg_sum_bytes(j->p, j->n);
}

int wtg_guard_sum(const unsigned char *p, size_t n, int64_t *sum)
{
	struct sum_job j = { .p = p, .n = n };
	if (wtg_guard_call(sum_job_run, &j) < 0)
		return -1;
	*sum += j.sum;
	return 0;
}

static void on_bus(int sig)
{
	wtg_guard_escape(sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

int wtg_guard_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_bus;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGBUS, &sa, NULL);
}
