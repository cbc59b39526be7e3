/* testhooks.c: the test hooks of wtg/testhooks.h, read once. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "wtg/testhooks.h"
#include "wtg/util.h"

static struct wtg_testhooks hooks;
static pthread_once_t once = PTHREAD_ONCE_INIT;

void wtg_testhooks_read(void)
{
	const char *deaf = getenv("WTG_TEST_DEAF"), *max = getenv("WTG_TEST_MAX_BUFFER");
	const char *shrink = getenv("WTG_TEST_SHRINK"), *parts = getenv("WTG_TEST_PARTS");
	const char *hold = getenv("WTG_TEST_HOLD");
	memset(&hooks, 0, sizeof hooks);
	if (hold) {	/* NAME[:SECONDS] */
		const char *colon = strchr(hold, ':');
		size_t n = colon ? (size_t)(colon - hold) : strlen(hold);
		if (n < sizeof hooks.hold) {
			memcpy(hooks.hold, hold, n);
			hooks.hold[n] = '\0';
		}
		hooks.hold_s = colon ? strtod(colon + 1, NULL) : 0;
		if (!(hooks.hold_s > 0))
			hooks.hold_s = 0;
	}
	wtg_strlcpy(hooks.deaf, deaf ? deaf : "", sizeof hooks.deaf);
	if (!max || wtg_parse_size(max, &hooks.max_buffer) != 0)
		hooks.max_buffer = 0;
	wtg_strlcpy(hooks.shrink, shrink ? shrink : "", sizeof hooks.shrink);
	hooks.parts = parts && parts[0];
}

const struct wtg_testhooks *wtg_testhooks(void)
{
	pthread_once(&once, wtg_testhooks_read);
	return &hooks;
}
