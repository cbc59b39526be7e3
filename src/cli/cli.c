/* cli.c: the command line, with one exact message per kind of bad input. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wtg/conditions.h"
#include "wtg/datafile.h"
#include "wtg/experiment.h"
#include "wtg/fleet.h"
#include "wtg/options.h"
#include "wtg/paths.h"
#include "wtg/report.h"
#include "wtg/util.h"

#include "cli.h"

/* The folder wtg would create its data file in: it exists, is a folder, can hold a data file and is
 * writable. Messages name where the folder came from (--dir, TMPDIR or the default). */
static int check_dir(const struct wtg_options *o)
{
	const char *hint = strcmp(o->dir_origin, "--dir") == 0 ? ""
			   : strcmp(o->dir_origin, "TMPDIR") == 0 ? "; fix TMPDIR or give --dir=DIR"
			   : "; give --dir=DIR";
	struct stat st;
	if (stat(o->dir, &st) < 0)
		return usage_error("%s '%s': %s%s", o->dir_origin, o->dir, strerror(errno), hint);
	if (!S_ISDIR(st.st_mode))
		return usage_error("%s '%s' is not a folder%s", o->dir_origin, o->dir, hint);
	const char *fs = wtg_datafile_pseudo_fs(o->dir);
	if (fs)
		return usage_error("%s '%s' is on %s, which cannot hold a data file%s", o->dir_origin, o->dir,
				   fs, hint);
	if (access(o->dir, W_OK | X_OK) < 0)
		return usage_error("%s '%s' is not writable: %s%s", o->dir_origin, o->dir, strerror(errno),
				   hint);
	return 0;
}

bool wtg_options_stdout_output(const struct wtg_options *o)
{
	for (int i = 0; i < o->noutputs; i++)
		if (wtg_report_is_stdout(o->outputs[i].path))
			return true;
	return false;
}

/* Output i: its format (ending, else --format) and a folder that exists now: finding out after a
 * long run would waste it. Which files it must not be (an input, another output) is checked once
 * the saved runs are read (paths.c). */
/* -o FOLDER with --format=json: a report of its own in it, named after the --label (else the host)
 * and the time (a class collects into one shared folder). */
static int collect_output(struct wtg_output *out, const char *label)
{
	const char *p = out->path;
	if (access(p, W_OK | X_OK) < 0)
		return usage_error("--output '%s': folder is not writable", p);
	if (!(out->path = wtg_collect_name(p, label)))
		return usage_error("--output '%s': no free name for a report in it", p);
	out->format = WTG_FMT_JSON;
	out->collect = true;
	return 0;
}

/* The folder a file named p is made in by a rename (through a link, the target's): there, a folder,
 * writable. what names the option in the message. */
static int check_folder(const char *what, const char *p, bool exists)
{
	char folder[4096], real[PATH_MAX];
	struct stat st, lst;
	bool link = exists && lstat(p, &lst) == 0 && S_ISLNK(lst.st_mode) && realpath(p, real);
	wtg_path_split(link ? real : p, folder, sizeof folder);
	if (stat(folder, &st) < 0)
		return usage_error("%s '%s': folder '%s': %s", what, p, folder, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return usage_error("%s '%s': '%s' is not a folder", what, p, folder);
	if (access(folder, W_OK | X_OK) < 0)
		return usage_error("%s '%s': folder '%s' is not writable", what, p, folder);
	return 0;
}

static int check_output(struct wtg_options *o, int i)
{
	struct wtg_output *out = &o->outputs[i];
	const char *p = out->path;
	struct stat st;
	bool exists = strcmp(p, "-") != 0 && stat(p, &st) == 0;
	int nsel = 0;
	for (int k = 0; k < wtg_nexperiments; k++)
		nsel += o->selected[k];
	int ending = wtg_format_from_path(p);
	bool svg = ending == WTG_FMT_SVG || (ending < 0 && o->format == WTG_FMT_SVG);
	if (exists && S_ISDIR(st.st_mode) && !svg && o->mode == WTG_MODE_RUN && o->format == WTG_FMT_JSON &&
	    o->format_given && !o->replicate)
		return collect_output(out, o->label);
	if (exists && S_ISDIR(st.st_mode)) {
		if (!svg)
			return usage_error("--output '%s' is a folder%s", p, o->mode == WTG_MODE_RUN ?
					   " (a report named after the host and time goes there with --format=json)" : "");
		out->format = WTG_FMT_SVG;	/* a folder of NAME.svg */
		return access(p, W_OK | X_OK) < 0 ? usage_error("--output '%s': folder is not writable", p) : 0;
	}
	if (svg && nsel > 1 && exists)
		return usage_error("--output '%s': svg with several experiments needs a folder", p);
	/* standard output, a device or a pipe by a name without an ending takes --format, as '-' does */
	bool stream = wtg_report_is_stdout(p) || (exists && !S_ISREG(st.st_mode));
	int fmt = strcmp(p, "-") == 0 ? (int)o->format : wtg_format_from_path(p);
	if (fmt < 0 && !o->format_given && !stream)
		return usage_error("--output '%s': unknown file ending (.txt .csv .json .md .svg .html), or "
				   "give --format", p);
	out->format = fmt < 0 ? o->format : (enum wtg_format)fmt;
	if (!wtg_writers[out->format].begin)
		return usage_error("--output '%s': this wtg was built without the %s writer", p,
				   wtg_writers[out->format].name);
	if (strcmp(p, "-") == 0)
		return 0;
	/* what is not a regular file is written in place; a regular file, whatever the spelling, is
	 * replaced by a rename in its folder: through a link (/dev/fd/N too), the target's */
	if (exists && !S_ISREG(st.st_mode))
		return access(p, W_OK) < 0 ? usage_error("--output '%s': %s", p, strerror(errno)) : 0;
	return check_folder("--output", p, exists);
}

/* --record=FILE: the dashboard's recording, written as -o writes (a rename in its folder, or in
 * place when it is no regular file), never onto a file wtg reads or the terminal. */
static int check_record(const struct wtg_options *o)
{
	const char *p = o->record;
	if (o->format_given || o->noutputs || o->baseline)
		return usage_error("--record records the dashboard, not --format, -o or --baseline");
	if (wtg_check_record(o))
		return 2;
	struct stat st;
	bool exists = stat(p, &st) == 0;
	if (exists && S_ISDIR(st.st_mode))
		return usage_error("--record '%s' is a folder: name a file (FILE.cast)", p);
	if (exists && !S_ISREG(st.st_mode))
		return access(p, W_OK) < 0 ? usage_error("--record '%s': %s", p, strerror(errno)) : 0;
	return check_folder("--record", p, exists);
}

/* A switch: sets its mode or turns its bool on. */
static void set_switch(struct parse_state *ps, const struct opt_desc *d)
{
	if (d->kind == OPT_MODE)
		ps->modes |= 1u << d->mode;
	else
		*(bool *)((char *)ps->o + d->flag) = true;
}
/* The word getopt stopped at, for messages about it. */
static const char *bad_word(int argc, char **argv)
{
	int i = optind - 1;
	if (i < 1 || i >= argc)
		i = argc - 1;
	return argv[i];
}

/* getopt_long's view of the table: struct option[] (val is the table index + 256, or the short
 * letter) and the short-option string. */
static void getopt_tables(struct option *lo, char *shorts, size_t len)
{
	size_t k = 0;
	shorts[k++] = ':';
	for (size_t i = 0; i < wtg_nopts; i++) {
		lo[i] = (struct option){ wtg_opts[i].name, wtg_opts[i].has_arg, NULL,
					 wtg_opts[i].short_name ? wtg_opts[i].short_name : (int)i + 256 };
		if (wtg_opts[i].short_name && k + 3 < len) {
			shorts[k++] = (char)wtg_opts[i].short_name;
			if (wtg_opts[i].has_arg == required_argument)
				shorts[k++] = ':';
		}
	}
	lo[wtg_nopts] = (struct option){ NULL, 0, NULL, 0 };
	shorts[k] = '\0';
}

/* The table entry getopt_long's return value c names, or NULL. */
static const struct opt_desc *opt_for(int c)
{
	if (c >= 256 && (size_t)(c - 256) < wtg_nopts)
		return &wtg_opts[c - 256];
	for (size_t i = 0; c > 0 && c < 256 && i < wtg_nopts; i++)
		if (wtg_opts[i].short_name == c)
			return &wtg_opts[i];
	return NULL;
}

/* The message for a word getopt did not know. */
static int unknown_option(int argc, char **argv)
{
	const char *w = bad_word(argc, argv);
	if (optopt && optopt < 256 && w[0] == '-' && w[1] != '-')
		return usage_error("unknown option '-%c'", optopt);
	/* long option: strip any '=value' */
	char word[64], poss[1024] = "";
	wtg_strlcpy(word, w, sizeof word);
	word[strcspn(word, "=")] = '\0';
	/* getopt_long takes any prefix of one long option; a prefix of several it refuses */
	size_t len = strlen(word), at = 0;
	int n = 0;
	for (size_t i = 0; len > 2 && word[1] == '-' && i < wtg_nopts && at < sizeof poss; i++) {
		if (strncmp(wtg_opts[i].name, word + 2, len - 2) != 0)
			continue;
		n++;
		at += (size_t)snprintf(poss + at, sizeof poss - at, " '--%s'", wtg_opts[i].name);
	}
	if (n > 1)
		return usage_error("option '%s' is ambiguous; possibilities:%s", word, poss);
	return usage_error("unknown option '%s'", word);
}

/* What holds before the command line is read: the defaults, NO_COLOR and TMPDIR. */
static void set_defaults(struct wtg_options *o, int argc, char **argv)
{
	memset(o, 0, sizeof *o);
	o->argc = argc;
	o->argv = (const char *const *)argv;
	o->mode = WTG_MODE_DASHBOARD;
	o->format = WTG_FMT_TEXT;
	o->seed = 1;
	o->color = true;
	o->compare_exp = wtg_compare_default();
	o->compare_cond = "burn";
	o->time_limit_ms = 10000;
	o->hold_ms = 4000;
	o->threshold_pct = 10;
	for (int i = 0; i < wtg_nexperiments && i < WTG_MAX_EXP; i++)
		o->order[o->norder++] = i;
	o->threads = 0; /* 0: the online CPUs, read where the sweep runs */
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		o->color = false;
	const char *tmp = getenv("TMPDIR");
	o->dir = (tmp && *tmp) ? tmp : "/var/tmp";
	o->dir_origin = (tmp && *tmp) ? "TMPDIR" : "the default folder";
}

/* Read every option through the table. Returns 0, or 2 after the usage line. */
static int parse_words(int argc, char **argv, struct parse_state *ps)
{
	struct option lo[WTG_MAX_OPTS + 1];
	char shorts[2 * WTG_MAX_OPTS + 2];
	getopt_tables(lo, shorts, sizeof shorts);
	opterr = 0;
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		if (c == ':')
			return usage_error("option '%s' needs a value", bad_word(argc, argv));
		const struct opt_desc *d = opt_for(c);
		if (!d)
			return unknown_option(argc, argv);
		if (d->kind != OPT_VALUE)
			set_switch(ps, d);
		else if (d->parse(ps, optarg))
			return 2;
	}
	return 0;
}

/* The data file: --file exists, is regular, large enough and readable; else the folder wtg would
 * create one in, when a run needs it. */
static int check_datafile(const struct wtg_options *o)
{
	struct stat st;
	if (!o->file)
		return wtg_options_need_datafile(o) ? check_dir(o) : 0;
	if (stat(o->file, &st) < 0)
		return usage_error("--file '%s': %s", o->file, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return usage_error("--file '%s' is not a regular file", o->file);
	if (st.st_size < 65536)
		return usage_error("--file '%s' is too small: the experiments need at least 64K", o->file);
	if (access(o->file, R_OK) < 0)
		return usage_error("--file '%s': %s", o->file, strerror(errno));
	return 0;
}

/* --dry-run: the plans of the --run experiments (all of them without --run), as text or JSON on
 * standard output; nothing is measured, so no folder is checked (a --file must still be one). */
static int check_dry_run(struct wtg_options *o, const struct parse_state *ps)
{
	if (o->nloads || o->baseline)
		return usage_error("--dry-run plans a live run, not --load or --baseline");
	if (o->replicate)
		return usage_error("--dry-run plans one run, not --replicate");
	if (o->noutputs)
		return usage_error("--dry-run prints on standard output, not to --output files");
	if (o->format != WTG_FMT_TEXT && o->format != WTG_FMT_JSON)
		return usage_error("--dry-run prints text or json, not %s", wtg_writers[o->format].name);
	if (o->file && o->size_given)
		return usage_error("--size is for the file wtg creates, not for --file");
	if (!o->size_given)
		o->size = o->quick ? WTG_QUICK_SIZE : WTG_DEFAULT_SIZE;
	for (int i = 0; i < wtg_nexperiments && !ps->run_given; i++)
		o->selected[i] = true;
	o->mode = WTG_MODE_DRYRUN;
	return o->file ? check_datafile(o) : 0;
}

/* --replicate: a live run of its own, printed as text or json. */
static int check_replicate(const struct wtg_options *o, const struct parse_state *ps)
{
	if (!ps->run_given)
		return usage_error("--replicate goes with --run");
	if (o->nloads || o->baseline)
		return usage_error("--replicate compares its own runs, not --load or --baseline");
	if (o->format != WTG_FMT_TEXT && o->format != WTG_FMT_JSON)
		return usage_error("--replicate prints text or json, not %s", wtg_writers[o->format].name);
	return 0;
}

/* --replicate's outputs, once their formats are known (check_output): text or json, as it prints. */
static int check_replicate_outputs(const struct wtg_options *o)
{
	for (int i = 0; i < o->noutputs; i++)
		if (o->outputs[i].format != WTG_FMT_TEXT && o->outputs[i].format != WTG_FMT_JSON)
			return usage_error("--output '%s': --replicate writes text or json, not %s", o->outputs[i].path,
					   wtg_writers[o->outputs[i].format].name);
	return 0;
}

/* The checks across options and against the file system, once the mode is known. */
static int check_options(struct wtg_options *o, const struct parse_state *ps)
{
	if (o->record && (ps->run_given || o->dry_run))
		return usage_error("--record records the dashboard, not --run or --dry-run");
	if (o->dry_run)
		return check_dry_run(o, ps);
	if (o->nloads && wtg_loads_expand(o))
		return 2;
	if (o->summary && !o->nloads)
		return usage_error("--summary goes with --load");
	if (o->highlight && !wtg_loads_summary(o))
		return usage_error("--highlight goes with the summary of --load (more than %d runs, or --summary)",
				   WTG_MAX_LOAD_FILES);
	if (wtg_loads_summary(o) && (ps->run_given || o->baseline || o->replicate))
		return usage_error("the summary of %d --load runs stands alone: compare up to %d with --run or "
				   "--baseline", o->nloads, WTG_MAX_LOAD_FILES);
	if (!ps->run_given && o->nloads) {
		o->mode = WTG_MODE_LOAD;	/* nothing measures: saved runs converted or compared */
	} else if (!ps->run_given) {
		if (o->baseline)
			return usage_error("--baseline goes with --run or --load");
		if (o->noutputs)
			return usage_error("--output goes with --run");
		if (o->format_given)
			return usage_error("--format goes with --run");
	}
	if (o->baseline && o->mode != WTG_MODE_RUN && o->mode != WTG_MODE_LOAD)
		return usage_error("--baseline goes with --run or --load");
	if (o->threshold_given && !o->baseline)
		return usage_error("--threshold goes with --baseline");
	if (o->versus.cond != WTG_VS_NONE && !ps->run_given)
		return usage_error("--versus goes with --run");
	if (o->replicate && check_replicate(o, ps))
		return 2;
	if (o->gap_s > 0 && !o->replicate)
		return usage_error("--gap goes with --replicate");
	if (o->file && o->size_given)
		return usage_error("--size is for the file wtg creates, not for --file");
	if (o->file && ps->dir_given)
		return usage_error("--dir is for the file wtg creates, not for --file");
	if (!o->size_given)
		o->size = o->quick ? WTG_QUICK_SIZE : WTG_DEFAULT_SIZE;
	if (check_datafile(o))
		return 2;
	for (int i = 0; i < o->noutputs; i++)
		if (check_output(o, i))
			return 2;
	if (o->replicate && check_replicate_outputs(o))
		return 2;
	for (int i = 0; i < o->noutputs && o->mode == WTG_MODE_LOAD && (o->baseline || o->nloads > 1); i++) {
		size_t len = strlen(o->outputs[i].path);
		if (len && o->outputs[i].path[len - 1] == '/')
			return usage_error("--output '%s': a comparison is written into one file, not a folder",
					   o->outputs[i].path);
	}
	if (!wtg_writers[o->format].begin)
		return usage_error("--format=%s: this wtg was built without the %s writer", wtg_writers[o->format].name,
				   wtg_writers[o->format].name);
	int nsel = 0;
	for (int i = 0; i < wtg_nexperiments; i++)
		nsel += o->selected[i];
	if (o->format == WTG_FMT_SVG && nsel > 1 && (o->noutputs == 0 || wtg_options_stdout_output(o)))
		return usage_error("svg draws one experiment per file: with several, -o names a folder");
	return o->record ? check_record(o) : 0;
}

int wtg_parse_options(int argc, char **argv, struct wtg_options *o)
{
	set_defaults(o, argc, argv);
	struct parse_state ps = { .o = o, .ncpu = wtg_online_cpus() };
	if (parse_words(argc, argv, &ps))
		return 2;
	if (o->mode == WTG_MODE_CHILD) {
		if (optind != argc - 1)
			return usage_error("--child needs one file");
		o->child_path = argv[optind];
		return 0;
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	static const enum wtg_mode first[] = { WTG_MODE_HELP, WTG_MODE_VERSION, WTG_MODE_LIST };
	for (size_t i = 0; i < WTG_ARRAY_LEN(first); i++)
		if (ps.modes & (1u << first[i])) {
			o->mode = first[i];
			return 0;
		}
	if (ps.run_given)
		o->mode = WTG_MODE_RUN;
	return check_options(o, &ps);
}
