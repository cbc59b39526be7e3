/* tail_parts.c: a tail sample's wall time divided (tail_parts.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tail_parts.h"
#include "wtg/probe.h"
#include "wtg/stats.h"
#include "wtg/table.h"
#include "wtg/util.h"

const char *const tp_part_col[TP_NPARTS] = { "wait", "oncpu", "irq", "steal", "unexplained" };
const char *const tp_part_words[TP_NPARTS] = { "waiting for a CPU", "on a CPU", "in interrupts", "stolen",
					       "unexplained" };

#define TP_BUF (256u << 10)
#define TP_COST_READS 21

/* The whole of a /proc file into r->buf from its start (the fd stays open); its length or -1. */
static long tp_read(struct tp_reader *r, int fd)
{
	size_t got = 0;
	while (got < r->buflen - 1) {
		ssize_t n = pread(fd, r->buf + got, r->buflen - 1 - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	r->buf[got] = '\0';
	return got ? (long)got : -1;
}

/* Interrupts of every kind on CPU cpu in a /proc/interrupts text: the column the header names
 * "CPUn", summed over the lines that have a count for every CPU; -1 when the header lacks it. */
static int64_t tp_irqs_of(const char *text, int cpu)
{
	const char *nl = strchr(text, '\n');
	if (!nl)
		return -1;
	int ncols = 0, col = -1;
	for (const char *p = text; p < nl;) {
		while (p < nl && *p == ' ')
			p++;
		int c;
		if (p < nl && sscanf(p, "CPU%d", &c) == 1) {
			if (c == cpu)
				col = ncols;
			ncols++;
		}
		while (p < nl && *p != ' ')
			p++;
	}
	if (col < 0)
		return -1;
	int64_t sum = 0;
	for (const char *line = nl + 1; *line;) {
		const char *end = strchr(line, '\n');
		const char *p = strchr(line, ':');
		if (p && (!end || p < end)) {
			p++;
			int64_t mine = 0;
			int k = 0;
			for (; k < ncols; k++) {
				char *q;
				long long v = strtoll(p, &q, 10);
				if (q == p || (end && q > end))
					break;
				if (k == col)
					mine = v;
				p = q;
			}
			if (k == ncols)
				sum += mine;
		}
		line = end ? end + 1 : line + strlen(line);
	}
	return sum;
}

/* The steal column of CPU cpu's line of a /proc/stat text, in ticks; -1 when missing. */
static int64_t tp_steal_of(const char *text, int cpu)
{
	char key[24];
	int kl = snprintf(key, sizeof key, "cpu%d ", cpu);
	for (const char *p = text; p && *p;) {
		if (strncmp(p, key, (size_t)kl) == 0) {
			unsigned long long v[8];
			if (sscanf(p + kl, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
				   &v[4], &v[5], &v[6], &v[7]) == 8)
				return (int64_t)v[7];
			return -1;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return -1;
}

static int64_t tp_sched_wait(struct tp_reader *r)
{
	char buf[128];
	if (r->fd_sched < 0)
		return -1;
	ssize_t n = pread(r->fd_sched, buf, sizeof buf - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	unsigned long long run, wait;
	return sscanf(buf, "%llu %llu", &run, &wait) == 2 ? (int64_t)wait : -1;
}

/* The thread's CPU clock beside a batch, -1 where reading it would preempt the thread there
 * (wtg_thread_cpu_moves): the wait a competing thread imposes would then fall outside the batch. */
static int64_t tp_cpu_ns(void)
{
	return wtg_thread_cpu_moves() ? -1 : wtg_thread_cpu_ns();
}

/* The median cost of a read of fd that parses (a figure of CPU cpu), NAN when it fails. */
static double tp_cost(struct tp_reader *r, int fd, bool irq)
{
	double v[TP_COST_READS];
	int cpu = sched_getcpu();
	for (int i = 0; i < TP_COST_READS; i++) {
		int64_t t0 = wtg_now_ns();
		if (tp_read(r, fd) < 0 || (irq ? tp_irqs_of(r->buf, cpu) : tp_steal_of(r->buf, cpu)) < 0)
			return NAN;
		v[i] = (double)(wtg_now_ns() - t0);
	}
	return wtg_quantile(v, TP_COST_READS, 0.5);
}

void tp_reader_open(struct tp_reader *r, double batch_ns)
{
	memset(r, 0, sizeof *r);
	r->irq_read_ns = r->stat_read_ns = NAN;
	r->fd_sched = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	r->fd_irq = open("/proc/interrupts", O_RDONLY | O_CLOEXEC);
	r->fd_stat = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	r->buf = malloc(TP_BUF);
	r->buflen = TP_BUF;
	long hz = sysconf(_SC_CLK_TCK);
	r->tick_ns = hz > 0 ? 1e9 / (double)hz : NAN;
	r->clock_excess_ns = wtg_probe_cpu_excess_ns();
	if (!r->buf)
		return;
	if (r->fd_irq >= 0)
		r->irq_read_ns = tp_cost(r, r->fd_irq, true);
	if (r->fd_stat >= 0)
		r->stat_read_ns = tp_cost(r, r->fd_stat, false);
	tp_reader_for(r, batch_ns);
}

void tp_reader_for(struct tp_reader *r, double batch_ns)
{
	r->irq_on = isfinite(r->irq_read_ns) && r->irq_read_ns <= TP_READ_SHARE * batch_ns;
	r->stat_on = isfinite(r->stat_read_ns) && isfinite(r->tick_ns) && r->stat_read_ns <= TP_READ_SHARE * batch_ns;
}

void tp_reader_close(struct tp_reader *r)
{
	int *fds[] = { &r->fd_sched, &r->fd_irq, &r->fd_stat };
	for (size_t i = 0; i < WTG_ARRAY_LEN(fds); i++)
		if (*fds[i] >= 0)
			close(*fds[i]);
	free(r->buf);
	r->buf = NULL;
	r->fd_sched = r->fd_irq = r->fd_stat = -1;
}

/* The interrupts and steal of CPU cpu into m. */
static void tp_counts(struct tp_reader *r, struct tp_mark *m, int cpu)
{
	m->irqs = m->steal_ticks = -1;
	if (r->irq_on && tp_read(r, r->fd_irq) > 0)
		m->irqs = tp_irqs_of(r->buf, cpu);
	if (r->stat_on && tp_read(r, r->fd_stat) > 0)
		m->steal_ticks = tp_steal_of(r->buf, cpu);
}

void tp_mark_before(struct tp_reader *r, struct tp_mark *m)
{
	/* the slow reads first and the clock last: its window is the sample's, give or take a clock
	 * read (taken out); schedstat's holds the clock reads, the counts' hold everything */
	m->cpu = sched_getcpu();
	tp_counts(r, m, m->cpu);
	m->wait_ns = tp_sched_wait(r);
	m->cpu_ns = tp_cpu_ns();
}

void tp_mark_after(struct tp_reader *r, const struct tp_mark *before, struct tp_mark *m)
{
	m->cpu_ns = tp_cpu_ns();
	m->wait_ns = tp_sched_wait(r);
	m->cpu = sched_getcpu();
	/* the start's CPU again: a sample that moved has its interrupts and steal of that CPU only */
	tp_counts(r, m, before->cpu);
}

void tp_store(const struct tp_reader *r, struct tp_samples *s, size_t i, double w, long calls,
	      const struct tp_mark *a, const struct tp_mark *b)
{
	const double per = calls > 0 ? 1.0 / (double)calls : 1.0;
	s->w[i] = w;
	s->c[i] = a->cpu_ns >= 0 && b->cpu_ns >= a->cpu_ns
			  ? fmax((double)(b->cpu_ns - a->cpu_ns - r->clock_excess_ns), 0) * per
			  : NAN;
	s->q[i] = a->wait_ns >= 0 && b->wait_ns >= a->wait_ns ? (double)(b->wait_ns - a->wait_ns) * per : NAN;
	if (!isfinite(s->c[i]) && a->cpu_ns < 0 && b->cpu_ns < 0 && isfinite(s->q[i]))
		s->c[i] = fmax(w - s->q[i], 0);	/* no CPU clock beside the batch: its wall less its wait */
	/* schedstat's window holds the clock reads around the sample, and a wait there did not lengthen
	 * the sample: no more waiting than the sample's wall less its time on a CPU */
	if (isfinite(s->q[i]) && isfinite(s->c[i]))
		s->q[i] = fmin(s->q[i], fmax(w - s->c[i], 0));
	double n = NAN, st = NAN;
	if (a->irqs >= 0 && b->irqs >= a->irqs)
		n = (double)(b->irqs - a->irqs);
	if (a->steal_ticks >= 0 && b->steal_ticks >= a->steal_ticks)
		st = (double)(b->steal_ticks - a->steal_ticks) * r->tick_ns * per;
	s->n[i] = n;
	s->s[i] = st;
	s->len = i + 1 > s->len ? i + 1 : s->len;
}

int tp_samples_alloc(struct tp_samples *s, size_t n)
{
	memset(s, 0, sizeof *s);
	double **arr[] = { &s->w, &s->c, &s->q, &s->s, &s->n };
	for (size_t k = 0; k < WTG_ARRAY_LEN(arr); k++)
		if (!(*arr[k] = calloc(n ? n : 1, sizeof(double)))) {
			tp_samples_free(s);
			return -1;
		}
	return 0;
}

void tp_samples_free(struct tp_samples *s)
{
	free(s->w);
	free(s->c);
	free(s->q);
	free(s->s);
	free(s->n);
	memset(s, 0, sizeof *s);
}

/* ---- the division ---- */

/* Mean of x over idx[0..n), NAN when any is unknown or n is 0. */
static double mean_of(const double *x, const size_t *idx, size_t n)
{
	double sum = 0;
	for (size_t k = 0; k < n; k++)
		sum += x[idx[k]];
	return n ? sum / (double)n : NAN;
}

struct tp_pick {
	size_t *tail, *ref;
	size_t ntail, nref;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The samples above quantile q (mark NULL), else the marked ones, and the unmarked ones between
 * the 45th and 55th percentiles of the unmarked, of the samples idx[0..n) (their walls in tmp,
 * sorted there). */
static void tp_select(const struct tp_samples *s, const unsigned char *mark, const size_t *idx, size_t n, double q,
		      double *tmp, struct tp_pick *p)
{
	size_t m = 0;
	for (size_t k = 0; k < n; k++)
		if (!mark || !mark[idx[k]])
			tmp[m++] = s->w[idx[k]];
	p->ntail = p->nref = 0;
	if (!m)
		return;
	qsort(tmp, m, sizeof *tmp, cmp_double);
	double cut = mark ? NAN : wtg_quantile_sorted(tmp, m, q), lo = wtg_quantile_sorted(tmp, m, 0.45),
	       hi = wtg_quantile_sorted(tmp, m, 0.55);
	size_t band = 0;
	for (size_t k = 0; k < m; k++)
		band += tmp[k] >= lo && tmp[k] <= hi;
	if (!band) {	/* few samples: the band falls between two; the median's one or two instead */
		lo = tmp[(m - 1) / 2];
		hi = tmp[m / 2];
	}
	for (size_t k = 0; k < n; k++) {
		double w = s->w[idx[k]];
		bool marked = mark && mark[idx[k]];
		if (mark ? marked : w > cut)
			p->tail[p->ntail++] = idx[k];
		if (!marked && w >= lo && w <= hi)
			p->ref[p->nref++] = idx[k];
	}
}

/* The parts of the tail's excess over the reference, in ns per call; false when undefined. */
static bool tp_parts(const struct tp_samples *s, const size_t *idx, size_t n, const struct tp_pick *p,
		     double *excess, double *part, double *slope)
{
	if (!p->ntail || !p->nref)
		return false;
	double e = mean_of(s->w, p->tail, p->ntail) - mean_of(s->w, p->ref, p->nref);
	double wait = s->q_known ? mean_of(s->q, p->tail, p->ntail) - mean_of(s->q, p->ref, p->nref) : 0;
	double dc = mean_of(s->c, p->tail, p->ntail) - mean_of(s->c, p->ref, p->nref);
	if (!isfinite(e) || !isfinite(dc) || !isfinite(wait))
		return false;
	/* interrupts: the time one costs, from all the samples (the slope of wall less waiting on the
	 * count), times how many more the tail had */
	double irq = 0, b = NAN;
	if (s->n_known) {
		double mx = mean_of(s->n, idx, n), my = 0, sxy = 0, sxx = 0;
		for (size_t k = 0; k < n; k++)
			my += s->w[idx[k]] - (s->q_known ? s->q[idx[k]] : 0);
		my /= (double)n;
		for (size_t k = 0; k < n; k++) {
			double dx = s->n[idx[k]] - mx;
			sxy += dx * (s->w[idx[k]] - (s->q_known ? s->q[idx[k]] : 0) - my);
			sxx += dx * dx;
		}
		b = sxx > 0 ? fmax(sxy / sxx, 0) : 0;
		irq = fmax(b * (mean_of(s->n, p->tail, p->ntail) - mean_of(s->n, p->ref, p->nref)), 0);
	}
	/* an interrupt taken while the thread ran is in its CPU clock, unless the kernel accounts
	 * interrupt time apart: what the CPU time grew by holds it first, the rest the remainder */
	double irq_c = fmin(irq, fmax(dc, 0)), irq_x = irq - irq_c;
	double rest = e - wait - dc;
	double steal = s->s_known ? mean_of(s->s, p->tail, p->ntail) - mean_of(s->s, p->ref, p->nref) : 0;
	steal = fmin(fmax(steal, 0), fmax(rest - irq_x, 0));
	part[TP_WAIT] = wait;
	part[TP_ONCPU] = dc - irq_c;
	part[TP_IRQ] = irq;
	part[TP_STEAL] = steal;
	part[TP_UNEXPLAINED] = rest - irq_x - steal;
	*excess = e;
	if (slope)
		*slope = b;
	return true;
}

/* Whether every sample's x is known. */
static bool all_known(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return n > 0;
}

void tp_division_na(struct tp_division *d)
{
	d->excess = d->ns_per_irq = NAN;
	d->tail = 0;
	for (int k = 0; k < TP_NPARTS; k++)
		d->part[k] = d->pct[k] = d->lo[k] = d->hi[k] = NAN;
}

/* tp_divide's and tp_divide_marked's work: the tail above q, or the marked samples. */
static void divide(const struct tp_samples *s0, double q, const unsigned char *mark, int resamples, uint64_t seed,
		   struct tp_division *d)
{
	struct tp_samples s = *s0;
	s.q_known = all_known(s.q, s.len);
	s.n_known = all_known(s.n, s.len);
	s.s_known = all_known(s.s, s.len);
	tp_division_na(d);
	size_t n = s.len;
	size_t *idx = malloc((n ? n : 1) * sizeof *idx);
	struct tp_pick p = { malloc((n ? n : 1) * sizeof(size_t)), malloc((n ? n : 1) * sizeof(size_t)), 0, 0 };
	double *tmp = malloc((n ? n : 1) * sizeof *tmp);
	double *boot = resamples > 0 ? malloc((size_t)resamples * TP_NPARTS * sizeof *boot) : NULL;
	if (!idx || !p.tail || !p.ref || !tmp || !all_known(s.c, n))
		goto out;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	tp_select(&s, mark, idx, n, q, tmp, &p);
	double e, part[TP_NPARTS];
	if (!tp_parts(&s, idx, n, &p, &e, part, &d->ns_per_irq))
		goto out;
	d->excess = e;
	d->tail = (int)p.ntail;
	for (int k = 0; k < TP_NPARTS; k++) {
		d->part[k] = part[k];
		d->pct[k] = e > 0 ? 100.0 * part[k] / e : NAN;
	}
	if (!boot || !(e > 0))
		goto out;
	/* the samples resampled with replacement, the tail and the reference picked again in each */
	struct wtg_rng rng;
	wtg_rng_seed(&rng, seed);
	int got = 0;
	for (int b = 0; b < resamples; b++) {
		for (size_t i = 0; i < n; i++)
			idx[i] = (size_t)wtg_rng_below(&rng, n);
		tp_select(&s, mark, idx, n, q, tmp, &p);
		double be, bp[TP_NPARTS];
		if (!tp_parts(&s, idx, n, &p, &be, bp, NULL) || !(be > 0))
			continue;
		for (int k = 0; k < TP_NPARTS; k++)
			boot[(size_t)k * (size_t)resamples + (size_t)got] = 100.0 * bp[k] / be;
		got++;
	}
	for (int k = 0; k < TP_NPARTS && got >= 2; k++) {
		double *v = boot + (size_t)k * (size_t)resamples;
		d->lo[k] = wtg_quantile(v, (size_t)got, 0.025);
		d->hi[k] = wtg_quantile(v, (size_t)got, 0.975);
	}
out:
	free(idx);
	free(p.tail);
	free(p.ref);
	free(tmp);
	free(boot);
}

void tp_divide(const struct tp_samples *s, double q, int resamples, uint64_t seed, struct tp_division *d)
{
	divide(s, q, NULL, resamples, seed, d);
}

void tp_divide_marked(const struct tp_samples *s, const unsigned char *mark, int resamples, uint64_t seed,
		      struct tp_division *d)
{
	divide(s, NAN, mark, resamples, seed, d);
}

int tp_values(const struct tp_division *d, const struct tp_reader *r, bool ci, struct wtg_value *out)
{
	int n = 0;
	out[n++] = wtg_real_or_na(d->excess);
	for (int k = 0; k < TP_NPARTS; k++) {
		/* a count not read around each sample has no part: n/a, not 0 */
		bool read = (k != TP_IRQ || r->irq_on) && (k != TP_STEAL || r->stat_on);
		out[n++] = wtg_real_or_na(read ? d->pct[k] : NAN);
		if (ci) {
			out[n++] = wtg_real_or_na(read ? d->lo[k] : NAN);
			out[n++] = wtg_real_or_na(read ? d->hi[k] : NAN);
		}
	}
	return n;
}

int tp_row_words(char *buf, size_t len, const struct wtg_table *t, int row, const char *prefix, const char *which)
{
	char col[64];
	snprintf(col, sizeof col, "%s_excess_ns", prefix);
	int ce = wtg_table_col(t, col);
	if (!len)
		return 0;
	buf[0] = '\0';
	if (row < 0 || ce < 0 || !(wtg_table_num(t, row, ce) > 0))
		return 0;
	double pct[TP_NPARTS];
	for (int k = 0; k < TP_NPARTS; k++) {
		snprintf(col, sizeof col, "%s_%s_pct", prefix, tp_part_col[k]);
		int c = wtg_table_col(t, col);
		pct[k] = c >= 0 ? wtg_table_num(t, row, c) : NAN;
	}
	return tp_words(buf, len, which, wtg_table_num(t, row, ce), pct);
}

int tp_words(char *buf, size_t len, const char *which, double excess, const double *pct)
{
	if (!len)
		return 0;
	buf[0] = '\0';
	if (!(excess > 0))
		return 0;
	char dur[32];
	wtg_fmt_duration(dur, sizeof dur, excess);
	size_t wl = strlen(which);	/* "the p99's", "the contended batches'" */
	int o = snprintf(buf, len, "the %s%s extra %s:", which, wl && which[wl - 1] == 's' ? "'" : "'s", dur);
	int order[TP_NPARTS], m = 0;
	for (int k = 0; k < TP_NPARTS; k++)
		if (isfinite(pct[k]) && fabs(pct[k]) >= 0.5)
			order[m++] = k;
	for (int i = 1; i < m; i++)	/* by size, largest first */
		for (int j = i; j > 0 && fabs(pct[order[j]]) > fabs(pct[order[j - 1]]); j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (int i = 0; i < m && o > 0 && (size_t)o < len; i++)
		o += snprintf(buf + o, len - (size_t)o, "%s %.0f%% %s", i ? "," : "", pct[order[i]],
			      tp_part_words[order[i]]);
	return o < 0 ? 0 : o >= (int)len ? (int)len - 1 : o;
}
