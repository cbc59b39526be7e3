/* read.c: saved runs come back (wtg/load.h): a file read a chunk at a time through the streaming
 * parse, or whole through jansson when the stream must give it up; the loaded run's life. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "saved.h"

void wtg_load_label_from_path(const char *path, char *buf, size_t len)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	wtg_strlcpy(buf, base, len);
	char *dot = strrchr(buf, '.');
	if (dot && dot != buf)
		*dot = '\0';
	if (!buf[0])
		wtg_strlcpy(buf, path, len);
}

/* A run whose file gave no label is named after its file. */
static void name_from_path(struct wtg_loaded *l, const char *name)
{
	if (l->meta.label)
		return;
	wtg_load_label_from_path(name, l->meta.label_buf, sizeof l->meta.label_buf);
	l->meta.label = l->meta.label_buf;
}

static void loaded_init(struct wtg_loaded *l, const char *name)
{
	memset(l, 0, sizeof *l);
	for (int i = 0; i < WTG_MAX_EXP; i++)
		wtg_table_init(&l->tables[i], i < wtg_nexperiments ? wtg_experiments[i] : NULL);
	l->meta.duration_s = NAN;
	l->meta.machine.cpus = -1;
	l->meta.machine.boost = -1;
	l->meta.machine.smt_active = -1;
	l->meta.machine.nmitigations = -1;
	wtg_strlcpy(l->meta.path, name, sizeof l->meta.path);
}

void wtg_loaded_free(struct wtg_loaded *l)
{
	for (int i = 0; i < WTG_MAX_EXP; i++) {
		wtg_table_free(&l->tables[i]);
		for (int k = 0; k < l->nearlier[i]; k++)
			wtg_table_free(&l->earlier[i][k].t);
		free(l->earlier[i]);
		l->earlier[i] = NULL;
		l->nearlier[i] = 0;
	}
	sv_arena_release(l->strings);	/* the document, column names and units with it */
	l->strings = NULL;
	free(l->saved.command_line);
	l->saved.command_line = NULL;
	l->saved.opt.argv = NULL;
	l->saved.opt.argc = 0;
}

/* Parse with jansson alone and walk the tree: the reader of anything the stream gives up on. */
static int load_whole(const char *buf, size_t len, const char *name, struct wtg_loaded *l, char *err,
		      size_t errlen)
{
	struct rd r = { .name = name, .err = err, .errlen = errlen };
	json_error_t je;
	struct arena *doc = NULL;
	json_set_alloc_funcs(sv_arena_malloc, sv_arena_free);
	sv_arena_head = &doc;
	json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	sv_arena_head = NULL;
	l->strings = doc;
	if (!root) {
		snprintf(err, errlen, "%s: line %d column %d: %s", name, je.line, je.column, je.text);
		wtg_loaded_free(l);
		return -1;
	}
	if (sv_read_root(&r, root, l) < 0) {
		wtg_loaded_free(l);
		return -1;
	}
	name_from_path(l, name);
	return 0;
}

/* The walk over a streamed document: l owns the arena from here. */
static int sparse_walk(struct sparse *sp, const char *name, struct wtg_loaded *l, char *err, size_t errlen)
{
	struct rd r = { .name = name, .err = err, .errlen = errlen, .streamed = sv_sparse_rows(sp) };
	l->strings = sp->doc;
	sp->doc = NULL;
	int rc = sv_read_root(&r, sv_sparse_root(sp), l);
	sv_sparse_free(sp);
	if (rc < 0) {
		wtg_loaded_free(l);
		return -1;
	}
	name_from_path(l, name);
	return 0;
}

int wtg_load_buffer(const char *buf, size_t len, const char *name, struct wtg_loaded *l, char *err,
		    size_t errlen)
{
	loaded_init(l, name);
	if (len == 0) {
		snprintf(err, errlen, "%s: empty file, not a wtg report", name);
		wtg_loaded_free(l);
		return -1;
	}
	struct sparse sp;
	if (sv_sparse_begin(&sp)) {
		if (sv_sparse_feed(&sp, buf, len) && sv_sparse_feed(&sp, NULL, 0))
			return sparse_walk(&sp, name, l, err, errlen);
		sv_sparse_free(&sp);
	}
	return load_whole(buf, len, name, l, err, errlen);
}

/* path opened for reading: a regular file of at most WTG_LOAD_MAX_BYTES; -1 with the reason in err. */
static int open_report(const char *path, size_t *size, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	const char *why = S_ISDIR(st.st_mode) ? "is a folder, not a report file" :
			  !S_ISREG(st.st_mode) ? "is not a regular file" :
			  (uint64_t)st.st_size > WTG_LOAD_MAX_BYTES ? "is larger than 1G, not a wtg report" : NULL;
	if (why) {
		snprintf(err, errlen, "%s: %s", path, why);
		close(fd);
		return -1;
	}
	*size = (size_t)st.st_size;
	return fd;
}

/* Up to n bytes of fd into buf; -1 with the reason in err on a read error or an early end. */
static ssize_t read_some(int fd, const char *path, char *buf, size_t n, char *err, size_t errlen)
{
	for (;;) {
		ssize_t got = read(fd, buf, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			snprintf(err, errlen, "%s: %s", path, got < 0 ? strerror(errno) : "changed while being read");
		return got <= 0 ? -1 : got;
	}
}

/* The whole file into memory. */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	size_t size;
	int fd = open_report(path, &size, err, errlen);
	if (fd < 0)
		return NULL;
	char *buf = malloc(size + 1);
	size_t got = 0;
	while (buf && got < size) {
		ssize_t n = read_some(fd, path, buf + got, size - got, err, errlen);
		if (n < 0) {
			free(buf);
			close(fd);
			return NULL;
		}
		got += (size_t)n;
	}
	close(fd);
	if (!buf)
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
	*len = got;
	return buf;
}

/* The file through the streaming parse, a chunk at a time (the file is never whole in memory):
 * 0 or -1 as wtg_load_file, 1 when jansson must judge it. */
#define STREAM_CHUNK (1u << 20)
static int load_streamed(const char *path, struct wtg_loaded *l, char *err, size_t errlen)
{
	size_t size;
	int fd = open_report(path, &size, err, errlen);
	if (fd < 0)
		return -1;
	struct sparse sp;
	char *chunk = size ? malloc(STREAM_CHUNK) : NULL;
	bool ok = chunk && sv_sparse_begin(&sp);
	size_t done = 0;
	while (ok && done < size) {
		size_t want = size - done < STREAM_CHUNK ? size - done : STREAM_CHUNK;
		ssize_t n = read_some(fd, path, chunk, want, err, errlen);
		ok = n > 0 && sv_sparse_feed(&sp, chunk, (size_t)n);
		done += n > 0 ? (size_t)n : 0;
	}
	close(fd);
	free(chunk);
	if (ok && sv_sparse_feed(&sp, NULL, 0))
		return sparse_walk(&sp, path, l, err, errlen);
	if (chunk)
		sv_sparse_free(&sp);
	return 1;
}

int wtg_load_buffer_whole(const char *buf, size_t len, const char *name, struct wtg_loaded *l, char *err,
			  size_t errlen)
{
	loaded_init(l, name);
	if (len)
		return load_whole(buf, len, name, l, err, errlen);
	return wtg_load_buffer(buf, len, name, l, err, errlen);	/* says it is empty */
}

int wtg_load_file(const char *path, struct wtg_loaded *l, char *err, size_t errlen)
{
	loaded_init(l, path);
	int rc = load_streamed(path, l, err, errlen);
	if (rc <= 0)
		return rc;
	size_t len = 0;
	char *buf = slurp(path, &len, err, errlen);
	if (!buf) {
		wtg_loaded_free(l);
		return -1;
	}
	rc = wtg_load_buffer_whole(buf, len, path, l, err, errlen);
	free(buf);
	return rc;
}

/* The runs of a --replicate document in buf, each a whole report serialized again and read as one
 * (its own arena, as a file of it would be): 0, -1 with err, or 1 when buf is not such a document. */
static int load_replicated(const char *buf, size_t len, const char *path, struct wtg_loaded *ls, int max, int *n,
			   char *err, size_t errlen)
{
	struct arena *mine = NULL;
	json_error_t je;
	json_set_alloc_funcs(sv_arena_malloc, sv_arena_free);
	sv_arena_head = &mine;
	json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	sv_arena_head = NULL;
	json_t *runs = root ? json_object_get(root, "runs") : NULL, *reps = root ? json_object_get(root, "replicates") : NULL;
	int rc = 1;
	if (!json_is_array(runs) || !json_is_integer(reps) || json_object_get(root, "schema"))
		goto out;
	rc = -1;
	json_t *tool = json_object_get(root, "tool");
	if (!json_is_string(tool) || strcmp(json_string_value(tool), "wtg") != 0) {	/* its runs' own say nothing */
		snprintf(err, errlen, "%s: not a wtg report (no \"tool\": \"wtg\")", path);
		goto out;
	}
	const size_t k = json_array_size(runs);
	if ((json_int_t)k != json_integer_value(reps) || k == 0) {
		snprintf(err, errlen, "%s: a --replicate document whose replicates (%lld) is not the number of its runs "
			 "(%zu)", path, (long long)json_integer_value(reps), k);
		goto out;
	}
	if (k > (size_t)max) {
		snprintf(err, errlen, "%s: a --replicate document of %zu runs; at most %d saved runs at once", path, k, max);
		goto out;
	}
	for (size_t i = 0; i < k; i++) {
		char name[sizeof ls->meta.path];
		snprintf(name, sizeof name, "%.*s, run %zu", (int)(sizeof name - 32), path, i + 1);
		sv_arena_head = &mine;
		char *one = json_is_object(json_array_get(runs, i)) ? json_dumps(json_array_get(runs, i), JSON_COMPACT) : NULL;
		sv_arena_head = NULL;
		if (!one) {
			snprintf(err, errlen, "%s: runs[%zu]: not a report", path, i);
			break;
		}
		if (wtg_load_buffer(one, strlen(one), name, &ls[i], err, errlen) < 0)
			break;
		*n = (int)i + 1;
		/* named as the replication table named it: "run 2", or "quiet 2" under --label=quiet */
		struct wtg_run_meta *m = &ls[i].meta;
		char label[sizeof m->label_buf];
		snprintf(label, sizeof label, "%.200s %zu", m->label != m->label_buf ? m->label : "run", i + 1);
		wtg_strlcpy(m->label_buf, label, sizeof m->label_buf);
		m->label = m->label_buf;
	}
	if (*n == (int)k)
		rc = 0;
	else {
		for (int i = 0; i < *n; i++)
			wtg_loaded_free(&ls[i]);
		*n = 0;
	}
out:
	sv_arena_release(mine);	/* the document and the serialized runs; each run owns its own parse */
	return rc;
}

/* Whether the first bytes of a document name "replicates", as --replicate writes it (its count first). */
static bool names_replicates(const char *head, size_t len)
{
	char first[512];
	size_t k = len < sizeof first - 1 ? len : sizeof first - 1;
	memcpy(first, head, k);
	first[k] = '\0';
	return strstr(first, "\"replicates\"") != NULL;
}

/* buf as a --replicate document's runs, after the reader of one report refused it with err: 0, or -1
 * with err its message when buf is such a document, the first reader's when it is not. */
static int replicated_runs(const char *buf, size_t len, const char *name, struct wtg_loaded *ls, int max, int *n,
			   char *err, size_t errlen)
{
	char why[512];
	int rc = load_replicated(buf, len, name, ls, max, n, why, sizeof why);
	if (rc < 0)
		wtg_strlcpy(err, why, errlen);
	return rc == 0 ? 0 : -1;
}

/* No room for a run: -1 with the reason. */
static int no_room(const char *name, int max, char *err, size_t errlen)
{
	if (max >= 1)
		return 0;
	snprintf(err, errlen, "%s: too many saved runs at once", name);
	return -1;
}

int wtg_load_file_runs(const char *path, struct wtg_loaded *ls, int max, int *n, char *err, size_t errlen)
{
	*n = 0;
	if (no_room(path, max, err, errlen) < 0)
		return -1;
	if (wtg_load_file(path, &ls[0], err, errlen) == 0) {
		*n = 1;
		return 0;
	}
	/* not one report: perhaps the runs of --replicate, with the first reader's message kept if not */
	char head[512];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t got = fd >= 0 ? pread(fd, head, sizeof head, 0) : -1;
	if (fd >= 0)
		close(fd);
	if (got <= 0 || !names_replicates(head, (size_t)got))
		return -1;
	size_t len = 0;
	char why[512];
	char *buf = slurp(path, &len, why, sizeof why);
	if (!buf)
		return -1;
	int rc = replicated_runs(buf, len, path, ls, max, n, err, errlen);
	free(buf);
	return rc;
}

int wtg_load_buffer_runs(const char *buf, size_t len, const char *name, struct wtg_loaded *ls, int max, int *n,
			 char *err, size_t errlen)
{
	*n = 0;
	if (no_room(name, max, err, errlen) < 0)
		return -1;
	if (wtg_load_buffer(buf, len, name, &ls[0], err, errlen) == 0) {
		*n = 1;
		return 0;
	}
	return names_replicates(buf, len) ? replicated_runs(buf, len, name, ls, max, n, err, errlen) : -1;
}
