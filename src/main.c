/* main.c: options -> the headless program (src/headless/) or the dashboard (src/tui/); nothing else. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
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
#include "wtg/fleet.h"
#include "wtg/guard.h"
#include "wtg/headless.h"
#include "wtg/testhooks.h"
#include "wtg/options.h"
#include "wtg/plan.h"
#include "wtg/report.h"
#include "wtg/session.h"
#include "wtg/tui.h"
#include "wtg/util.h"


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

static void apply_start_conditions(const struct wtg_options *o)
{
	if (o->burn > 0)
		wtg_burner_set_kind(o->burn, (enum wtg_burn_kind)o->burn_kind);
	wtg_policy_request(o->background);
	wtg_uncached_request(o->uncached);
}

/* What went to standard output (--help, --version, --list, --dry-run), flushed: rc, or 1 after one
 * line naming the failure (a full disk, /dev/full). */
static int stdout_done(int rc)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	wtg_error("writing to standard output: %s", strerror(errno ? errno : EIO));
	return 1;
}

int main(int argc, char **argv)
{
	open_std_fds();
	wtg_testhooks();	/* the test hooks, read once before any thread starts */
	setlocale(LC_ALL, "");
	/* numbers in every report and in the texts experiments format ('CI [214.0, 226.0]') use '.'
	 * whatever the user's LC_NUMERIC says: one convention per report */
	setlocale(LC_NUMERIC, "C");
	struct wtg_options o;
	int rc = wtg_parse_options(argc, argv, &o);
	if (rc)
		return rc;
	static char outbuf[1 << 16];	/* what these modes print, written at once by stdout_done */
	if (o.mode == WTG_MODE_HELP || o.mode == WTG_MODE_VERSION || o.mode == WTG_MODE_LIST ||
	    o.mode == WTG_MODE_DRYRUN)
		setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
	switch (o.mode) {
	case WTG_MODE_HELP:
		wtg_print_help(stdout);
		return stdout_done(0);
	case WTG_MODE_VERSION:
		wtg_print_version(stdout);
		return stdout_done(0);
	case WTG_MODE_LIST:
		wtg_headless_list(stdout);
		return stdout_done(0);
	case WTG_MODE_CHILD:
		return wtg_faultbase_child(o.child_mode, o.child_path);
	case WTG_MODE_DRYRUN:
		return stdout_done(wtg_plan_main(stdout, &o));
	default:
		break;
	}
	/* --load on a terminal, with no format, output or baseline asked for: the dashboard on them */
	bool load_dash = o.mode == WTG_MODE_LOAD && !o.format_given && !o.noutputs && !o.baseline &&
			 isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	if (load_dash && (rc = check_terminal()) != 0)
		return rc;
	if (o.record && o.mode == WTG_MODE_LOAD && !load_dash) {
		fprintf(stderr, "wtg: --record records the dashboard, which needs a terminal\n");
		return 2;
	}
	wtg_report_guard(&o);	/* the inputs and links as they are now, for the check at each write */
	if (o.mode == WTG_MODE_LOAD && wtg_loads_summary(&o))	/* many machines: their summary */
		return load_dash ? wtg_tui_machines(&o) : wtg_fleet_main(&o);
	if (o.mode == WTG_MODE_DASHBOARD && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "wtg: the dashboard needs a terminal; use --run=LIST for headless output "
				"(see 'wtg --help')\n");
		return 2;
	}
	if (o.mode == WTG_MODE_DASHBOARD && (rc = check_terminal()) != 0)
		return rc;
	wtg_fatal_install(on_crash, NULL);
	static struct wtg_saved_runs saved;	/* large: not on the stack */
	signal(SIGPIPE, SIG_IGN);

	wtg_loads_say();	/* the folders' counts, before their files are read */
	if ((o.nloads || o.baseline) && (rc = wtg_saved_runs_read(&saved, &o)) != 0)
		return rc;
	if (load_dash && saved.n > WTG_MAX_LOADS) {
		wtg_error("the dashboard lays at most %d saved runs over each view; these files hold %d (a --replicate "
			  "document counts each of its runs): give --format or -o for the comparison",
			  WTG_MAX_LOADS, saved.n);
		wtg_saved_runs_free(&saved);
		return 2;
	}
	bool headless = o.mode == WTG_MODE_RUN || (o.mode == WTG_MODE_LOAD && !load_dash);
	if (headless && (rc = wtg_headless_check_files(&o, &saved)) != 0) {
		wtg_saved_runs_free(&saved);
		return rc;
	}
	if (o.mode == WTG_MODE_LOAD && !load_dash) {	/* saved runs written or compared: no session */
		rc = wtg_headless_load(&o, &saved);
		wtg_saved_runs_free(&saved);
		return rc;
	}
	static struct wtg_session s;
	if (wtg_session_init(&s, &o, "/proc/self/exe") < 0)
		return 1;
	apply_start_conditions(&o);
	int status;
	if (load_dash)
		status = wtg_tui_main_loaded(&s, saved.l, saved.n);
	else if (o.mode == WTG_MODE_RUN && o.replicate)
		status = wtg_headless_replicate(&s, &o);
	else if (o.mode == WTG_MODE_RUN)
		status = wtg_headless_run(&s, &o, &saved);
	else
		status = wtg_tui_main(&s);
	wtg_session_shutdown(&s);
	wtg_saved_runs_free(&saved);
	return status;
}
