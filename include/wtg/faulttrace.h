/* faulttrace.h: every page fault of a child process, sampled with its address and instruction
 * (perf_event_open software events, period 1, enabled when the child execs) and attributed to the
 * mapping it fell in, from the child's own memory-map records (PERF_RECORD_MMAP2). */
#ifndef WTG_FAULTTRACE_H
#define WTG_FAULTTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct wtg_ftrace_map {
	uint64_t start, end, pgoff, time;
	uint64_t dev_major, dev_minor, ino;
	uint32_t prot;
	char name[96];		/* the kernel's name: a path, "[heap]", "[vdso]", "//anon", ... */
};

struct wtg_ftrace_fault {
	uint64_t time, addr, ip;
	bool major;
};

struct wtg_ftrace {
	bool ok;			/* the events were opened; else why says so in one line */
	char why[200];
	int fd_min, fd_maj;
	void *ring;			/* the shared ring buffer (the major event writes into the minor's) */
	size_t ring_len;		/* header page plus data pages */
	uint64_t id_min, id_maj;
	bool exclude_kernel;		/* the sysctl allowed user-mode faults only */
	int64_t count_min, count_maj;	/* the counters' own counts (-1 unread) */
	int64_t lost, throttled;	/* PERF_RECORD_LOST records' lost samples; PERF_RECORD_THROTTLE records */
	struct wtg_ftrace_fault *faults;
	size_t nfaults, capfaults;
	struct wtg_ftrace_map *maps;
	size_t nmaps, capmaps;
};

/* Open the two fault events on pid, a child that has not yet exec'd (it waits for the caller),
 * enabled on its exec, with a ring buffer sized for expect records. false with ft->why set when
 * the kernel does not allow it (or WTG_TEST_NO_PERF is set: "ENOSYS" makes it say perf is absent,
 * any other value that it is not allowed). */
bool wtg_ftrace_open(struct wtg_ftrace *ft, pid_t pid, size_t expect);
/* Read what the ring buffer holds; wait at most ms for more first (0: do not wait). */
void wtg_ftrace_drain(struct wtg_ftrace *ft, int ms);
/* After the child ended: read the rest and the counters, close the events. */
void wtg_ftrace_finish(struct wtg_ftrace *ft);
void wtg_ftrace_free(struct wtg_ftrace *ft);

/* What a fault is charged to: the files the caller knows by device and inode. */
struct wtg_ftrace_names {
	uint64_t exe_major, exe_minor, exe_ino;		/* the program's own binary */
	uint64_t data_major, data_minor, data_ino;	/* the mapped data file */
};
/* The mapping of addr at time (the latest map record that covers it, made before the fault), or NULL. */
const struct wtg_ftrace_map *wtg_ftrace_find(const struct wtg_ftrace *ft, uint64_t addr, uint64_t time);
/* The bucket of a fault: "ld-linux-x86-64.so.2", "libc.so.6" (its .bss included), "wtg text",
 * "wtg data" (its .bss included), "heap",
 * "stack", "anonymous", "data file", "locale data", "vDSO", "vvar", or "unmapped"; *off gets the offset of the
 * faulting page in its file (0 when not a file). */
const char *wtg_ftrace_bucket(const struct wtg_ftrace *ft, const struct wtg_ftrace_names *nm,
			      const struct wtg_ftrace_fault *f, char *buf, size_t len, uint64_t *off);
/* The device and inode of path into *major, *minor, *ino; false when it cannot be stat'ed. */
bool wtg_ftrace_file_id(const char *path, uint64_t *major, uint64_t *minor, uint64_t *ino);

#endif
