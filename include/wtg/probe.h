/* probe.h: what every measurement records, bracketed around a measured region. */
#ifndef WTG_PROBE_H
#define WTG_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#define WTG_MAX_CPUS 1024

struct wtg_probe_result {
	double wall_ms, user_ms, sys_ms;
	int64_t minflt, majflt;
	int64_t vcsw, ivcsw;		/* voluntary / involuntary context switches */
	int64_t migrations;		/* software event; -1 when unavailable */
	int64_t instructions, cycles;	/* hardware events; -1 when unavailable ("n/a") */
	uint64_t cpus_seen;		/* bitmask of CPUs (first 64) the measuring thread(s) ran on */
	int threads;			/* measuring threads aggregated into this record */
	/* The time the measuring thread(s) ran on a CPU (wtg_thread_cpu_ns) and the time they
	 * waited runnable for one (the run-queue wait from /proc/thread-self/schedstat, booked when the
	 * wait ends, so complete at the probe's end); -1 when it cannot be read. oncpu_ms leaves out
	 * the CPU clock's own read (wtg_probe_cpu_excess_ns). */
	double oncpu_ms, runwait_ms;
};

/* A probe measures the calling thread (RUSAGE_THREAD plus per-thread perf events).
 * Threads of a multi-threaded measurement each run a probe and wtg_probe_add() the results. */
struct wtg_probe {
	int64_t t0_ns;
	int64_t ru_utime_us, ru_stime_us, minflt, majflt, vcsw, ivcsw;
	int64_t migr0, instr0, cycles0;	/* the thread's kept counters at the start, -1 none */
	uint64_t cpus_seen;
	int fd_sched;			/* /proc/thread-self/schedstat, -1 when unreadable */
	int64_t sched_run_ns, sched_wait_ns;	/* thread CPU time, schedstat's wait, at the start */
};

void wtg_probe_begin(struct wtg_probe *p);
/* The calling thread's time on a CPU so far (ns), -1 when it cannot be read: a perf task-clock
 * counter of the thread's own where perf_event_open allows one, else CLOCK_THREAD_CPUTIME_ID, whose
 * read brings the scheduler's accounting up to date and so preempts a thread whose time slice ran
 * out right there (wtg_thread_cpu_moves() is then true): read beside a timed window rather than
 * inside it, it moves the waits a competing thread imposes out of the window. */
int64_t wtg_thread_cpu_ns(void);
bool wtg_thread_cpu_moves(void);
/* "a perf task-clock counter" or "CLOCK_THREAD_CPUTIME_ID", for notes. */
const char *wtg_thread_cpu_source(void);
/* How far an empty probe's CPU window differs from its wall window (the thread CPU clock's read, a
 * system call): measured once on the first call, the median of 101 windows, 0 when the CPU clock
 * cannot be read; every probe's oncpu_ms has it taken out. Inside a probe the read finds the
 * kernel colder and costs up to twice that, so a design whose samples last under WTG_PROBE_RESOLVE
 * times it cannot tell its share (a batch of one getpid against half a microsecond of clock read). */
int64_t wtg_probe_cpu_excess_ns(void);
#define WTG_PROBE_RESOLVE 20
/* Note the current CPU; cheap enough to call between batches. */
void wtg_probe_tick(struct wtg_probe *p);
void wtg_probe_end(struct wtg_probe *p, struct wtg_probe_result *out);
/* How b joins a: CONCURRENT threads (wall of the slowest, thread counts add), SEQUENTIAL regions
 * of one thread (walls add, still the same threads), or HELPERS of a run whose own totals a holds
 * (a's wall and thread counters stay, times, faults, switches and CPUs add, the widest count). */
enum wtg_probe_how { WTG_PROBE_CONCURRENT, WTG_PROBE_SEQUENTIAL, WTG_PROBE_HELPERS };
void wtg_probe_merge(struct wtg_probe_result *a, const struct wtg_probe_result *b, enum wtg_probe_how how);
/* wtg_probe_merge(a, b, WTG_PROBE_CONCURRENT). */
void wtg_probe_add(struct wtg_probe_result *a, const struct wtg_probe_result *b);
/* Sequential regions of one thread: like wtg_probe_add, but wall times add up. */
void wtg_probe_accumulate(struct wtg_probe_result *a, const struct wtg_probe_result *b);
/* Whether hardware counters (instructions, cycles) could be opened; checked once. */
bool wtg_probe_have_hw_counters(void);
/* The contention rule, fixed before measuring: a sample is contended when its thread(s) waited
 * runnable for a CPU more than WTG_CONTENDED_WAIT_SHARE of its wall time (per thread), read from
 * schedstat's second field before and after. Such a sample counted time the thread sat descheduled. */
#define WTG_CONTENDED_WAIT_SHARE 0.02
/* A figure leaves its contended samples out only when at least this many others remain. */
#define WTG_CONTENDED_KEEP 11
/* Whether r was contended by that rule; false when schedstat was unreadable or nothing was timed. */
bool wtg_probe_contended(const struct wtg_probe_result *r);
/* The share of r's wall time its thread(s) ran on a CPU (thread CPU time; per thread), or
 * NAN when unknown (no schedstat, or a record that holds none). */
double wtg_probe_cpu_share(const struct wtg_probe_result *r);
/* Comma list of the CPUs in a mask ("0,1"), or "?" when empty. */
void wtg_probe_cpus_str(uint64_t mask, char *buf, int len);

#endif
