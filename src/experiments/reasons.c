/* reasons.c: the reasons "why here" chooses among, per experiment (see whyhere.c). Each is a predicate
 * over the run's table and its machine record, from what wtg measured (faults, contended batches,
 * rates across sizes) or read (page-table isolation, a hypervisor), and the sentence it fills; the
 * sentences stay under about 64 columns so "why here: ..." is one line at 80 columns. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wtg/util.h"
#include "wtg/whyhere.h"
#include "why.h"

/* ---- a kernel crossing (syscall's getpid, readcost's 1-byte read) ---- */

/* Far slower than the essay's (by the factor, {0}) on a machine whose record says why: page-table
 * isolation (every crossing switches page tables) when pti is set, a hypervisor (named in {a}: its
 * exits, its virtual disk) when vm is. */
static bool slower_with(const struct wtg_why_in *in, struct wtg_why_vals *v, bool pti, bool vm)
{
	if (!in->apart || in->factor < 1 || (pti && !wtg_why_pti(in->m)) ||
	    (vm && !wtg_why_vm(in->m, v->s[0], sizeof v->s[0])))
		return false;
	v->n[0] = in->factor;
	return true;
}

static bool crossing_pti_vm(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	return slower_with(in, v, true, true);
}

static bool crossing_pti(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	return slower_with(in, v, true, false);
}

/* Far slower on a virtual machine (zerofill: the host may fault too; uncached: its virtual disk). */
static bool slower_on_vm(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	return slower_with(in, v, false, true);
}

#define CROSSING_REASONS \
	{ crossing_pti_vm, "{0}x the essay's: page-table isolation on a {a} virtual machine" }, \
	{ crossing_pti, "{0}x the essay's: page-table isolation (PTI) on every crossing" }

/* The median per call rises at the largest batch (the essay's fell a little there) while batches of
 * that size waited for a CPU: the median takes them in when too few quiet ones remain. */
static bool syscall_contended(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	double big = wtg_verdict_value(in->t, "batch", "10000", "median_ns");
	double mid = wtg_verdict_value(in->t, "batch", "1000", "median_ns");
	double busy = wtg_verdict_value(in->t, "batch", "10000", "contended");
	if (!(mid > 0) || !(big > 1.5 * mid) || !(busy > 0))
		return false;
	v->n[0] = big / mid;
	v->n[1] = busy;
	v->n[2] = wtg_verdict_value(in->t, "batch", "10000", "batches");
	return true;
}

const struct wtg_why wtg_why_syscall[] = {
	CROSSING_REASONS,
	{ syscall_contended, "median x{0} at batch 10,000: {1} of {2} batches waited for a CPU" },
	{ NULL, NULL },
};

const struct wtg_why wtg_why_readcost[] = {
	CROSSING_REASONS,
	{ NULL, NULL },
};

/* bytewise's byte per read() and valley's 16-byte reads: a crossing per read, as readcost's (a cold
 * valley's 16-byte reads are as call-bound: 0.009 GB/s warm and cold on a 16 MiB file) */
const struct wtg_why wtg_why_crossing[] = {
	CROSSING_REASONS,
	{ NULL, NULL },
};


/* valley's figure beside the essay's 312 ns a call: 1,309 ms for 64 MiB in 16-byte reads. */
double wtg_why_valley_call_ns(const struct wtg_table *t)
{
	return wtg_verdict_value(t, "bufsize", "16", "ns_per_call");
}

/* ---- zerofill: what a page fault costs ---- */

/* Far slower than the essay's with transparent huge pages: one fault zeroes a huge page, many small
 * pages' worth (the rows count faults per page). */
static bool zerofill_huge(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	double fpp = wtg_verdict_value(in->t, NULL, NULL, "faults_per_page");
	if (!in->apart || in->factor < 1 || !(fpp > 0) || fpp > 0.5)
		return false;
	v->n[0] = in->factor;
	v->n[1] = 1 / fpp;
	return true;
}

/* Far faster than the essay's with smaller pages than its 16 KiB: less to zero a fault. */
static bool zerofill_small_pages(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	double page = wtg_verdict_value(in->t, NULL, NULL, "page_size");
	if (!in->apart || in->factor > 1 || !(page > 0) || page >= 16384)
		return false;
	v->n[0] = 1 / in->factor;
	wtg_fmt_size(v->s[0], sizeof v->s[0], (uint64_t)page);
	return true;
}

const struct wtg_why wtg_why_zerofill[] = {
	{ zerofill_huge, "{0}x the essay's: huge pages, one fault zeroes {1} pages" },
	{ zerofill_small_pages, "{0}x faster than the essay's: {a} pages to zero, not 16K" },
	{ slower_on_vm, "{0}x the essay's: on a {a} virtual machine the host may fault too" },
	{ NULL, NULL },
};

/* ---- pagecache: disk or RAM ---- */

/* The warm pass that is not mapped (the buffered read), -1 when none. */
static int warm_read_row(const struct wtg_table *t)
{
	int pc = wtg_table_col(t, "pass"), mc = wtg_table_col(t, "method");
	for (int r = 0; pc >= 0 && mc >= 0 && r < t->nrows; r++) {
		const struct wtg_value *p = &t->rows[r].v[pc], *m = &t->rows[r].v[mc];
		if (p->type == WTG_T_TEXT && p->s && strcmp(p->s, "warm") == 0 && m->type == WTG_T_TEXT && m->s &&
		    strcmp(m->s, "mmap") != 0)
			return r;
	}
	return -1;
}

/* The warm mapped pass is far slower than the warm read (the essay's mapped sum kept pace with its
 * reads): its faults cost that much here, each the time it adds over the read, per fault. */
static bool mmap_faults_cost(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	int rr = warm_read_row(in->t), rm = wtg_why_row(in->t, "pass", "warm", "method", "mmap");
	double gr = wtg_why_num(in->t, rr, "gbps"), gm = wtg_why_num(in->t, rm, "gbps");
	double faults = wtg_why_num(in->t, rm, "minflt") + wtg_why_num(in->t, rm, "majflt");
	double extra_ms = wtg_why_num(in->t, rm, "ms") - wtg_why_num(in->t, rr, "ms");
	if (!(gm > 0) || !(gr > WTG_WHY_APART * gm) || !(faults > 0) || !(extra_ms > 0))
		return false;
	v->n[0] = gm;
	v->n[1] = gr;
	v->n[2] = faults;
	v->n[3] = extra_ms * 1000 / faults;
	return true;
}

/* Cold reads barely slower than warm ones on a virtual machine: its disk is a file on the host,
 * whose own page cache may still hold what this guest evicted. */
static bool cold_host_cache(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	if (!in->apart || in->factor > 1 || !wtg_why_vm(in->m, v->s[0], sizeof v->s[0]))
		return false;
	v->n[0] = in->here;
	return true;
}

double wtg_why_pagecache_ratio(const struct wtg_table *t)
{
	double cold = wtg_why_num(t, wtg_why_row(t, "pass", "cold", NULL, NULL), "gbps");
	double warm = wtg_why_num(t, warm_read_row(t), "gbps");
	return cold > 0 ? warm / cold : NAN;
}

const struct wtg_why wtg_why_pagecache[] = {
	{ mmap_faults_cost, "warm mmap {0} GB/s, read {1}: each of {2} faults costs {3} us" },
	{ cold_host_cache, "warm only {0}x cold: the {a} host may still cache this disk" },
	{ NULL, NULL },
};

/* ---- wss: cache or core ---- */

/* Row r's working set and, where the run placed it among the machine's caches, its level: "32K (L1)". */
static void wss_where(const struct wtg_table *t, int r, char *buf, size_t len)
{
	char size[32];
	wtg_fmt_size(size, sizeof size, (uint64_t)fmax(0, wtg_why_num(t, r, "wss")));
	int c = wtg_table_col(t, "level");
	const struct wtg_value *lv = c >= 0 ? &t->rows[r].v[c] : NULL;
	if (lv && lv->type == WTG_T_TEXT && lv->s && lv->s[0])
		snprintf(buf, len, "%s (%s)", size, lv->s);
	else
		snprintf(buf, len, "%s", size);
}

/* The rate is not flat over the working sets (the essay's was: core-bound): the fastest and the
 * slowest of one loop, with where; the hand SIMD sum's where the run has a kernel column (its rows span
 * every size), so a slow loop at one end is never set against a fast one at the other. */
static bool wss_not_flat(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	int hi, lo;
	const bool kernels = wtg_table_col(in->t, "kernel") >= 0;
	const char *kc = kernels ? "kernel" : NULL, *k = kernels ? "simd" : NULL;
	double fast = wtg_verdict_extreme(in->t, kc, k, "gbps", 1, &hi);
	double slow = wtg_verdict_extreme(in->t, kc, k, "gbps", -1, &lo);
	if (!(slow > 0) || !(fast > WTG_WHY_APART * slow))
		return false;
	v->n[0] = fast;
	v->n[1] = slow;
	wss_where(in->t, hi, v->s[0], sizeof v->s[0]);
	wss_where(in->t, lo, v->s[1], sizeof v->s[1]);
	return true;
}

/* Flat as the essay's, at another speed: the core's own rate. */
static bool wss_other_core(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	if (!in->apart)
		return false;
	v->n[0] = in->factor;
	return true;
}

const struct wtg_why wtg_why_wss[] = {
	{ wss_not_flat, "not core-bound: {0} GB/s at {a}, {1} at {b}" },
	{ wss_other_core, "flat, so core-bound as in the essay, at {0}x its speed" },
	{ NULL, NULL },
};

/* ---- uncached: the storage path ---- */

/* Random reads far faster than the essay's where O_DIRECT was refused: the page cache served them. */
static bool uncached_not_direct(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	int r = wtg_why_row(in->t, "mode", "random", NULL, NULL), c = wtg_table_col(in->t, "mechanism");
	const struct wtg_value *m = r >= 0 && c >= 0 ? &in->t->rows[r].v[c] : NULL;
	if (!in->apart || in->factor > 1 || !m || m->type != WTG_T_TEXT || !m->s || strcmp(m->s, "direct") == 0)
		return false;
	v->n[0] = 1 / in->factor;
	return true;
}

const struct wtg_why wtg_why_uncached[] = {
	{ uncached_not_direct, "{0}x faster than the essay's: no O_DIRECT, the page cache served" },
	{ slower_on_vm, "{0}x the essay's: every read crosses the {a} virtual disk" },
	{ NULL, NULL },
};

/* ---- mmap: what a file fault costs ---- */

/* Far dearer a fault than the essay's ~580 ns where one fault maps many pages (fault-around, large
 * folios): the run counts faults and pages, so each fault's time covers that many pages. */
static bool mmap_many_pages(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	double fpp = wtg_verdict_value(in->t, "case", "not prefaulted", "faults_per_page");
	if (!in->apart || in->factor < 1 || !(fpp > 0) || fpp > 0.5)
		return false;
	v->n[0] = in->factor;
	v->n[1] = 1 / fpp;
	return true;
}

/* Far dearer a fault than the essay's in a run measured cold (c) whose faults read the disk: the
 * essay's file was in the page cache. */
static bool mmap_cold(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	double maj = wtg_verdict_value(in->t, "case", "not prefaulted", "majflt");
	if (!in->apart || in->factor < 1 || !in->t->cold || !(maj > 0))
		return false;
	v->n[0] = in->factor;
	v->n[1] = maj;
	return true;
}

const struct wtg_why wtg_why_mmap[] = {
	{ mmap_cold, "{0}x the essay's a fault: cold (c), {1} major faults read the disk" },
	{ mmap_many_pages, "{0}x the essay's a fault: one fault maps {1} pages, not one" },
	{ slower_on_vm, "{0}x the essay's: on a {a} virtual machine the host may fault too" },
	{ NULL, NULL },
};

/* ---- passes: one warm pass over the file ---- */

/* passes' figure beside the essay's 10 GB/s: 64 MiB in a median 6.7 ms. */
double wtg_why_passes_gbps(const struct wtg_table *t)
{
	return wtg_verdict_value(t, "operation", "pass", "gbps");
}

/* Far slower than the essay's warm passes with major faults counted in them: the file was not all in
 * the page cache, some passes waited for the disk. */
static bool passes_major_faults(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	double maj = wtg_verdict_value(in->t, "operation", "pass", "majflt_total");
	if (!in->apart || in->factor > 1 || !(maj > 0))
		return false;
	v->n[0] = 1 / in->factor;
	v->n[1] = maj;
	return true;
}

const struct wtg_why wtg_why_passes[] = {
	{ passes_major_faults, "{0}x slower than the essay's: {1} major faults, not all cached" },
	{ NULL, NULL },
};

/* ---- threads: cores to fill the pipe ---- */

/* Far below the essay's 95 GB/s at 8 threads where the run had fewer threads on fewer CPUs. */
static bool threads_few_cpus(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	double most = wtg_verdict_extreme(in->t, NULL, NULL, "threads", 1, NULL);
	if (!in->apart || in->factor > 1 || !(most > 0) || most >= 8 || in->m->cpus <= 0 || in->m->cpus >= 8)
		return false;
	v->n[0] = 1 / in->factor;
	v->n[1] = most;
	v->n[2] = in->m->cpus;
	return true;
}

const struct wtg_why wtg_why_threads[] = {
	{ threads_few_cpus, "{0}x below the essay's: {1} threads at most, on {2} CPUs, not 8" },
	{ NULL, NULL },
};

/* ---- tail: the p99 under burners ---- */

/* The run queue: the share of its time the getpid loop was runnable but waited, with and without
 * burners (the last row is the burners' one, the headline's). */
static bool tail_waits(const struct wtg_table *t, double *on, double *off)
{
	*on = wtg_verdict_value(t, NULL, NULL, "runq_wait_pct");
	*off = wtg_verdict_value(t, "condition", "burners off", "runq_wait_pct");
	return isfinite(*on) && isfinite(*off);
}

/* The p99 moved far more than the essay's 3.4x and the loop waited for a CPU far more with burners:
 * they took its CPU for whole time slices. */
static bool tail_runq(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	double on, off;
	if (!in->apart || in->factor < 1 || !tail_waits(in->t, &on, &off) || !(on > 2 * off) || !(on >= 10))
		return false;
	v->n[0] = in->factor;
	v->n[1] = on;
	v->n[2] = off;
	return true;
}

/* The p99 barely moved, and the loop seldom waited for a CPU with burners: they left it one. */
static bool tail_kept_cpu(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	double on, off;
	if (!in->apart || in->factor > 1 || !tail_waits(in->t, &on, &off) || !(on < 5))
		return false;
	v->n[0] = on;
	return true;
}

const struct wtg_why wtg_why_tail[] = {
	{ tail_runq, "{0}x the essay's: waited for a CPU {1}% of the time, {2}% alone" },
	{ tail_kept_cpu, "p99 held: with burners it waited for a CPU only {0}% of the time" },
	{ NULL, NULL },
};

/* ---- clock: the stopwatch ---- */

/* A clock pair far dearer than the essay's 41 ns where the machine's clocksource is not the TSC. */
static bool clock_source(const struct wtg_why_in *in, struct wtg_why_vals *v)
{
	const char *cs = in->m->clocksource;
	if (!in->apart || in->factor < 1 || !cs[0] || strcmp(cs, "tsc") == 0)
		return false;
	v->n[0] = in->factor;
	wtg_strlcpy(v->s[0], cs, sizeof v->s[0]);
	return true;
}

const struct wtg_why wtg_why_clock[] = {
	{ clock_source, "{0}x the essay's: the clocksource is {a}, not the TSC" },
	{ NULL, NULL },
};
