/* threads_moves.c: where the threads experiment's workers ran (threads_moves.h). */
#include "config.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "threads_crew.h"
#include "threads_moves.h"
#include "wtg/util.h"

int wtg_moves_add(struct wtg_moves *m, const struct wtg_topology *t, const struct member *mb, int n)
{
	if (m->n == m->cap) {
		int cap = m->cap ? 2 * m->cap : 32;
		double *mi = realloc(m->migr, (size_t)cap * sizeof *mi);
		if (mi)
			m->migr = mi;
		double *cp = mi ? realloc(m->cpus, (size_t)cap * 2 * (size_t)n * sizeof *cp) : NULL;
		if (!cp)
			return -1;
		m->cpus = cp;
		m->cap = cap;
	}
	m->nthr = n;
	double sum = 0;
	bool known = true, moved = false, type = false;
	for (int i = 0; i < n; i++) {
		m->cpus[(size_t)m->n * 2 * (size_t)n + 2 * (size_t)i] = mb[i].cpu0;
		m->cpus[(size_t)m->n * 2 * (size_t)n + 2 * (size_t)i + 1] = mb[i].cpu1;
		known = known && mb[i].migrations >= 0;
		sum += mb[i].migrations > 0 ? (double)mb[i].migrations : 0;
		moved = moved || mb[i].migrations > 0 || mb[i].cpu0 != mb[i].cpu1;
		const char *a = wtg_topology_core_type(t, mb[i].cpu0), *b = wtg_topology_core_type(t, mb[i].cpu1);
		type = type || (a && b && strcmp(a, b) != 0);
	}
	m->migr[m->n++] = known ? sum : NAN;
	m->total += (int64_t)sum;
	m->moved += moved;
	m->type_changes += type;
	m->unknown += !known;
	return 0;
}

void wtg_moves_words(const struct wtg_moves *m, char *buf, size_t len)
{
	int o = 0;
	buf[0] = '\0';
	if (m->moved)
		o = m->total > 0 ? snprintf(buf, len, "%lld migration%s in %d sample%s", (long long)m->total,
					    m->total == 1 ? "" : "s", m->moved, m->moved == 1 ? "" : "s")
				 : snprintf(buf, len, "CPU changes in %d sample%s", m->moved, m->moved == 1 ? "" : "s");
	if (m->type_changes && o >= 0 && (size_t)o < len)
		snprintf(buf + o, len - (size_t)o, "%score type changes in %d sample%s", o ? ", " : "", m->type_changes,
			 m->type_changes == 1 ? "" : "s");
}

void wtg_moves_series(struct wtg_ctx *ctx, const struct wtg_moves *m, const char *label)
{
	char name[96];
	if (!m->n)
		return;
	snprintf(name, sizeof name, "%s migrations", label);
	wtg_table_add_series(ctx->t, name, "count", m->migr, (size_t)m->n);
	snprintf(name, sizeof name, "%s cpus", label);
	wtg_table_add_series(ctx->t, name, "cpu", m->cpus, (size_t)m->n * 2 * (size_t)m->nthr);
}

void wtg_moves_free(struct wtg_moves *m)
{
	free(m->migr);
	free(m->cpus);
	memset(m, 0, sizeof *m);
}

int64_t wtg_sched_migrations_parse(const char *text)
{
	const char *p = strstr(text, "se.nr_migrations");
	long long v;
	if (!p || !(p = strchr(p, ':')) || sscanf(p + 1, "%lld", &v) != 1)
		return -1;
	return v;
}

int64_t wtg_sched_migrations_self(void)
{
	const char *root = getenv("WTG_SYSFS_ROOT");
	char path[4096], buf[4096];
	snprintf(path, sizeof path, "%s/proc/thread-self/sched", root ? root : "");
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return wtg_sched_migrations_parse(buf);
}

/* The value of column col of row r, NAN when the table has no such column. */
static double num(const struct wtg_table *t, int r, const char *col)
{
	int c = wtg_table_col(t, col);
	return c >= 0 ? wtg_table_num(t, r, c) : NAN;
}

/* The row of the same group with the next lower thread count than row r's, -1: none. */
static int lower_row(const struct wtg_table *t, int r, int gc)
{
	int best = -1;
	for (int p = 0; p < t->nrows; p++)
		if (gc >= 0 && strcmp(t->rows[p].v[gc].s, t->rows[r].v[gc].s) == 0 &&
		    num(t, p, "threads") < num(t, r, "threads") &&
		    (best < 0 || num(t, p, "threads") > num(t, best, "threads")))
			best = p;
	return best;
}

void wtg_moves_drop_words(const struct wtg_table *t, char *buf, size_t len)
{
	buf[0] = '\0';
	int gc = wtg_table_col(t, "group"), mc = wtg_table_col(t, "moves");
	if (gc < 0 || mc < 0 || t->cols[gc].type != WTG_T_TEXT || t->cols[mc].type != WTG_T_TEXT)
		return;
	for (int r = 0; r < t->nrows; r++) {
		int p = lower_row(t, r, gc);
		/* a drop beyond the row's interval (its median where it has none) */
		double hi = isfinite(num(t, r, "gbps_ci_high")) ? num(t, r, "gbps_ci_high") : num(t, r, "gbps");
		if (p < 0 || !(hi < num(t, p, "gbps")) || !t->rows[r].v[mc].s || !t->rows[r].v[mc].s[0])
			continue;
		snprintf(buf, len, "; %s %.0f threads fell to %.1f GB/s from %.1f at %.0f, with %s",
			 t->rows[r].v[gc].s, num(t, r, "threads"), num(t, r, "gbps"), num(t, p, "gbps"),
			 num(t, p, "threads"), t->rows[r].v[mc].s);
		return;
	}
}
