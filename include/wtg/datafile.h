/* datafile.h: the file the I/O experiments read, with its known sum. */
#ifndef WTG_DATAFILE_H
#define WTG_DATAFILE_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define WTG_CHUNK (64u * 1024u)	/* unit of the chunk sums */
#define WTG_SUM_PAGE 4096u	/* granularity of the known prefix sums (page sums) */

/* NONE: no experiment that reads the data file has been asked for yet, so there is none */
enum wtg_df_state { WTG_DF_NONE = 0, WTG_DF_PREPARING, WTG_DF_READY, WTG_DF_FAILED };

struct wtg_datafile {
	char path[PATH_MAX];
	bool owned;		/* created by wtg: removed on every exit; never true for --file */
	int lock_fd;		/* > 0: the created file, open and flock()ed while wtg lives */
	uint64_t size;
	int64_t sum;		/* known sum of every byte */
	int64_t *chunk_sums;	/* sum of each WTG_CHUNK-sized chunk (last may be short) */
	uint64_t nchunks;
	int32_t *page_sums;	/* sum of each WTG_SUM_PAGE-sized page (last may be short) */
	char fs[32];		/* filesystem type name: ext4, tmpfs, ... */
	bool direct_ok;		/* O_DIRECT open + aligned read worked */
	unsigned dio_mem_align;	/* statx STATX_DIOALIGN, 512 when unknown */
	unsigned dio_offset_align;
	atomic_uint_fast64_t done;	/* bytes generated or scanned so far (progress) */
	atomic_bool ready;
	atomic_bool abort;	/* set by another thread: creation or scanning stops, returns -1 */
};

/* Create a file wtg-XXXXXX.dat of `size` bytes of seeded pseudo-random content in dir (mkstemp,
 * O_EXCL), its first 32 bytes the mark the sweep checks ("wtg data file 1", the seed, the size),
 * hold an flock on it until wtg_datafile_remove, record its sums while writing, fsync it.
 * origin names where dir came from in messages ("--dir", "TMPDIR", ...). On failure returns -1 with
 * a message in err and leaves nothing. */
int wtg_datafile_create(struct wtg_datafile *df, const char *dir, const char *origin, uint64_t size,
			uint64_t seed, char *err, size_t errlen);
/* Remove from dir the data files that wtg processes now gone left behind (killed, or a power cut):
 * files named wtg-XXXXXX.dat, regular, owned by this user, with one link, whose flock can be taken
 * (a --file in use holds a shared one), and that bear the mark wtg_datafile_create writes first (a
 * header and the seeded bytes after it, generated again to compare). One "wtg: removed ..." line on
 * stderr for each, and one "wtg: left alone in DIR: ..." naming this user's files of that name shape
 * without the proof. Returns how many were removed. */
int wtg_datafile_sweep(const char *dir);
/* The name of the pseudo filesystem (proc, sysfs, ...) dir is on, which cannot hold a data file; or
 * NULL for a real one. */
const char *wtg_datafile_pseudo_fs(const char *dir);
/* Use an existing file read-only; its sums are computed by reading it once. A shared flock is held
 * on it until wtg_datafile_remove, so that no sweep takes it for a dead run's file. */
int wtg_datafile_use(struct wtg_datafile *df, const char *path, char *err, size_t errlen);
/* Known sum of the first `bytes` bytes: bytes must be a multiple of WTG_SUM_PAGE or the size. -1
 * otherwise. */
int64_t wtg_datafile_prefix_sum(const struct wtg_datafile *df, uint64_t bytes);
/* Drop the file's pages from the page cache (asking again while some stay). Returns 0 or -1. */
int wtg_datafile_evict(const struct wtg_datafile *df);
/* The data file lives in memory (tmpfs or ramfs): no storage device behind its page cache. */
bool wtg_datafile_in_memory(const struct wtg_datafile *df);
/* Pages of the file resident in the page cache (cachestat(2), else mincore on a mapping), or -1. */
int64_t wtg_datafile_resident_pages(const struct wtg_datafile *df);
/* The same over the pages that hold bytes [off, off + len) of the file (cut at its end), or -1. */
int64_t wtg_datafile_resident_range(const struct wtg_datafile *df, uint64_t off, uint64_t len);
/* For signal and crash handlers: unlink the file being or having been created, if any.
 * Async-signal-safe; datafile_create registers the path right after mkstemp. */
void wtg_datafile_emergency_remove(void);
/* Remove the file if wtg created it. */
void wtg_datafile_remove(struct wtg_datafile *df);
void wtg_datafile_free(struct wtg_datafile *df);

#endif
