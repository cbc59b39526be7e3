/* main.c: options -> headless run or dashboard; nothing else. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(HAVE_NCURSESW_CURSES_H)
#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#else
#include <curses.h>
#include <term.h>
#endif

#include "wtg/conditions.h"
#include "wtg/experiment.h"
#include "wtg/guard.h"
#include "wtg/options.h"
#include "wtg/report.h"
#include "wtg/session.h"
#include "wtg/tui.h"
#include "wtg/util.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* Any thread (only the faults reach the others): a guarded read escapes, anything else dies. */
static void on_crash(int sig)
{
	wtg_guard_escape(sig);
	wtg_fatal_die(sig);
}

/* A closed stdin, stdout or stderr would be taken by the next descriptor wtg opens (the report would
 * go into the wake-up eventfd): hold each closed one open on /dev/null. */
static void open_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
		if (n >= 0 && n != fd) {	/* the lowest free number is fd: not reached */
			dup2(n, fd);
			close(n);
		}
	}
}

/* The dashboard needs a terminal type that terminfo knows and that can move the cursor; anything
 * else (unset, unknown, dumb, hardcopy) is a usage problem: one line pointing to --run, exit 2. */
static int check_terminal(void)
{
	const char *hint = "; use --run=LIST for headless output";
	const char *term = getenv("TERM");
	if (!term || !*term) {
		wtg_error("TERM is not set: the dashboard needs a terminal type%s (see 'wtg --help')", hint);
		return 2;
	}
	int err = 0;
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		if (err == 0)
			wtg_error("unknown terminal type TERM=%s (no terminfo entry)%s (see 'wtg --help')", term,
				  hint);
		else
			wtg_error("no terminfo database for TERM=%s%s (see 'wtg --help')", term, hint);
		return 2;
	}
	const char *cup = tigetstr("cup");
	bool usable = cup && cup != (char *)-1 && tigetflag("hc") <= 0 && tigetflag("gn") <= 0;
	del_curterm(cur_term);
	if (!usable) {
		wtg_error("the terminal TERM=%s cannot move the cursor, which the dashboard needs%s "
			  "(see 'wtg --help')", term, hint);
		return 2;
	}
	return 0;
}

static void list_experiments(void)
{
	for (int i = 0; i < wtg_nexperiments; i++) {
		const struct wtg_experiment *e = wtg_experiments[i];
		char took[32] = "";
		int full = wtg_experiment_typical_s(e, false), quick = wtg_experiment_typical_s(e, true);
		if (full > 0)
			snprintf(took, sizeof took, "~%d s (quick ~%d s)", full, quick);
		printf("%-10s %-10s %-20s %s%s\n", e->name, wtg_view_name(e->view), took, e->question,
		       e->run ? "" : " (not built yet)");
	}
}

static void apply_start_conditions(const struct wtg_options *o)
{
	if (o->burn > 0)
		wtg_burner_set_kind(o->burn, (enum wtg_burn_kind)o->burn_kind);
	wtg_policy_request(o->background);
	wtg_uncached_request(o->uncached);
}

/* After the report: one line for the data file's failure, and one for each experiment that failed or
 * stopped before its end (starved, cancelled), naming why. Returns whether there was any. */
static bool report_failures(struct wtg_session *s, const struct wtg_options *o)
{
	bool any = false, df_failed = atomic_load(&s->df_state) == WTG_DF_FAILED;
	if (df_failed) {
		wtg_error("data file: %s", s->df_error);
		any = true;
	}
	for (int i = 0; i < wtg_nexperiments; i++) {
		struct wtg_table *t = &s->tables[i];
		if (!o->selected[i])
			continue;
		char error[sizeof t->error];
		pthread_mutex_lock(&t->lock);
		/* stopped (starved, cancelled) is a failure too: the experiment did not run to its end */
		bool failed = t->state == WTG_FAILED || t->state == WTG_STOPPED;
		memcpy(error, t->error, sizeof error);
		pthread_mutex_unlock(&t->lock);
		if (!failed)
			continue;
		if (!df_failed)	/* then every experiment that needed it failed for that reason */
			wtg_error("%s: %s", wtg_experiments[i]->name, error);
		any = true;
	}
	return any;
}

static int run_headless(struct wtg_session *s, const struct wtg_options *o)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	if (wtg_session_start(s) < 0)
		return 1;
	for (int i = 0; i < wtg_nexperiments; i++)
		if (o->selected[i])
			wtg_session_enqueue(s, i);
	for (;;) {
		struct pollfd p = { .fd = s->wake_fd, .events = POLLIN };
		int r = poll(&p, 1, 200);
		if (r > 0)
			wtg_session_drain_wake(s);
		if (got_signal)
			break;
		wtg_session_watchdog(s, o->time_limit_ms * 1000000LL);
		if (atomic_load(&s->df_state) != WTG_DF_PREPARING && wtg_session_idle(s))
			break;
	}
	if (got_signal) {
		int sig = got_signal;
		wtg_session_shutdown(s);
		fprintf(stderr, "wtg: stopped by signal %d (%s)\n", sig, strsignal(sig));
		return 128 + sig;
	}
	int status = 0;
	if (o->output) {
		char err[512];
		if (wtg_report_save(o->output, o->format, s, o->selected, err, sizeof err) < 0) {
			wtg_error("%s", err);
			status = 1;
		}
	} else if (wtg_report_write(stdout, o->format, s, o->selected) < 0 || fflush(stdout) != 0) {
		fprintf(stderr, "wtg: writing the report: %s\n", strerror(errno));
		status = 1;
	}
	return report_failures(s, o) ? 1 : status;
}

int main(int argc, char **argv)
{
	open_std_fds();
	setlocale(LC_ALL, "");
	struct wtg_options o;
	int rc = wtg_parse_options(argc, argv, &o);
	if (rc)
		return rc;
	switch (o.mode) {
	case WTG_MODE_HELP:
		wtg_print_help(stdout);
		return 0;
	case WTG_MODE_VERSION:
		printf("wtg %s\n", PACKAGE_VERSION);
		return 0;
	case WTG_MODE_LIST:
		list_experiments();
		return 0;
	case WTG_MODE_CHILD:
		return wtg_faultbase_child(o.child_mode, o.child_path);
	default:
		break;
	}
	if (o.mode == WTG_MODE_DASHBOARD && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "wtg: the dashboard needs a terminal; use --run=LIST for headless output "
				"(see 'wtg --help')\n");
		return 2;
	}
	if (o.mode == WTG_MODE_DASHBOARD && (rc = check_terminal()) != 0)
		return rc;
	wtg_fatal_install(on_crash, NULL);
	signal(SIGPIPE, SIG_IGN);

	static struct wtg_session s;
	if (wtg_session_init(&s, &o, "/proc/self/exe") < 0)
		return 1;
	apply_start_conditions(&o);
	int status;
	if (o.mode == WTG_MODE_RUN)
		status = run_headless(&s, &o);
	else
		status = wtg_tui_main(&s);
	wtg_session_shutdown(&s);
	return status;
}
