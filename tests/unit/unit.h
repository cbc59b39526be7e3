/*
 * unit.h: a tiny test harness that speaks TAP (the Test Anything Protocol automake's tap-driver.sh
 * reads). Each CHECK is one line, "ok N - function: condition (file:line)" or "not ok N - ...",
 * followed on failure by "# " lines saying what was found and what was expected; unit_done() prints
 * the plan "1..N". A child process (fork, or the test program run again) calls unit_child() first:
 * its lines are then indented as a TAP subtest, which the driver shows in the log but does not
 * count, and the parent counts the child's exit status as its one assertion.
 *
 * Exit status: 0 when every check passed. When one failed, 1 when run by hand and 0 under make
 * check (WTG_TAP_DRIVER set): there the "not ok" lines are the failures, and a non-zero status
 * means that something else went wrong (a crash, a sanitizer report at exit).
 */
#ifndef WTG_UNIT_H
#define WTG_UNIT_H

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int unit_passed, unit_failed;

/* Every line goes out at once: nothing is left in stdio's buffer for a fork to print twice. */
__attribute__((constructor)) static void unit_init(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

/* The indentation of this process's TAP lines: "" at the top, four spaces in a child. */
static inline const char *unit_indent(void)
{
	return getenv("WTG_UNIT_CHILD") ? "    " : "";
}

/* Called first in a child process: its lines become a subtest of the parent's (also after exec). */
static inline void unit_child(void)
{
	unit_passed = unit_failed = 0;
	setenv("WTG_UNIT_CHILD", "1", 1);
}

/* One result line; the description is "FUNC: WHAT (FILE:LINE)", with FILE's folder left out. */
static inline bool unit_result(bool ok, const char *func, const char *file, int line, const char *what)
{
	const char *base = strrchr(file, '/');
	if (ok)
		unit_passed++;
	else
		unit_failed++;
	printf("%s%s %d - %s: %s (%s:%d)\n", unit_indent(), ok ? "ok" : "not ok", unit_passed + unit_failed,
	       func, what, base ? base + 1 : file, line);
	return ok;
}

/* A diagnostic line under a result: "# ...". */
__attribute__((format(printf, 1, 2))) static inline void unit_diag(const char *fmt, ...)
{
	va_list ap;
	printf("%s# ", unit_indent());
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

#define CHECK(cond) ((void)unit_result((cond) ? true : false, __func__, __FILE__, __LINE__, #cond))

#define CHECK_NEAR(a, b, eps)                                                                     \
	do {                                                                                      \
		double a_ = (a), b_ = (b);                                                        \
		if (!unit_result(fabs(a_ - b_) <= (eps), __func__, __FILE__, __LINE__,            \
				 #a " is " #b " within " #eps))                                    \
			unit_diag("got %.9g, expected %.9g", a_, b_);                             \
	} while (0)

#define CHECK_STR(a, b)                                                                           \
	do {                                                                                      \
		const char *a_ = (a), *b_ = (b);                                                  \
		if (!unit_result(a_ && b_ && strcmp(a_, b_) == 0, __func__, __FILE__, __LINE__,   \
				 #a " is " #b))                                                    \
			unit_diag("got \"%s\", expected \"%s\"", a_ ? a_ : "(null)",              \
				  b_ ? b_ : "(null)");                                            \
	} while (0)

/* A check that cannot run here: "ok N # SKIP reason", so it is counted and says why. */
__attribute__((format(printf, 1, 2))) static inline void unit_skip(const char *fmt, ...)
{
	va_list ap;
	unit_passed++;
	printf("%sok %d # SKIP ", unit_indent(), unit_passed + unit_failed);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* The closing plan and a summary comment; returns the exit status (see the top of this file). */
static inline int unit_done(const char *name)
{
	printf("%s1..%d\n", unit_indent(), unit_passed + unit_failed);
	printf("%s# %s: %d passed, %d failed\n", unit_indent(), name, unit_passed, unit_failed);
	if (!unit_failed)
		return 0;
	return getenv("WTG_TAP_DRIVER") && !getenv("WTG_UNIT_CHILD") ? 0 : 1;
}

#endif
