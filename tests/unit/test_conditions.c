/* test_conditions.c: burners, scheduling policy (with rescue) and the I/O mode. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"
#include "wtg/conditions.h"
#include "wtg/machine.h"
#include "wtg/datafile.h"
#include "wtg/util.h"

/* The test's own wtg_datafile_evict (the library's is not linked in): counts the calls. */
static int evictions;
int wtg_datafile_evict(const struct wtg_datafile *df)
{
	(void)df;
	evictions++;
	return 0;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* A field of /proc/self/task/<tid>/status (tid 0: /proc/self/status), as text. */
static int status_field(int tid, const char *key, char *out, size_t len)
{
	char path[64], line[256];
	if (tid)
		snprintf(path, sizeof path, "/proc/self/task/%d/status", tid);
	else
		snprintf(path, sizeof path, "/proc/self/status");
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int rc = -1;
	size_t kl = strlen(key);
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, key, kl) == 0 && line[kl] == ':') {
			char *v = line + kl + 1;
			v += strspn(v, " \t");
			v[strcspn(v, "\n")] = 0;
			wtg_strlcpy(out, v, len);
			rc = 0;
			break;
		}
	}
	fclose(f);
	return rc;
}

/* The threads of a name ("wtg-burner\n"), found in /proc/self/task/<tid>/comm. */
static int named_tids(const char *name, int *tids, int max);

/* The burner threads, found by name in /proc/self/task/<tid>/comm. */
static int burner_tids(int *tids, int max)
{
	return named_tids("wtg-burner\n", tids, max);
}

/* A joined thread's task lingers a moment in /proc/self/task (its tid is released to pthread_join
 * before the kernel reaps it): one whose flags say PF_EXITING, or a zombie, is not a thread any more. */
static bool exiting(int tid)
{
	char path[64], st[512] = "";
	snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return true;	/* gone already */
	bool got = fgets(st, sizeof st, f) != NULL;
	fclose(f);
	const char *close = got ? strrchr(st, ')') : NULL;
	char state = 0;
	unsigned flags = 0;
	if (!close || sscanf(close + 1, " %c %*d %*d %*d %*d %*d %u", &state, &flags) != 2)
		return false;
	return state == 'Z' || state == 'X' || (flags & 0x4u);	/* PF_EXITING */
}

static int named_tids(const char *name, int *tids, int max)
{
	int n = 0;
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return -1;
	struct dirent *e;
	while ((e = readdir(d))) {
		int tid = atoi(e->d_name);
		char path[64], comm[32] = "";
		snprintf(path, sizeof path, "/proc/self/task/%d/comm", tid);
		FILE *f = tid > 0 ? fopen(path, "r") : NULL;
		if (!f)
			continue;
		bool named = fgets(comm, sizeof comm, f) && strcmp(comm, name) == 0;
		fclose(f);
		if (named && n < max && !exiting(tid))
			tids[n++] = tid;
	}
	closedir(d);
	return n;
}

static int burner_threads(void)
{
	int tids[64];
	return burner_tids(tids, 64);
}

/* Every burner must block signals and run at SCHED_OTHER. Returns how many there are. */
static int check_burner_threads(void)
{
	int tids[64], n = burner_tids(tids, 64);
	for (int i = 0; i < n; i++) {
		char blk[64];
		CHECK(status_field(tids[i], "SigBlk", blk, sizeof blk) == 0);
		CHECK(strtoull(blk, NULL, 16) != 0);
		CHECK(sched_getscheduler(tids[i]) == SCHED_OTHER);
	}
	return n;
}

/* ---- burners ---- */

static void *start_one_burner_idle(void *arg)
{
	struct sched_param sp = { 0 };
	int *rc = arg;
	sched_setscheduler(0, SCHED_IDLE, &sp);
	*rc = wtg_burner_set(1);
	return NULL;
}

static void test_burners(void)
{
	CHECK(wtg_burner_count() == 0);
	CHECK(wtg_burner_set(-1) == -1);
	CHECK(wtg_burner_set(1 << 20) == -1);
	CHECK(wtg_burner_count() == 0);

	CHECK(wtg_burner_set(2) == 2);
	CHECK(wtg_burner_count() == 2);
	CHECK(burner_threads() == 2);
	CHECK(check_burner_threads() == 2);
	uint64_t w0 = wtg_burner_work(), w1 = w0;
	/* it must grow; how fast is the machine's business (wait up to 10 s on a very busy host) */
	for (int i = 0; i < 50 && w1 == w0; i++) {
		sleep_ms(200);
		w1 = wtg_burner_work();
	}
	CHECK(w1 > w0);

	CHECK(wtg_burner_set(0) == 0);
	CHECK(wtg_burner_count() == 0);
	CHECK(burner_threads() == 0);
	uint64_t w2 = wtg_burner_work();
	sleep_ms(200);
	CHECK(wtg_burner_work() == w2);
	CHECK(w2 >= w1);

	CHECK(wtg_burner_set(3) == 3);
	CHECK(wtg_burner_count() == 3);
	CHECK(burner_threads() == 3);
	CHECK(wtg_burner_set(3) == 3);
	CHECK(burner_threads() == 3);
	CHECK(wtg_burner_set(1) == 1);
	CHECK(wtg_burner_count() == 1);
	CHECK(burner_threads() == 1);
	wtg_burner_stop_all();
	CHECK(wtg_burner_count() == 0);
	CHECK(burner_threads() == 0);

	/* started from a SCHED_IDLE thread, a burner still runs at the normal policy (when allowed) */
	if (geteuid() == 0) {
		pthread_t t;
		int rc = -2;
		CHECK(pthread_create(&t, NULL, start_one_burner_idle, &rc) == 0);
		pthread_join(t, NULL);
		CHECK(rc == 1);
		CHECK(check_burner_threads() == 1);
		wtg_burner_stop_all();
		CHECK(burner_threads() == 0);
	}
}

static int sorted_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Whether every running burner reports its work going, waiting up to 10 s on a very busy host. */
static bool burners_going(void)
{
	for (int i = 0; i < 500; i++) {
		if (wtg_burner_going())
			return true;
		sleep_ms(20);
	}
	return false;
}

/* Held (a paired run's arms), burners turned off are parked: no longer counted or working, asleep
 * under another name, and the same threads resume when turned on; another kind replaces them, and
 * letting go of the hold ends the parked ones. */
static void test_burner_hold(void)
{
	int before[8], after[8], parked[8];
	CHECK(wtg_burner_going());	/* none running: nothing to wait for */
	wtg_burner_hold(true);
	CHECK(wtg_burner_set(2) == 2);
	CHECK(burners_going());
	CHECK(burner_tids(before, 8) == 2);
	CHECK(wtg_burner_set(0) == 0);
	CHECK(wtg_burner_count() == 0);
	CHECK(burner_threads() == 0);
	CHECK(named_tids("wtg-parked\n", parked, 8) == 2);
	uint64_t w = wtg_burner_work();
	sleep_ms(200);
	CHECK(wtg_burner_work() == w);	/* parked: no work */
	CHECK(wtg_burner_set(2) == 2);
	CHECK(burners_going());
	CHECK(burner_tids(after, 8) == 2);
	CHECK(named_tids("wtg-parked\n", parked, 8) == 0);
	qsort(before, 2, sizeof *before, sorted_cmp);
	qsort(after, 2, sizeof *after, sorted_cmp);
	CHECK(before[0] == after[0] && before[1] == after[1]);	/* resumed, not started afresh */
	CHECK(wtg_burner_work() > w);
	/* one parked, one running; then another kind: both replaced */
	CHECK(wtg_burner_set(1) == 1);
	CHECK(named_tids("wtg-parked\n", parked, 8) == 1);
	CHECK(wtg_burner_set_kind(2, WTG_BURN_STREAM) == 2);
	CHECK(wtg_burner_kind() == WTG_BURN_STREAM);
	CHECK(named_tids("wtg-parked\n", parked, 8) == 0);
	CHECK(burner_tids(after, 8) == 2);
	CHECK(after[0] != before[0] && after[0] != before[1] && after[1] != before[0] && after[1] != before[1]);
	CHECK(burners_going());
	CHECK(wtg_burner_set(0) == 0);
	CHECK(named_tids("wtg-parked\n", parked, 8) == 2);
	wtg_burner_hold(false);
	CHECK(named_tids("wtg-parked\n", parked, 8) == 0);
	CHECK(burner_threads() == 0);
	/* not held: turning off ends them, as ever */
	CHECK(wtg_burner_set(1) == 1);
	CHECK(wtg_burner_set(0) == 0);
	CHECK(named_tids("wtg-parked\n", parked, 8) == 0 && burner_threads() == 0);
}

/* Stream burners: a buffer of their own larger than the LLC, a kind switch replaces them, the work
 * counter (cache lines read) grows, and the names parse both ways. */
static void test_stream_burners(void)
{
	CHECK(wtg_burn_kind_parse("spin") == WTG_BURN_SPIN);
	CHECK(wtg_burn_kind_parse("stream") == WTG_BURN_STREAM);
	CHECK(wtg_burn_kind_parse("Stream") == -1 && wtg_burn_kind_parse("") == -1);
	CHECK_STR(wtg_burn_kind_name(WTG_BURN_STREAM), "stream");
	CHECK_STR(wtg_burn_kind_name(WTG_BURN_SPIN), "spin");

	struct wtg_machine m;
	memset(&m, 0, sizeof m);
	wtg_machine_read_caches(&m, NULL);
	const struct wtg_cache *llc = wtg_machine_llc(&m);
	uint64_t ram = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t one = wtg_burner_stream_bytes(1), many = wtg_burner_stream_bytes(1024);
	/* larger than the LLC unless a quarter of the memory does not allow it */
	CHECK(one >= (64u << 20) || one >= ram / 4 - (1u << 20));
	CHECK(!llc || one > llc->size || one >= ram / 4 - (1u << 20));
	CHECK(many * 1024 <= ram / 4 + 1024 * (1u << 20));	/* all together: a quarter of the memory */
	CHECK(one % (1u << 20) == 0 && many > 0);

	CHECK(wtg_burner_set_kind(1, WTG_BURN_STREAM) == 1);
	CHECK(wtg_burner_kind() == WTG_BURN_STREAM && wtg_burner_count() == 1);
	CHECK(check_burner_threads() == 1);
	uint64_t w0 = wtg_burner_work(), w1 = w0;
	for (int i = 0; i < 100 && w1 == w0; i++) {	/* writing the buffer comes first */
		sleep_ms(200);
		w1 = wtg_burner_work();
	}
	CHECK(w1 > w0);
	struct wtg_cond_snapshot c;
	wtg_cond_snapshot(&c, NULL);
	CHECK(c.burners == 1 && c.burn_kind == WTG_BURN_STREAM);
	/* wtg_burner_set keeps the kind; another kind replaces the running burners */
	CHECK(wtg_burner_set(2) == 2 && wtg_burner_kind() == WTG_BURN_STREAM);
	CHECK(wtg_burner_set_kind(2, WTG_BURN_SPIN) == 2);
	CHECK(wtg_burner_kind() == WTG_BURN_SPIN && burner_threads() == 2);
	wtg_burner_stop_all();
	CHECK(burner_threads() == 0 && wtg_burner_kind() == WTG_BURN_SPIN);
}

/* ---- policy ---- */

/* Can a thread of this process go from SCHED_IDLE back to SCHED_OTHER? */
static void *probe_leave_idle(void *arg)
{
	struct sched_param sp = { 0 };
	bool *ok = arg;
	*ok = sched_setscheduler(0, SCHED_IDLE, &sp) == 0 && sched_setscheduler(0, SCHED_OTHER, &sp) == 0;
	return NULL;
}

static bool can_leave_idle(void)
{
	struct rlimit rl;
	/* the library raises the soft limit to the hard one before giving up */
	if (getrlimit(RLIMIT_NICE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NICE, &rl);
	}
	bool ok = false;
	pthread_t t;
	if (pthread_create(&t, NULL, probe_leave_idle, &ok) != 0)
		return false;
	pthread_join(t, NULL);
	return ok;
}

/* A measuring thread driven step by step by the main thread. */
static atomic_int step, done_step, worker_tid;
static int results[16];

static void wait_step(int s)
{
	while (atomic_load(&step) < s)
		sleep_ms(1);
}

static void *measuring_thread(void *arg)
{
	(void)arg;
	atomic_store(&worker_tid, wtg_gettid());
	wait_step(1);
	results[1] = wtg_policy_apply_self();			/* background requested */
	atomic_store(&done_step, 1);
	wait_step(2);						/* main rescued us */
	results[2] = wtg_policy_apply_self();
	results[3] = sched_getscheduler(0);
	results[4] = wtg_policy_apply_self();			/* still rescued */
	wtg_policy_reset_self();				/* a new experiment */
	results[5] = wtg_policy_apply_self();
	results[6] = sched_getscheduler(0);
	atomic_store(&done_step, 2);
	wait_step(3);						/* rescued again, then the request changed */
	results[7] = wtg_policy_apply_self();
	results[8] = sched_getscheduler(0);
	wtg_policy_unregister_self();
	atomic_store(&done_step, 3);
	wait_step(4);
	return NULL;
}

static void wait_done(int s)
{
	while (atomic_load(&done_step) < s)
		sleep_ms(1);
}

static void test_policy(bool leave_ok)
{
	wtg_policy_request(true);
	CHECK(wtg_policy_requested());
	CHECK(wtg_policy_apply_self() == 1);
	CHECK(sched_getscheduler(0) == SCHED_IDLE);
	CHECK(wtg_policy_granted() == 1);
	CHECK(wtg_policy_apply_self() == 1);			/* the cheap path agrees */

	wtg_policy_request(false);
	CHECK(!wtg_policy_requested());
	int want = leave_ok ? 0 : 1;
	CHECK(wtg_policy_apply_self() == want);
	CHECK(sched_getscheduler(0) == (leave_ok ? SCHED_OTHER : SCHED_IDLE));
	CHECK(wtg_policy_granted() == want);
	if (!leave_ok)
		return;

	/* rescue from a second thread */
	pthread_t t;
	CHECK(pthread_create(&t, NULL, measuring_thread, NULL) == 0);
	while (atomic_load(&worker_tid) == 0)
		sleep_ms(1);
	int tid = atomic_load(&worker_tid);
	wtg_policy_request(true);
	atomic_store(&step, 1);
	wait_done(1);
	CHECK(results[1] == 1);
	CHECK(sched_getscheduler(tid) == SCHED_IDLE);
	CHECK(wtg_policy_granted() == 1);

	CHECK(wtg_policy_rescue() == 0);
	CHECK(sched_getscheduler(tid) == SCHED_OTHER);
	CHECK(wtg_policy_granted() == 0);
	atomic_store(&step, 2);
	wait_done(2);
	CHECK(results[2] == 0);
	CHECK(results[3] == SCHED_OTHER);
	CHECK(results[4] == 0);
	CHECK(results[5] == 1);
	CHECK(results[6] == SCHED_IDLE);

	/* a rescue lasts until the request changes */
	CHECK(wtg_policy_rescue() == 0);
	CHECK(sched_getscheduler(tid) == SCHED_OTHER);
	wtg_policy_request(false);
	wtg_policy_request(true);
	atomic_store(&step, 3);
	wait_done(3);
	CHECK(results[7] == 1);
	CHECK(results[8] == SCHED_IDLE);

	/* unregistered: a rescue leaves it alone */
	CHECK(wtg_policy_rescue() == 0);
	CHECK(sched_getscheduler(tid) == SCHED_IDLE);
	atomic_store(&step, 4);
	pthread_join(t, NULL);
	wtg_policy_request(false);
	CHECK(wtg_policy_apply_self() == 0);
}

/* As root, once more without privilege in a child: going back is refused, and that is reported. */
static void test_policy_unprivileged(void)
{
	pid_t pid = fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		if (setresgid(65534, 65534, 65534) != 0 || setresuid(65534, 65534, 65534) != 0)
			_exit(77);
		unit_child();
		test_policy(can_leave_idle());
		int rc = unit_done("test_conditions (unprivileged child)");
		fflush(stdout);
		_exit(rc);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 77) {
		printf("# test_conditions: cannot drop privileges here, unprivileged policy not tested\n");
		return;
	}
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* ---- I/O mode ---- */

static void test_iomode(void)
{
	static struct wtg_datafile df;
	struct wtg_cond_snapshot s;

	CHECK_STR(wtg_iomode_name(WTG_IO_CACHED), "cached");
	CHECK_STR(wtg_iomode_name(WTG_IO_DIRECT), "direct");
	CHECK_STR(wtg_iomode_name(WTG_IO_EVICTING), "evicting");

	/* no data file yet: cached whatever is requested */
	wtg_uncached_request(true);
	CHECK(wtg_uncached_requested());
	CHECK(wtg_iomode_effective(NULL) == WTG_IO_CACHED);
	wtg_cond_snapshot(&s, NULL);
	CHECK(s.io == WTG_IO_CACHED);
	CHECK(s.uncached);

	wtg_uncached_request(false);
	CHECK(!wtg_uncached_requested());
	df.direct_ok = false;
	CHECK(wtg_iomode_effective(&df) == WTG_IO_CACHED);
	df.direct_ok = true;
	CHECK(wtg_iomode_effective(&df) == WTG_IO_CACHED);
	wtg_uncached_request(true);
	CHECK(wtg_iomode_effective(&df) == WTG_IO_DIRECT);
	df.direct_ok = false;
	CHECK(wtg_iomode_effective(&df) == WTG_IO_EVICTING);

	wtg_cond_set_datafile(&df);
	CHECK(wtg_iomode_effective(NULL) == WTG_IO_EVICTING);
	CHECK(wtg_burner_set(1) == 1);
	wtg_policy_request(true);
	wtg_cond_snapshot(&s, NULL);
	CHECK(s.burners == 1);
	CHECK(s.background);
	CHECK(s.uncached);
	CHECK(s.io == WTG_IO_EVICTING);
	CHECK(s.policy == wtg_policy_granted());
	wtg_burner_stop_all();
	wtg_policy_request(false);
	wtg_cond_snapshot(&s, NULL);
	CHECK(s.burners == 0);
	CHECK(!s.background);

	/* eviction happens before a pass only in the evicting mode */
	evictions = 0;
	wtg_iomode_before_pass(&df);
	wtg_iomode_before_pass(NULL);
	CHECK(evictions == 2);
	df.direct_ok = true;
	wtg_iomode_before_pass(&df);
	wtg_uncached_request(false);
	wtg_iomode_before_pass(&df);
	CHECK(evictions == 2);

	/* opening: O_DIRECT only in the direct mode */
	snprintf(df.path, sizeof df.path, "/tmp/wtg-test-cond-XXXXXX");
	int wfd = mkstemp(df.path);
	CHECK(wfd >= 0);
	if (wfd < 0)
		return;
	static char block[8192];
	CHECK(write(wfd, block, sizeof block) == (ssize_t)sizeof block);
	close(wfd);
	bool direct = true;
	int fd = wtg_iomode_open(&df, &direct);
	CHECK(fd >= 0);
	CHECK(!direct);
	CHECK(fd >= 0 && !(fcntl(fd, F_GETFL) & O_DIRECT));
	CHECK(fd >= 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC));
	if (fd >= 0)
		close(fd);
	wtg_uncached_request(true);
	fd = wtg_iomode_open(&df, &direct);
	/* the filesystem may refuse O_DIRECT; when the open works, it must be direct */
	if (fd >= 0) {
		CHECK(direct);
		CHECK(fcntl(fd, F_GETFL) & O_DIRECT);
		close(fd);
	} else {
		CHECK(!direct);
	}
	df.direct_ok = false;
	fd = wtg_iomode_open(&df, &direct);
	CHECK(fd >= 0);
	CHECK(!direct);
	CHECK(fd >= 0 && !(fcntl(fd, F_GETFL) & O_DIRECT));
	if (fd >= 0)
		close(fd);
	unlink(df.path);
	wtg_uncached_request(false);
	wtg_cond_set_datafile(NULL);
	CHECK(wtg_iomode_effective(NULL) == WTG_IO_CACHED);
}

int main(void)
{
	test_burners();
	test_burner_hold();
	test_stream_burners();
	test_iomode();
	if (geteuid() == 0)
		test_policy_unprivileged();
	test_policy(can_leave_idle());
	return unit_done("test_conditions");
}
