/* guard.h: fault signals: reads of a file mapping that survive the file shrinking under them, and
 * the signal mask of the threads wtg starts.
 *
 * A read of a mapped page that lies past the file's end (someone truncated the file after it was
 * mapped) raises SIGBUS in the reading thread. Every read of a mapping of the data file goes through
 * wtg_guard_call() or wtg_guard_sum(): while such a read runs, the thread's guard is armed, and the
 * process's SIGBUS handler calls wtg_guard_escape() first, which jumps back out of the read. A SIGBUS
 * anywhere else takes the normal fatal path (clean up, say so, die of the signal).
 */
#ifndef WTG_GUARD_H
#define WTG_GUARD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* What a read that hit the shrunken end reports (the experiment's error ends with it). */
#define WTG_GUARD_SHRANK "the data file shrank while mapped (a read past its new end raised SIGBUS)"

/* Run fn(arg) with the calling thread's guard armed. Returns 0, or -1 when fn raised SIGBUS (fn was
 * abandoned at the faulting read: it must hold no lock and allocate nothing while it reads). */
int wtg_guard_call(void (*fn)(void *arg), void *arg);

/* Add the byte sum of p[0, n) to *sum under the guard. Returns 0, or -1 on SIGBUS (*sum unchanged). */
int wtg_guard_sum(const unsigned char *p, size_t n, int64_t *sum);

/* For SIGBUS handlers, first thing (async-signal-safe): when the calling thread is inside a guarded
 * read, jump back to it (does not return); otherwise return, and the handler goes on. */
void wtg_guard_escape(int sig);

/* For a process without wtg's crash handlers (the faultbase child, unit tests): a SIGBUS handler
 * that escapes guarded reads and otherwise dies of the signal. Returns 0 or -1. */
int wtg_guard_install(void);

/* Before creating a thread: block every signal but the synchronous faults (SIGSEGV, SIGBUS, SIGFPE,
 * SIGILL, SIGTRAP, SIGSYS, SIGABRT) in the caller, saving its mask in *old; the new thread inherits
 * it. The kernel raises a fault in the thread that faulted, and a blocked one kills the process
 * outright, skipping every handler; requests to quit (INT, TERM, HUP, QUIT, ...) stay with the main
 * thread. Restore the caller's mask with pthread_sigmask(SIG_SETMASK, old, NULL) afterwards. */
void wtg_thread_sigmask(sigset_t *old);

#endif
