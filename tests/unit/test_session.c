/* test_session.c: the session's decisions between threads, driven by hand: the watchdog ends only
 * the run generation it judged starved (a run that ended in between keeps its cancel from the
 * next one), the dashboard's status line reads the watchdog's starvation, no rule of its own, and a
 * report is written from one snapshot of the tables, holding none of their locks while it writes. */
#include "config.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/conditions.h"
#include "wtg/report.h"
#include "wtg/session.h"
#include "../../src/tui/dash.h"
#include "unit.h"

static struct wtg_session s;

/* The session as the worker leaves it when it starts a run: a new generation, cancel and starved
 * cleared, current set. */
static unsigned begin_run(int idx)
{
	atomic_store(&s.cancel, false);
	atomic_store(&s.starved, 0);
	unsigned gen = atomic_fetch_add(&s.run_gen, 1) + 1;
	atomic_store(&s.current, idx);
	return gen;
}

static void test_starve_cancel(void)
{
	unsigned g1 = begin_run(0);
	/* the watchdog samples run g1's stall ... the run ends, the next starts ... then its verdict */
	unsigned g2 = begin_run(1);
	CHECK(g2 != g1);
	CHECK(!wtg_session_starve_cancel(&s, g1));
	CHECK(!atomic_load(&s.cancel));
	CHECK(atomic_load(&s.starved) == 0);
	CHECK(s.starved_why[0] == '\0');

	/* between runs (nothing current) a verdict on the last one changes nothing either */
	atomic_store(&s.current, -1);
	CHECK(!wtg_session_starve_cancel(&s, g2));
	CHECK(!atomic_load(&s.cancel));

	/* the run judged still runs: it ends as starved, saying why */
	atomic_store(&s.current, 1);
	CHECK(wtg_session_starve_cancel(&s, g2));
	CHECK(atomic_load(&s.cancel));
	CHECK(atomic_load(&s.starved) == 1);
	CHECK(strncmp(s.starved_why, "ended after 3 s starved", 23) == 0);
	/* judged again (still starved after the cancel): the same run, the reason kept */
	char why[sizeof s.starved_why];
	memcpy(why, s.starved_why, sizeof why);
	CHECK(wtg_session_starve_cancel(&s, g2));
	CHECK_STR(s.starved_why, why);

	/* the next run starts clean */
	begin_run(2);
	CHECK(!atomic_load(&s.cancel));
	CHECK(!wtg_session_starve_cancel(&s, g2));
	CHECK(!atomic_load(&s.cancel) && atomic_load(&s.starved) == 0);
}

/* One starvation rule: the status line's starved seconds are the watchdog's (wtg_session_stall), never
 * a rule of the dashboard's own (a step standing still while the background policy runs under
 * burners once counted as starved, though the watchdog saw the thread get its CPU). */
static void test_starved_rule(void)
{
	static struct wtg_session ss;
	static struct wtg_options opt;
	static struct dash d;
	memset(&ss, 0, sizeof ss);
	memset(&d, 0, sizeof d);
	ss.opt = &opt;
	opt.size = 1 << 20;
	pthread_mutex_init(&ss.qlock, NULL);
	for (int i = 0; i < wtg_nexperiments; i++) {
		wtg_table_init(&ss.tables[i], wtg_experiments[i]);
		wtg_table_init(&d.snap[i], wtg_experiments[i]);
	}
	d.s = &ss;
	d.seen.current = -1;
	d.note.run = -1;
	atomic_store(&ss.df_state, WTG_DF_NONE);
	atomic_store(&ss.current, 0);
	wtg_table_set_state(&ss.tables[0], WTG_RUNNING);
	wtg_table_progress(&ss.tables[0], 1, 4, "a step that stands still");
	wtg_policy_request(true);
	bool burning = wtg_burner_set(1) == 1;
	int64_t t0 = wtg_now_ns();
	dash_observe(&d, t0);
	dash_observe(&d, t0 + 5 * STARVED_NS);	/* the same step, long after */
	CHECK(!burning || d.seen.burners == 1);
	CHECK(d.seen.stall_s == -1);	/* the watchdog found none */
	wtg_burner_set(0);
	wtg_policy_request(false);
	atomic_store(&ss.stall_ns, STARVED_NS + 1500000000LL);
	CHECK(dash_observe(&d, t0 + 6 * STARVED_NS) & DIRTY_STATUS);
	CHECK(d.seen.stall_s == 3);	/* its figure in whole seconds, with no burners at all */
	atomic_store(&ss.stall_ns, STARVED_NS / 2);
	dash_observe(&d, t0 + 7 * STARVED_NS);
	CHECK(d.seen.stall_s == -1);	/* below the line the status line shows from */
	atomic_store(&ss.stall_ns, 3 * STARVED_NS);
	atomic_store(&ss.current, -1);
	dash_observe(&d, t0 + 8 * STARVED_NS);
	CHECK(d.seen.stall_s == -1);	/* nothing runs */
	CHECK(dash_starved_s(2, 3 * STARVED_NS) == 6 && dash_starved_s(-1, 3 * STARVED_NS) == -1);
	for (int i = 0; i < wtg_nexperiments; i++) {
		wtg_table_free(&ss.tables[i]);
		wtg_table_free(&d.snap[i]);
	}
	pthread_mutex_destroy(&ss.qlock);
}

/* A report's file that looks at the live tables at every write: whether a writer held one's lock
 * (the measuring thread would wait for the file), and at the first write the run goes on: a row
 * and a failed check land in table idx. */
struct spy {
	int idx;
	bool grew, held;
	char *buf;
	size_t len;
};

static ssize_t spy_write(void *cookie, const char *b, size_t n)
{
	struct spy *sp = cookie;
	for (int i = 0; i < wtg_nexperiments; i++) {
		if (pthread_mutex_trylock(&s.tables[i].lock) != 0) {
			sp->held = true;
			continue;
		}
		pthread_mutex_unlock(&s.tables[i].lock);
	}
	if (!sp->grew && !sp->held) {
		sp->grew = true;
		wtg_table_add_row(&s.tables[sp->idx], &WTG_INT(2), 1, NULL);
		wtg_table_check(&s.tables[sp->idx], "late", false, "landed while the report was written");
	}
	char *nb = realloc(sp->buf, sp->len + n + 1);
	if (!nb)
		return -1;
	memcpy(nb + sp->len, b, n);
	sp->buf = nb;
	sp->len += n;
	nb[sp->len] = '\0';
	return (ssize_t)n;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

static void test_report_snapshot(void)
{
	int idx = 0;
	struct wtg_table *t = &s.tables[idx];
	static const struct wtg_column cols[] = { { "x", "", WTG_T_INT, 0 } };
	wtg_table_reset(t);
	wtg_table_set_state(t, WTG_RUNNING);
	wtg_table_set_columns(t, cols, 1);
	wtg_table_add_row(t, &WTG_INT(1), 1, NULL);
	wtg_table_check(t, "early", true, "there before the save");
	struct spy sp = { .idx = idx };
	cookie_io_functions_t io = { .write = spy_write };
	FILE *f = fopencookie(&sp, "w", io);
	if (!f) {
		CHECK(!"fopencookie");
		return;
	}
	setvbuf(f, NULL, _IONBF, 0);	/* every write reaches spy_write at once */
	bool one[WTG_MAX_EXP] = { false };
	one[idx] = true;
	CHECK(wtg_report_write(f, WTG_FMT_TEXT, &s, one) == 0);
	fclose(f);
	CHECK(!sp.held);	/* no table's lock while the file was written */
	CHECK(sp.grew);
	const char *out = sp.buf ? sp.buf : "";
	/* the tally and the checks written are the same snapshot's: the late check is in neither */
	int ok = count(out, "  ok      "), failed = count(out, "  FAILED  ");
	char want[96];
	snprintf(want, sizeof want, "checks: %d ok, 0 warn, %d failed", ok, failed);
	CHECK(strstr(out, want) != NULL);
	CHECK(ok == 1 && failed == 0);
	if (!strstr(out, want))
		unit_diag("%s", out);
	/* the live table went on meanwhile */
	pthread_mutex_lock(&t->lock);
	CHECK(t->nrows == 2 && t->nchecks == 2);
	pthread_mutex_unlock(&t->lock);
	free(sp.buf);
	wtg_table_reset(t);
}

int main(void)
{
	struct wtg_options opt;
	memset(&opt, 0, sizeof opt);
	opt.mode = WTG_MODE_RUN;
	opt.seed = 7;
	opt.quick = true;
	opt.time_limit_ms = 3000;
	opt.file = "/var/tmp/wtg-test.dat";	/* a --file: no data folder is swept */
	CHECK(wtg_session_init(&s, &opt, "wtg") == 0);
	test_starve_cancel();
	test_starved_rule();
	test_report_snapshot();
	return unit_done("test_session");
}
