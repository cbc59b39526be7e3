/* stream.c: the streaming parse of a saved run (yajl): the rows straight into tables, the rest into
 * the tree the walk reads. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "saved.h"

#include "wtg/report.h"

/* --- the streaming parse ---------------------------------------------------------------------
 * A large report is mostly its experiments' rows. yajl reads the document as a stream of events:
 * everything but the rows becomes the tree json_loadb would build (the walk reads it unchanged),
 * while each experiment's rows go straight into a table of their own, cell by cell as read_cell
 * checks them, and stand in the tree as an empty array that read_rows recognizes. Whatever the
 * stream cannot judge as jansson does (a syntax error, a duplicate key, \u0000 or a surrogate, a
 * vertical tab or form feed, a number out of range, a string jansson's UTF-8 rules refuse, a
 * document that is not an object, great depth) abandons it, and json_loadb parses the file again:
 * its verdict and message are the reader's. */
#define STREAM_MAX_DEPTH 1024
#define STREAM_MAX_NUMBER 512

/* An experiment's rows, read while streaming. */
struct srows {
	struct srows *next;
	json_t *stand_in;		/* the empty array standing for them in the tree */
	struct wtg_table t;		/* the rows, under the columns read_columns reads */
	int own, ntotal;
	const struct wtg_column *cols[WTG_MAX_COLS + WTG_REPORT_NEXTRA];
	size_t lens[WTG_MAX_COLS + WTG_REPORT_NEXTRA];
	size_t count;			/* items in the array */
	long bad;			/* the first bad item, -1 for none */
	const char *bad_key;		/* its column (NULL: the item itself) */
	const char *bad_msg;
};

enum { F_OBJ, F_ARR, F_ROWS, F_ROW };

struct frame {
	int kind;
	bool exps;		/* F_ARR: the top level's experiments */
	bool exp;		/* F_OBJ: one of them */
	json_t *node;		/* F_OBJ, F_ARR */
	char *key;		/* F_OBJ: the key whose value is being read */
};

/* One scalar as the lexer gave it. */
struct scalar {
	int type;		/* T_STR, T_INT, T_REAL, T_BOOL, T_NULL */
	int64_t i;
	double d;
	const char *s;
	size_t len;
};

struct stream {
	bool bail;		/* json_loadb must judge this document */
	int depth;
	struct frame st[STREAM_MAX_DEPTH];
	json_t *root;
	bool ended;		/* the document's closing bracket read: only whitespace may follow */
	struct srows *rows;	/* every rows array read, newest first */
	locale_t c_locale;
	/* the row being read */
	struct wtg_value v[WTG_MAX_COLS + WTG_REPORT_NEXTRA];
	unsigned char seen[WTG_MAX_COLS + WTG_REPORT_NEXTRA];	/* 0 missing, 1 good, 2 bad, 3 too long */
	int col, guess;		/* the pending key's column (-1: a field wtg does not read) */
	char *text;		/* the row's text cells, back to back */
	size_t ntext, captext;
	char *other;		/* the row's other keys (to refuse one given twice), NUL-separated */
	size_t nother, capother;
};

static int bail(struct stream *s)
{
	s->bail = true;
	return 0;	/* yajl stops */
}

/* Append n bytes to a growing buffer; false without memory. */
static bool buf_add(char **buf, size_t *len, size_t *cap, const char *p, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t c = *cap ? *cap : 256;
		while (c < *len + n + 1)
			c *= 2;
		char *b = realloc(*buf, c);
		if (!b)
			return false;
		*buf = b;
		*cap = c;
	}
	memcpy(*buf + *len, p, n);
	(*buf)[*len + n] = '\0';
	*len += n + 1;
	return true;
}

/* Bytes jansson would refuse as UTF-8 (only strings with bytes past ASCII are asked). */
static bool bad_utf8(const char *p, size_t n)
{
	size_t k = 0;
	while (k < n && !((unsigned char)p[k] & 0x80))
		k++;
	if (k == n)
		return false;
	json_t *x = json_stringn(p, n);
	json_decref(x);
	return x == NULL;
}

static struct frame *top(struct stream *s)
{
	return s->depth ? &s->st[s->depth - 1] : NULL;
}

/* A finished value into the container being built (or as the document). */
static int put_tree(struct stream *s, json_t *v)
{
	struct frame *f = top(s);
	if (!v)
		return bail(s);
	if (!f) {
		s->root = v;	/* jansson takes an object or an array only */
		if (!json_is_object(v) && !json_is_array(v))
			return bail(s);
		s->ended = true;
		return 0;	/* yajl stops here, so sv_sparse_feed sees what follows the document */
	}
	if (f->kind == F_ARR)
		return json_array_append_new(f->node, v) < 0 ? bail(s) : 1;
	if (f->kind == F_OBJ) {
		bool twice = json_object_get(f->node, f->key) != NULL;
		int rc = twice ? -1 : json_object_set_new(f->node, f->key, v);
		free(f->key);
		f->key = NULL;
		return rc < 0 ? bail(s) : 1;
	}
	struct srows *rw = s->rows;	/* a container inside the rows: never a good cell or item */
	if (f->kind == F_ROWS && rw->bad < 0 && rw->count <= MAX_ROWS) {
		rw->bad = (long)rw->count;
		rw->bad_key = NULL;
		rw->bad_msg = "should be an object";
	}
	if (f->kind == F_ROWS)
		rw->count++;
	return 1;
}

/* A scalar into the row being read: checked as read_cell checks it. */
static void put_cell(struct stream *s, const struct scalar *x)
{
	int c = s->col;
	if (c < 0)
		return;
	const struct wtg_column *col = s->rows->cols[c];
	struct wtg_value *v = &s->v[c];
	bool good = true;
	*v = WTG_NA;
	if (x->type == T_NULL)
		;
	else if (col->type == WTG_T_INT && x->type == T_INT)
		*v = WTG_INT(x->i);
	else if (col->type == WTG_T_REAL && (x->type & T_NUM))
		*v = WTG_REAL(x->type == T_INT ? (double)x->i : x->d);
	else if (col->type == WTG_T_TEXT && x->type == T_STR && x->len <= MAX_TEXT) {
		*v = WTG_TEXT(NULL);
		v->i = (int64_t)s->ntext;	/* its place in text, while text may move */
		good = buf_add(&s->text, &s->ntext, &s->captext, x->s, x->len);
	} else
		good = false;
	s->seen[c] = good ? 1 : col->type == WTG_T_TEXT && x->type == T_STR ? 3 : 2;
}

/* A scalar: a cell, a rows item (never good), or a tree value. */
static int put_scalar(struct stream *s, const struct scalar *x)
{
	struct frame *f = top(s);
	if (x->type == T_STR && bad_utf8(x->s, x->len))
		return bail(s);
	if (f && f->kind == F_ROW) {
		put_cell(s, x);
		return 1;
	}
	if (f && f->kind == F_ROWS)
		return put_tree(s, json_null());
	json_t *v;
	switch (x->type) {
	case T_STR: v = json_stringn(x->s, x->len); break;
	case T_INT: v = json_integer(x->i); break;
	case T_REAL: v = json_real(x->d); break;
	case T_BOOL: v = json_boolean(x->i); break;
	default: v = json_null(); break;
	}
	return put_tree(s, v);
}

static int on_null(void *ctx)
{
	struct scalar x = { .type = T_NULL };
	return put_scalar(ctx, &x);
}

static int on_bool(void *ctx, int b)
{
	struct scalar x = { .type = T_BOOL, .i = b };
	return put_scalar(ctx, &x);
}

static int on_string(void *ctx, const unsigned char *p, size_t n)
{
	struct scalar x = { .type = T_STR, .s = (const char *)p, .len = n };
	return put_scalar(ctx, &x);
}

/* The value of a number in yajl's form (-?int(.frac)?([eE][+-]?exp)?) when it is exactly
 * computable: at most 2^53 as an integer of its digits, times or divided by a power of ten of at most
 * 22 (both exact doubles, so one rounding, the same as strtod's). false: ask strtod. */
static bool exact_double(const char *p, size_t n, double *out)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
					1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	uint64_t m = 0;
	int sig = 0, scale = 0, e = 0, esign = 1;
	size_t k = p[0] == '-';
	bool frac = false;
	for (; k < n && p[k] != 'e' && p[k] != 'E'; k++) {
		if (p[k] == '.') {
			frac = true;
			continue;
		}
		sig += m || p[k] != '0';
		m = sig <= 19 ? m * 10 + (uint64_t)(p[k] - '0') : m;
		scale -= frac;
	}
	if (k < n) {
		k++;
		if (p[k] == '+' || p[k] == '-')
			esign = p[k++] == '-' ? -1 : 1;
		for (; k < n && e < 1000; k++)
			e = e * 10 + (p[k] - '0');
	}
	scale += esign * e;
	if (sig > 19 || m > (1ull << 53) || scale < -22 || scale > 22)
		return false;
	double d = scale < 0 ? (double)m / pow10[-scale] : (double)m * pow10[scale];
	*out = p[0] == '-' ? -d : d;
	return true;
}

/* A number as jansson reads it: an integer without '.', 'e' or 'E' (one past int64 is refused),
 * else a double (one past its range is refused). */
static int on_number(void *ctx, const char *p, size_t n)
{
	struct stream *s = ctx;
	struct scalar x = { .type = T_INT };
	for (size_t k = 0; k < n && x.type == T_INT; k++)
		if (p[k] == '.' || p[k] == 'e' || p[k] == 'E')
			x.type = T_REAL;
	size_t digits = n - (p[0] == '-');
	if (x.type == T_INT && digits <= 18) {
		for (size_t k = n - digits; k < n; k++)
			x.i = x.i * 10 + (p[k] - '0');
		x.i = p[0] == '-' ? -x.i : x.i;
		return put_scalar(s, &x);
	}
	if (x.type == T_REAL && exact_double(p, n, &x.d))
		return put_scalar(s, &x);
	char buf[STREAM_MAX_NUMBER];
	if (n >= sizeof buf)
		return bail(s);
	memcpy(buf, p, n);
	buf[n] = '\0';
	errno = 0;
	if (x.type == T_INT)
		x.i = strtoll(buf, NULL, 10);
	else
		x.d = strtod_l(buf, NULL, s->c_locale);
	if (errno == ERANGE && (x.type == T_INT || isinf(x.d)))
		return bail(s);
	return put_scalar(s, &x);
}

/* A key: kept for the value in a tree object; a column in a row. */
static int on_key(void *ctx, const unsigned char *key, size_t n)
{
	struct stream *s = ctx;
	struct frame *f = &s->st[s->depth - 1];	/* keys come inside an object */
	if (f->kind == F_OBJ) {
		f->key = strndup((const char *)key, n);
		return f->key && strlen(f->key) == n ? 1 : bail(s);
	}
	struct srows *rw = s->rows;
	int c = s->guess < rw->ntotal ? s->guess : 0;
	for (int k = 0; k < rw->ntotal && !(rw->lens[c] == n && !memcmp(rw->cols[c]->name, key, n)); k++)
		c = c + 1 < rw->ntotal ? c + 1 : 0;
	if (rw->ntotal && rw->lens[c] == n && !memcmp(rw->cols[c]->name, key, n)) {
		if (s->seen[c])
			return bail(s);	/* given twice */
		s->seen[c] = 2;
		s->col = c;
		s->guess = c + 1;
		return 1;
	}
	s->col = -1;
	for (size_t o = 0; o < s->nother; o += strlen(s->other + o) + 1)
		if (strlen(s->other + o) == n && !memcmp(s->other + o, key, n))
			return bail(s);
	if (memchr(key, '\0', n) || bad_utf8((const char *)key, n) ||
	    !buf_add(&s->other, &s->nother, &s->capother, (const char *)key, n))
		return bail(s);
	return 1;
}

/* A new container on the stack (exp, exps: what it is in the report); false when too deep. */
static bool push(struct stream *s, int kind, json_t *node, bool exp, bool exps)
{
	if (s->depth == STREAM_MAX_DEPTH || (kind <= F_ARR && !node))
		return false;
	s->st[s->depth++] = (struct frame){ .kind = kind, .node = node, .exp = exp, .exps = exps };
	return true;
}

static int on_start_map(void *ctx)
{
	struct stream *s = ctx;
	struct frame *f = top(s);
	if (f && f->kind == F_ROWS) {
		memset(s->seen, 0, sizeof s->seen);
		s->ntext = s->nother = 0;
		s->col = -1;
		s->guess = 0;
		return push(s, F_ROW, NULL, false, false) ? 1 : bail(s);
	}
	bool exp = f && f->kind == F_ARR && f->exps;
	return push(s, F_OBJ, json_object(), exp, false) ? 1 : bail(s);
}

/* The row just read into its table, or its first bad cell (in column order) noted. */
static void end_row(struct stream *s)
{
	struct srows *rw = s->rows;
	if (rw->bad < 0 && rw->count < MAX_ROWS) {
		for (int c = 0; c < rw->ntotal && rw->bad < 0; c++) {
			if (s->seen[c] == 1)
				continue;
			rw->bad = (long)rw->count;
			rw->bad_key = rw->cols[c]->name;
			rw->bad_msg = !s->seen[c] ? "missing" : s->seen[c] == 3 ? TOO_LONG :
				      rw->cols[c]->type == WTG_T_INT ? "should be an integer or null" :
				      rw->cols[c]->type == WTG_T_REAL ? "should be a number or null" :
				      rw->cols[c]->type == WTG_T_TEXT ? "should be a string or null" :
				      "should be null (its column's type is na)";
		}
	}
	if (rw->bad < 0 && rw->count < MAX_ROWS) {
		for (int c = 0; c < rw->ntotal; c++)
			if (s->v[c].type == WTG_T_TEXT)
				s->v[c].s = s->text + s->v[c].i;
		wtg_table_add_row(&rw->t, s->v, rw->own, NULL);
		struct wtg_row *last = &rw->t.rows[rw->t.nrows - 1];
		if (rw->ntotal > rw->own)
			sv_row_extras(s->v + rw->own, last);
		else
			memset(&last->cond, 0, sizeof last->cond);
		last->t_ns = 0;
	}
	rw->count++;
}

static int on_end_map(void *ctx)
{
	struct stream *s = ctx;
	struct frame f = s->st[--s->depth];
	if (f.kind == F_ROW) {
		end_row(s);
		return 1;
	}
	free(f.key);
	return put_tree(s, f.node);
}

/* experiments[i].rows, when the columns came first and are good: streamed into a table. */
static bool start_rows(struct stream *s, struct frame *f)
{
	json_t *cols = json_object_get(f->node, "columns");
	if (!f->exp || strcmp(f->key, "rows") || !cols || json_object_get(f->node, "rows"))
		return false;
	struct srows *rw = calloc(1, sizeof *rw);
	if (!rw)
		return false;
	char err[8];
	struct rd r = { .name = "", .err = err, .errlen = sizeof err };
	wtg_table_init(&rw->t, NULL);
	rw->own = sv_read_columns(&r, f->node, &rw->t, &rw->ntotal);
	if (rw->own < 0 || !(rw->stand_in = json_array()) || !push(s, F_ROWS, NULL, false, false)) {
		wtg_table_free(&rw->t);
		free(rw);
		return false;
	}
	for (int c = 0; c < rw->ntotal; c++) {
		rw->cols[c] = c < rw->own ? &rw->t.cols[c] : &wtg_report_extra_cols[c - rw->own];
		rw->lens[c] = strlen(rw->cols[c]->name);
	}
	rw->bad = -1;
	rw->next = s->rows;
	s->rows = rw;
	return true;
}

static int on_start_array(void *ctx)
{
	struct stream *s = ctx;
	struct frame *f = top(s);
	if (f && f->kind == F_OBJ && start_rows(s, f))
		return 1;
	bool exps = f && f == &s->st[0] && f->kind == F_OBJ && !strcmp(f->key, "experiments");
	return push(s, F_ARR, json_array(), false, exps) ? 1 : bail(s);
}

static int on_end_array(void *ctx)
{
	struct stream *s = ctx;
	struct frame f = s->st[--s->depth];
	return put_tree(s, f.kind == F_ROWS ? json_incref(s->rows->stand_in) : f.node);
}

static const yajl_callbacks stream_callbacks = {
	.yajl_null = on_null,
	.yajl_boolean = on_bool,
	.yajl_number = on_number,
	.yajl_string = on_string,
	.yajl_start_map = on_start_map,
	.yajl_map_key = on_key,
	.yajl_end_map = on_end_map,
	.yajl_start_array = on_start_array,
	.yajl_end_array = on_end_array,
};

/* The rows of a streamed stand-in into t: 0, or -1 with the first problem as the walk would name
 * it; 1 when a is not a stand-in. */
int sv_take_streamed(struct rd *r, json_t *a, struct wtg_table *t)
{
	struct srows *rw = r->streamed;
	while (rw && rw->stand_in != a)
		rw = rw->next;
	if (!rw)
		return 1;
	if (rw->count > MAX_ROWS)
		return sv_fail(r, "rows", "%zu items, more than %zu", rw->count, (size_t)MAX_ROWS);
	if (rw->bad >= 0) {
		sv_enter(r, "rows", rw->bad);
		return sv_fail(r, rw->bad_key, "%s", rw->bad_msg);
	}
	if (rw->t.ncols != t->ncols)
		return sv_fail(r, "rows", "not read as its columns say");
	struct wtg_row *rows = t->rows;
	int n = t->nrows, cap = t->caprows;
	t->rows = rw->t.rows;
	t->nrows = rw->t.nrows;
	t->caprows = rw->t.caprows;
	t->gen += rw->t.gen;
	t->version += rw->t.version;
	rw->t.rows = rows;
	rw->t.nrows = n;
	rw->t.caprows = cap;
	return 0;
}

static void stream_free(struct stream *s)
{
	while (s->rows) {
		struct srows *next = s->rows->next;
		wtg_table_free(&s->rows->t);
		free(s->rows);
		s->rows = next;
	}
	for (int d = 0; d < s->depth; d++)
		free(s->st[d].key);
	free(s->text);
	free(s->other);
	if (s->c_locale)
		freelocale(s->c_locale);
	free(s);
}

/* What yajl reads otherwise than jansson: a vertical tab or a form feed (yajl takes them for space,
 * jansson refuses them), \u0000 (yajl drops it, jansson refuses it) and a UTF-16 surrogate escape
 * (yajl lets a lone one through, jansson refuses it); an escape cut by the chunk's end counts too.
 * *carry says the last chunk ended in a backslash. */
static bool has_odd_escape(const char *p, size_t n, bool *carry)
{
	if ((*carry && n && p[0] == 'u') || memchr(p, '\v', n) || memchr(p, '\f', n))
		return true;
	for (const char *q = p; (q = memchr(q, '\\', (size_t)(p + n - q))); q++) {
		if (q + 1 < p + n && q[1] != 'u')
			continue;
		if (q + 6 > p + n || !memcmp(q + 2, "0000", 4))
			return true;
		if ((q[2] == 'd' || q[2] == 'D') && strchr("89abcdefABCDEF", q[3]))
			return true;
	}
	*carry = n && p[n - 1] == '\\';
	return false;
}

void sv_sparse_free(struct sparse *sp)
{
	if (sp->h)
		yajl_free(sp->h);
	if (sp->s)
		stream_free(sp->s);
	sv_arena_release(sp->doc);
	memset(sp, 0, sizeof *sp);
}

bool sv_sparse_begin(struct sparse *sp)
{
	memset(sp, 0, sizeof *sp);
	sp->s = calloc(1, sizeof *sp->s);
	if (sp->s)
		sp->s->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (sp->s && sp->s->c_locale)
		sp->h = yajl_alloc(&stream_callbacks, NULL, sp->s);
	if (!sp->h) {
		sv_sparse_free(sp);
		return false;
	}
	/* jansson's own rules judge every string with bytes past ASCII (bad_utf8, json_stringn) */
	yajl_config(sp->h, yajl_dont_validate_strings, 1);
	return true;
}

/* Only JSON's whitespace in p[0..n). */
static bool blank(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
			return false;
	return true;
}

/* The next n bytes of the document (n == 0: the end); false when jansson must judge it. After the
 * document's closing bracket only whitespace may follow: yajl would let an unfinished token there
 * (an open string, a lone '-') pass, jansson refuses it, so anything else is jansson's to name. */
bool sv_sparse_feed(struct sparse *sp, const char *p, size_t n)
{
	if (sp->s->ended)
		return !n || blank(p, n);
	if (n && has_odd_escape(p, n, &sp->carry))
		return false;
	json_set_alloc_funcs(sv_arena_malloc, sv_arena_free);
	sv_arena_head = &sp->doc;
	yajl_status st = n ? yajl_parse(sp->h, (const unsigned char *)p, n) : yajl_complete_parse(sp->h);
	sv_arena_head = NULL;
	if (st == yajl_status_client_canceled && sp->s->ended && !sp->s->bail) {
		size_t used = yajl_get_bytes_consumed(sp->h);
		return used <= n && blank(p + used, n - used);
	}
	return st == yajl_status_ok && !sp->s->bail && (n || sp->s->root);
}

json_t *sv_sparse_root(const struct sparse *sp)
{
	return sp->s->root;
}

struct srows *sv_sparse_rows(const struct sparse *sp)
{
	return sp->s->rows;
}
