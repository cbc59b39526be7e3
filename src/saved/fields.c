/* fields.c: the strict field checks of the saved-run reader: every field wtg reads is checked for
 * its type, range and size against data/wtg-report.schema.json, and the first problem ends the load
 * with one line naming the file, the place and what was wrong. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "saved.h"

#include "wtg/topology.h"

int sv_fail(struct rd *r, const char *key, const char *fmt, ...)
{
	if (r->failed)
		return -1;
	char msg[384];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	const char *dot = r->where[0] && key ? "." : "";
	snprintf(r->err, r->errlen, "%s: %s%s%s%s%s", r->name, r->where, dot, key ? key : "",
		 r->where[0] || key ? ": " : "", msg);
	r->failed = true;
	return -1;
}

static const char *type_words(int mask)
{
	switch (mask) {
	case T_STR: return "a string";
	case T_STR | T_NULL: return "a string or null";
	case T_INT: return "an integer";
	case T_INT | T_NULL: return "an integer or null";
	case T_NUM: return "a number";
	case T_NUM | T_NULL: return "a number or null";
	case T_BOOL: return "true or false";
	case T_BOOL | T_NULL: return "true, false or null";
	case T_OBJ: return "an object";
	case T_OBJ | T_NULL: return "an object or null";
	case T_ARR: return "an array";
	}
	return "of another type";
}

static int type_of(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_STRING: return T_STR;
	case JSON_INTEGER: return T_INT;
	case JSON_REAL: return T_REAL;
	case JSON_TRUE:
	case JSON_FALSE: return T_BOOL;
	case JSON_NULL: return T_NULL;
	case JSON_OBJECT: return T_OBJ;
	case JSON_ARRAY: return T_ARR;
	}
	return 0;
}

/* obj[key], which must be there and be one of the types in mask; NULL after an error. */
json_t *sv_want(struct rd *r, json_t *obj, const char *key, int mask)
{
	if (r->failed)
		return NULL;
	json_t *v = json_object_get(obj, key);
	if (!v) {
		sv_fail(r, key, "missing");
		return NULL;
	}
	if (!(type_of(v) & mask)) {
		sv_fail(r, key, "should be %s", type_words(mask));
		return NULL;
	}
	if (json_is_string(v) && json_string_length(v) > MAX_TEXT) {
		sv_fail(r, key, TOO_LONG);
		return NULL;
	}
	return v;
}

/* The string s (n bytes) into buf of len bytes, or, when it does not fit, refused: never cut. */
bool sv_copy_whole(struct rd *r, const char *key, char *buf, size_t len, const char *s, size_t n)
{
	if (n >= len) {
		sv_fail(r, key, "longer than %zu bytes", len - 1);
		return false;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

/* A string field copied into buf ("" for null); one that does not fit is refused, never cut. */
void sv_want_str(struct rd *r, json_t *obj, const char *key, char *buf, size_t len, bool nullable)
{
	json_t *v = sv_want(r, obj, key, T_STR | (nullable ? T_NULL : 0));
	buf[0] = '\0';
	if (v && json_is_string(v))
		sv_copy_whole(r, key, buf, len, json_string_value(v), json_string_length(v));
}

/* An integer field in [lo, hi]; null gives dflt when nullable. */
int64_t sv_want_int(struct rd *r, json_t *obj, const char *key, int64_t lo, int64_t hi, bool nullable,
			int64_t dflt)
{
	json_t *v = sv_want(r, obj, key, T_INT | (nullable ? T_NULL : 0));
	if (!v || json_is_null(v))
		return dflt;
	json_int_t n = json_integer_value(v);
	if (n < lo || n > hi) {
		sv_fail(r, key, "%" JSON_INTEGER_FORMAT " is out of range (%" PRId64 " to %" PRId64 ")", n, lo, hi);
		return dflt;
	}
	return n;
}

int sv_want_bool(struct rd *r, json_t *obj, const char *key, bool nullable)
{
	json_t *v = sv_want(r, obj, key, T_BOOL | (nullable ? T_NULL : 0));
	return !v || json_is_null(v) ? -1 : json_is_true(v);
}

/* Append "[i]" or ".key" to the place; returns the old length to restore. */
size_t sv_enter(struct rd *r, const char *key, long idx)
{
	size_t n = strlen(r->where);
	if (idx >= 0)
		snprintf(r->where + n, sizeof r->where - n, "%s%s[%ld]", n && key ? "." : "", key ? key : "", idx);
	else
		snprintf(r->where + n, sizeof r->where - n, "%s%s", n ? "." : "", key);
	return n;
}

void sv_leave(struct rd *r, size_t n)
{
	r->where[n] = '\0';
}

/* obj[key] as an array of at most max items. */
json_t *sv_want_array(struct rd *r, json_t *obj, const char *key, size_t max)
{
	json_t *a = sv_want(r, obj, key, T_ARR);
	if (a && json_array_size(a) > max) {
		sv_fail(r, key, "%zu items, more than %zu", json_array_size(a), max);
		return NULL;
	}
	return a;
}

/* obj[key] when it is there (older reports may lack it), of one of the types in mask; NULL when
 * missing or after an error. */
json_t *sv_maybe(struct rd *r, json_t *obj, const char *key, int mask)
{
	if (r->failed || !json_object_get(obj, key))
		return NULL;
	return sv_want(r, obj, key, mask);
}

/* A string that lives as long as the document (the arena), or NULL for null and "". */
const char *sv_doc_str(json_t *v)
{
	return json_is_string(v) && json_string_length(v) ? json_string_value(v) : NULL;
}

/* An optional boolean: true only when there and true. */
bool sv_maybe_true(struct rd *r, json_t *obj, const char *key)
{
	json_t *v = sv_maybe(r, obj, key, T_BOOL);
	return v && json_is_true(v);
}

/* obj[key] as an object (null allowed when nullable; a missing one allowed when optional), entered
 * for messages (sv_leave(r, *back) after); NULL when it is not there, null, or wrong. */
json_t *sv_open_object(struct rd *r, json_t *obj, const char *key, bool nullable, bool optional,
			   size_t *back)
{
	json_t *v = optional ? sv_maybe(r, obj, key, T_OBJ | (nullable ? T_NULL : 0)) :
			       sv_want(r, obj, key, T_OBJ | (nullable ? T_NULL : 0));
	if (!v || json_is_null(v))
		return NULL;
	*back = sv_enter(r, key, -1);
	return v;
}

/* "0-3,5" into s; "none" is the empty set. */
void sv_want_cpus(struct rd *r, json_t *obj, const char *key, struct wtg_cpuset *s)
{
	json_t *v = sv_want(r, obj, key, T_STR | T_NULL);
	const char *list = json_is_string(v) ? json_string_value(v) : "";	/* whole, however many CPUs */
	if (!r->failed && strcmp(list, "none") && wtg_cpuset_parse(s, list) < 0)
		sv_fail(r, key, "'%s' is not a CPU list", list);
	if (!strcmp(list, "none"))
		wtg_cpuset_clear(s);
}

/* Call fn on each item of obj[key] (an array of at most max objects), with the place set, until
 * one fails. */
void sv_each_object(struct rd *r, json_t *obj, const char *key, size_t max,
			void (*fn)(struct rd *r, json_t *item, void *arg), void *arg)
{
	json_t *a = sv_want_array(r, obj, key, max);
	size_t i;
	json_t *v;
	json_array_foreach(a, i, v) {
		size_t back = sv_enter(r, key, (long)i);
		if (!json_is_object(v))
			sv_fail(r, NULL, "should be an object");
		else
			fn(r, v, arg);
		sv_leave(r, back);
		if (r->failed)
			return;
	}
}
