/* faulttrace.c: a child's page faults, each sampled with its address (wtg/faulttrace.h).
 *
 * Two software events, minor and major faults, sampling every one (period 1) with the faulting
 * address, the instruction pointer, the thread and the time; the major event writes into the minor
 * event's ring buffer (PERF_EVENT_IOC_SET_OUTPUT), each sample carrying its event's id. The minor
 * event also records the child's mappings (mmap, mmap_data, mmap2), so every fault is charged to
 * the mapping that held its address when it happened. The events are opened disabled on a child
 * that waits before its exec and enabled by the exec itself, so the counts start with the new
 * program's first instruction and leave out the parent's fork. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef HAVE_LINUX_PERF_EVENT_H
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#endif

#include "wtg/faulttrace.h"
#include "wtg/testhooks.h"
#include "wtg/util.h"

#define FT_MAX_DATA_PAGES 1024	/* 4 MiB of ring at 4 KiB pages; drained while the child runs */
#define FT_MIN_DATA_PAGES 8
#define FT_SAMPLE_BYTES 48	/* header + id + ip + pid/tid + time + addr */
/* x86-64 puts the brk heap at a random page up to 1 GiB above the program's end (perf names its
 * records "//anon", not "[heap]"); mmap's region lies far above that */
#define FT_BRK_RANGE (2ull << 30)

static void ft_why(struct wtg_ftrace *ft, int err)
{
	int paranoid = -99;
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (f) {
		if (fscanf(f, "%d", &paranoid) != 1)
			paranoid = -99;
		fclose(f);
	}
	char lvl[64] = "";
	if (paranoid != -99)
		snprintf(lvl, sizeof lvl, " (kernel.perf_event_paranoid is %d)", paranoid);
	if (err == ENOSYS || err == ENOENT || err == EOPNOTSUPP)
		snprintf(ft->why, sizeof ft->why, "no fault trace: this kernel has no perf events (%s)",
			 strerror(err));
	else if (err == EACCES || err == EPERM)
		snprintf(ft->why, sizeof ft->why,
			 "no fault trace: perf_event_open is not allowed for this user%s; 2 or less allows "
			 "one's own processes", lvl);
	else
		snprintf(ft->why, sizeof ft->why, "no fault trace: perf_event_open: %s%s", strerror(err), lvl);
}

#ifdef HAVE_LINUX_PERF_EVENT_H
static int ft_event(struct wtg_ftrace *ft, pid_t pid, unsigned long long config, bool maps)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_ADDR;
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.exclude_hv = 1;
	a.sample_id_all = 1;
	a.exclude_kernel = ft->exclude_kernel;
	a.wakeup_watermark = 0;
	if (maps) {
		a.mmap = 1;
		a.mmap_data = 1;
		a.mmap2 = 1;
	}
	long fd = syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && (errno == EACCES || errno == EPERM) && !ft->exclude_kernel) {
		/* perf_event_paranoid 2: a user's own processes, user mode only */
		ft->exclude_kernel = true;
		a.exclude_kernel = 1;
		fd = syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	return (int)fd;
}

static bool ft_fail(struct wtg_ftrace *ft, int err)
{
	ft_why(ft, err);
	if (ft->ring)
		munmap(ft->ring, ft->ring_len);
	ft->ring = NULL;
	if (ft->fd_min >= 0)
		close(ft->fd_min);
	if (ft->fd_maj >= 0)
		close(ft->fd_maj);
	ft->fd_min = ft->fd_maj = -1;
	return false;
}
#endif

bool wtg_ftrace_open(struct wtg_ftrace *ft, pid_t pid, size_t expect)
{
	memset(ft, 0, sizeof *ft);
	ft->fd_min = ft->fd_maj = -1;
	ft->count_min = ft->count_maj = -1;
	int refuse = wtg_testhooks()->no_perf;	/* WTG_TEST_NO_PERF */
	if (refuse) {
		ft_why(ft, refuse);
		return false;
	}
#ifdef HAVE_LINUX_PERF_EVENT_H
	ft->fd_min = ft_event(ft, pid, PERF_COUNT_SW_PAGE_FAULTS_MIN, true);
	if (ft->fd_min < 0)
		return ft_fail(ft, errno);
	ft->fd_maj = ft_event(ft, pid, PERF_COUNT_SW_PAGE_FAULTS_MAJ, false);
	if (ft->fd_maj < 0)
		return ft_fail(ft, errno);
	if (ioctl(ft->fd_min, PERF_EVENT_IOC_ID, &ft->id_min) < 0 ||
	    ioctl(ft->fd_maj, PERF_EVENT_IOC_ID, &ft->id_maj) < 0)
		return ft_fail(ft, errno);
	/* a power of two of data pages for every expected record, within the locked-memory allowance:
	 * halved while the kernel refuses; what does not fit is drained while the child runs */
	long pg = sysconf(_SC_PAGESIZE);
	size_t want = (expect + 256) * FT_SAMPLE_BYTES, pages = FT_MIN_DATA_PAGES;
	while (pages < FT_MAX_DATA_PAGES && pages * (size_t)pg < want)
		pages *= 2;
	for (;;) {
		ft->ring_len = (pages + 1) * (size_t)pg;
		ft->ring = mmap(NULL, ft->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, ft->fd_min, 0);
		if (ft->ring != MAP_FAILED)
			break;
		ft->ring = NULL;
		if (pages <= FT_MIN_DATA_PAGES || (errno != EPERM && errno != ENOMEM))
			return ft_fail(ft, errno);
		pages /= 2;
	}
	if (ioctl(ft->fd_maj, PERF_EVENT_IOC_SET_OUTPUT, ft->fd_min) < 0)
		return ft_fail(ft, errno);
	ft->ok = true;
	return true;
#else
	(void)pid;
	(void)expect;
	ft_why(ft, ENOSYS);
	return false;
#endif
}

#ifdef HAVE_LINUX_PERF_EVENT_H
/* Room for one more in *p; false (the record is counted lost) when memory runs out. */
static bool ft_grow(void **p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return true;
	size_t c = *cap ? *cap * 2 : 256;
	void *q = realloc(*p, c * size);
	if (!q)
		return false;
	*p = q;
	*cap = c;
	return true;
}

static uint64_t u64_at(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

/* One record, whole (copied out of the ring when it wraps). */
static void ft_record(struct wtg_ftrace *ft, const unsigned char *r, size_t size)
{
	uint32_t type = u32_at(r);
	if (type == PERF_RECORD_SAMPLE && size >= FT_SAMPLE_BYTES) {
		uint64_t id = u64_at(r + 8);
		if (id != ft->id_min && id != ft->id_maj)
			return;
		if (!ft_grow((void **)&ft->faults, &ft->capfaults, ft->nfaults, sizeof *ft->faults)) {
			ft->lost++;
			return;
		}
		struct wtg_ftrace_fault *f = &ft->faults[ft->nfaults++];
		f->ip = u64_at(r + 16);
		f->time = u64_at(r + 32);
		f->addr = u64_at(r + 40);
		f->major = id == ft->id_maj;
	} else if (type == PERF_RECORD_MMAP2 && size > 72 + 24) {
		if (!ft_grow((void **)&ft->maps, &ft->capmaps, ft->nmaps, sizeof *ft->maps)) {
			ft->lost++;
			return;
		}
		struct wtg_ftrace_map *m = &ft->maps[ft->nmaps++];
		memset(m, 0, sizeof *m);
		m->start = u64_at(r + 16);
		m->end = m->start + u64_at(r + 24);
		m->pgoff = u64_at(r + 32);
		m->dev_major = u32_at(r + 40);
		m->dev_minor = u32_at(r + 44);
		m->ino = u64_at(r + 48);
		m->prot = u32_at(r + 64);
		/* the name runs from 72 to the sample_id's pid/tid, time and id (24 bytes) */
		size_t room = size - 24 - 72;
		size_t n = strnlen((const char *)r + 72, room);
		if (n >= sizeof m->name)
			n = sizeof m->name - 1;
		memcpy(m->name, r + 72, n);
		m->name[n] = '\0';
		m->time = u64_at(r + size - 16);
	} else if (type == PERF_RECORD_LOST && size >= 24) {
		ft->lost += (int64_t)u64_at(r + 16);
	} else if (type == PERF_RECORD_THROTTLE) {
		ft->throttled++;
	}
}
#endif

void wtg_ftrace_drain(struct wtg_ftrace *ft, int ms)
{
#ifdef HAVE_LINUX_PERF_EVENT_H
	if (!ft->ok || !ft->ring)
		return;
	if (ms > 0) {
		struct pollfd p = { .fd = ft->fd_min, .events = POLLIN };
		(void)poll(&p, 1, ms);
	}
	struct perf_event_mmap_page *mp = ft->ring;
	/* kernels before 4.1 leave data_offset and data_size 0: the data then follows the first page */
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	const unsigned char *data = (const unsigned char *)ft->ring + (mp->data_offset ? mp->data_offset : pg);
	uint64_t size = mp->data_size ? mp->data_size : ft->ring_len - pg;
	uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = mp->data_tail;
	unsigned char rec[8192];	/* a map record's name is a path: PATH_MAX and the fields fit */
	while (tail + 8 <= head) {
		unsigned char hdr[8];
		for (int i = 0; i < 8; i++)
			hdr[i] = data[(tail + (uint64_t)i) % size];
		uint16_t len;
		memcpy(&len, hdr + 6, sizeof len);
		if (len < 8 || tail + len > head)
			break;
		if (len <= sizeof rec) {
			for (uint16_t i = 0; i < len; i++)
				rec[i] = data[(tail + i) % size];
			ft_record(ft, rec, len);
		} else {
			ft->lost++;	/* no record of ours is that long */
		}
		tail += len;
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
#else
	(void)ft;
	(void)ms;
#endif
}

void wtg_ftrace_finish(struct wtg_ftrace *ft)
{
	if (!ft->ok)
		return;
	wtg_ftrace_drain(ft, 0);
	const int fds[2] = { ft->fd_min, ft->fd_maj };
	int64_t *counts[2] = { &ft->count_min, &ft->count_maj };
	for (int i = 0; i < 2; i++) {
		uint64_t v;
		*counts[i] = read(fds[i], &v, sizeof v) == (ssize_t)sizeof v ? (int64_t)v : -1;
	}
	if (ft->ring)
		munmap(ft->ring, ft->ring_len);
	ft->ring = NULL;
	close(ft->fd_maj);
	close(ft->fd_min);
	ft->fd_min = ft->fd_maj = -1;
}

void wtg_ftrace_free(struct wtg_ftrace *ft)
{
	if (ft->ring)
		munmap(ft->ring, ft->ring_len);
	if (ft->fd_min >= 0)
		close(ft->fd_min);
	if (ft->fd_maj >= 0)
		close(ft->fd_maj);
	free(ft->faults);
	free(ft->maps);
	memset(ft, 0, sizeof *ft);
	ft->fd_min = ft->fd_maj = -1;
}

const struct wtg_ftrace_map *wtg_ftrace_find(const struct wtg_ftrace *ft, uint64_t addr, uint64_t time)
{
	/* the latest record covering addr: a later mapping over the same addresses replaced it */
	for (size_t i = ft->nmaps; i-- > 0;) {
		const struct wtg_ftrace_map *m = &ft->maps[i];
		if (addr >= m->start && addr < m->end && m->time <= time)
			return m;
	}
	return NULL;
}

static bool ft_anon(const struct wtg_ftrace_map *m)
{
	if (m->name[0] == '[')
		return false;
	return m->ino == 0 || strcmp(m->name, "//anon") == 0 || strncmp(m->name, "/dev/zero", 9) == 0;
}

static bool ft_is(const struct wtg_ftrace_map *m, uint64_t maj, uint64_t min, uint64_t ino)
{
	return ino != 0 && m->ino == ino && m->dev_major == maj && m->dev_minor == min;
}

const char *wtg_ftrace_bucket(const struct wtg_ftrace *ft, const struct wtg_ftrace_names *nm,
			      const struct wtg_ftrace_fault *f, char *buf, size_t len, uint64_t *off)
{
	*off = 0;
	const struct wtg_ftrace_map *m = wtg_ftrace_find(ft, f->addr, f->time);
	if (!m) {
		/* the stack's mapping predates the exec's records: it lies above every mapping made */
		uint64_t top = 0;
		for (size_t i = 0; i < ft->nmaps; i++)
			top = ft->maps[i].end > top ? ft->maps[i].end : top;
		return f->addr >= top && top ? "stack" : "unmapped";
	}
	if (strcmp(m->name, "[heap]") == 0)
		return "heap";
	if (strncmp(m->name, "[stack", 6) == 0)
		return "stack";
	if (strcmp(m->name, "[vdso]") == 0)
		return "vDSO";
	if (strcmp(m->name, "[vvar]") == 0 || strcmp(m->name, "[vvar_vclock]") == 0)
		return "vvar";
	if (ft_anon(m)) {
		/* an object's .bss is the anonymous mapping right after its data; the heap (brk) an
		 * anonymous mapping above the program, less than FT_BRK_RANGE beyond its end */
		uint64_t exe_end = 0;
		for (size_t i = 0; i < ft->nmaps; i++) {
			const struct wtg_ftrace_map *o = &ft->maps[i];
			bool exe = ft_is(o, nm->exe_major, nm->exe_minor, nm->exe_ino);
			if (exe && o->end > exe_end)
				exe_end = o->end;
			/* a data segment (writable) mapped before it, not a file that happened to land below */
			if (o->end != m->start || !o->ino || o->name[0] != '/' || !(o->prot & PROT_WRITE) ||
			    o->time > m->time)
				continue;
			if (exe)
				return "wtg data";
			const char *base = strrchr(o->name, '/');
			wtg_strlcpy(buf, base + 1, len);
			return buf;
		}
		if (exe_end && m->start >= exe_end && m->start - exe_end < FT_BRK_RANGE)
			return "heap";
		return "anonymous";
	}
	*off = m->pgoff + ((f->addr - m->start) & ~((uint64_t)sysconf(_SC_PAGESIZE) - 1));
	if (ft_is(m, nm->exe_major, nm->exe_minor, nm->exe_ino))
		return m->prot & PROT_EXEC ? "wtg text" : "wtg data";
	if (ft_is(m, nm->data_major, nm->data_minor, nm->data_ino))
		return "data file";
	if (strstr(m->name, "/locale/") || strstr(m->name, "/gconv/"))
		return "locale data";	/* setlocale's files, one mapping per category */
	const char *base = strrchr(m->name, '/');
	wtg_strlcpy(buf, base ? base + 1 : m->name, len);
	return buf;
}

bool wtg_ftrace_file_id(const char *path, uint64_t *maj, uint64_t *min, uint64_t *ino)
{
	struct stat st;
	if (!path || stat(path, &st) < 0)
		return false;
	*maj = major(st.st_dev);
	*min = minor(st.st_dev);
	*ino = st.st_ino;
	return true;
}
