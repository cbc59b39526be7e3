/* screen.c: the one place for the terminal: start-up, colours, the glyph sets, signals and restoring
 * the terminal on every way out. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "tui_internal.h"
#include "wtg/guard.h"

#if defined(HAVE_NCURSESW_CURSES_H)
#include <ncursesw/term.h>
#else
#include <term.h>
#endif

const struct tui_glyphs tui_glyphs_utf8 = {
	.braille = true,
	.h = "─", .v = "│", .tl = "┌", .tr = "┐", .bl = "└", .br = "┘",
	.ax_h = "─", .ax_v = "│", .ax_origin = "└", .ax_xtick = "┬", .ax_ytick = "┤",
	.hbar = { " ", "▏", "▎", "▍", "▌", "▋", "▊", "▉", "█" },
	.vbar = { " ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" },
	.lhalf = "▐",
	.todo = "░",
	.sep = " · ",
	.ok = "✓", .bad = "✗", .play = "▶", .pause = "‖", .ellipsis = "…", .left = "‹", .right = "›",
	.arrow = "→", .times = "×", .dash = "–",
	.marker = { "●", "◆", "■" },
	.fill = { "█", "▒", "░" },
	.line = "·",
	.ideal = "┊",
	.pmark = "▲",
	.pline = "┊",
};

const struct tui_glyphs tui_glyphs_ascii = {
	.braille = false,
	.h = "-", .v = "|", .tl = "+", .tr = "+", .bl = "+", .br = "+",
	.ax_h = "-", .ax_v = "|", .ax_origin = "+", .ax_xtick = "+", .ax_ytick = "+",
	.hbar = { " ", NULL, NULL, NULL, NULL, NULL, NULL, NULL, "#" },
	.vbar = { " ", NULL, NULL, NULL, NULL, NULL, NULL, NULL, "#" },
	.lhalf = "#",
	.todo = ".",
	.sep = " - ",
	.ok = "ok", .bad = "FAILED", .play = ">", .pause = "||", .ellipsis = "~", .left = "<", .right = ">",
	.arrow = "->", .times = "x", .dash = "-",
	.marker = { "*", "o", "+" },
	.fill = { "*", "o", "+" },
	.line = ".",
	.ideal = "|",
	.pmark = "^",
	.pline = ":",
};

static SCREEN *scr;
static bool have_color;
static int sigpipe_fd[2] = { -1, -1 };
static struct termios saved_tio;
static bool saved_tio_ok;
static char reset_seq[256];
static size_t reset_len;

static const int term_signals[] = { SIGINT, SIGTERM, SIGHUP };
/* crashes, SIGQUIT (Ctrl-\) and the other fatal signals (wtg_fatal_signals) must not leave the
 * terminal or the data file behind */
static struct sigaction old_term[3], old_crash[WTG_NFATAL_SIGNALS], curses_winch;

/* ---- signals: only async-signal-safe calls in here ---- */

static void on_term_signal(int sig)
{
	int e = errno;
	unsigned char b = (unsigned char)sig;
	if (sigpipe_fd[1] >= 0)
		(void)!write(sigpipe_fd[1], &b, 1);
	errno = e;
}

static void on_winch(int sig)
{
	int e = errno;
	/* curses' own handler records the resize so that getch returns KEY_RESIZE */
	if (curses_winch.sa_handler != SIG_DFL && curses_winch.sa_handler != SIG_IGN &&
	    curses_winch.sa_handler != NULL)
		curses_winch.sa_handler(sig);
	unsigned char b = (unsigned char)sig;
	if (sigpipe_fd[1] >= 0)
		(void)!write(sigpipe_fd[1], &b, 1);
	errno = e;
}

/* SIGCONT (through the session's handler): a byte in the self-pipe; the loop puts the terminal's
 * modes back and redraws (tui_screen_resume). */
static void on_continue(void)
{
	int e = errno;
	unsigned char b = (unsigned char)SIGCONT;
	if (sigpipe_fd[1] >= 0)
		(void)!write(sigpipe_fd[1], &b, 1);
	errno = e;
}

/* After the dashboard: a second INT, TERM or HUP (a closing terminal sends more than one) while the
 * worker stops must not leave the data file behind: remove it, then die of the signal. */
static void on_late_signal(int sig)
{
	wtg_session_emergency_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Last resort: put the terminal back with the sequences saved at start-up, remove the data file,
 * then die of the same signal. */
static void on_crash(int sig)
{
	wtg_guard_escape(sig);	/* a guarded read of a shrunken mapping: not a crash */
	if (saved_tio_ok)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
	if (reset_len)
		(void)!write(STDOUT_FILENO, reset_seq, reset_len);
	wtg_fatal_die(sig);
}

int tui_signal_fd(void)
{
	return sigpipe_fd[0];
}

int tui_signal_take(bool *continued)
{
	unsigned char buf[64];
	int got = 0;
	ssize_t n;
	while ((n = read(sigpipe_fd[0], buf, sizeof buf)) > 0)
		for (ssize_t i = 0; i < n; i++)
			if (buf[i] == SIGCONT)
				*continued = true;
			else if (buf[i] != SIGWINCH && !got)
				got = buf[i];
	return got;
}

void tui_screen_resume(void)
{
	/* whatever ran while wtg was stopped (a shell: canonical mode, echo, its own screen) left the
	 * terminal as it liked; endwin then the next update bring back ours (ncurses' own Ctrl-Z
	 * handler does the same around the stop), and the whole screen is drawn again */
	endwin();
	clearok(curscr, TRUE);
}

/* ---- colours ---- */

attr_t tui_attr(const struct tui_look *l, enum tui_role r)
{
	if (l->color && have_color) {
		switch (r) {
		case TR_TITLE: return COLOR_PAIR(TR_TITLE) | A_BOLD;
		case TR_ERR: return COLOR_PAIR(TR_ERR) | A_BOLD;
		case TR_WARN: return COLOR_PAIR(TR_WARN) | A_BOLD;
		case TR_DIM: return A_DIM;
		case TR_CUR: return A_REVERSE | A_BOLD;
		case TR_KEY: return COLOR_PAIR(TR_KEY) | A_BOLD;
		case TR_NORMAL: return A_NORMAL;
		default: return COLOR_PAIR(r);
		}
	}
	switch (r) {
	case TR_TITLE: return A_BOLD;
	case TR_S2: return A_BOLD;
	case TR_S3: return A_UNDERLINE;
	case TR_ERR: return A_BOLD | A_REVERSE;
	case TR_WARN: return A_BOLD;
	case TR_DIM: return A_DIM;
	case TR_CUR: return A_REVERSE | A_BOLD;
	case TR_KEY: return A_BOLD;
	default: return A_NORMAL;
	}
}

static void init_colours(void)
{
	static const short fg[TR_NROLES] = {
		[TR_TITLE] = COLOR_CYAN, [TR_S1] = COLOR_CYAN, [TR_S2] = COLOR_MAGENTA,
		[TR_S3] = COLOR_YELLOW, [TR_OK] = COLOR_GREEN, [TR_ERR] = COLOR_RED,
		[TR_WARN] = COLOR_YELLOW, [TR_DIM] = -1,
		[TR_WALL] = COLOR_CYAN, [TR_USER] = COLOR_GREEN, [TR_SYS] = COLOR_YELLOW, [TR_CUR] = -1,
		[TR_KEY] = COLOR_YELLOW, [TR_AXIS] = -1, [TR_BAR] = COLOR_CYAN,
	};
	start_color();
	use_default_colors();
	for (int r = 1; r < TR_NROLES; r++)
		init_pair((short)r, fg[r], -1);
}

/* ---- open and close ---- */

static void save_reset_sequences(void)
{
	const char *caps[] = { "sgr0", "cnorm", "rmcup" };
	reset_len = 0;
	for (size_t i = 0; i < WTG_ARRAY_LEN(caps); i++) {
		char *s = tigetstr(caps[i]);
		if (!s || s == (char *)-1)
			continue;
		size_t n = strlen(s);
		if (reset_len + n + 3 > sizeof reset_seq)
			break;
		memcpy(reset_seq + reset_len, s, n);
		reset_len += n;
	}
	memcpy(reset_seq + reset_len, "\r\n", 2);
	reset_len += 2;
}

/* What tui_screen_open did before curses started, undone. */
static void undo_open(void)
{
	for (size_t i = 0; i < WTG_ARRAY_LEN(term_signals); i++)
		sigaction(term_signals[i], &old_term[i], NULL);
	close(sigpipe_fd[0]);
	close(sigpipe_fd[1]);
	sigpipe_fd[0] = sigpipe_fd[1] = -1;
}

int tui_screen_open(struct tui_look *look, const struct wtg_options *o)
{
	const char *cs = nl_langinfo(CODESET);
	look->utf8 = !o->ascii && cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
	look->g = look->utf8 ? &tui_glyphs_utf8 : &tui_glyphs_ascii;
	look->color = o->color;

	if (pipe2(sigpipe_fd, O_NONBLOCK | O_CLOEXEC) < 0) {
		fprintf(stderr, "wtg: pipe: %s\n", strerror(errno));
		return -1;
	}
	saved_tio_ok = tcgetattr(STDIN_FILENO, &saved_tio) == 0;

	/* ours before curses starts, so that curses leaves INT, TERM and HUP to us */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_term_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < WTG_ARRAY_LEN(term_signals); i++)
		sigaction(term_signals[i], &sa, &old_term[i]);

	const char *term = getenv("TERM");
	if (tui_record_start(o) < 0) {
		undo_open();
		return -1;
	}
	scr = (term && *term) ? newterm(NULL, stdout, stdin) : NULL;
	if (!scr) {
		tui_record_end(false);
		undo_open();
		wtg_error("cannot initialise the terminal (TERM=%s)", term && *term ? term : "(unset)");
		return -1;
	}
	set_term(scr);
	save_reset_sequences();
	wtg_session_on_continue(on_continue);

	wtg_fatal_install(on_crash, old_crash);

	/* wrap curses' resize handler so that a resize also wakes poll() */
	sigaction(SIGWINCH, NULL, &curses_winch);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_winch;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGWINCH, &sa, NULL);

	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	have_color = o->color && has_colors();
	if (have_color)
		init_colours();
	look->color = have_color;
	tui_record_header();
	return 0;
}

void tui_screen_close(void)
{
	if (!scr)
		return;
	wtg_session_on_continue(NULL);
	curs_set(1);
	endwin();
	delscreen(scr);
	scr = NULL;
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGWINCH, &dfl, NULL);
	for (int i = 0; i < WTG_NFATAL_SIGNALS; i++)
		sigaction(wtg_fatal_signals[i], &old_crash[i], NULL);
	struct sigaction late;
	memset(&late, 0, sizeof late);
	late.sa_handler = on_late_signal;
	sigemptyset(&late.sa_mask);
	for (size_t i = 0; i < WTG_ARRAY_LEN(term_signals); i++)
		sigaction(term_signals[i], &late, NULL);
	close(sigpipe_fd[0]);
	close(sigpipe_fd[1]);
	sigpipe_fd[0] = sigpipe_fd[1] = -1;
	reset_len = 0;
}
