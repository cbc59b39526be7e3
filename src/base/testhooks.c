/* testhooks.c: the test hooks of wtg/testhooks.h, read once. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wtg/testhooks.h"
#include "wtg/util.h"

static struct wtg_testhooks hooks;
static pthread_once_t once = PTHREAD_ONCE_INIT;

void wtg_testhooks_read(void)
{
	const char *deaf = getenv("WTG_TEST_DEAF"), *max = getenv("WTG_TEST_MAX_BUFFER");
	const char *shrink = getenv("WTG_TEST_SHRINK"), *parts = getenv("WTG_TEST_PARTS");
	const char *hold = getenv("WTG_TEST_HOLD"), *before = getenv("WTG_TEST_BEFORE_WRITE");
	const char *no_perf = getenv("WTG_TEST_NO_PERF");
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
	if (no_perf && no_perf[0])
		hooks.no_perf = strcmp(no_perf, "ENOSYS") == 0 ? ENOSYS : EACCES;
	wtg_strlcpy(hooks.before_write, before ? before : "", sizeof hooks.before_write);
}

const struct wtg_testhooks *wtg_testhooks(void)
{
	pthread_once(&once, wtg_testhooks_read);
	return &hooks;
}

void wtg_hook_before_write(volatile const sig_atomic_t *stop)
{
	const char *path = wtg_testhooks()->before_write;
	if (!path[0])
		return;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	close(fd);
	struct timespec tick = { 0, 10000000 };
	while (access(path, F_OK) == 0 && !(stop && *stop))
		nanosleep(&tick, NULL);
}
