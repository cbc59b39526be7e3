/* policy.c: the scheduling policy of the measuring threads (the "p" condition).
 *
 * wtg_policy_request() only records the wish in pol_state (a generation counter times two, plus
 * one bit for "background"). Each measuring thread applies it to itself at batch boundaries in
 * wtg_policy_apply_self(), which costs two relaxed loads when nothing changed: the thread-local
 * `self` remembers the pol_state it last applied and what the kernel then reported.
 *
 * Rescue: a SCHED_IDLE thread gets next to no CPU while normal threads keep every core busy, so a
 * starved worker cannot even see its cancel flag. wtg_policy_rescue(), from a normal thread, puts
 * every registered thread back to SCHED_OTHER and raises its slot's `rescued` flag. The thread's
 * next apply_self sees the flag and from then on stays normal (self.rescued) until the request
 * changes or wtg_policy_reset_self() is called as the next experiment starts.
 *
 * Privilege: leaving SCHED_IDLE for SCHED_OTHER is allowed only with CAP_SYS_NICE or an
 * RLIMIT_NICE of at least 20 - nice (sched(7)); with the usual limit of 0 an unprivileged thread
 * that went background stays there. We raise the soft RLIMIT_NICE to the hard one once and try
 * again; whatever happens, the policy read back from the kernel is what is reported.
 *
 * Starvation meters (wtg_starve_*): see wtg/conditions.h.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "wtg/conditions.h"
#include "wtg/util.h"

#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif

#define REG_MAX 256

struct reg_slot {
	int tid;			/* 0 = free; under reg_lock */
	atomic_uint rescue_state;	/* pol_state when the rescue happened ... */
	atomic_bool rescued;		/* ... then this: set by wtg_policy_rescue, consumed by the thread */
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct reg_slot reg[REG_MAX];

static atomic_uint pol_state;		/* generation << 1 | background */
static atomic_int pol_granted = -1;
static atomic_uint pol_answered;	/* the pol_state pol_granted answers */

static _Thread_local struct {
	int slot;		/* index + 1 in reg, 0 = not registered */
	bool have;		/* `applied` and `granted` are valid */
	unsigned applied;	/* pol_state last applied */
	bool rescued;		/* kept normal after a rescue ... */
	unsigned rescued_state;	/* ... until pol_state has a later generation than this */
	int granted;
} self;

static int policy_of(int tid)
{
	int p = sched_getscheduler(tid);
	return p < 0 ? p : p & ~SCHED_RESET_ON_FORK;
}

/* 0 normal, 1 background, -1 unknown, as the kernel reports it */
static int granted_of(int tid)
{
	int p = policy_of(tid);
	return p < 0 ? -1 : p == SCHED_IDLE;
}

static int set_policy(int tid, int policy)
{
	struct sched_param sp = { .sched_priority = 0 };
	if (sched_setscheduler(tid, policy, &sp) == 0)
		return 0;
	if (errno != EPERM || policy == SCHED_IDLE)
		return -1;
	/* leaving SCHED_IDLE is judged against RLIMIT_NICE: use all the hard limit allows */
	struct rlimit rl;
	if (getrlimit(RLIMIT_NICE, &rl) != 0 || rl.rlim_cur >= rl.rlim_max)
		return -1;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NICE, &rl) != 0)
		return -1;
	return sched_setscheduler(tid, policy, &sp);
}

void wtg_policy_request(bool background)
{
	unsigned old = atomic_load(&pol_state);
	for (;;) {
		if ((old & 1u) == (unsigned)background)
			return;
		unsigned next = ((old & ~1u) + 2u) | (unsigned)background;
		if (atomic_compare_exchange_weak(&pol_state, &old, next))
			return;
	}
}

bool wtg_policy_requested(void)
{
	return atomic_load(&pol_state) & 1u;
}

static void register_self(void)
{
	int tid = wtg_gettid();
	pthread_mutex_lock(&reg_lock);
	for (int i = 0; i < REG_MAX; i++) {
		if (reg[i].tid == 0) {
			reg[i].tid = tid;
			atomic_store(&reg[i].rescued, false);
			self.slot = i + 1;
			break;
		}
	}
	pthread_mutex_unlock(&reg_lock);
}

static bool rescue_pending(void)
{
	return self.slot && atomic_load(&reg[self.slot - 1].rescued);
}

static int apply_slow(unsigned st)
{
	if (!self.slot)
		register_self();
	for (;;) {
		struct reg_slot *r = self.slot ? &reg[self.slot - 1] : NULL;
		if (r && atomic_exchange(&r->rescued, false)) {
			self.rescued = true;
			self.rescued_state = atomic_load(&r->rescue_state);
		}
		/* the request changed after the rescue: it no longer holds (generations may wrap) */
		if (self.rescued && (int)((st >> 1) - (self.rescued_state >> 1)) > 0)
			self.rescued = false;
		bool idle = (st & 1u) && !self.rescued;
		int cur = policy_of(0);
		if (idle && cur != SCHED_IDLE)
			set_policy(0, SCHED_IDLE);
		else if (!idle && cur == SCHED_IDLE)
			set_policy(0, SCHED_OTHER);
		/* a rescue flags first and switches second: one that raced with us is seen here */
		if (!rescue_pending())
			break;
	}
	self.granted = granted_of(0);
	self.applied = st;
	self.have = true;
	atomic_store(&pol_granted, self.granted);
	atomic_store(&pol_answered, st);
	return self.granted;
}

int wtg_policy_apply_self(void)
{
	unsigned st = atomic_load_explicit(&pol_state, memory_order_acquire);
	if (self.have && st == self.applied &&
	    !(self.slot && atomic_load_explicit(&reg[self.slot - 1].rescued, memory_order_relaxed)))
		return self.granted;
	return apply_slow(st);
}

void wtg_policy_reset_self(void)
{
	if (self.slot)
		atomic_store(&reg[self.slot - 1].rescued, false);
	self.rescued = false;
	self.have = false;
}

void wtg_policy_unregister_self(void)
{
	if (self.slot) {
		pthread_mutex_lock(&reg_lock);
		reg[self.slot - 1].tid = 0;
		pthread_mutex_unlock(&reg_lock);
	}
	self.slot = 0;
	self.rescued = false;
	self.have = false;
}

int wtg_policy_granted(void)
{
	return atomic_load(&pol_granted);
}

bool wtg_policy_answered(void)
{
	return atomic_load(&pol_answered) == atomic_load(&pol_state);
}

int wtg_policy_rescue(void)
{
	int left = 0, done = 0;
	pid_t pid = getpid();
	unsigned st = atomic_load(&pol_state);
	pthread_mutex_lock(&reg_lock);
	for (int i = 0; i < REG_MAX; i++) {
		int tid = reg[i].tid;
		if (!tid)
			continue;
		/* a thread that exited without unregistering: its tid may now be anyone's */
		if (syscall(SYS_tgkill, pid, tid, 0) != 0) {
			reg[i].tid = 0;
			continue;
		}
		/* flag first, switch second: see the recheck in apply_slow */
		atomic_store(&reg[i].rescue_state, st);
		atomic_store(&reg[i].rescued, true);
		if (policy_of(tid) == SCHED_IDLE)
			set_policy(tid, SCHED_OTHER);
		if (policy_of(tid) == SCHED_IDLE)
			left++;
		else
			done++;
	}
	pthread_mutex_unlock(&reg_lock);
	if (done && !left)
		atomic_store(&pol_granted, 0);
	return left;
}

static atomic_uint starve_conts;

void wtg_starve_continued(void)
{
	atomic_fetch_add(&starve_conts, 1);
}

/* Whether the process was continued since *seen was taken (or a continue is in flight: the main
 * thread has not run the SIGCONT handler yet); updates *seen. */
static bool continued_since(unsigned *seen)
{
	sigset_t pending;
	bool in_flight = sigpending(&pending) == 0 && sigismember(&pending, SIGCONT);
	unsigned conts = atomic_load(&starve_conts);
	bool cont = in_flight || conts != *seen;
	*seen = conts;
	return cont;
}

void wtg_active_begin(struct wtg_active_clock *c)
{
	c->last = wtg_now_ns();
	c->elapsed = 0;
	c->conts = atomic_load(&starve_conts);
}

int64_t wtg_active_elapsed(struct wtg_active_clock *c)
{
	int64_t now = wtg_now_ns();
	int64_t step = now - c->last;
	c->last = now;
	if (!continued_since(&c->conts))
		c->elapsed += step < WTG_STARVE_MAX_NS ? step : WTG_STARVE_MAX_NS;
	return c->elapsed;
}

int wtg_sched_sample(int tid, int64_t *run, int64_t *wait, bool *runnable, bool *idle)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", tid);
	unsigned long long r, w;
	if (wtg_read_small(path, buf, sizeof buf) <= 0 || sscanf(buf, "%llu %llu", &r, &w) != 2)
		return -1;
	snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
	if (wtg_read_small(path, buf, sizeof buf) <= 0)
		return -1;
	/* "tid (comm) S ...": the state follows the last ')', as comm may hold anything */
	const char *close = strrchr(buf, ')');
	if (!close || close[1] != ' ')
		return -1;
	*run = (int64_t)r;
	*wait = (int64_t)w;
	*runnable = close[2] == 'R';
	*idle = policy_of(tid) == SCHED_IDLE;
	return 0;
}

int wtg_starve_begin(struct wtg_starve_meter *m, int tid)
{
	m->tid = tid;
	m->starved_ns = 0;
	m->wall = wtg_now_ns();
	m->conts = atomic_load(&starve_conts);
	bool idle;
	m->ok = wtg_sched_sample(tid, &m->run, &m->wait, &m->runnable, &idle) == 0;
	return m->ok ? 0 : -1;
}

int64_t wtg_starve_sample(struct wtg_starve_meter *m)
{
	if (!m->ok)
		return -1;
	int64_t now = wtg_now_ns();
	int64_t dt = now - m->wall;
	if (dt < WTG_STARVE_MIN_NS)
		return m->starved_ns;
	int64_t run, wait;
	bool runnable, idle;
	if (wtg_sched_sample(m->tid, &run, &wait, &runnable, &idle) < 0)
		return m->starved_ns;	/* the thread has exited: nothing more to add */
	bool cont = continued_since(&m->conts);
	/* runnable at both ends of a short interval: the CPU it got says it; otherwise (it slept, or the
	 * samples are far apart and the whole process may have been stopped) only a booked wait can.
	 * Never both: a wait is booked late, often in a later interval than the one it filled. */
	double span = (double)dt, share = idle ? WTG_STARVE_SHARE_IDLE : WTG_STARVE_SHARE;
	bool by_state = m->runnable && runnable && dt <= WTG_STARVE_MAX_NS;
	bool starved = by_state ? (double)(run - m->run) < (1.0 - share) * span
				: (double)(wait - m->wait) >= share * span;
	if (starved && !cont)
		m->starved_ns += dt;
	m->wall = now;
	m->run = run;
	m->wait = wait;
	m->runnable = runnable;
	return m->starved_ns;
}
