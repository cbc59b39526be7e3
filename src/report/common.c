/* common.c: what every report writer shares: the columns each row gets beside its own, values as
 * reports spell them, state and policy names, the closing tally line, and the C numeric locale.
 * The machine, data file and conditions blocks as key/value items each writer formats.
 * The writers and report.c call into it; it calls neither. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wtg/conditions.h"
#include "wtg/probe.h"
#include "wtg/report.h"
#include "writers.h"
#include "wtg/util.h"

void wtg_report_iso8601(char *buf, size_t len, int64_t real_ns)
{
	time_t t = (time_t)(real_ns / 1000000000);
	struct tm tm;
	if (!gmtime_r(&t, &tm) || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, len, "1970-01-01T00:00:00Z");
}

void wtg_report_meta_when(const struct wtg_report_meta *m, char *buf, size_t len)
{
	wtg_report_iso8601(buf, len, m->run.begun ? m->run.start_real_ns : m->written_real_ns);
}

void wtg_report_summary_line(FILE *f, const struct wtg_report_meta *m)
{
	const struct wtg_report_tally *t = &m->tally;
	fprintf(f, "%d experiment%s", t->experiments, t->experiments == 1 ? "" : "s");
	if (t->failed_experiments)
		fprintf(f, " (%d did not finish)", t->failed_experiments);
	fprintf(f, ", checks: %d ok, %d warn, %d failed", t->ok, t->warn, t->fail);
	if (isfinite(m->duration_s))
		fprintf(f, ", %.1f s", m->duration_s);
	putc('\n', f);
}

const char *wtg_report_state_name(enum wtg_state st)
{
	switch ((int)st) {
	case WTG_IDLE:
		return "idle";
	case WTG_RUNNING:
		return "running";
	case WTG_DONE:
		return "done";
	case WTG_FAILED:
		return "failed";
	case WTG_STOPPED:
		return "cancelled";
	}
	return "unknown";
}

const char *wtg_report_policy_name(int policy)
{
	return policy == 0 ? "normal" : policy == 1 ? "background" : NULL;
}

const struct wtg_column wtg_report_extra_cols[WTG_REPORT_NEXTRA] = {
	{ "probe_wall_ms", "ms", WTG_T_REAL, 3 },
	{ "probe_user_ms", "ms", WTG_T_REAL, 3 },
	{ "probe_sys_ms", "ms", WTG_T_REAL, 3 },
	{ "probe_minflt", "count", WTG_T_INT, 0 },
	{ "probe_majflt", "count", WTG_T_INT, 0 },
	{ "probe_vcsw", "count", WTG_T_INT, 0 },
	{ "probe_ivcsw", "count", WTG_T_INT, 0 },
	{ "probe_cpus", "", WTG_T_TEXT, 0 },
	{ "probe_migrations", "count", WTG_T_INT, 0 },
	{ "cond_burners", "count", WTG_T_INT, 0 },
	{ "cond_policy", "", WTG_T_TEXT, 0 },
	{ "cond_io", "", WTG_T_TEXT, 0 },
};

const struct wtg_column *wtg_report_column(const struct wtg_table *t, int c)
{
	return c < t->ncols ? &t->cols[c] : &wtg_report_extra_cols[c - t->ncols];
}

void wtg_report_row_values(FILE *f, const struct wtg_table *t, const struct wtg_row *row,
			   void (*fn)(FILE *f, const struct wtg_value *v, int i))
{
	for (int c = 0; c < t->ncols; c++)
		fn(f, &row->v[c], c);
	struct wtg_value extra[WTG_REPORT_NEXTRA];
	char cpus[512];
	wtg_report_extra_values(row, extra, cpus, sizeof cpus);
	for (int i = 0; i < WTG_REPORT_NEXTRA; i++)
		fn(f, &extra[i], t->ncols + i);
}

void wtg_report_extra_values(const struct wtg_row *row, struct wtg_value *out, char *buf, size_t len)
{
	for (int i = 0; i < WTG_REPORT_NEXTRA; i++)
		out[i] = WTG_NA;
	if (row->has_probe) {
		const struct wtg_probe_result *p = &row->probe;
		out[0] = WTG_REAL(p->wall_ms);
		out[1] = WTG_REAL(p->user_ms);
		out[2] = WTG_REAL(p->sys_ms);
		out[3] = WTG_INT(p->minflt);
		out[4] = WTG_INT(p->majflt);
		out[5] = WTG_INT(p->vcsw);
		out[6] = WTG_INT(p->ivcsw);
		if (p->cpus_seen && len > 1) {
			wtg_probe_cpus_str(p->cpus_seen, buf, (int)(len > 4096 ? 4096 : len));
			out[7] = WTG_TEXT(buf);
		}
		if (p->migrations >= 0)
			out[8] = WTG_INT(p->migrations);
	}
	out[9] = WTG_INT(row->cond.burners);
	const char *pol = wtg_report_policy_name(row->cond.policy);
	if (pol)
		out[10] = WTG_TEXT(pol);
	out[11] = WTG_TEXT(wtg_iomode_name(row->cond.io));
}

static bool same_value(const struct wtg_value *a, const struct wtg_value *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case WTG_T_INT:
		return a->i == b->i;
	case WTG_T_REAL:
		return a->r == b->r || (isnan(a->r) && isnan(b->r));
	case WTG_T_TEXT:
		return strcmp(a->s ? a->s : "", b->s ? b->s : "") == 0;
	default:
		return true;
	}
}

int wtg_report_key_columns(const struct wtg_table *t)
{
	for (int k = 1; k <= 3 && k < t->ncols; k++) {
		bool unique = true;
		for (int a = 0; a < t->nrows && unique; a++)
			for (int b = a + 1; b < t->nrows && unique; b++) {
				bool same = true;
				for (int c = 0; c < k && same; c++)
					same = same_value(&t->rows[a].v[c], &t->rows[b].v[c]);
				unique = !same;
			}
		if (unique)
			return k;
	}
	return 1;
}

void wtg_report_real(char *buf, size_t len, double v)
{
	if (!isfinite(v)) {
		if (len)
			buf[0] = '\0';
		return;
	}
	char b[32];
	snprintf(b, sizeof b, "%.10g", v);
	/* Ten digits unless they would print otherwise than v does: they read back as another double
	 * and either end in a 5 (130.40449999996 as 130.4045, printed 130.405 at six significant digits
	 * where v prints 130.404; ten digits that end otherwise round as v does at every coarser place)
	 * or v is a million or more (a column of four decimals shows more than ten digits of it). A
	 * rule on the value alone, so that a figure written by any report reads as its row's cell. */
	char *e = b + strcspn(b, "eE");
	const char *last = e;
	while (last > b && (last[-1] == '0' || last[-1] == '.'))
		last--;
	if ((last > b && last[-1] == '5') || fabs(v) >= 1e6)
		if (strtod(b, NULL) != v) {
			snprintf(buf, len, "%.17g", v);
			return;
		}
	snprintf(buf, len, "%s", b);
}

void wtg_report_machine_state(char *buf, size_t len, const struct wtg_table *t)
{
	if (len)
		buf[0] = '\0';
	if (!t->has_total && isnan(t->steal_pct) && isnan(t->mhz_max))
		return;
	char cpus[256] = "every CPU", steal[64] = "n/a", mhz[64] = "n/a";
	if (t->has_total && t->total.cpus_seen) {
		char list[200];
		wtg_probe_cpus_str(t->total.cpus_seen, list, sizeof list);
		snprintf(cpus, sizeof cpus, "CPU%s %s", strpbrk(list, ",-") ? "s" : "", list);
	}
	if (isfinite(t->steal_pct))
		snprintf(steal, sizeof steal, "%.2f%%", t->steal_pct);
	if (isfinite(t->mhz_min) && isfinite(t->mhz_max))
		snprintf(mhz, sizeof mhz, t->mhz_min == t->mhz_max ? "%.0f MHz" : "%.0f-%.0f MHz", t->mhz_min,
			 t->mhz_max);
	snprintf(buf, len, "steal %s on %s; frequency %s", steal, cpus, mhz);
}

locale_t wtg_report_locale_begin(void)
{
	static locale_t c_locale;	/* created once, never freed: uselocale keeps using it */
	static pthread_mutex_t once = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&once);
	if (!c_locale) {
		/* only the numbers: text keeps the program's character set, so widths use wcwidth */
		locale_t base = duplocale(LC_GLOBAL_LOCALE);
		c_locale = base ? newlocale(LC_NUMERIC_MASK, "C", base) : (locale_t)0;
		if (base && !c_locale)
			freelocale(base);
	}
	locale_t c = c_locale;
	pthread_mutex_unlock(&once);
	return c ? uselocale(c) : (locale_t)0;
}

void wtg_report_locale_end(locale_t old)
{
	if (old)
		uselocale(old);
}

/* One key and a string from the machine or a file, escaped (wtg_escape_dup), whole. */
static void item_text(wtg_report_item_fn fn, void *arg, const char *key, const char *value)
{
	char *v = wtg_escape_dup(value);
	fn(arg, key, v ? v : "(out of memory)");
	free(v);
}

/* One key and its formatted value (a path, a filesystem's name: escaped too), to fn. */
static void item(wtg_report_item_fn fn, void *arg, const char *key, const char *fmt, ...) WTG_PRINTF(4, 5);
static void item(wtg_report_item_fn fn, void *arg, const char *key, const char *fmt, ...)
{
	char buf[8192];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	item_text(fn, arg, key, buf);
}

/* "L1 48K, L2 2M, L3 32M": the data and unified caches of CPU 0, or "unknown". */
static void cache_list(char *buf, size_t len, const struct wtg_machine *m)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < m->ncaches && o + 1 < len; i++) {
		if (strcmp(m->caches[i].type, "Instruction") == 0)
			continue;
		char sz[32];
		wtg_fmt_size(sz, sizeof sz, m->caches[i].size);
		int n = snprintf(buf + o, len - o, "%sL%d %s", o ? ", " : "", m->caches[i].level, sz);
		if (n < 0)
			break;
		o += (size_t)n;
	}
	if (!buf[0])
		wtg_strlcpy(buf, "unknown", len);
}

static void machine_items(const struct wtg_machine *m, wtg_report_item_fn fn, void *arg)
{
	char caches[256];
	cache_list(caches, sizeof caches, m);
	item_text(fn, arg, "CPU", m->cpu_model);
	if (m->cpu_id[0])
		item_text(fn, arg, "CPU id", m->cpu_id);
	if (m->cpu_features[0])
		item_text(fn, arg, "CPU features", m->cpu_features);
	if (m->kernel_simd[0])
		item_text(fn, arg, "SIMD sum", m->kernel_simd);
	item(fn, arg, "CPUs", "%d online", m->cpus);
	item(fn, arg, "page size", "%ld B", m->page_size);
	item(fn, arg, "caches", "%s", caches);
	item_text(fn, arg, "kernel", m->kernel);
	item_text(fn, arg, "clock source", m->clocksource);
	item(fn, arg, "hypervisor", "%s", m->hypervisor ? "yes" : "no");
	item_text(fn, arg, "THP", m->thp[0] ? m->thp : "unknown");
	item(fn, arg, "hw counters", "%s", m->hw_counters ? "instructions and cycles" : "n/a (no hardware counters)");
}

static void datafile_items(const struct wtg_report_meta *m, wtg_report_item_fn fn, void *arg)
{
	const struct wtg_datafile *df = m->df;
	if (m->df_state != WTG_DF_READY || !df) {
		if (m->file)
			item(fn, arg, "path", "%s (given with --file)", m->file);
		if (m->df_state == WTG_DF_FAILED)
			item(fn, arg, "state", "failed: %s", m->df_error ? m->df_error : "");
		else if (m->df_state == WTG_DF_NONE)
			item(fn, arg, "state", "none (no experiment that reads it ran)");
		else
			item(fn, arg, "state", "being prepared");
		return;
	}
	item(fn, arg, "path", "%s (%s)", df->path,
	     df->owned ? "created by wtg, removed on exit" : "given with --file, never written");
	char human[32], bytes[32], sum[32];
	wtg_fmt_size(human, sizeof human, df->size);
	wtg_fmt_thousands(bytes, sizeof bytes, (int64_t)df->size);
	wtg_fmt_thousands(sum, sizeof sum, df->sum);
	item(fn, arg, "size", "%s (%s B) on %s", human, bytes, df->fs[0] ? df->fs : "an unknown filesystem");
	item(fn, arg, "known sum", "%s", sum);
	if (df->direct_ok)
		item(fn, arg, "O_DIRECT", "yes (alignment: memory %u B, offset %u B)", df->dio_mem_align,
		     df->dio_offset_align);
	else
		item(fn, arg, "O_DIRECT", "no (uncached I/O evicts the page cache instead)");
}

static void condition_items(const struct wtg_report_meta *m, wtg_report_item_fn fn, void *arg)
{
	const struct wtg_cond_snapshot *c = &m->cond;
	if (c->burners > 0)
		item(fn, arg, "burners", "%d thread%s", c->burners, c->burners == 1 ? "" : "s");
	else
		item(fn, arg, "burners", "off");
	const char *req = c->background ? "background" : "normal";
	const char *got = wtg_report_policy_name(c->policy);
	if (got && strcmp(req, got) == 0)
		item(fn, arg, "policy", "%s (granted)", req);
	else
		item(fn, arg, "policy", "%s requested, the kernel reports %s", req, got ? got : "nothing (unknown)");
	item(fn, arg, "I/O", "%s%s", wtg_iomode_name(c->io), c->uncached ? " (uncached requested)" : "");
	if (m->has_seed)
		item(fn, arg, "seed", "%" PRIu64 "%s", m->seed, m->quick ? " (quick sizes)" : "");
}

void wtg_report_items(const struct wtg_report_meta *m, enum wtg_report_block block, wtg_report_item_fn fn,
		      void *arg)
{
	switch (block) {
	case WTG_BLOCK_MACHINE:
		machine_items(m->machine, fn, arg);
		break;
	case WTG_BLOCK_DATAFILE:
		datafile_items(m, fn, arg);
		break;
	case WTG_BLOCK_CONDITIONS:
		condition_items(m, fn, arg);
		break;
	}
}

const struct wtg_machine *wtg_report_machine_of(const struct wtg_report_meta *m, const struct wtg_table *t)
{
	int idx = t && t->exp ? wtg_experiment_find(t->exp->name) : -1;
	const struct wtg_report_earlier *er = m->earlier && idx >= 0 ? &m->earlier[idx] : NULL;
	if (er && t == er->shown && er->shown_machine)
		return er->shown_machine;
	for (int k = 0; er && k < er->n; k++)
		if (er->t[k] == t && er->machine[k])
			return er->machine[k];
	return m->machine;
}
