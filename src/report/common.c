/* common.c: what every report writer shares: the columns each row gets beside its own, values as
 * reports spell them, state and policy names, the closing tally line, and the C numeric locale.
 * The writers and report.c call into it; it calls neither. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "wtg/conditions.h"
#include "wtg/probe.h"
#include "wtg/report.h"

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

void wtg_report_real(char *buf, size_t len, double v)
{
	if (!isfinite(v)) {
		if (len)
			buf[0] = '\0';
		return;
	}
	snprintf(buf, len, "%.10g", v);
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
