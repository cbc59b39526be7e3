/* hooks.h: the test hooks that the environment turns on, read once at start (src/base/hooks.c). A
 * hook changes nothing unless its variable is set; the README lists them ("Test hook:"). */
#ifndef WTG_HOOKS_H
#define WTG_HOOKS_H

#include <signal.h>

/* Read every hook's variable; main calls it first. */
void wtg_hooks_read(void);
/* WTG_TEST_BEFORE_WRITE=PATH: the headless program, done measuring and about to write its reports,
 * creates PATH and waits until it is removed (or a signal comes; stop, if given, says so), so that
 * a test can change the outputs' names between the start and the write. */
void wtg_hook_before_write(volatile const sig_atomic_t *stop);

#endif
