/* io.h: I/O and distribution helpers (bytewise, syscall, valley, readcost, clock, passes). */
#ifndef WTG_EXPERIMENTS_IO_H
#define WTG_EXPERIMENTS_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wtg/ctx.h"
#include "wtg/datafile.h"
#include "wtg/probe.h"
#include "wtg/stats.h"
#include "wtg/table.h"

/* wtg_read_sum for long reads: whole segments of at least 8 MiB (a multiple of bufsize), so a
 * large buffer still sees the cancel flag between segments. Same counts and return values. */
int wtg_read_sum_long(struct wtg_ctx *ctx, int fd, unsigned char *buf, size_t bufsize, uint64_t limit,
		      int64_t *sum, int64_t *bytes, int64_t *calls);

/* How many of the first `want` bytes (a multiple of WTG_CHUNK, or the file size) a read of the
 * file can cover: with O_DIRECT an unaligned tail is dropped (rounded down to WTG_CHUNK). */
uint64_t wtg_io_span(const struct wtg_datafile *df, bool direct, uint64_t want);

/* The buffer alignment for I/O on df: a page, or the O_DIRECT alignment when larger. */
size_t wtg_io_align(const struct wtg_datafile *df);

/* Device interrupts per CPU (the first 64) so far, from /proc/interrupts: false when unreadable. */
bool wtg_io_irqs(uint64_t *counts);
/* The CPU whose count grew most from before to after (-1 when none grew), that growth in *top and
 * all CPUs' in *total. */
int wtg_io_irq_top(const uint64_t *before, const uint64_t *after, uint64_t *top, uint64_t *total);

/* Time `calls` one-byte read()s from fd's offset; returns ns per call and adds the bytes to *sum,
 * or returns -1 when a read fails or hits the end of the file (errno set, 0 at EOF). */
double wtg_time_read1_batch(int fd, long calls, int64_t *sum);

/* Open the data file in the I/O mode in force for reads of bufsize bytes: O_DIRECT (when in force)
 * only where such a buffer can be aligned, else plainly. *direct says which; -1 with errno. */
int wtg_iomode_open_for(struct wtg_ctx *ctx, size_t bufsize, bool *direct);

/* What one timed read pass covered and found. */
struct wtg_read_pass {
	uint64_t bytes;		/* the span read: want, rounded down for O_DIRECT (wtg_io_span) */
	int64_t sum, calls;
	bool direct;		/* read with O_DIRECT */
	struct wtg_probe_result res;	/* the probe around the reads alone */
};

/* One pass over the first `want` bytes of the data file on a fresh descriptor (wtg_iomode_open_for),
 * after wtg_iomode_before_pass, with reads of bufsize into buf (wtg_read_sum_long inside the probe).
 * Returns WTG_OK, WTG_CANCELLED, or WTG_ERR after wtg_table_fail ("<what>: read N of M bytes: ..."
 * when the pass came up short, e.g. a --file truncated meanwhile; out->bytes is then N). In a run that
 * measures cold (ctx->cold) the file is evicted before the pass, outside its time. */
int wtg_read_pass(struct wtg_ctx *ctx, unsigned char *buf, size_t bufsize, uint64_t want, const char *what,
		  struct wtg_read_pass *out);
/* The same from offset off (a multiple of the I/O alignment under O_DIRECT): the `want` bytes there,
 * which the caller keeps within the file. */
int wtg_read_pass_at(struct wtg_ctx *ctx, unsigned char *buf, size_t bufsize, uint64_t off, uint64_t want,
		     const char *what, struct wtg_read_pass *out);
/* passes (>= 1) passes of wtg_read_pass over the first `want` bytes, timed as one sample: each pass's
 * sum checked against the known prefix sum (wtg_check_sum_quiet; a mismatch is WTG_ERR), out holds
 * one pass's bytes, calls and sum and the passes' probes together (their wall times add up; the
 * opens and closes between them stay out). Returns as wtg_read_pass. */
int wtg_read_passes(struct wtg_ctx *ctx, unsigned char *buf, size_t bufsize, uint64_t want, int passes,
		    const char *what, struct wtg_read_pass *out);
/* One checked pass for a compare figure: wtg_read_pass with reads of bufsize over the first
 * min(file size, max) bytes into a buffer of its own, its sum checked against the known prefix sum.
 * Returns WTG_OK with *p filled; WTG_CANCELLED; or WTG_ERR after wtg_table_fail (naming who). */
int wtg_checked_pass(struct wtg_ctx *ctx, const char *who, size_t bufsize, uint64_t max, struct wtg_read_pass *p);

/* The "read_calls" check: calls == ceil(bytes / bufsize); the detail starts with label. */
bool wtg_check_read_calls(struct wtg_ctx *ctx, const char *label, int64_t calls, uint64_t bytes,
			  size_t bufsize);

/* Summarize samples (time order kept), add the row and the raw series (named label).
 * Fills *out when not NULL. Returns 0 or -1 (out of memory: the table has failed). */
int wtg_add_distribution_row(struct wtg_ctx *ctx, const char *label, const double *samples, size_t n,
			     const struct wtg_probe_result *probe, struct wtg_summary *out);

/* Add a row for an already computed summary (plus nextra values for the extra columns), the raw
 * series, and the quantile check, as wtg_add_distribution_row does. */
void wtg_add_summary_row(struct wtg_ctx *ctx, const char *label, const struct wtg_summary *s,
			 const double *samples, size_t n, const struct wtg_probe_result *probe,
			 const struct wtg_value *extra, int nextra);
/* The same for a paired run's arm (wtg/paired.h; 0 A, 1 B): the row tagged with its arm, arm B's
 * series and check named "B: label". */
void wtg_add_summary_row_arm(struct wtg_ctx *ctx, const char *label, const struct wtg_summary *s,
			     const double *samples, size_t n, const struct wtg_probe_result *probe,
			     const struct wtg_value *extra, int nextra, int arm);


#endif
