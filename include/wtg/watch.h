/* watch.h: the machine's state while an experiment runs: the steal time of the CPUs it measured
 * on (/proc/stat's steal column, per CPU: time the hypervisor gave this virtual CPU's turn to
 * another guest) and each CPU's current frequency (cpufreq's scaling_cur_freq, where readable).
 * Both are read below WTG_SYSFS_ROOT when it is set (ROOT/proc/stat, ROOT/sys/...), so a test's
 * fake tree stands for another machine. */
#ifndef WTG_WATCH_H
#define WTG_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#define WTG_WATCH_CPUS 128	/* CPUs past this are not watched */

/* /proc/stat's per-CPU lines: steal and the sum of the time columns, in clock ticks. */
struct wtg_cpustat {
	int ncpus;			/* highest CPU number seen + 1; 0: unreadable */
	uint64_t steal[WTG_WATCH_CPUS], total[WTG_WATCH_CPUS];
	bool seen[WTG_WATCH_CPUS];
};

/* Parse a /proc/stat text; false when it holds no "cpuN" line. */
bool wtg_cpustat_parse(const char *text, struct wtg_cpustat *s);
/* Read (ROOT)/proc/stat; false when unreadable. */
bool wtg_cpustat_read(struct wtg_cpustat *s);
/* The steal between a and b as a percentage of the time that passed on the CPUs in mask (the first
 * 64; 0: every CPU), NAN when no such CPU's time moved. */
double wtg_cpustat_steal_pct(const struct wtg_cpustat *a, const struct wtg_cpustat *b, uint64_t mask);

/* CPU cpu's current frequency in MHz (cpufreq's scaling_cur_freq), NAN where not readable. */
double wtg_cpu_mhz(int cpu);

/* One experiment's watch: started when it starts running, sampled as it reports progress, ended
 * when it ends. */
struct wtg_watch {
	bool running;
	bool nofreq;			/* no CPU had a scaling_cur_freq */
	int64_t last_ns;		/* the last frequency sample */
	struct wtg_cpustat start;
	float mhz_lo[WTG_WATCH_CPUS], mhz_hi[WTG_WATCH_CPUS];	/* 0: not read */
	/* the result: NAN when unknown (no /proc/stat, no cpufreq) */
	double steal_pct, mhz_min, mhz_max;
};
#define WTG_WATCH_EVERY_NS 200000000LL	/* frequency samples at most this often */

void wtg_watch_begin(struct wtg_watch *w);
/* A frequency sample of every CPU, when WTG_WATCH_EVERY_NS passed since the last. */
void wtg_watch_tick(struct wtg_watch *w);
/* The steal and frequency range over the CPUs in mask (0: every CPU). */
void wtg_watch_end(struct wtg_watch *w, uint64_t mask);
/* The steal and frequency range over every CPU so far, the watch going on (NAN: unknown). */
void wtg_watch_so_far(const struct wtg_watch *w, double *steal, double *mhz_min, double *mhz_max);
/* Nothing known: NAN figures. */
void wtg_watch_clear(struct wtg_watch *w);

/* The machine's steal right now, in % over every CPU since the previous call at least a second
 * ago (the dashboard's header); NAN until two reads a second apart exist or unreadable. */
double wtg_watch_steal_now(void);

#endif
