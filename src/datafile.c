/* datafile.c: the data file the I/O experiments read, and its known sum. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "wtg/datafile.h"
#include "wtg/kernels.h"
#include "wtg/stats.h"
#include "wtg/util.h"

#define BLOCK (1u << 20)	/* generation and scanning block, a multiple of WTG_CHUNK */

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

static int alloc_sums(struct wtg_datafile *df, char *err, size_t errlen)
{
	df->nchunks = (df->size + WTG_CHUNK - 1) / WTG_CHUNK;
	df->chunk_sums = calloc(df->nchunks ? df->nchunks : 1, sizeof *df->chunk_sums);
	if (!df->chunk_sums) {
		snprintf(err, errlen, "out of memory for %" PRIu64 " chunk sums", df->nchunks);
		return -1;
	}
	return 0;
}

/* Sum a block that starts at a chunk boundary into the chunk table. */
static void account_block(struct wtg_datafile *df, uint64_t off, const unsigned char *buf, size_t n)
{
	for (size_t o = 0; o < n; o += WTG_CHUNK) {
		size_t len = n - o < WTG_CHUNK ? n - o : WTG_CHUNK;
		int64_t s = wtg_sum_bytes(buf + o, len);
		df->chunk_sums[(off + o) / WTG_CHUNK] = s;
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

int wtg_datafile_create(struct wtg_datafile *df, const char *dir, uint64_t size, uint64_t seed,
			char *err, size_t errlen)
{
	struct statvfs vf;
	if (statvfs(dir, &vf) == 0) {
		uint64_t avail = (uint64_t)vf.f_bavail * vf.f_frsize;
		if (avail < size + (64u << 20)) {
			char need[32], have[32];
			wtg_fmt_size(need, sizeof need, size);
			wtg_fmt_size(have, sizeof have, avail);
			snprintf(err, errlen, "not enough space in '%s' for a %s data file (%s free)", dir, need,
				 have);
			return -1;
		}
	}
	int n = snprintf(df->path, sizeof df->path, "%s%swtg-XXXXXX.dat", dir,
			 dir[strlen(dir) - 1] == '/' ? "" : "/");
	if (n < 0 || (size_t)n >= sizeof df->path) {
		snprintf(err, errlen, "folder name too long: '%s'", dir);
		return -1;
	}
	/* block signals while the path is registered so a handler sees it whole */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int fd = mkostemps(df->path, 4, O_CLOEXEC);
	if (fd >= 0) {
		memcpy(emergency_path, df->path, sizeof emergency_path);
		emergency_armed = 1;
		df->owned = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create a data file in '%s': %s", dir, strerror(errno));
		df->path[0] = '\0';
		return -1;
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
	wtg_rng_seed(&rng, seed ^ 0x5757475f44415441ull);	/* "WTG_DATA" */
	for (uint64_t off = 0; off < size; off += BLOCK) {
		if (atomic_load(&df->abort)) {
			snprintf(err, errlen, "data file creation stopped");
			free(buf);
			goto fail;
		}
		size_t len = size - off < BLOCK ? (size_t)(size - off) : BLOCK;
		for (size_t i = 0; i < len; i += 8) {
			uint64_t r = wtg_rng_next(&rng);
			memcpy(buf + i, &r, len - i < 8 ? len - i : 8);
		}
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
	close(fd);
	fill_fs(df);
	probe_direct(df);
	atomic_store(&df->ready, true);
	return 0;
fail:
	close(fd);
	wtg_datafile_remove(df);
	free(df->chunk_sums);
	df->chunk_sums = NULL;
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
		free(df->chunk_sums);
		df->chunk_sums = NULL;
		return -1;
	}
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
		free(df->chunk_sums);
		df->chunk_sums = NULL;
		return -1;
	}
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
	if (bytes % WTG_CHUNK)
		return -1;
	int64_t s = 0;
	for (uint64_t i = 0; i < bytes / WTG_CHUNK; i++)
		s += df->chunk_sums[i];
	return s;
}

int wtg_datafile_evict(const struct wtg_datafile *df)
{
	int fd = open(df->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return rc == 0 ? 0 : -1;
}

int64_t wtg_datafile_resident_pages(const struct wtg_datafile *df)
{
	int fd = open(df->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	void *p = mmap(NULL, df->size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = (size_t)((df->size + (uint64_t)page - 1) / (uint64_t)page);
	unsigned char *vec = malloc(pages);
	int64_t n = -1;
	if (vec && mincore(p, df->size, vec) == 0) {
		n = 0;
		for (size_t i = 0; i < pages; i++)
			n += vec[i] & 1;
	}
	free(vec);
	munmap(p, df->size);
	return n;
}

void wtg_datafile_remove(struct wtg_datafile *df)
{
	if (df->owned && df->path[0]) {
		unlink(df->path);
		df->owned = false;
		emergency_armed = 0;
	}
}

void wtg_datafile_free(struct wtg_datafile *df)
{
	free(df->chunk_sums);
	df->chunk_sums = NULL;
}
