/* paths.c: no file wtg writes is a file it reads, and no file is written twice.
 *
 * Every input (--file, each --load, --baseline) and every output (each -o, each NAME.svg of an SVG
 * folder, standard output when it is a file) is resolved to one identity before anything is
 * measured or written: an existing file by its device and inode, links followed (so a symlink, a
 * hard link and any spelling of the path agree); a file that does not exist yet by its folder's
 * device and inode and its name in that folder (a dangling link by where it points). Then every
 * output is compared with every input and with every output before it.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wtg/experiment.h"
#include "wtg/options.h"
#include "wtg/paths.h"
#include "wtg/report.h"
#include "wtg/util.h"

/* One file read or written: where it is, and how a message names it. */
struct ident {
	bool known;			/* false: it could not be resolved (the write reports why) */
	bool exists;			/* dev, ino: the file; else the folder it would be made in */
	dev_t dev;
	ino_t ino;
	char name[NAME_MAX + 128];	/* a new file's name in that folder ("d/x.svg" in a new folder) */
	char desc[PATH_MAX + 160];	/* "--output 'x'", "--load file 'x'" */
	char shown[PATH_MAX + 64];	/* the path as given, for "given twice (as 'x')" */
};

static void set_node(struct ident *id, const struct stat *st)
{
	id->known = id->exists = true;
	id->dev = st->st_dev;
	id->ino = st->st_ino;
}

/* path without trailing slashes ("out/" -> "out"; "/" stays). */
static void strip_slashes(char *path)
{
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		path[--n] = '\0';
}

/* Where a dangling link at path points (relative targets taken from the link's folder): 1, 0 when
 * path is no link, -1 on an error (errno). */
static int follow(char *path, size_t len)
{
	char target[PATH_MAX], folder[PATH_MAX];
	ssize_t n = readlink(path, target, sizeof target - 1);
	if (n < 0)
		return errno == EINVAL || errno == ENOENT ? 0 : -1;
	target[n] = '\0';
	wtg_path_split(path, folder, sizeof folder);
	int w = target[0] == '/' ? snprintf(path, len, "%s", target)
				 : snprintf(path, len, "%s/%s", folder, target);
	if (w < 0 || (size_t)w >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 1;
}

/* The identity of a file wtg will write at path: 0, or an errno that makes the path unusable. */
static int resolve_output(const char *path, struct ident *id)
{
	char cur[PATH_MAX], folder[PATH_MAX];
	struct stat st;
	id->known = false;
	if (strlen(path) + 16 >= PATH_MAX)	/* room for the temp file's name beside it */
		return ENAMETOOLONG;
	wtg_strlcpy(cur, path, sizeof cur);
	for (int hops = 0; hops < 40; hops++) {
		strip_slashes(cur);
		if (stat(cur, &st) == 0) {
			set_node(id, &st);
			return 0;
		}
		if (errno == ENAMETOOLONG)
			return errno;
		if (errno != ENOENT)
			return 0;	/* not resolvable (a permission, a loop): the write names it */
		int r = follow(cur, sizeof cur);
		if (r < 0)
			return errno == ENAMETOOLONG ? errno : 0;
		if (r > 0)
			continue;
		const char *base = wtg_path_split(cur, folder, sizeof folder);
		if (strlen(base) > NAME_MAX)
			return ENAMETOOLONG;
		if (stat(folder, &st) != 0)
			return errno == ENAMETOOLONG ? errno : 0;
		set_node(id, &st);
		id->exists = false;
		wtg_strlcpy(id->name, base, sizeof id->name);
		return 0;
	}
	return 0;
}

/* Every file wtg reads, and every file it writes, with how many of each. */
struct files {
	struct ident in[WTG_MAX_LOAD_FILES + 2];
	int nin;
	struct ident out[WTG_MAX_OUTPUTS * WTG_MAX_EXP + 1];
	int nout;
};

static void add_input(struct files *fs, const char *path, const char *what)
{
	struct stat st;
	if (!path || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return;	/* nothing there to lose: reading it fails on its own */
	struct ident *id = &fs->in[fs->nin++];
	memset(id, 0, sizeof *id);
	set_node(id, &st);
	snprintf(id->desc, sizeof id->desc, "%s '%s'", what, path);
}

/* Standard output as an output (-o -, /dev/stdout, or the report or summary when it is a file). */
static bool stdout_ident(struct ident *id)
{
	struct stat st;
	if (fstat(STDOUT_FILENO, &st) != 0)
		return false;
	set_node(id, &st);
	return true;
}

/* The charts of an SVG folder output: DIR/NAME.svg for each experiment written. */
static int add_members(struct files *fs, const struct ident *dir, const char *path, const bool *written)
{
	for (int i = 0; i < wtg_nexperiments; i++) {
		if (!written[i])
			continue;
		struct ident *id = &fs->out[fs->nout++];
		memset(id, 0, sizeof *id);
		char member[PATH_MAX + 64];
		snprintf(member, sizeof member, "%s%s%s.svg", path, path[strlen(path) - 1] == '/' ? "" : "/",
			 wtg_experiments[i]->name);
		int e = dir->exists ? resolve_output(member, id) : 0;
		if (!dir->exists && dir->known) {	/* a new folder: its name plus the chart's */
			*id = *dir;
			snprintf(id->name, sizeof id->name, "%.*s/%.100s.svg", NAME_MAX, dir->name,
				 wtg_experiments[i]->name);
		}
		if (e)
			return wtg_usage_error("--output '%s': '%s': %s", path, member, strerror(e));
		snprintf(id->desc, sizeof id->desc, "--output '%s' (its chart '%s')", path, member);
		wtg_strlcpy(id->shown, member, sizeof id->shown);
	}
	return 0;
}

static int nwritten(const bool *written)
{
	int n = 0;
	for (int i = 0; i < wtg_nexperiments; i++)
		n += written[i];
	return n;
}

/* Output k: its files into fs (one, or an SVG folder's charts). */
static int add_output(struct files *fs, const struct wtg_output *out, const bool *written)
{
	const char *p = out->path;
	struct ident *id = &fs->out[fs->nout];
	memset(id, 0, sizeof *id);
	if (wtg_report_is_stdout(p)) {
		if (!stdout_ident(id))
			return 0;
	} else {
		int e = resolve_output(p, id);
		if (e)
			return wtg_usage_error("--output '%s': %s", p, strerror(e));
	}
	struct stat st;
	bool is_dir = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
	if (out->format == WTG_FMT_SVG && !wtg_report_is_stdout(p) && (is_dir || nwritten(written) > 1)) {
		if (stat(p, &st) == 0 && !S_ISDIR(st.st_mode))
			return wtg_usage_error("--output '%s': svg with several experiments needs a folder", p);
		struct ident dir = *id;
		if (!dir.exists && dir.known) {	/* the folder wtg makes is written too */
			wtg_strlcpy(id->shown, p, sizeof id->shown);
			snprintf(id->desc, sizeof id->desc, "--output '%s'", p);
			fs->nout++;
		}
		return add_members(fs, &dir, p, written);
	}
	wtg_strlcpy(id->shown, p, sizeof id->shown);
	snprintf(id->desc, sizeof id->desc, "--output '%s'", p);
	fs->nout++;
	return 0;
}

static bool same(const struct ident *a, const struct ident *b)
{
	if (!a->known || !b->known || a->dev != b->dev || a->ino != b->ino || a->exists != b->exists)
		return false;
	return a->exists || strcmp(a->name, b->name) == 0;
}

/* Output k against every input and every output before it. */
static int check_pair(const struct files *fs, int k)
{
	const struct ident *o = &fs->out[k];
	for (int i = 0; i < fs->nin; i++)
		if (same(o, &fs->in[i]))
			return wtg_usage_error("%s is the %s, which wtg never writes", o->desc, fs->in[i].desc);
	for (int j = 0; j < k; j++)
		if (same(o, &fs->out[j]))
			return wtg_usage_error("%s is given twice (as '%s')", o->desc, fs->out[j].shown);
	return 0;
}

/* Whether standard output receives anything besides the -o files (the report, the summary, a
 * comparison). */
static bool stdout_written(const struct wtg_options *o)
{
	bool comparing = o->baseline || o->nloads > 1 || (o->nloads && o->mode == WTG_MODE_RUN);
	if (o->noutputs == 0 || (o->mode == WTG_MODE_RUN && comparing))
		return true;
	return !o->quiet && !(o->mode == WTG_MODE_LOAD && comparing);
}

int wtg_check_paths(const struct wtg_options *o, const bool *written)
{
	static struct files fs;	/* large: not on the stack; each entry is cleared when taken */
	fs.nin = fs.nout = 0;
	add_input(&fs, o->file, "--file data file");
	add_input(&fs, o->baseline, "--baseline file");
	for (int i = 0; i < o->nloads; i++)
		add_input(&fs, o->loads[i], "--load file");
	for (int i = 0; i < o->noutputs; i++) {
		int first = fs.nout;
		if (add_output(&fs, &o->outputs[i], written))
			return 2;
		for (int k = first; k < fs.nout; k++)
			if (check_pair(&fs, k))
				return 2;
	}
	struct ident *id = &fs.out[fs.nout];
	memset(id, 0, sizeof *id);
	struct stat st;
	if (stdout_written(o) && fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode) && stdout_ident(id)) {
		snprintf(id->desc, sizeof id->desc, "standard output");
		for (int i = 0; i < fs.nin; i++)
			if (same(id, &fs.in[i]))
				return wtg_usage_error("standard output is the %s, which wtg never writes",
						       fs.in[i].desc);
	}
	return 0;
}

int wtg_check_record(const struct wtg_options *o)
{
	static struct files fs;
	fs.nin = 0;
	add_input(&fs, o->file, "--file data file");
	add_input(&fs, o->baseline, "--baseline file");
	for (int i = 0; i < o->nloads; i++)
		add_input(&fs, o->loads[i], "--load file");
	struct ident rec, tty;
	memset(&rec, 0, sizeof rec);
	int e = resolve_output(o->record, &rec);
	if (e)
		return wtg_usage_error("--record '%s': %s", o->record, strerror(e));
	for (int i = 0; i < fs.nin; i++)
		if (same(&rec, &fs.in[i]))
			return wtg_usage_error("--record '%s' is the %s, which wtg never writes", o->record, fs.in[i].desc);
	memset(&tty, 0, sizeof tty);
	if (strcmp(o->record, "-") == 0 || (stdout_ident(&tty) && same(&rec, &tty)))
		return wtg_usage_error("--record '%s' is the terminal the dashboard draws on: name a file", o->record);
	return 0;
}
