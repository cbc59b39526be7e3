/* arena.c: the parsed document's memory. */
#include "config.h"

#include <stdlib.h>
#include <sys/mman.h>

#include "saved.h"

/* The parsed document lives in an arena of its own: jansson allocates each value and each key
 * separately, and malloc/free of millions of small blocks was most of a large file's load time.
 * Freeing a value is a no-op; the arena goes as a whole with the loaded run. */
#define ARENA_CHUNK (32u << 20)
struct arena {
	struct arena *next;
	size_t used, cap, bytes;	/* bytes: the whole mapping */
	max_align_t data[];
};
_Thread_local struct arena **sv_arena_head;	/* the arena being filled, while parsing */

/* Chunks are mapped with their pages populated at once: faulting them in one by one was a third of
 * a large file's load time. */
void *sv_arena_malloc(size_t n)
{
	if (!sv_arena_head)
		return malloc(n);
	n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	struct arena *a = *sv_arena_head;
	if (!a || a->cap - a->used < n) {
		/* 256 KiB first, doubling to 32 MiB: a small file maps little */
		size_t grow = a ? (a->cap < ARENA_CHUNK / 2 ? a->cap * 2 : ARENA_CHUNK) : ARENA_CHUNK / 128;
		size_t cap = n > grow ? n : grow;
		size_t bytes = sizeof *a + cap;
		void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		a = p;
		a->next = *sv_arena_head;
		a->used = 0;
		a->cap = cap;
		a->bytes = bytes;
		*sv_arena_head = a;
	}
	void *p = (char *)a->data + a->used;
	a->used += n;
	return p;
}

void sv_arena_free(void *p)
{
	(void)p;	/* the arena goes whole (sv_arena_release) */
}

void sv_arena_release(struct arena *a)
{
	while (a) {
		struct arena *next = a->next;
		munmap(a, a->bytes);
		a = next;
	}
}
