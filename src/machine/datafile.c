/* datafile.c: the data file the I/O experiments read, and its known sum. A file wtg creates is
 * flock()ed for as long as its wtg lives, so that a later wtg can tell a file left behind by a killed
 * one (its lock is free) from a live one, and marked from its first write, so that the later wtg
 * removes only what it can prove a wtg made. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "wtg/datafile.h"
#include "wtg/kernels.h"
#include "wtg/stats.h"
#include "wtg/util.h"

/* Generation and scanning block, a multiple of WTG_CHUNK. It is the x86-64 huge page (2 MiB), and
 * the file is written in whole blocks at multiples of it: a filesystem with large folios (ext4 and
 * xfs on Linux 6.16 and later) then caches each block in one PMD-sized folio, which a mapping of the
 * file maps with one page-table entry. Written in 1 MiB blocks, the same file is cached in 1 MiB
 * folios mapped 4 KiB at a time, and a pass over its mapping (threads, pagecache) pays a TLB miss
 * every 4 KiB: under a hypervisor's nested paging a loop reading one byte per cache line of a
 * 256 MiB mapping ran at 5 GB per CPU-second over 1 MiB folios and 22 over 2 MiB ones. */
#define BLOCK (2u << 20)
#define NAME_PREFIX "wtg-"
#define NAME_SUFFIX ".dat"
#define NAME_RANDOM 6		/* mkstemp's XXXXXX */

/* The mark of a data file wtg made, its first MARK_LEN bytes: MARK_MAGIC, the seed and the size
 * (little endian). The bytes after it are the seeded stream wtg writes, so the sweep proves that
 * wtg made a file by generating the next MARK_PROOF bytes again: a user's file of that name does
 * not match by accident, and nothing else (an attribute, a file beside it) has to survive a copy. */
#define MARK_MAGIC "wtg data file 1\n"
#define MARK_LEN 32
#define MARK_PROOF 4096
#define DATA_SEED(seed) ((seed) ^ 0x5757475f44415441ull)	/* "WTG_DATA" */

static void put_le64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* The next len bytes of the seeded stream. */
static void fill_stream(struct wtg_rng *rng, unsigned char *buf, size_t len)
{
	for (size_t i = 0; i < len; i += 8) {
		uint64_t r = wtg_rng_next(rng);
		memcpy(buf + i, &r, len - i < 8 ? len - i : 8);
	}
}

/* The file's first bytes as its first block will hold them, written as soon as it is made: a run
 * killed while creating the rest leaves a file the sweep can still prove to be wtg's. */
static int write_head(int fd, uint64_t seed, uint64_t size);

/* The mark over the start of the file's first block (as much of it as fits). */
static void put_mark(unsigned char *buf, size_t len, uint64_t seed, uint64_t size)
{
	unsigned char mark[MARK_LEN];
	memcpy(mark, MARK_MAGIC, 16);
	put_le64(mark + 16, seed);
	put_le64(mark + 24, size);
	memcpy(buf, mark, len < MARK_LEN ? len : MARK_LEN);
}

static int write_head(int fd, uint64_t seed, uint64_t size)
{
	unsigned char head[MARK_LEN + MARK_PROOF];
	size_t n = size < sizeof head ? (size_t)size : sizeof head;
	struct wtg_rng rng;
	wtg_rng_seed(&rng, DATA_SEED(seed));
	fill_stream(&rng, head, n);
	put_mark(head, n, seed, size);
	return pwrite(fd, head, n, 0) == (ssize_t)n ? 0 : -1;
}

/* Whether the open file fd of size bytes bears the mark and the stream that follows it. */
static bool marked(int fd, uint64_t size)
{
	unsigned char head[MARK_LEN + MARK_PROOF], want[MARK_LEN + MARK_PROOF];
	size_t n = size < sizeof head ? (size_t)size : sizeof head;
	if (n < MARK_LEN + 8 || pread(fd, head, n, 0) != (ssize_t)n || memcmp(head, MARK_MAGIC, 16) != 0 ||
	    get_le64(head + 24) < size)	/* a run killed while creating it left it shorter */
		return false;
	struct wtg_rng rng;
	wtg_rng_seed(&rng, DATA_SEED(get_le64(head + 16)));
	fill_stream(&rng, want, n);
	return memcmp(head + MARK_LEN, want + MARK_LEN, n - MARK_LEN) == 0;
}

/* The path of the file being created, for signal and crash handlers. */
static char emergency_path[PATH_MAX];
static volatile sig_atomic_t emergency_armed;

void wtg_datafile_emergency_remove(void)
{
	if (emergency_armed) {
		emergency_armed = 0;
		unlink(emergency_path);
	}
}

static const char *fs_name(long type)
{
	switch ((unsigned long)type) {
	case 0xEF53: return "ext4";
	case 0x01021994: return "tmpfs";
	case 0x58465342: return "xfs";
	case 0x9123683E: return "btrfs";
	case 0x794c7630: return "overlayfs";
	case 0x6969: return "nfs";
	case 0x2fc12fc1: return "zfs";
	case 0xF2F52010: return "f2fs";
	case 0x858458f6: return "ramfs";
	case 0x65735546: return "fuse";
	case 0x4d44: return "vfat";
	case 0x5346544e: return "ntfs";
	default: return "unknown";
	}
}

const char *wtg_datafile_pseudo_fs(const char *dir)
{
	static const struct { unsigned long magic; const char *name; } pseudo[] = {
		{ 0x9fa0, "proc" }, { 0x62656572, "sysfs" }, { 0x27e0eb, "cgroup" },
		{ 0x63677270, "cgroup2" }, { 0x64626720, "debugfs" }, { 0x74726163, "tracefs" },
		{ 0x73636673, "securityfs" }, { 0x1cd1, "devpts" }, { 0x6165676c, "pstore" },
		{ 0xcafe4a11, "bpf" }, { 0x62656570, "configfs" }, { 0xde5e81e4, "efivarfs" },
		{ 0x65735543, "fusectl" }, { 0x19800202, "mqueue" }, { 0x42494e4d, "binfmt_misc" },
		{ 0xf97cff8c, "selinuxfs" }, { 0x6e736673, "nsfs" }, { 0x958458f6, "hugetlbfs" },
	};
	struct statfs sf;
	if (statfs(dir, &sf) < 0)
		return NULL;
	for (size_t i = 0; i < WTG_ARRAY_LEN(pseudo); i++)
		if ((unsigned long)sf.f_type == pseudo[i].magic)
			return pseudo[i].name;
	return NULL;
}

/* A name mkostemps gives wtg's own data files: wtg-XXXXXX.dat */
static bool is_datafile_name(const char *name)
{
	size_t lp = strlen(NAME_PREFIX), ls = strlen(NAME_SUFFIX);
	if (strlen(name) != lp + NAME_RANDOM + ls || strncmp(name, NAME_PREFIX, lp) != 0 ||
	    strcmp(name + lp + NAME_RANDOM, NAME_SUFFIX) != 0)
		return false;
	for (size_t i = lp; i < lp + NAME_RANDOM; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
		      (name[i] >= '0' && name[i] <= '9')))
			return false;
	return true;
}

/* What the sweep did with a file named like a data file. */
enum swept { SWEPT_REMOVED, SWEPT_LIVE, SWEPT_OTHERS, SWEPT_LEFT };

/* Remove dir/name if it is a data file a wtg that no longer runs made: ours, a plain file with one
 * name, its lock free (a live wtg holds its own, and a --file in use its shared one) and its mark
 * proven. *size: its size when removed. */
static enum swept sweep_one(int dfd, const char *name, int64_t *size)
{
	struct stat st, now;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_uid != geteuid())
		return SWEPT_OTHERS;	/* gone meanwhile, or another user's: not ours to judge */
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return SWEPT_LEFT;	/* a link, or unreadable */
	enum swept r = SWEPT_LEFT;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1) {
		if (flock(fd, LOCK_EX | LOCK_NB) != 0)
			r = errno == EWOULDBLOCK ? SWEPT_LIVE : SWEPT_LEFT;
		else if (marked(fd, (uint64_t)st.st_size) && fstatat(dfd, name, &now, AT_SYMLINK_NOFOLLOW) == 0 &&
			 now.st_dev == st.st_dev && now.st_ino == st.st_ino && unlinkat(dfd, name, 0) == 0)
			r = SWEPT_REMOVED;
	}
	*size = (int64_t)st.st_size;
	close(fd);
	return r;
}

int wtg_datafile_sweep(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	char left[1024] = "";
	size_t at = 0;
	const char *sep = dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/";
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (!is_datafile_name(de->d_name))
			continue;
		int64_t size = 0;
		enum swept r = sweep_one(dirfd(d), de->d_name, &size);
		if (r == SWEPT_LEFT && at < sizeof left) {
			at += (size_t)snprintf(left + at, sizeof left - at, "%s%s", at ? ", " : "", de->d_name);
			continue;
		}
		if (r != SWEPT_REMOVED)
			continue;
		char sz[32];
		wtg_fmt_size(sz, sizeof sz, (uint64_t)size);
		wtg_error("removed %s%s%s (%s), the data file of a wtg that is no longer running", dir, sep, de->d_name,
			  sz);
		n++;
	}
	closedir(d);
	if (left[0])
		wtg_error("left alone in %s: %s (named like wtg's data files, but not ones wtg made)", dir, left);
	return n;
}

static void free_sums(struct wtg_datafile *df)
{
	free(df->chunk_sums);
	df->chunk_sums = NULL;
	free(df->page_sums);
	df->page_sums = NULL;
}

static int alloc_sums(struct wtg_datafile *df, char *err, size_t errlen)
{
	df->nchunks = (df->size + WTG_CHUNK - 1) / WTG_CHUNK;
	uint64_t npages = (df->size + WTG_SUM_PAGE - 1) / WTG_SUM_PAGE;
	df->chunk_sums = calloc(df->nchunks ? df->nchunks : 1, sizeof *df->chunk_sums);
	df->page_sums = calloc(npages ? npages : 1, sizeof *df->page_sums);
	if (!df->chunk_sums || !df->page_sums) {
		snprintf(err, errlen, "out of memory for %" PRIu64 " page sums", npages);
		free_sums(df);
		return -1;
	}
	return 0;
}

/* Sum a block that starts at a chunk boundary into the page and chunk tables. */
static void account_block(struct wtg_datafile *df, uint64_t off, const unsigned char *buf, size_t n)
{
	for (size_t o = 0; o < n; o += WTG_SUM_PAGE) {
		size_t len = n - o < WTG_SUM_PAGE ? n - o : WTG_SUM_PAGE;
		int64_t s = wtg_sum_bytes(buf + o, len);
		df->page_sums[(off + o) / WTG_SUM_PAGE] = (int32_t)s;
		df->chunk_sums[(off + o) / WTG_CHUNK] += s;
		df->sum += s;
	}
}

/* Whether O_DIRECT reads work on this file, and with which alignment. */
static void probe_direct(struct wtg_datafile *df)
{
	df->dio_mem_align = 512;
	df->dio_offset_align = 512;
#if defined(HAVE_STATX) && defined(STATX_DIOALIGN)
	struct statx stx;
	if (statx(AT_FDCWD, df->path, 0, STATX_DIOALIGN, &stx) == 0 && (stx.stx_mask & STATX_DIOALIGN)) {
		if (stx.stx_dio_mem_align == 0 || stx.stx_dio_offset_align == 0) {
			df->direct_ok = false;	/* the filesystem says: no direct I/O here */
			return;
		}
		df->dio_mem_align = stx.stx_dio_mem_align;
		df->dio_offset_align = stx.stx_dio_offset_align;
	}
#endif
	unsigned align = df->dio_mem_align > df->dio_offset_align ? df->dio_mem_align : df->dio_offset_align;
	if (align < 4096)
		align = 4096;
	int fd = open(df->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		df->direct_ok = false;
		return;
	}
	void *buf = NULL;
	if (posix_memalign(&buf, align, align) == 0) {
		ssize_t r = pread(fd, buf, align, 0);
		df->direct_ok = r == (ssize_t)align || (r > 0 && (uint64_t)r == df->size);
		free(buf);
	}
	close(fd);
}

static void fill_fs(struct wtg_datafile *df)
{
	struct statfs sf;
	wtg_strlcpy(df->fs, statfs(df->path, &sf) == 0 ? fs_name((long)sf.f_type) : "unknown", sizeof df->fs);
}

/* The folder can take a file of size bytes (with 64 MiB to spare). 0, or -1 with a message. */
static int check_room(const char *dir, const char *origin, uint64_t size, char *err, size_t errlen)
{
	const char *pseudo = wtg_datafile_pseudo_fs(dir);
	if (pseudo) {
		snprintf(err, errlen, "%s '%s' is on %s, which cannot hold a data file", origin, dir, pseudo);
		return -1;
	}
	struct statvfs vf;
	/* f_blocks 0: the filesystem does not say (an unlimited tmpfs); creation finds out */
	if (statvfs(dir, &vf) == 0 && vf.f_blocks > 0) {
		uint64_t avail = (uint64_t)vf.f_bavail * vf.f_frsize;
		if (avail < size + (64u << 20)) {
			char need[32], have[32];
			wtg_fmt_size(need, sizeof need, size);
			wtg_fmt_size(have, sizeof have, avail);
			snprintf(err, errlen, "not enough space in %s '%s' for a %s data file (%s free)", origin,
				 dir, need, have);
			return -1;
		}
	}
	return 0;
}

/* mkostemps a new wtg-XXXXXX.dat in dir and flock it. A sweeping wtg may lock the name between the
 * two (it then removes it): take another name. Returns the fd (kept open: the lock lives with it). */
static int open_locked(struct wtg_datafile *df, const char *dir, const char *origin, char *err,
		       size_t errlen)
{
	for (int tries = 0; tries < 16; tries++) {
		int n = snprintf(df->path, sizeof df->path, "%s%s" NAME_PREFIX "XXXXXX" NAME_SUFFIX, dir,
				 dir[strlen(dir) - 1] == '/' ? "" : "/");
		if (n < 0 || (size_t)n >= sizeof df->path) {
			snprintf(err, errlen, "%s '%s': the folder name is too long", origin, dir);
			break;
		}
		/* block signals while the path is registered so a handler sees it whole */
		sigset_t all, old;
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		int fd = mkostemps(df->path, (int)strlen(NAME_SUFFIX), O_CLOEXEC);
		if (fd >= 0) {
			memcpy(emergency_path, df->path, sizeof emergency_path);
			emergency_armed = 1;
			df->owned = true;
		}
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (fd < 0) {
			snprintf(err, errlen, "cannot create a data file in %s '%s': %s", origin, dir,
				 strerror(errno));
			break;
		}
		/* a filesystem without flock: the file works, but a later wtg cannot tell it is alive and
		 * leaves it alone (its own flock fails the same way) */
		if (flock(fd, LOCK_EX | LOCK_NB) == 0 || errno != EWOULDBLOCK)
			return fd;
		emergency_armed = 0;	/* the sweeper that holds the lock removes the name */
		df->owned = false;
		close(fd);
	}
	if (!err[0])
		snprintf(err, errlen, "cannot lock a new data file in %s '%s'", origin, dir);
	df->path[0] = '\0';
	return -1;
}

int wtg_datafile_create(struct wtg_datafile *df, const char *dir, const char *origin, uint64_t size,
			uint64_t seed, char *err, size_t errlen)
{
	err[0] = '\0';
	if (check_room(dir, origin, size, err, errlen) < 0)
		return -1;
	int fd = open_locked(df, dir, origin, err, errlen);
	if (fd < 0)
		return -1;
	if (write_head(fd, seed, size) < 0) {
		snprintf(err, errlen, "writing the data file '%s': %s", df->path, strerror(errno));
		goto fail;
	}
	df->size = size;
	df->sum = 0;
	if (alloc_sums(df, err, errlen) < 0)
		goto fail;
	unsigned char *buf = malloc(BLOCK);
	if (!buf) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	struct wtg_rng rng;
	wtg_rng_seed(&rng, DATA_SEED(seed));
	for (uint64_t off = 0; off < size; off += BLOCK) {
		if (atomic_load(&df->abort)) {
			snprintf(err, errlen, "data file creation stopped");
			free(buf);
			goto fail;
		}
		size_t len = size - off < BLOCK ? (size_t)(size - off) : BLOCK;
		fill_stream(&rng, buf, len);
		if (off == 0)
			put_mark(buf, len, seed, size);	/* the sweep's proof that wtg made it */
		account_block(df, off, buf, len);
		size_t done = 0;
		while (done < len) {
			ssize_t w = pwrite(fd, buf + done, len - done, (off_t)(off + done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				snprintf(err, errlen, "writing the data file '%s': %s", df->path,
					 w < 0 ? strerror(errno) : "short write");
				free(buf);
				goto fail;
			}
			done += (size_t)w;
		}
		atomic_store(&df->done, off + len);
	}
	free(buf);
	/* dirty pages cannot be evicted: write them back so "cold" really means cold */
	if (fsync(fd) < 0) {
		snprintf(err, errlen, "fsync of the data file '%s': %s", df->path, strerror(errno));
		goto fail;
	}
	df->lock_fd = fd;	/* open, and so locked, until wtg_datafile_remove */
	fill_fs(df);
	probe_direct(df);
	atomic_store(&df->ready, true);
	return 0;
fail:
	wtg_datafile_remove(df);	/* unlinked before the lock goes: no one sees it unlocked */
	close(fd);
	free_sums(df);
	return -1;
}

int wtg_datafile_use(struct wtg_datafile *df, const char *path, char *err, size_t errlen)
{
	df->owned = false;
	wtg_strlcpy(df->path, path, sizeof df->path);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		snprintf(err, errlen, "'%s' is not a non-empty regular file", path);
		close(fd);
		return -1;
	}
	df->size = (uint64_t)st.st_size;
	df->sum = 0;
	if (alloc_sums(df, err, errlen) < 0) {
		close(fd);
		return -1;
	}
	unsigned char *buf = malloc(BLOCK);
	if (!buf) {
		snprintf(err, errlen, "out of memory");
		close(fd);
		free_sums(df);
		return -1;
	}
	/* a shared lock while it is used: another wtg's sweep, should its name look like a data file's,
	 * takes it for a live one (a filesystem without flock: the mark alone decides) */
	int lock_fd = flock(fd, LOCK_SH | LOCK_NB) == 0 ? dup(fd) : -1;
	int rc = 0;
	for (uint64_t off = 0; off < df->size;) {
		if (atomic_load(&df->abort)) {
			snprintf(err, errlen, "reading '%s' stopped", path);
			rc = -1;
			break;
		}
		size_t want = df->size - off < BLOCK ? (size_t)(df->size - off) : BLOCK;
		size_t got = 0;
		while (got < want) {
			ssize_t r = pread(fd, buf + got, want - got, (off_t)(off + got));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				snprintf(err, errlen, "reading '%s': %s", path,
					 r < 0 ? strerror(errno) : "the file shrank while being read");
				rc = -1;
				break;
			}
			got += (size_t)r;
		}
		if (rc)
			break;
		account_block(df, off, buf, want);
		off += want;
		atomic_store(&df->done, off);
	}
	free(buf);
	close(fd);
	if (rc) {
		if (lock_fd >= 0)
			close(lock_fd);
		free_sums(df);
		return -1;
	}
	df->lock_fd = lock_fd > 0 ? lock_fd : 0;	/* held until wtg_datafile_remove */
	fill_fs(df);
	probe_direct(df);
	atomic_store(&df->ready, true);
	return 0;
}

int64_t wtg_datafile_prefix_sum(const struct wtg_datafile *df, uint64_t bytes)
{
	if (!df->chunk_sums || bytes > df->size)
		return -1;
	if (bytes == df->size)
		return df->sum;
	if (bytes % WTG_SUM_PAGE)
		return -1;
	int64_t s = 0;
	for (uint64_t i = 0; i < bytes / WTG_CHUNK; i++)
		s += df->chunk_sums[i];
	for (uint64_t i = bytes / WTG_CHUNK * (WTG_CHUNK / WTG_SUM_PAGE); i < bytes / WTG_SUM_PAGE; i++)
		s += df->page_sums[i];
	return s;
}

/* POSIX_FADV_DONTNEED skips pages it cannot take at that moment (locked for I/O, or isolated while
 * the kernel compacts memory for another process's huge pages): once here 1,318 of 16,384 pages
 * stayed after one call, and with 15 cold samples a row a CI run saw one sample keep a tenth. So
 * while pages stay, it asks again, up to EVICT_TRIES times, 2 ms apart at first and up to 10 ms
 * (about 0.15 s at most, outside any timing); on a filesystem in memory the pages are the file and
 * stay, so one call. */
#define EVICT_TRIES 20

bool wtg_datafile_in_memory(const struct wtg_datafile *df)
{
	return strcmp(df->fs, "tmpfs") == 0 || strcmp(df->fs, "ramfs") == 0;
}

int wtg_datafile_evict(const struct wtg_datafile *df)
{
	int fd = open(df->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = 0;
	for (int i = 0; i < EVICT_TRIES && rc == 0; i++) {
		if (i > 0)
			nanosleep(&(struct timespec){ .tv_nsec = (i < 5 ? 2 : 10) * 1000000L }, NULL);
		rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		if (wtg_datafile_in_memory(df) || wtg_datafile_resident_pages(df) <= 0)
			break;
	}
	close(fd);
	return rc == 0 ? 0 : -1;
}

/* cachestat(2) (Linux 6.5): the page cache's count for a range of a file, read from the file's own
 * cache tree. mincore(2) needs the file mapped, and mmap takes the process's memory-map lock for
 * writing: behind a measuring thread that holds it for reading while it fills a buffer and is then
 * starved (the background policy under burners), the dashboard froze in that mmap for half a minute,
 * and its watchdog with it. So cachestat where the kernel has it, mincore where it does not. Its
 * number (451) is the same on every architecture that has it; older headers lack it. */
#if !defined(__NR_cachestat) && (defined(__x86_64__) || defined(__aarch64__))
#define __NR_cachestat 451
#endif

#ifdef __NR_cachestat
struct cachestat_range_v1 {
	uint64_t off, len;
};
struct cachestat_v1 {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};
static atomic_int cachestat_state;	/* 0 untried, 1 works, -1 the kernel lacks it */

/* Pages of [off, off + len) in the page cache by cachestat, or -2 when the kernel lacks it. */
static int64_t resident_cachestat(int fd, uint64_t off, uint64_t len)
{
	if (atomic_load(&cachestat_state) < 0)
		return -2;
	struct cachestat_range_v1 r = { off, len };
	struct cachestat_v1 c;
	if (syscall(__NR_cachestat, fd, &r, &c, 0) == 0) {
		atomic_store(&cachestat_state, 1);
		return (int64_t)c.nr_cache;
	}
	if (errno == ENOSYS || errno == EOPNOTSUPP || errno == EINVAL)
		atomic_store(&cachestat_state, -1);
	return -2;
}
#endif

int64_t wtg_datafile_resident_range(const struct wtg_datafile *df, uint64_t off, uint64_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0 || off >= df->size)
		return off >= df->size ? 0 : -1;
	if (len > df->size - off)
		len = df->size - off;
	uint64_t from = off / (uint64_t)page * (uint64_t)page, to = off + len;
	int fd = open(df->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
#ifdef __NR_cachestat
	int64_t cs = resident_cachestat(fd, from, to - from);
	if (cs != -2) {
		close(fd);
		return cs;
	}
#endif
	void *p = mmap(NULL, to - from, PROT_READ, MAP_SHARED, fd, (off_t)from);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	size_t pages = (size_t)((to - from + (uint64_t)page - 1) / (uint64_t)page);
	unsigned char *vec = malloc(pages);
	int64_t n = -1;
	if (vec && mincore(p, to - from, vec) == 0) {
		n = 0;
		for (size_t i = 0; i < pages; i++)
			n += vec[i] & 1;
	}
	free(vec);
	munmap(p, to - from);
	return n;
}

int64_t wtg_datafile_resident_pages(const struct wtg_datafile *df)
{
	return wtg_datafile_resident_range(df, 0, df->size);
}

void wtg_datafile_remove(struct wtg_datafile *df)
{
	if (df->owned && df->path[0]) {
		unlink(df->path);
		df->owned = false;
		emergency_armed = 0;
	}
	if (df->lock_fd > 0) {
		close(df->lock_fd);	/* after the unlink: the name never exists unlocked */
		df->lock_fd = 0;
	}
}

void wtg_datafile_free(struct wtg_datafile *df)
{
	free_sums(df);
}
