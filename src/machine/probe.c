/* probe.c: wall, user, sys, faults, switches, CPUs and migrations of the measuring thread. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_LINUX_PERF_EVENT_H
#include <linux/perf_event.h>
#endif

#include "wtg/probe.h"
#include "wtg/stats.h"
#include "wtg/testhooks.h"
#include "wtg/topology.h"
#include "wtg/util.h"

static int perf_open(unsigned type, unsigned long long config)
{
#ifdef HAVE_LINUX_PERF_EVENT_H
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = type;
	a.config = config;
	a.disabled = 0;
	a.exclude_hv = 1;
	a.inherit = 0;
	/* this thread only, any CPU */
	long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && (errno == EACCES || errno == EPERM)) {
		a.exclude_kernel = 1;
		fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	return (int)fd;
#else
	(void)type;
	(void)config;
	return -1;
#endif
}

static int64_t perf_read(int fd)
{
	uint64_t v;
	if (fd < 0 || read(fd, &v, sizeof v) != (ssize_t)sizeof v)
		return -1;
	return (int64_t)v;
}

/* A kept counter's count since start (-1 when either read fails). */
static int64_t count_since(int fd, int64_t start)
{
	int64_t now = start >= 0 ? perf_read(fd) : -1;
	return now >= start ? now - start : -1;
}

/* 0 unknown, 1 available, -1 not available */
static atomic_int hw_state;
static atomic_int sw_state;

bool wtg_probe_have_hw_counters(void)
{
	int st = atomic_load(&hw_state);
	if (st == 0) {
#ifdef HAVE_LINUX_PERF_EVENT_H
		int fd = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
		st = fd >= 0 ? 1 : -1;
		if (fd >= 0)
			close(fd);
#else
		st = -1;
#endif
		atomic_store(&hw_state, st);
	}
	return st == 1;
}

static void note_cpu(struct wtg_probe *p)
{
#ifdef HAVE_SCHED_GETCPU
	int c = sched_getcpu();
	if (c >= 0 && c < 64)
		p->cpus_seen |= 1ull << c;
#else
	(void)p;
#endif
}

/* The thread's time on a CPU so far (ns).
 *
 * CLOCK_THREAD_CPUTIME_ID brings the running thread's count up to date (schedstat's first field lags
 * by up to a scheduler tick, 4 ms at HZ=250), but that update is the scheduler's own accounting: it
 * also finds whether the thread's time slice has run out, and if so the thread is preempted as the
 * read returns. A thread sharing its CPU with a spinning one, timing 1 ms of work 500 times with the
 * read just outside each window, had 57-66% of the elapsed time inside its windows (100% without the
 * read): the preemptions a tick would have made inside the samples were made at the read instead,
 * outside them, and a sample under burners looked as fast as a quiet one. So the clock read is a perf
 * task-clock counter of the thread's own (a software event, allowed at perf_event_paranoid 2 and
 * below), which reads the same time without that update; where one cannot be opened
 * (wtg_thread_cpu_moves()), CLOCK_THREAD_CPUTIME_ID, and the probe then reads it inside its wall
 * window. One counter per thread, opened on its first read and closed when the thread ends. */
struct thread_counters {
	int clock, migr, instr, cycles;	/* -1 where it cannot be opened */
};
static pthread_once_t tc_once = PTHREAD_ONCE_INIT;
static pthread_key_t tc_key;
static bool tc_keyed;
static atomic_int tclock_state;	/* 0 not tried, 1 perf task clock, -1 CLOCK_THREAD_CPUTIME_ID */

static void tc_close(void *v)
{
	struct thread_counters *c = v;
	int fds[] = { c->clock, c->migr, c->instr, c->cycles };
	for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(c);
}

static void tc_init(void)
{
	tc_keyed = pthread_key_create(&tc_key, tc_close) == 0;
}

static const struct thread_counters no_counters = { -1, -1, -1, -1 };

/* This thread's counters, opened on its first probe and kept until it ends: opening or closing a
 * perf event is itself a point where the scheduler preempts a thread whose slice ran out (a thread
 * opening and closing one around each 1 ms window beside a spinner had 76-83% of the elapsed time
 * inside its windows), so a probe only reads them. */
static const struct thread_counters *tc_get(void)
{
	pthread_once(&tc_once, tc_init);
	if (!tc_keyed)
		return &no_counters;
	struct thread_counters *c = pthread_getspecific(tc_key);
	if (c)
		return c;
	c = malloc(sizeof *c);
	if (!c)
		return &no_counters;
	*c = no_counters;
#ifdef HAVE_LINUX_PERF_EVENT_H
	if (!wtg_testhooks()->no_perf) {	/* WTG_TEST_NO_PERF: as where perf_event_open is refused */
		c->clock = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
		if (atomic_load(&sw_state) >= 0) {
			c->migr = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS);
			if (c->migr < 0)
				atomic_store(&sw_state, -1);
		}
		if (wtg_probe_have_hw_counters()) {
			c->instr = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
			c->cycles = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
		}
	}
#endif
	if (pthread_setspecific(tc_key, c) != 0) {
		tc_close(c);
		return &no_counters;
	}
	int expect = 0;
	atomic_compare_exchange_strong(&tclock_state, &expect, c->clock >= 0 ? 1 : -1);
	return c;
}

int64_t wtg_thread_cpu_ns(void)
{
	int fd = tc_get()->clock;
	if (fd >= 0)	/* never the other clock after a failed read: the two count from different zeros */
		return perf_read(fd);
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return -1;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

bool wtg_thread_cpu_moves(void)
{
	(void)tc_get();
	return atomic_load(&tclock_state) < 0;
}

const char *wtg_thread_cpu_source(void)
{
	return wtg_thread_cpu_moves() ? "CLOCK_THREAD_CPUTIME_ID" : "a perf task-clock counter";
}

/* What an empty probe's CPU window holds beyond its wall window. With the task clock the CPU clock
 * is read outside the wall clock at both ends, and its read is a system call (about half a
 * microsecond in a virtual machine), so a short sample's CPU time would exceed its wall time by it;
 * where the CPU clock is read inside the wall window (wtg_thread_cpu_moves) the difference is
 * negative: the part of the wall window the CPU window cannot see. Measured once, the median of 101
 * back-to-back windows read as a probe reads them, and taken out of every probe's oncpu_ms. Inside
 * a probe the read finds the kernel colder and costs up to twice that, so a share from windows
 * shorter than WTG_PROBE_RESOLVE times it means little. */
static pthread_once_t excess_once = PTHREAD_ONCE_INIT;
static int64_t excess_ns;

static void excess_measure(void)
{
	double d[101];
	const bool inside = wtg_thread_cpu_moves();
	for (int i = 0; i < 101; i++) {
		int64_t c0, w0, w1, c1;
		if (inside) {
			w0 = wtg_now_ns();
			c0 = wtg_thread_cpu_ns();
			c1 = wtg_thread_cpu_ns();
			w1 = wtg_now_ns();
		} else {
			c0 = wtg_thread_cpu_ns();
			w0 = wtg_now_ns();
			w1 = wtg_now_ns();
			c1 = wtg_thread_cpu_ns();
		}
		if (c0 < 0 || c1 < 0)
			return;
		d[i] = (double)((c1 - c0) - (w1 - w0));
	}
	wtg_sort(d, 101);
	excess_ns = (int64_t)d[50];
	if (inside ? excess_ns > 0 : excess_ns < 0)
		excess_ns = 0;
}

int64_t wtg_probe_cpu_excess_ns(void)
{
	pthread_once(&excess_once, excess_measure);
	return excess_ns < 0 ? -excess_ns : excess_ns;
}

/* The thread's run-queue wait so far (ns) from its schedstat's second field (booked when a wait
 * ends, so complete while the thread runs); the first field is read too, unused. */
static bool sched_read(int fd, int64_t *run, int64_t *wait)
{
	char buf[96];
	ssize_t n = fd >= 0 ? pread(fd, buf, sizeof buf - 1, 0) : -1;
	if (n <= 0)
		return false;
	buf[n] = '\0';
	unsigned long long r, w;
	if (sscanf(buf, "%llu %llu", &r, &w) != 2)
		return false;
	*run = (int64_t)r;
	*wait = (int64_t)w;
	return true;
}

void wtg_probe_begin(struct wtg_probe *p)
{
	memset(p, 0, sizeof *p);
	const struct thread_counters *c = tc_get();
	p->migr0 = perf_read(c->migr);
	p->instr0 = perf_read(c->instr);
	p->cycles0 = perf_read(c->cycles);
	wtg_probe_cpu_excess_ns();
	note_cpu(p);
	p->fd_sched = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	p->ru_utime_us = (int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec;
	p->ru_stime_us = (int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
	p->minflt = ru.ru_minflt;
	p->majflt = ru.ru_majflt;
	p->vcsw = ru.ru_nvcsw;
	p->ivcsw = ru.ru_nivcsw;
	/* the wait and CPU time last, next to the clock: their window is the wall time's */
	if (!sched_read(p->fd_sched, &p->sched_run_ns, &p->sched_wait_ns) && p->fd_sched >= 0) {
		close(p->fd_sched);
		p->fd_sched = -1;
	}
	/* the clocks last, the wall clock inside the CPU clock unless reading the CPU clock can preempt
	 * the thread (wtg_thread_cpu_moves): then inside the wall window, where that wait belongs */
	if (wtg_thread_cpu_moves()) {
		p->t0_ns = wtg_now_ns();
		p->sched_run_ns = wtg_thread_cpu_ns();
	} else {
		p->sched_run_ns = wtg_thread_cpu_ns();
		p->t0_ns = wtg_now_ns();
	}
}

void wtg_probe_tick(struct wtg_probe *p)
{
	note_cpu(p);
}

void wtg_probe_end(struct wtg_probe *p, struct wtg_probe_result *out)
{
	int64_t t1, run, wait, cpu;
	if (wtg_thread_cpu_moves()) {
		cpu = wtg_thread_cpu_ns();
		t1 = wtg_now_ns();
	} else {
		t1 = wtg_now_ns();
		cpu = wtg_thread_cpu_ns();
	}
	bool waited = sched_read(p->fd_sched, &run, &wait);
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	note_cpu(p);
	memset(out, 0, sizeof *out);
	out->wall_ms = (double)(t1 - p->t0_ns) / 1e6;
	out->user_ms = (double)((int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec - p->ru_utime_us) / 1e3;
	out->sys_ms = (double)((int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec - p->ru_stime_us) / 1e3;
	out->minflt = ru.ru_minflt - p->minflt;
	out->majflt = ru.ru_majflt - p->majflt;
	out->vcsw = ru.ru_nvcsw - p->vcsw;
	out->ivcsw = ru.ru_nivcsw - p->ivcsw;
	const struct thread_counters *c = tc_get();
	out->migrations = count_since(c->migr, p->migr0);
	out->instructions = count_since(c->instr, p->instr0);
	out->cycles = count_since(c->cycles, p->cycles0);
	out->cpus_seen = p->cpus_seen;
	out->threads = 1;
	out->oncpu_ms = out->runwait_ms = -1;
	if (waited)
		out->runwait_ms = (double)(wait - p->sched_wait_ns) / 1e6;
	if (cpu >= 0 && p->sched_run_ns >= 0) {
		int64_t on = cpu - p->sched_run_ns - excess_ns;
		out->oncpu_ms = (double)(on > 0 ? on : 0) / 1e6;
	}
	if (p->fd_sched >= 0)
		close(p->fd_sched);
	p->fd_sched = -1;
}

static int64_t add_known(int64_t a, int64_t b)
{
	return (a < 0 || b < 0) ? -1 : a + b;
}

static double add_known_ms(double a, double b)
{
	return (a < 0 || b < 0) ? -1 : a + b;
}

/* The one merge of probe results; the three ways are in probe.h. */
void wtg_probe_merge(struct wtg_probe_result *a, const struct wtg_probe_result *b, enum wtg_probe_how how)
{
	if (a->threads == 0 && how != WTG_PROBE_HELPERS) {
		double wall = a->wall_ms;
		*a = *b;
		if (how == WTG_PROBE_SEQUENTIAL)
			a->wall_ms += wall;
		return;
	}
	if (how == WTG_PROBE_SEQUENTIAL)
		a->wall_ms += b->wall_ms;
	else if (how == WTG_PROBE_CONCURRENT && b->wall_ms > a->wall_ms)
		a->wall_ms = b->wall_ms;
	a->user_ms += b->user_ms;
	a->sys_ms += b->sys_ms;
	a->minflt += b->minflt;
	a->majflt += b->majflt;
	a->vcsw += b->vcsw;
	a->ivcsw += b->ivcsw;
	a->cpus_seen |= b->cpus_seen;
	a->oncpu_ms = add_known_ms(a->oncpu_ms, b->oncpu_ms);
	a->runwait_ms = add_known_ms(a->runwait_ms, b->runwait_ms);
	if (how == WTG_PROBE_HELPERS) {
		/* the run's own thread counters already cover what they can: the widest row is the count */
		if (b->threads > a->threads)
			a->threads = b->threads;
		return;
	}
	a->migrations = add_known(a->migrations, b->migrations);
	a->instructions = add_known(a->instructions, b->instructions);
	a->cycles = add_known(a->cycles, b->cycles);
	if (how == WTG_PROBE_CONCURRENT)
		a->threads += b->threads;	/* the same thread measured again is still one */
}

void wtg_probe_add(struct wtg_probe_result *a, const struct wtg_probe_result *b)
{
	wtg_probe_merge(a, b, WTG_PROBE_CONCURRENT);
}

void wtg_probe_accumulate(struct wtg_probe_result *a, const struct wtg_probe_result *b)
{
	wtg_probe_merge(a, b, WTG_PROBE_SEQUENTIAL);
}

/* Per thread: a concurrent record's wall is its slowest thread's, its schedstat times add up. */
static double per_thread_wall(const struct wtg_probe_result *r)
{
	return r->wall_ms * (r->threads > 1 ? r->threads : 1);
}

bool wtg_probe_contended(const struct wtg_probe_result *r)
{
	return r->runwait_ms > 0 && r->wall_ms > 0 && r->runwait_ms > WTG_CONTENDED_WAIT_SHARE * per_thread_wall(r);
}

double wtg_probe_cpu_share(const struct wtg_probe_result *r)
{
	return r->oncpu_ms > 0 && r->wall_ms > 0 ? r->oncpu_ms / per_thread_wall(r) : NAN;
}

void wtg_probe_cpus_str(uint64_t mask, char *buf, int len)
{
	/* as the kernel writes CPU lists: runs as ranges ("0-15,32-47"), cut at a whole run */
	struct wtg_cpuset set;
	wtg_cpuset_clear(&set);
	for (int c = 0; c < 64; c++)
		if (mask & (1ull << c))
			wtg_cpuset_add(&set, c);
	if (mask)
		wtg_cpuset_format(&set, buf, (size_t)len);
	else
		wtg_strlcpy(buf, "?", (size_t)len);
}
