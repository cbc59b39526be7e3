/* saved.h: the pieces of the saved-run reader (src/saved/) share this: the reader's state and the
 * strict field checks of the tree walk (fields.c), the run's metadata (meta.c), its experiments and
 * tables (tables.c), the streaming parse (stream.c), the document's arena (arena.c); read.c puts
 * them together behind wtg/load.h. */
#ifndef WTG_SAVED_H
#define WTG_SAVED_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yajl/yajl_parse.h>

#include "wtg/load.h"
#include "wtg/util.h"

/* Sizes past which a file is not a wtg report, whatever it says. */
#define MAX_ROWS 10000000
#define MAX_LIST 100000
#define MAX_TEXT 65536
#define TOO_LONG "longer than 65536 bytes"	/* a string past MAX_TEXT */

struct srows;

/* The reader's state: where it is (for messages) and the first error. */
struct rd {
	const char *name;
	char *err;
	size_t errlen;
	bool failed;
	char where[256];	/* "experiments[2].rows[5]" */
	struct srows *streamed;	/* rows read while streaming, each standing in the tree as an empty array */
};

/* Type masks for sv_want(). */
enum { T_STR = 1, T_INT = 2, T_REAL = 4, T_BOOL = 8, T_NULL = 16, T_OBJ = 32, T_ARR = 64, T_NUM = T_INT | T_REAL };

/* ---- the strict field checks (fields.c) ---- */

/* The first problem, as "FILE: where.key: message"; later ones are ignored. Returns -1. */
int sv_fail(struct rd *r, const char *key, const char *fmt, ...) WTG_PRINTF(3, 4);
/* obj[key], which must be there and be one of the types in mask; NULL after an error. */
json_t *sv_want(struct rd *r, json_t *obj, const char *key, int mask);
/* The string s (n bytes) into buf of len bytes, or, when it does not fit, refused: never cut. */
bool sv_copy_whole(struct rd *r, const char *key, char *buf, size_t len, const char *s, size_t n);
/* A string field copied into buf ("" for null); one that does not fit is refused. */
void sv_want_str(struct rd *r, json_t *obj, const char *key, char *buf, size_t len, bool nullable);
/* An integer field in [lo, hi]; null gives dflt when nullable. */
int64_t sv_want_int(struct rd *r, json_t *obj, const char *key, int64_t lo, int64_t hi, bool nullable,
		    int64_t dflt);
/* 1 true, 0 false, -1 null (or an error). */
int sv_want_bool(struct rd *r, json_t *obj, const char *key, bool nullable);
/* Into obj's key (idx >= 0: its item idx) for messages; sv_leave(r, the returned mark) goes back. */
size_t sv_enter(struct rd *r, const char *key, long idx);
void sv_leave(struct rd *r, size_t n);
/* An array of at most max items. */
json_t *sv_want_array(struct rd *r, json_t *obj, const char *key, size_t max);
/* obj[key] when it is there (then of a type in mask), else NULL. */
json_t *sv_maybe(struct rd *r, json_t *obj, const char *key, int mask);
/* A string that lives as long as the document (the arena), or NULL for null and "". */
const char *sv_doc_str(json_t *v);
/* An optional boolean: true only when there and true. */
bool sv_maybe_true(struct rd *r, json_t *obj, const char *key);
/* obj[key] as an object entered (*back to leave it), or NULL (missing when optional, null when
 * nullable, or an error). */
json_t *sv_open_object(struct rd *r, json_t *obj, const char *key, bool nullable, bool optional,
		       size_t *back);
/* A CPU list string ("0-3,8") into s. */
void sv_want_cpus(struct rd *r, json_t *obj, const char *key, struct wtg_cpuset *s);
/* Call fn on each item of obj[key] (an array of at most max objects), with the place set, until
 * one fails. */
void sv_each_object(struct rd *r, json_t *obj, const char *key, size_t max,
		    void (*fn)(struct rd *r, json_t *v, void *arg), void *arg);

/* ---- the walk (meta.c, tables.c) ---- */

/* schema, tool, the run block, the machine, the conditions into m and sv. */
void sv_read_meta(struct rd *r, json_t *root, struct wtg_run_meta *m, struct wtg_run_saved *sv);
/* The whole document into l: 0, or -1 with the first problem in r. */
int sv_read_root(struct rd *r, json_t *root, struct wtg_loaded *l);

/* ---- the columns and a row's extra cells (columns.c), for the walk and the stream ---- */

/* The columns of exp into t (its own, then the report's extra ones): how many are t's own, -1 on a
 * problem; *ntotal all of them. */
int sv_read_columns(struct rd *r, json_t *exp, struct wtg_table *t, int *ntotal);
/* A row's extra cells (after its own columns: probe, conditions) into row. */
void sv_row_extras(const struct wtg_value *x, struct wtg_row *row);

/* ---- the streaming parse (stream.c) ---- */

struct stream;
struct arena;

/* A streaming parse under way. */
struct sparse {
	struct stream *s;
	yajl_handle h;
	struct arena *doc;	/* the tree's arena */
	bool carry;		/* the last chunk ended in a backslash */
};

/* Start one (false: out of memory). */
bool sv_sparse_begin(struct sparse *sp);
/* The next n bytes of the document (n == 0: the end); false when jansson must judge it. */
bool sv_sparse_feed(struct sparse *sp, const char *p, size_t n);
void sv_sparse_free(struct sparse *sp);
/* The tree of a finished parse, and its streamed rows (for struct rd's streamed). */
json_t *sv_sparse_root(const struct sparse *sp);
struct srows *sv_sparse_rows(const struct sparse *sp);
/* The rows of a streamed stand-in into t: 0, or -1 with the first problem as the walk would name
 * it; 1 when a is not a stand-in. */
int sv_take_streamed(struct rd *r, json_t *a, struct wtg_table *t);

/* ---- the document's arena (arena.c) ---- */

/* While set (by the parse, on its own thread), sv_arena_malloc takes from *sv_arena_head. */
extern _Thread_local struct arena **sv_arena_head;
void *sv_arena_malloc(size_t n);
void sv_arena_free(void *p);
void sv_arena_release(struct arena *a);

#endif
