/* watch.c: steal and frequency while an experiment runs (wtg/watch.h). */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/util.h"
#include "wtg/watch.h"

static const char *watch_root(void)
{
	const char *root = getenv("WTG_SYSFS_ROOT");
	return root ? root : "";
}

bool wtg_cpustat_parse(const char *text, struct wtg_cpustat *s)
{
	memset(s, 0, sizeof *s);
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		unsigned cpu;
		unsigned long long v[8] = { 0 };
		/* cpuN user nice system idle iowait irq softirq steal [guest guest_nice]: guest time is
		 * inside user already, so the first eight make up the CPU's time */
		int n = sscanf(p, "cpu%u %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2], &v[3],
			       &v[4], &v[5], &v[6], &v[7]);
		if (n >= 5 && cpu < WTG_WATCH_CPUS) {
			uint64_t total = 0;
			for (int i = 0; i < n - 1; i++)
				total += v[i];
			s->steal[cpu] = n >= 9 ? v[7] : 0;
			s->total[cpu] = total;
			s->seen[cpu] = true;
			if ((int)cpu + 1 > s->ncpus)
				s->ncpus = (int)cpu + 1;
		}
		p = nl ? nl + 1 : NULL;
	}
	return s->ncpus > 0;
}

bool wtg_cpustat_read(struct wtg_cpustat *s)
{
	char path[512];
	snprintf(path, sizeof path, "%s/proc/stat", watch_root());
	char *text = wtg_read_text(path);
	bool ok = text && wtg_cpustat_parse(text, s);
	if (!ok)
		memset(s, 0, sizeof *s);
	free(text);
	return ok;
}

double wtg_cpustat_steal_pct(const struct wtg_cpustat *a, const struct wtg_cpustat *b, uint64_t mask)
{
	uint64_t steal = 0, total = 0;
	int n = a->ncpus < b->ncpus ? a->ncpus : b->ncpus;
	for (int c = 0; c < n; c++) {
		if (!a->seen[c] || !b->seen[c] || (mask && (c >= 64 || !(mask & (1ull << c)))))
			continue;
		if (b->total[c] < a->total[c] || b->steal[c] < a->steal[c])
			continue;	/* a counter went back (a CPU went offline and on): not comparable */
		steal += b->steal[c] - a->steal[c];
		total += b->total[c] - a->total[c];
	}
	return total ? 100.0 * (double)steal / (double)total : NAN;
}

double wtg_cpu_mhz(int cpu)
{
	char path[512], line[64];
	snprintf(path, sizeof path, "%s/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", watch_root(), cpu);
	wtg_read_line(path, line, sizeof line);
	char *end;
	double khz = strtod(line, &end);
	return end == line || !(khz > 0) ? NAN : khz / 1000.0;
}

static void watch_freq(struct wtg_watch *w)
{
	w->last_ns = wtg_now_ns();
	if (w->nofreq)
		return;
	int n = w->start.ncpus > 0 ? w->start.ncpus : wtg_online_cpus();
	bool any = false;
	for (int c = 0; c < n && c < WTG_WATCH_CPUS; c++) {
		double m = wtg_cpu_mhz(c);
		if (!isfinite(m))
			continue;
		any = true;
		float mhz = (float)m;
		if (!w->mhz_lo[c] || mhz < w->mhz_lo[c])
			w->mhz_lo[c] = mhz;
		if (mhz > w->mhz_hi[c])
			w->mhz_hi[c] = mhz;
	}
	w->nofreq = !any;	/* no cpufreq here: not looked for again in this run */
}

void wtg_watch_clear(struct wtg_watch *w)
{
	memset(w, 0, sizeof *w);
	w->steal_pct = w->mhz_min = w->mhz_max = NAN;
}

void wtg_watch_begin(struct wtg_watch *w)
{
	wtg_watch_clear(w);
	wtg_cpustat_read(&w->start);
	watch_freq(w);
	w->running = true;
}

void wtg_watch_tick(struct wtg_watch *w)
{
	if (w->running && wtg_now_ns() - w->last_ns >= WTG_WATCH_EVERY_NS)
		watch_freq(w);
}

void wtg_watch_end(struct wtg_watch *w, uint64_t mask)
{
	if (!w->running)
		return;
	w->running = false;
	watch_freq(w);
	struct wtg_cpustat *now = malloc(sizeof *now);
	w->steal_pct = now && wtg_cpustat_read(now) ? wtg_cpustat_steal_pct(&w->start, now, mask) : NAN;
	free(now);
	for (int c = 0; c < WTG_WATCH_CPUS; c++) {
		if (!w->mhz_hi[c] || (mask && (c >= 64 || !(mask & (1ull << c)))))
			continue;
		if (isnan(w->mhz_min) || w->mhz_lo[c] < w->mhz_min)
			w->mhz_min = w->mhz_lo[c];
		if (isnan(w->mhz_max) || w->mhz_hi[c] > w->mhz_max)
			w->mhz_max = w->mhz_hi[c];
	}
}

void wtg_watch_so_far(const struct wtg_watch *w, double *steal, double *mhz_min, double *mhz_max)
{
	struct wtg_watch *c = malloc(sizeof *c);
	*steal = *mhz_min = *mhz_max = NAN;
	if (!c)
		return;
	*c = *w;	/* ended on a copy: the watch goes on */
	wtg_watch_end(c, 0);
	*steal = c->steal_pct;
	*mhz_min = c->mhz_min;
	*mhz_max = c->mhz_max;
	free(c);
}

double wtg_watch_steal_now(void)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct wtg_cpustat prev, cur;
	static int64_t prev_ns;
	static double pct = NAN;
	pthread_mutex_lock(&lock);
	int64_t now = wtg_now_ns();
	if (!prev_ns || now - prev_ns >= 1000000000LL) {
		if (wtg_cpustat_read(&cur)) {
			if (prev_ns)
				pct = wtg_cpustat_steal_pct(&prev, &cur, 0);
			prev = cur;
			prev_ns = now;
		} else {
			pct = NAN;
		}
	}
	double r = pct;
	pthread_mutex_unlock(&lock);
	return r;
}
