/* csv.c: one table in tidy long form (RFC 4180): one header and seven fields on every line,
 * experiment,kind,row,name,unit,value,detail. kind is cell (one value of a row: row counts from 0,
 * name is the column), check (value ok/warn/fail, detail its text), note, state (done, failed ...
 * with the error as detail) or sample (one raw sample of a series, row its index). */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "wtg/experiment.h"
#include "wtg/report.h"
#include "writers.h"

/* Quote a field only when it holds a comma, a quote, a line break or edge spaces. */
static void csv_field(FILE *f, const char *s)
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

static void csv_value(FILE *f, const struct wtg_value *v)
{
	char buf[64];
	switch (v->type) {
	case WTG_T_INT:
		fprintf(f, "%" PRId64, v->i);
		break;
	case WTG_T_REAL:
		wtg_report_real(buf, sizeof buf, v->r);	/* NaN and infinities: an empty field */
		fputs(buf, f);
		break;
	case WTG_T_TEXT:
		csv_field(f, v->s);
		break;
	default:
		break;
	}
}

/* The first four fields of a line: experiment, kind, row (empty when below 0), name. */
static void lead(FILE *f, const struct wtg_table *t, const char *kind, long row, const char *name)
{
	csv_field(f, t->exp ? t->exp->name : "");
	fprintf(f, ",%s,", kind);
	if (row >= 0)
		fprintf(f, "%ld", row);
	putc(',', f);
	csv_field(f, name);
	putc(',', f);
}

/* The table whose row is being written (the cell callback has no room for it), and the row. */
static _Thread_local const struct wtg_table *cell_table;
static _Thread_local long cell_row;

static void csv_cell(FILE *f, const struct wtg_value *v, int i)
{
	const struct wtg_column *col = wtg_report_column(cell_table, i);
	lead(f, cell_table, "cell", cell_row, col->name);
	csv_field(f, col->unit);
	putc(',', f);
	csv_value(f, v);
	fputs(",\n", f);
}

static void write_checks_notes(FILE *f, const struct wtg_table *t)
{
	for (int i = 0; i < t->nchecks; i++) {
		lead(f, t, "check", -1, t->checks[i].name);
		fprintf(f, ",%s,", wtg_check_status_name(t->checks[i].status));
		csv_field(f, t->checks[i].detail);
		putc('\n', f);
	}
	for (int i = 0; i < t->nnotes; i++) {
		lead(f, t, "note", i, "");
		putc(',', f);
		csv_field(f, t->notes[i]);
		fputs(",\n", f);
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
static void write_samples(FILE *f, const struct wtg_table *t, const struct wtg_series *sr)
{
	char head[256], tail[256], line[1024];
	FILE *m = fmemopen(head, sizeof head, "w");
	if (!m)
		return;
	csv_field(m, t->exp ? t->exp->name : "");
	fputs(",sample,", m);
	head[sizeof head - 1] = '\0';
	long hl = ftell(m);
	fclose(m);
	m = fmemopen(tail, sizeof tail, "w");
	if (!m)
		return;
	putc(',', m);
	csv_field(m, sr->name);
	putc(',', m);
	csv_field(m, sr->unit);
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
		line[n++] = ',';
		line[n++] = '\n';
		fwrite(line, 1, n, f);
	}
}

void wtg_csv_table(FILE *f, const struct wtg_report_meta *m, const struct wtg_table *t, int n)
{
	(void)m;
	(void)n;
	cell_table = t;
	for (int r = 0; r < t->nrows; r++) {
		cell_row = r;
		wtg_report_row_values(f, t, &t->rows[r], csv_cell);
	}
	write_checks_notes(f, t);
	for (int i = 0; i < t->nseries; i++)
		write_samples(f, t, &t->series[i]);
	lead(f, t, "state", -1, "state");
	fprintf(f, ",%s,", wtg_report_state_name(t->state));
	csv_field(f, t->error);
	putc('\n', f);
}

void wtg_csv_begin(FILE *f, const struct wtg_report_meta *m)
{
	(void)m;
	fputs("experiment,kind,row,name,unit,value,detail\n", f);
}
