/* pages.c: pages and mappings (mmap, pagecache, faultbase, zerofill, uncached). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pages.h"
#include "wtg/ctx.h"
#include "wtg/datafile.h"
#include "wtg/experiment.h"
#include "wtg/guard.h"
#include "wtg/table.h"
#include "wtg/testhooks.h"
#include "wtg/util.h"

long wtg_page_size(void)
{
	long page = sysconf(_SC_PAGESIZE);
	return page > 0 ? page : 4096;
}

int64_t wtg_pages_of(uint64_t bytes, long page)
{
	return (int64_t)((bytes + (uint64_t)page - 1) / (uint64_t)page);
}

#define MAPPED_PIECE (4u << 20)

int wtg_sum_mapped(struct wtg_ctx *ctx, const unsigned char *p, uint64_t size, int64_t *sum)
{
	int64_t s = 0;
	wtg_test_shrink(ctx);
	for (uint64_t off = 0; off < size; off += MAPPED_PIECE) {
		uint64_t len = size - off < MAPPED_PIECE ? size - off : MAPPED_PIECE;
		if (wtg_guard_sum(p + off, (size_t)len, &s) < 0) {
			wtg_table_fail(ctx->t, "%s", WTG_GUARD_SHRANK);
			return -1;
		}
		if (wtg_ctx_cancelled(ctx))
			return 1;
	}
	*sum = s;
	return 0;
}


struct touch_job {
	const unsigned char *p;
	uint64_t bytes, page, touch;
};

static void touch_pages(void *arg)
{
	struct touch_job *j = arg;
	for (uint64_t off = 0; off < j->bytes; off += j->page)
		j->touch += j->p[off];
}

unsigned char *wtg_map_prefaulted(struct wtg_ctx *ctx, uint64_t bytes)
{
	int fd = open(ctx->df->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		wtg_table_fail(ctx->t, "cannot open the data file %s: %s", ctx->df->path, strerror(errno));
		return NULL;
	}
	void *m = mmap(NULL, bytes, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
	int err = errno;
	close(fd);
	if (m == MAP_FAILED) {
		wtg_table_fail(ctx->t, "cannot map %llu bytes of the data file: %s",
			       (unsigned long long)bytes, strerror(err));
		return NULL;
	}
	/* MAP_POPULATE is best effort: read one byte per page so every page is really present */
	struct touch_job j = { .p = m, .bytes = bytes, .page = (uint64_t)wtg_page_size() };
	if (wtg_guard_call(touch_pages, &j) < 0) {
		munmap(m, bytes);
		wtg_table_fail(ctx->t, "%s", WTG_GUARD_SHRANK);
		return NULL;
	}
	wtg_sink += j.touch;
	wtg_test_shrink(ctx);
	return m;
}

void wtg_map_release(unsigned char *m, uint64_t bytes)
{
	madvise(m, bytes, MADV_DONTNEED);	/* a shared file mapping: the pages stay cached, unmapped */
}

int wtg_map_refault(struct wtg_ctx *ctx, unsigned char *m, uint64_t bytes)
{
	struct touch_job j = { .p = m, .bytes = bytes, .page = (uint64_t)wtg_page_size() };
	if (wtg_guard_call(touch_pages, &j) < 0) {
		wtg_table_fail(ctx->t, "%s", WTG_GUARD_SHRANK);
		return WTG_ERR;
	}
	wtg_sink += j.touch;
	return WTG_OK;
}

void wtg_test_shrink(struct wtg_ctx *ctx)
{
	static atomic_bool done;
	if (strcmp(wtg_testhooks()->shrink, ctx->t->exp->name) != 0 || !ctx->df->owned || atomic_exchange(&done, true))
		return;
	if (truncate(ctx->df->path, (off_t)(ctx->df->size / 2)) < 0)
		atomic_store(&done, false);
}
