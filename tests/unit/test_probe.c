/* test_probe.c: the thread CPU clock the probes read, and where a competing thread's waits fall.
 *
 * Reading CLOCK_THREAD_CPUTIME_ID brings the scheduler's accounting up to date and preempts a thread
 * whose time slice has run out right at the read; read beside a timed window, it moved the waits a
 * spinning thread on the same CPU imposed out of the window (57-66% of the elapsed time inside 1 ms
 * windows). The checks: the clock the probes use agrees with CLOCK_THREAD_CPUTIME_ID, names itself,
 * and, with a spinner pinned beside this thread, most of the time this thread waited falls inside
 * the probes' wall windows, with the perf task clock and (in a child, WTG_TEST_NO_PERF) without it.
 * What is checked is where the waits were booked, not how long anything took. */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"
#include "wtg/probe.h"
#include "wtg/testhooks.h"
#include "wtg/util.h"

static int64_t posix_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static volatile uint64_t sink;

static void work(long iters)
{
	for (long k = 0; k < iters; k++)
		sink++;
}

/* Iterations of work() that take about ms milliseconds alone. */
static long iters_for(double ms)
{
	long n = 1000;
	for (;;) {
		int64_t t0 = wtg_now_ns();
		work(n);
		double took = (double)(wtg_now_ns() - t0) / 1e6;
		if (took > 2 || n > (1L << 30))
			return (long)((double)n * ms / took) + 1;
		n *= 4;
	}
}

/* The run-queue wait of this thread so far (ns), -1 unknown. */
static int64_t runq_wait_ns(void)
{
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	unsigned long long run, wait;
	int n = f ? fscanf(f, "%llu %llu", &run, &wait) : 0;
	if (f)
		fclose(f);
	return n == 2 ? (int64_t)wait : -1;
}

static atomic_bool stop;
static int spin_cpu;

static void *spinner(void *arg)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(spin_cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof set, &set);
	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		;
	return arg;
}

static void clock_agrees(void)
{
	int64_t c0 = wtg_thread_cpu_ns(), p0 = posix_cpu_ns();
	work(iters_for(20));
	int64_t c1 = wtg_thread_cpu_ns(), p1 = posix_cpu_ns();
	double ours = (double)(c1 - c0) / 1e6, posix = (double)(p1 - p0) / 1e6;
	CHECK(c0 >= 0 && c1 > c0);
	/* two reads of the same count: within 2% and 0.5 ms of each other */
	if (!unit_result(ours > 0 && fabs(ours - posix) <= 0.02 * posix + 0.5, __func__, __FILE__, __LINE__,
			 "the probes' CPU clock and CLOCK_THREAD_CPUTIME_ID agree over a busy loop"))
		unit_diag("%.3f ms against %.3f ms", ours, posix);
}

/* 300 probes of about 1 ms of work each, a spinner pinned to this thread's CPU: the share of this
 * thread's run-queue wait over the loop that its probes' wall windows hold. */
static void waits_inside(const char *how)
{
	cpu_set_t set;
	int cpu = sched_getcpu();
	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	if (cpu < 0 || sched_setaffinity(0, sizeof set, &set) != 0) {
		unit_skip("%s: this thread cannot be pinned to a CPU", how);
		return;
	}
	long iters = iters_for(1);
	spin_cpu = cpu;
	atomic_store(&stop, false);
	pthread_t t;
	if (pthread_create(&t, NULL, spinner, NULL) != 0) {
		unit_skip("%s: no spinner thread", how);
		return;
	}
	struct timespec nap = { 0, 20 * 1000000 };
	nanosleep(&nap, NULL);
	double wall = 0, oncpu = 0;
	bool known = true;
	int64_t w0 = runq_wait_ns();
	for (int i = 0; i < 300; i++) {
		struct wtg_probe p;
		struct wtg_probe_result r;
		wtg_probe_begin(&p);
		work(iters);
		wtg_probe_end(&p, &r);
		wall += r.wall_ms;
		oncpu += r.oncpu_ms;
		known &= r.oncpu_ms >= 0;
	}
	int64_t w1 = runq_wait_ns();
	atomic_store(&stop, true);
	pthread_join(t, NULL);
	double waited = w0 >= 0 && w1 >= w0 ? (double)(w1 - w0) / 1e6 : 0, inside = wall - oncpu;
	if (!known || waited < 30) {
		unit_skip("%s: the spinner made this thread wait %.1f ms in all (CPU time %s): nothing to place",
			  how, waited, known ? "read" : "unreadable");
		return;
	}
	/* the probes' own reads between windows are a few percent of the time: 80% is far from the
	 * 30-45% of the waits a CPU clock read beside the window leaves inside */
	if (!unit_result(inside >= 0.8 * waited, __func__, __FILE__, __LINE__,
			 how[0] == 'p' ? "with the perf task clock, at least 80% of the waits fall inside the windows"
				       : "with CLOCK_THREAD_CPUTIME_ID, at least 80% of the waits fall inside the windows"))
		unit_diag("%s: windows %.1f ms, on a CPU %.1f ms, so %.1f ms waited inside of %.1f ms waited", how,
			  wall, oncpu, inside, waited);
	else
		unit_diag("%s: %.1f ms of %.1f ms waited inside the windows", how, inside, waited);
}

int main(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		unit_child();
		setenv("WTG_TEST_NO_PERF", "1", 1);
		wtg_testhooks_read();
		CHECK(wtg_thread_cpu_moves());
		CHECK_STR(wtg_thread_cpu_source(), "CLOCK_THREAD_CPUTIME_ID");
		CHECK(wtg_thread_cpu_ns() > 0);
		waits_inside("CLOCK_THREAD_CPUTIME_ID");
		fflush(stdout);
		_exit(unit_done("test_probe without perf") == 0 && !unit_failed ? 0 : 1);
	}
	int status = 0;
	bool child_ok = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (!unit_result(child_ok, __func__, __FILE__, __LINE__, "without perf (WTG_TEST_NO_PERF, a child): its checks pass"))
		unit_diag("child status %d", status);
	clock_agrees();
	if (wtg_thread_cpu_moves())
		unit_skip("perf_event_open refuses a task-clock counter here: the perf path is not checked");
	else {
		CHECK_STR(wtg_thread_cpu_source(), "a perf task-clock counter");
		waits_inside("perf task clock");
	}
	return unit_done("test_probe");
}
