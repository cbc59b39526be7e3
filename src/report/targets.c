/* targets.c: what a save may write onto, checked at the moment of writing.
 *
 * paths.c compares outputs with inputs once, before anything is measured; a run takes long enough for
 * an output's name to be replaced meanwhile (a link to --file, a new name of --baseline). So the
 * inputs' identities (device and inode) and which output names were symbolic links are kept from
 * the start, and every save compares the name it is about to rename onto (or open in place) with
 * them immediately before it does: an input, or a link that appeared, is refused and left untouched.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wtg/experiment.h"
#include "wtg/report.h"
#include "wtg/util.h"
#include "writers.h"

/* A file wtg reads. */
struct input {
	dev_t dev;
	ino_t ino;
	char desc[PATH_MAX + 32];	/* "the --baseline file 'x'" */
};

static struct input inputs[WTG_MAX_LOAD_FILES + 2];
static int ninputs;
/* The output names (each -o, each chart of an SVG folder) that were symbolic links at the start: a
 * link elsewhere has appeared since. */
static char *links[WTG_MAX_OUTPUTS * (WTG_MAX_EXP + 1)];
static int nlinks;

static void add_input(const char *path, const char *what)
{
	struct stat st;
	if (!path || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return;	/* nothing there to lose: reading it fails on its own */
	struct input *in = &inputs[ninputs++];
	in->dev = st.st_dev;
	in->ino = st.st_ino;
	snprintf(in->desc, sizeof in->desc, "the %s '%s'", what, path);
}

static void add_name(const char *path)
{
	struct stat st;
	if (nlinks < (int)WTG_ARRAY_LEN(links) && lstat(path, &st) == 0 && S_ISLNK(st.st_mode) &&
	    (links[nlinks] = strdup(path)) != NULL)	/* unrecorded, the link is refused: the safe side */
		nlinks++;
}

void wtg_svg_chart_path(char *buf, size_t len, const char *dir, int idx)
{
	snprintf(buf, len, "%s%s%s.svg", dir, dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/",
		 wtg_experiments[idx]->name);
}

void wtg_report_guard(const struct wtg_options *o)
{
	ninputs = 0;
	while (nlinks > 0)
		free(links[--nlinks]);
	add_input(o->file, "--file data file");
	add_input(o->baseline, "--baseline file");
	for (int i = 0; i < o->nloads; i++)
		add_input(o->loads[i], "--load file");
	if (o->record)
		add_name(o->record);
	for (int i = 0; i < o->noutputs; i++) {
		const char *p = o->outputs[i].path;
		add_name(p);
		for (int k = 0; o->outputs[i].format == WTG_FMT_SVG && k < wtg_nexperiments; k++) {
			char chart[PATH_MAX + 64];
			wtg_svg_chart_path(chart, sizeof chart, p, k);
			add_name(chart);
		}
	}
}

/* The input whose identity st has, or NULL. */
static const struct input *input_of(const struct stat *st)
{
	for (int i = 0; i < ninputs; i++)
		if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino)
			return &inputs[i];
	return NULL;
}

int wtg_target_check(const char *path, const char *shown, bool link_ok, char *err, size_t errlen)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return 0;	/* nothing there: the rename makes it */
	if (S_ISLNK(st.st_mode)) {
		bool was = false;
		for (int i = 0; i < nlinks && !was; i++)
			was = strcmp(links[i], path) == 0;
		if (!link_ok || !was) {
			snprintf(err, errlen, "cannot write '%s': it became a symbolic link after wtg started; "
				 "left as it is", shown);
			errno = EEXIST;
			return -1;
		}
		if (stat(path, &st) != 0)
			return 0;	/* a dangling link: its target is made */
	}
	const struct input *in = input_of(&st);
	if (in) {
		snprintf(err, errlen, "cannot write '%s': it is now %s, which wtg never writes; left as it is",
			 shown, in->desc);
		errno = EEXIST;
		return -1;
	}
	return 0;
}
