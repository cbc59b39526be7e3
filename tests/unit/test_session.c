/* test_session.c: the session's decisions between threads, driven by hand: the watchdog ends only
 * the run generation it judged starved (a run that ended in between keeps its cancel from the
 * next one). */
#include "config.h"

#include <stdatomic.h>
#include <string.h>

#include "wtg/session.h"
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
	return unit_done("test_session");
}
