/* tail_parts.h: a tail sample's wall time divided (tail.c). Around every sample: the thread's CPU
 * clock (on a CPU), schedstat's run-queue wait (runnable, waiting for a CPU), the interrupts on the
 * measuring CPU (/proc/interrupts, every kind) and its steal (/proc/stat), these two only where a
 * read costs little beside a sample. The samples above the p99 (and the p90) are then set against
 * the samples around the median: their extra time divided among waiting for a CPU, on-CPU time
 * grown, interrupts, steal and unexplained, the parts adding up to the extra. */
#ifndef WTG_TAIL_PARTS_H
#define WTG_TAIL_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The parts, in the order of the columns and the words. */
enum { TP_WAIT = 0, TP_ONCPU, TP_IRQ, TP_STEAL, TP_UNEXPLAINED, TP_NPARTS };
extern const char *const tp_part_col[TP_NPARTS];	/* "wait", "oncpu", "irq", "steal", "unexplained" */
extern const char *const tp_part_words[TP_NPARTS];	/* "waiting for a CPU", "on a CPU", ... */

/* The files read around each sample, opened once. */
struct tp_reader {
	int fd_sched, fd_irq, fd_stat;	/* -1: not read */
	double irq_read_ns, stat_read_ns;	/* one read's cost (median), NAN not measured */
	bool irq_on, stat_on;		/* cheap enough beside a sample: read */
	double tick_ns;			/* one clock tick of /proc/stat */
	int64_t clock_excess_ns;	/* the CPU clock read's own cost, taken out */
	char *buf;			/* for /proc/interrupts and /proc/stat */
	size_t buflen;
};

/* One sample's readings before or after it. */
struct tp_mark {
	int cpu;
	int64_t cpu_ns, wait_ns;	/* thread CPU clock; schedstat's run-queue wait (-1 unknown) */
	int64_t irqs, steal_ticks;	/* on the sample's first CPU; -1 not read */
};

/* Per-sample parts of one condition, per call (the sample's unit: ns per call). */
struct tp_samples {
	double *w, *c, *q, *s, *n;	/* wall, on a CPU, waiting, steal; n: interrupts (per sample) */
	size_t len;
	bool q_known, n_known, s_known;
};

/* Open the files and measure what a read costs; batch_ns: how long a sample lasts. A read costing
 * more than TP_READ_SHARE of a sample is not made around each (that figure is n/a). */
#define TP_READ_SHARE 0.10
void tp_reader_open(struct tp_reader *r, double batch_ns);
/* Samples of another length (batch_ns) from here on: which reads are cheap enough beside them. */
void tp_reader_for(struct tp_reader *r, double batch_ns);
void tp_reader_close(struct tp_reader *r);
void tp_mark_before(struct tp_reader *r, struct tp_mark *m);
void tp_mark_after(struct tp_reader *r, const struct tp_mark *before, struct tp_mark *m);
/* Store sample i (its ns per call w over calls calls) from the marks around it. */
void tp_store(const struct tp_reader *r, struct tp_samples *s, size_t i, double w, long calls,
	      const struct tp_mark *a, const struct tp_mark *b);

int tp_samples_alloc(struct tp_samples *s, size_t n);
void tp_samples_free(struct tp_samples *s);

/* The division of the extra time of the samples above quantile q over the samples around the
 * median (between its 45th and 55th percentiles). */
struct tp_division {
	double excess;			/* ns per call, NAN when there is no sample above q */
	double part[TP_NPARTS];		/* ns per call, adding up to excess */
	double pct[TP_NPARTS];		/* % of excess */
	double lo[TP_NPARTS], hi[TP_NPARTS];	/* bootstrap 95% interval of pct (NAN: not resampled) */
	double ns_per_irq;		/* the slope of (wall - waiting) on interrupts per sample */
	int tail;			/* samples above q */
};
void tp_divide(const struct tp_samples *s, double q, int resamples, uint64_t seed, struct tp_division *d);
/* The same for the marked samples (syscall's contended batches: mark[i] non-zero) over the unmarked
 * ones between the 45th and 55th percentiles of the unmarked. */
void tp_divide_marked(const struct tp_samples *s, const unsigned char *mark, int resamples, uint64_t seed,
		      struct tp_division *d);
/* No division: every figure n/a. */
void tp_division_na(struct tp_division *d);
#define TP_RESAMPLES 1000	/* each picks the tail and the median band again: a sort of the batches */

/* A division's cells in the columns' order: the excess, then each part's share (with its interval's
 * ends when ci), n/a for interrupts and steal where r did not read them. Returns the count (at most
 * TP_VALUES). */
#define TP_VALUES (1 + 3 * TP_NPARTS)
struct wtg_value;
int tp_values(const struct tp_division *d, const struct tp_reader *r, bool ci, struct wtg_value *out);

/* "the p99's extra 1.9 us: 84% waiting for a CPU, 9% on a CPU, 7% unexplained" (parts of at least
 * 1% by size); which: "p99" (or "contended batches": "the contended batches' extra"). Returns the
 * length. */
int tp_words(char *buf, size_t len, const char *which, double excess, const double *pct);
/* The same of a table's row from its columns PREFIX_excess_ns and PREFIX_<part>_pct; "" (0) when the
 * row has no division. */
struct wtg_table;
int tp_row_words(char *buf, size_t len, const struct wtg_table *t, int row, const char *prefix, const char *which);

#endif
