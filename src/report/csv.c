/* csv.c: one table in tidy long form (RFC 4180): one header and ten fields on every line,
 * run,host,experiment,kind,row,name,unit,value,status,text. run is the --label (else the time the
 * run started) and host the machine's name, so that files from several runs and machines can be
 * concatenated and told apart. kind is cell (one value of a row: row counts from 0, name is the
 * column; a number in value, words in text), check (status ok/warn/fail, text its detail), note
 * (text), state (status done, failed ... with the error as text), sample (one raw sample of a
 * series, row its index, value the sample), headline (a headline figure: row its place, name the
 * figure, its unit and value, status "higher better" or "lower better", text its 95% interval) or
 * verdict (text the sentence). value holds numbers only, row whole numbers only: row is empty on the
 * lines about no row (check, note, state, verdict). A tab's earlier runs the dashboard saved follow
 * its table, each with run "RUN, earlier K of N: LABEL" (its label naming its conditions; every row
 * has them as cells too). */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "wtg/experiment.h"
#include "wtg/figure.h"
#include "wtg/report.h"
#include "writers.h"
#include "wtg/paired.h"

void wtg_csv_field(FILE *f, const char *s)
{
	s = s ? s : "";
	size_t n = strlen(s);
	if (strpbrk(s, ",\"\r\n") == NULL && !(n && (s[0] == ' ' || s[n - 1] == ' '))) {
		fputs(s, f);
		return;
	}
	putc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', f);
		putc(*s, f);
	}
	putc('"', f);
}

/* value,status,text of a cell: a number in value, words in text. */
static void csv_value(FILE *f, const struct wtg_value *v)
{
	char buf[64];
	switch (v->type) {
	case WTG_T_INT:
		fprintf(f, "%" PRId64 ",,", v->i);
		break;
	case WTG_T_REAL:
		wtg_report_real(buf, sizeof buf, v->r);	/* NaN and infinities: an empty field */
		fprintf(f, "%s,,", buf);
		break;
	case WTG_T_TEXT:
		fputs(",,", f);
		wtg_csv_field(f, v->s);
		break;
	default:
		fputs(",,", f);
		break;
	}
}

/* The fields every line of a table starts with, run,host,experiment, quoted once per table. */
static _Thread_local char lead_buf[1024];

/* The report's run: its --label, else the time it started (written into buf). */
static const char *run_name(const struct wtg_report_meta *m, char *buf, size_t len)
{
	if (m->label)
		return m->label;
	wtg_report_meta_when(m, buf, len);
	return buf;
}

/* The lead of table t's lines, run the report's run (NULL) or an earlier run's name. */
static void set_lead(const struct wtg_report_meta *m, const struct wtg_table *t, const char *run)
{
	char when[64];
	lead_buf[0] = '\0';
	FILE *f = fmemopen(lead_buf, sizeof lead_buf, "w");
	if (!f)
		return;
	wtg_csv_field(f, run ? run : run_name(m, when, sizeof when));
	putc(',', f);
	wtg_csv_field(f, m->machine ? m->machine->hostname : "");
	putc(',', f);
	wtg_csv_field(f, t->exp ? t->exp->name : "");
	putc(',', f);
	long n = ftell(f);
	fclose(f);
	lead_buf[n > 0 && n < (long)sizeof lead_buf ? n : 0] = '\0';
}

/* The first six fields of a line: run, host, experiment, kind, row (empty when below 0), name. */
static void lead(FILE *f, const char *kind, long row, const char *name)
{
	fputs(lead_buf, f);
	fprintf(f, "%s,", kind);
	if (row >= 0)
		fprintf(f, "%ld", row);
	putc(',', f);
	wtg_csv_field(f, name);
	putc(',', f);
}

/* The table whose row is being written (the cell callback has no room for it), and the row. */
static _Thread_local const struct wtg_table *cell_table;
static _Thread_local long cell_row;

static void csv_cell(FILE *f, const struct wtg_value *v, int i)
{
	const struct wtg_column *col = wtg_report_column(cell_table, i);
	lead(f, "cell", cell_row, col->name);
	wtg_csv_field(f, col->unit);
	putc(',', f);
	csv_value(f, v);
	putc('\n', f);
}

static void write_checks_notes(FILE *f, const struct wtg_table *t)
{
	for (int i = 0; i < t->nchecks; i++) {
		lead(f, "check", -1, t->checks[i].name);
		fprintf(f, ",,%s,", wtg_check_status_name(t->checks[i].status));
		wtg_csv_field(f, t->checks[i].detail);
		putc('\n', f);
	}
	for (int i = 0; i < t->nnotes; i++) {
		lead(f, "note", -1, "");
		fputs(",,,", f);
		wtg_csv_field(f, t->notes[i]);
		putc('\n', f);
	}
}

/* A paired run's headline figures: kind "paired", the figure, "ratio" (B / A) or its unit (a
 * difference B - A), the value, the verdict, then the interval and rounds in words. */
static void write_paired(FILE *f, const struct wtg_table *t)
{
	struct wtg_paired_entry pe[WTG_MAX_HEADLINES];
	int n = wtg_paired_entries(t, pe, WTG_MAX_HEADLINES);
	for (int i = 0; i < n; i++) {
		char num[64], text[160];
		lead(f, "paired", -1, pe[i].figure);
		wtg_csv_field(f, pe[i].s.difference ? pe[i].unit : "ratio");
		wtg_report_real(num, sizeof num, pe[i].s.value);
		fprintf(f, ",%s,", num);
		wtg_csv_field(f, pe[i].verdict);
		putc(',', f);
		snprintf(text, sizeof text, "95%% interval [%.6g, %.6g], %zu rounds, B %s A", pe[i].s.lo, pe[i].s.hi,
			 pe[i].s.n, pe[i].s.difference ? "-" : "/");
		wtg_csv_field(f, text);
		putc('\n', f);
	}
}

/* Digits of v, backwards from end; returns where they start. */
static char *digits(char *end, size_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

/* A series is most of a CSV report (one line per sample): the fields that repeat on every line are
 * quoted once, and each line is assembled in memory and written with one call. */
static void write_samples(FILE *f, const struct wtg_series *sr)
{
	char head[sizeof lead_buf + 16], tail[256], line[sizeof head + sizeof tail + 96];
	long hl = snprintf(head, sizeof head, "%ssample,", lead_buf);
	FILE *m = fmemopen(tail, sizeof tail, "w");
	if (!m)
		return;
	putc(',', m);
	wtg_csv_field(m, sr->name);
	putc(',', m);
	wtg_csv_field(m, sr->unit);
	putc(',', m);
	long tl = ftell(m);
	fclose(m);
	if (hl <= 0 || tl <= 0 || hl + tl + 96 > (long)sizeof line || hl >= (long)sizeof head ||
	    tl >= (long)sizeof tail)
		return;
	memcpy(line, head, (size_t)hl);
	for (size_t k = 0; k < sr->n; k++) {
		char num[24];
		char *d = digits(num + sizeof num, k);
		size_t n = (size_t)hl, dl = (size_t)(num + sizeof num - d);
		memcpy(line + n, d, dl);
		n += dl;
		memcpy(line + n, tail, (size_t)tl);
		n += (size_t)tl;
		wtg_report_real(line + n, 64, sr->v[k]);
		n += strlen(line + n);
		memcpy(line + n, ",,\n", 3);	/* no status, no text */
		n += 3;
		fwrite(line, 1, n, f);
	}
}

/* The headline figures as the JSON's headlines read them (an interval bootstrapped with seed where
 * the table gives none), then the verdict. */
static void write_headlines(FILE *f, const struct wtg_table *t, uint64_t seed)
{
	int n = 0;
	const struct wtg_headline *h = wtg_headlines_of(t->exp, &n);
	for (int i = 0; i < n; i++) {
		struct wtg_figure fig;
		char num[64], lo[64], hi[64], text[160];
		wtg_figure_read_ci(&h[i], t, seed, &fig);
		lead(f, "headline", i, h[i].figure);
		wtg_csv_field(f, h[i].unit);
		wtg_report_real(num, sizeof num, fig.found ? fig.value : NAN);
		fprintf(f, ",%s,%s,", num, h[i].higher_better ? "higher better" : "lower better");
		wtg_report_real(lo, sizeof lo, fig.lo);
		wtg_report_real(hi, sizeof hi, fig.hi);
		if (lo[0] && hi[0])
			snprintf(text, sizeof text, "95%% interval [%s, %s]", lo, hi);
		else
			wtg_strlcpy(text, "no interval", sizeof text);
		wtg_csv_field(f, text);
		putc('\n', f);
	}
	char verdict[512];
	if (t->exp && wtg_experiment_verdict(t->exp, t, verdict, sizeof verdict) > 0) {
		lead(f, "verdict", -1, "");
		fputs(",,,", f);
		wtg_csv_field(f, verdict);
		putc('\n', f);
	}
}

/* Every line of one run's table, after set_lead. */
static void write_run(FILE *f, const struct wtg_report_meta *m, const struct wtg_table *t)
{
	cell_table = t;
	for (int r = 0; r < t->nrows; r++) {
		cell_row = r;
		wtg_report_row_values(f, t, &t->rows[r], csv_cell);
	}
	write_checks_notes(f, t);
	write_headlines(f, t, m->seed);
	write_paired(f, t);
	for (int i = 0; i < t->nseries; i++)
		write_samples(f, &t->series[i]);
	/* the machine while it ran: a value each, empty when n/a */
	static const char *const state[] = { "steal_pct", "mhz_min", "mhz_max" };
	const double sv[] = { t->steal_pct, t->mhz_min, t->mhz_max };
	for (int i = 0; i < 3; i++) {
		char num[64];
		wtg_report_real(num, sizeof num, sv[i]);
		lead(f, "machine", -1, state[i]);
		fprintf(f, "%s,%s,,\n", i ? "MHz" : "%", num);
	}
	lead(f, "state", -1, "");
	fprintf(f, ",,%s,", wtg_report_state_name(t->state));
	wtg_csv_field(f, t->error);
	putc('\n', f);
}

void wtg_csv_table(FILE *f, const struct wtg_report_meta *m, const struct wtg_table *t, int n)
{
	(void)n;
	set_lead(m, t, NULL);
	write_run(f, m, t);
	/* the tab's earlier runs, as the JSON's earlier_runs (a saved run written as the table is not one) */
	int idx = t->exp ? wtg_experiment_find(t->exp->name) : -1;
	const struct wtg_report_earlier *er = m->earlier && idx >= 0 ? &m->earlier[idx] : NULL;
	int nearlier = 0;
	for (int k = 0; er && k < er->n; k++)
		nearlier += er->t[k] != t;
	char when[64], name[1024];
	const char *run = run_name(m, when, sizeof when);
	for (int k = 0, j = 0; er && k < er->n; k++) {
		if (er->t[k] == t)
			continue;
		snprintf(name, sizeof name, "%s, earlier %d of %d: %s", run, ++j, nearlier,
			 er->label[k] ? er->label[k] : "");
		set_lead(m, er->t[k], name);
		write_run(f, m, er->t[k]);
	}
}

void wtg_csv_begin(FILE *f, const struct wtg_report_meta *m)
{
	(void)m;
	fputs("run,host,experiment,kind,row,name,unit,value,status,text\n", f);
}
