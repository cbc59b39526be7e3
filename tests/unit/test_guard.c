/* test_guard.c: reads of a mapping whose file shrank end with an error, not a SIGBUS death; the
 * threads wtg creates let the faults through to the handlers; the fatal path says so and dies. */
#include "config.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"
#include "wtg/guard.h"
#include "wtg/kernels.h"
#include "wtg/session.h"

#define FILE_SIZE (1u << 20)

static char path[64];

/* A FILE_SIZE temp file of bytes i % 251; returns its descriptor and the known sum. */
static int make_file(int64_t *sum)
{
	strcpy(path, "/tmp/wtg-guard-XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unsigned char *buf = malloc(FILE_SIZE);
	*sum = 0;
	for (size_t i = 0; i < FILE_SIZE; i++) {
		buf[i] = (unsigned char)(i % 251);
		*sum += buf[i];
	}
	ssize_t w = write(fd, buf, FILE_SIZE);
	free(buf);
	return w == FILE_SIZE ? fd : -1;
}

struct reader {
	const unsigned char *p;
	int rc1, rc2;
	int64_t sum;
};

/* In a thread started the way wtg starts its threads: two guarded reads past the end. */
static void *reader_main(void *arg)
{
	struct reader *r = arg;
	r->rc1 = wtg_guard_sum(r->p, FILE_SIZE, &r->sum);
	r->rc2 = wtg_guard_sum(r->p + FILE_SIZE / 2, FILE_SIZE / 2, &r->sum);
	return NULL;
}

static void test_shrunken_mapping(void)
{
	int64_t known;
	int fd = make_file(&known);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unsigned char *p = mmap(NULL, FILE_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED);
	int64_t sum = 0;
	CHECK(wtg_guard_sum(p, FILE_SIZE, &sum) == 0);
	CHECK(sum == known);

	/* another program truncates the file: the second half of the mapping is gone */
	CHECK(ftruncate(fd, FILE_SIZE / 2) == 0);
	sum = 0;
	CHECK(wtg_guard_sum(p, FILE_SIZE / 2, &sum) == 0);	/* what is left still reads */
	int64_t half = sum;
	CHECK(half > 0 && half < known);
	CHECK(wtg_guard_sum(p, FILE_SIZE, &sum) == -1);
	CHECK(sum == half);	/* unchanged by the abandoned read */
	CHECK(wtg_guard_sum(p, FILE_SIZE, &sum) == -1);	/* again: the handler stays */

	/* SIGBUS is not left blocked after an escape */
	sigset_t cur;
	pthread_sigmask(SIG_SETMASK, NULL, &cur);
	CHECK(!sigismember(&cur, SIGBUS));

	/* in a thread with wtg's thread mask */
	struct reader r = { .p = p, .rc1 = 7, .rc2 = 7 };
	sigset_t old;
	wtg_thread_sigmask(&old);
	pthread_t th;
	int err = pthread_create(&th, NULL, reader_main, &r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	CHECK(err == 0);
	if (err == 0)
		pthread_join(th, NULL);
	CHECK(r.rc1 == -1 && r.rc2 == -1 && r.sum == 0);

	munmap(p, FILE_SIZE);
	close(fd);
	unlink(path);
}

static void test_thread_mask(void)
{
	sigset_t old, cur;
	wtg_thread_sigmask(&old);
	pthread_sigmask(SIG_SETMASK, NULL, &cur);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
		CHECK(!sigismember(&cur, faults[i]));
	const int quits[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGWINCH, SIGPIPE };
	for (size_t i = 0; i < sizeof quits / sizeof quits[0]; i++)
		CHECK(sigismember(&cur, quits[i]));
}

static void on_fatal(int sig)
{
	wtg_guard_escape(sig);
	wtg_fatal_die(sig);
}

static void *unguarded_main(void *arg)
{
	const volatile unsigned char *p = arg;
	return (void *)(uintptr_t)p[FILE_SIZE - 1];
}

/* A child process with wtg's fatal handlers: an unguarded read past the end in a thread with wtg's
 * mask runs the handler (one "wtg:" line) and the child dies of SIGBUS. */
static void test_fatal_path(void)
{
	int64_t known;
	int fd = make_file(&known);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	int errpipe[2];
	CHECK(pipe(errpipe) == 0);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(errpipe[1], STDERR_FILENO);
		struct rlimit no_core = { 0, 0 };
		setrlimit(RLIMIT_CORE, &no_core);
		wtg_fatal_install(on_fatal, NULL);
		unsigned char *p = mmap(NULL, FILE_SIZE, PROT_READ, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED || ftruncate(fd, FILE_SIZE / 2) != 0)
			_exit(3);
		sigset_t old;
		wtg_thread_sigmask(&old);
		pthread_t th;
		if (pthread_create(&th, NULL, unguarded_main, p) != 0)
			_exit(4);
		pthread_join(th, NULL);
		_exit(5);
	}
	close(errpipe[1]);
	char msg[256] = "";
	ssize_t n = read(errpipe[0], msg, sizeof msg - 1);
	msg[n > 0 ? n : 0] = '\0';
	int status = 0;
	waitpid(pid, &status, 0);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS);
	char want[64];
	snprintf(want, sizeof want, "wtg: killed by signal %d (bus error)\n", SIGBUS);
	CHECK_STR(msg, want);
	close(errpipe[0]);
	close(fd);
	unlink(path);
}

int main(void)
{
	wtg_guard_install();
	test_thread_mask();
	test_shrunken_mapping();
	test_fatal_path();
	return unit_done("test_guard");
}
