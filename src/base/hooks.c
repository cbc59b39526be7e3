/* hooks.c: the test hooks (include/wtg/hooks.h), read once at start. */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "wtg/hooks.h"

static const char *before_write;

void wtg_hooks_read(void)
{
	const char *v = getenv("WTG_TEST_BEFORE_WRITE");
	before_write = v && *v ? v : NULL;
}

void wtg_hook_before_write(volatile const sig_atomic_t *stop)
{
	if (!before_write)
		return;
	int fd = open(before_write, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	close(fd);
	struct timespec tick = { 0, 10000000 };
	while (access(before_write, F_OK) == 0 && !(stop && *stop))
		nanosleep(&tick, NULL);
}
