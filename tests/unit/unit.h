/* unit.h: a tiny test harness: CHECK macros and a closing "N passed, N failed" line. */
#ifndef WTG_UNIT_H
#define WTG_UNIT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int unit_passed, unit_failed;

#define CHECK(cond)                                                                   \
	do {                                                                          \
		if (cond) {                                                           \
			unit_passed++;                                                \
		} else {                                                              \
			unit_failed++;                                                \
			fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond); \
		}                                                                     \
	} while (0)

#define CHECK_NEAR(a, b, eps)                                                                   \
	do {                                                                                    \
		double a_ = (a), b_ = (b);                                                      \
		if (fabs(a_ - b_) <= (eps)) {                                                   \
			unit_passed++;                                                          \
		} else {                                                                        \
			unit_failed++;                                                          \
			fprintf(stderr, "%s:%d: FAILED: %s = %.9g, expected %.9g\n", __FILE__, \
				__LINE__, #a, a_, b_);                                          \
		}                                                                               \
	} while (0)

#define CHECK_STR(a, b)                                                                          \
	do {                                                                                     \
		const char *a_ = (a), *b_ = (b);                                                 \
		if (a_ && b_ && strcmp(a_, b_) == 0) {                                           \
			unit_passed++;                                                           \
		} else {                                                                         \
			unit_failed++;                                                           \
			fprintf(stderr, "%s:%d: FAILED: %s = \"%s\", expected \"%s\"\n", __FILE__, \
				__LINE__, #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)");           \
		}                                                                                \
	} while (0)

static inline int unit_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, unit_passed, unit_failed);
	return unit_failed ? 1 : 0;
}

#endif
