/* testhooks.h: the test hooks, read from the environment once and consulted here, never with getenv
 * where they act. Each makes a rare path happen on demand in a test; unset, none changes a run:
 *
 *   WTG_TEST_DEAF=NAME        experiment NAME's measuring thread spins and never looks at cancel, as a
 *                             sizing loop that never ended once did: a request to quit must end wtg all
 *                             the same (src/engine/session.c; tests/tui/quit.sh, tests/cli/test_sysfs.py)
 *   WTG_TEST_MAX_BUFFER=SIZE  caps the memory-sized buffers of kernels, wss and ceiling: a sanitizer
 *                             build fills big buffers slowly (src/experiments/membuf.c; .ci/run)
 *   WTG_TEST_SHRINK=NAME      the first time experiment NAME is about to read a mapping of the data file
 *                             wtg created, the file is truncated to half its size, as another program
 *                             might (src/experiments/pages.c; tests/cli/test_ends.py)
 *   WTG_TEST_HOLD=NAME[:S]   experiment NAME's run holds before its first row, its heartbeat beating,
 *                             until it is cancelled or S seconds have passed (then it runs as usual):
 *                             a running state that lasts as long as a dashboard test needs it, on a
 *                             machine of any speed (src/engine/session.c; tests/tui/lecture-conditions.sh,
 *                             autoplay.sh)
 *   WTG_TEST_BEFORE_WRITE=PATH the headless program, done measuring and about to write its reports,
 *                             creates PATH and waits until it is removed (or a signal comes), so that a
 *                             test can change the outputs' names between the start and the write
 *                             (src/headless/run.c; tests/cli/test_targets.py)
 *   WTG_TEST_NO_PERF=1        faultbase's fault trace fails to open as if perf_event_open were not allowed
 *                             (EACCES); =ENOSYS: as if the kernel had none (src/machine/faulttrace.c;
 *                             tests/cli/test_faulttrace.py)
 *   WTG_TEST_PARTS=1          threads runs its speedup's follow-up on every row with a one-thread base
 *                             (src/experiments/threads.c; tests/cli/test_cpu.py)
 */
#ifndef WTG_TESTHOOKS_H
#define WTG_TESTHOOKS_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

struct wtg_testhooks {
	char deaf[64];		/* WTG_TEST_DEAF's experiment, "" when unset */
	uint64_t max_buffer;	/* WTG_TEST_MAX_BUFFER in bytes, 0 when unset or not a size */
	char shrink[64];	/* WTG_TEST_SHRINK's experiment, "" when unset */
	bool parts;		/* WTG_TEST_PARTS set and not empty */
	char hold[64];		/* WTG_TEST_HOLD's experiment, "" when unset */
	double hold_s;		/* ... and its seconds, 0 for until cancelled */
	int no_perf;		/* WTG_TEST_NO_PERF: the errno the fault trace's open fails with, 0 when unset */
	char before_write[PATH_MAX];	/* WTG_TEST_BEFORE_WRITE's path, "" when unset */
};

/* The hooks, read from the environment at the first call of the process. */
const struct wtg_testhooks *wtg_testhooks(void);
/* Read them again: for a unit test that sets the environment itself (no other thread running). */
void wtg_testhooks_read(void);
/* WTG_TEST_BEFORE_WRITE: create its path and wait until it is removed, or *stop (when given) is set. */
void wtg_hook_before_write(volatile const sig_atomic_t *stop);

#endif
