/* pages.h: pages and mappings (mmap, pagecache, faultbase, zerofill, uncached). */
#ifndef WTG_EXPERIMENTS_PAGES_H
#define WTG_EXPERIMENTS_PAGES_H

#include <stdint.h>

#include "wtg/ctx.h"

/* The base page size (sysconf), 4096 when it cannot be read. */
long wtg_page_size(void);

/* How many pages of `page` bytes cover `bytes` (the last one may be partial). */
int64_t wtg_pages_of(uint64_t bytes, long page);

/* Sum a mapping of the data file, size bytes, in 4 MiB pieces under the SIGBUS guard, checking cancel
 * after each piece. Returns 0 with *sum set, 1 when cancelled, or -1 after wtg_table_fail() when the
 * file shrank under the mapping (WTG_GUARD_SHRANK). */
int wtg_sum_mapped(struct wtg_ctx *ctx, const unsigned char *p, uint64_t size, int64_t *sum);

/* Test hook (wtg/testhooks.h): with WTG_TEST_SHRINK=NAME, the first time experiment NAME (the table
 * ctx fills) is about to read a mapping of a data file wtg created, that file is truncated to half its
 * size, as another program might; a --file is never touched. Called after mapping, before reading. */
void wtg_test_shrink(struct wtg_ctx *ctx);



/* Map the first `bytes` of the data file read-only and prefault it (MAP_POPULATE, then one guarded read
 * per page), so nothing timed afterwards takes a fault. NULL after wtg_table_fail(); munmap when done.
 * Read it under the SIGBUS guard (wtg_crew_sum, wtg_guard_call): the file may shrink meanwhile. */
unsigned char *wtg_map_prefaulted(struct wtg_ctx *ctx, uint64_t bytes);

/* While other experiments of an interleaved run measure: a prefaulted mapping lets its pages go
 * (MADV_DONTNEED; a mapped page is one posix_fadvise cannot evict, so pagecache's and uncached's cold
 * passes would not be cold), then faults them all back (guarded; WTG_ERR after wtg_table_fail()). */
void wtg_map_release(unsigned char *m, uint64_t bytes);
int wtg_map_refault(struct wtg_ctx *ctx, unsigned char *m, uint64_t bytes);

#endif
