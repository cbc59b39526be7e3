/* test_session.c: the session's decisions between threads, driven by hand: the watchdog ends only
 * the run generation it judged starved (a run that ended in between keeps its cancel from the
 * next one), and the dashboard's status line reads the watchdog's starvation, no rule of its own. */
#include "config.h"

#include <stdatomic.h>
#include <string.h>

#include "wtg/conditions.h"
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
	static struct wtg_session s;
	static struct wtg_options opt;
	static struct dash d;
	memset(&s, 0, sizeof s);
	memset(&d, 0, sizeof d);
	s.opt = &opt;
	opt.size = 1 << 20;
	pthread_mutex_init(&s.qlock, NULL);
	for (int i = 0; i < wtg_nexperiments; i++) {
		wtg_table_init(&s.tables[i], wtg_experiments[i]);
		wtg_table_init(&d.snap[i], wtg_experiments[i]);
	}
	d.s = &s;
	d.seen.current = -1;
	d.note.run = -1;
	atomic_store(&s.df_state, WTG_DF_NONE);
	atomic_store(&s.current, 0);
	wtg_table_set_state(&s.tables[0], WTG_RUNNING);
	wtg_table_progress(&s.tables[0], 1, 4, "a step that stands still");
	wtg_policy_request(true);
	bool burning = wtg_burner_set(1) == 1;
	int64_t t0 = wtg_now_ns();
	dash_observe(&d, t0);
	dash_observe(&d, t0 + 5 * STARVED_NS);	/* the same step, long after */
	CHECK(!burning || d.seen.burners == 1);
	CHECK(d.seen.stall_s == -1);	/* the watchdog found none */
	wtg_burner_set(0);
	wtg_policy_request(false);
	atomic_store(&s.stall_ns, STARVED_NS + 1500000000LL);
	CHECK(dash_observe(&d, t0 + 6 * STARVED_NS) & DIRTY_STATUS);
	CHECK(d.seen.stall_s == 3);	/* its figure in whole seconds, with no burners at all */
	atomic_store(&s.stall_ns, STARVED_NS / 2);
	dash_observe(&d, t0 + 7 * STARVED_NS);
	CHECK(d.seen.stall_s == -1);	/* below the line the status line shows from */
	atomic_store(&s.stall_ns, 3 * STARVED_NS);
	atomic_store(&s.current, -1);
	dash_observe(&d, t0 + 8 * STARVED_NS);
	CHECK(d.seen.stall_s == -1);	/* nothing runs */
	CHECK(dash_starved_s(2, 3 * STARVED_NS) == 6 && dash_starved_s(-1, 3 * STARVED_NS) == -1);
	for (int i = 0; i < wtg_nexperiments; i++) {
		wtg_table_free(&s.tables[i]);
		wtg_table_free(&d.snap[i]);
	}
	pthread_mutex_destroy(&s.qlock);
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
	return unit_done("test_session");
}
