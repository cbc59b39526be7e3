/* cli.h: what the command line's files share (src/cli/): the option table, read by the parser
 * (cli.c) and written with the options' own readers and the help (optable.c). */
#ifndef WTG_CLI_H
#define WTG_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "wtg/options.h"

#define usage_error wtg_usage_error

/* What the command line is being read into: the options, and what the checks after the loop need. */
struct parse_state {
	struct wtg_options *o;
	int ncpu;
	bool run_given, dir_given;
	unsigned modes;			/* 1 << WTG_MODE_HELP, _VERSION, _LIST for each given */
};

/* How an option's value is read and checked: 0, or 2 after the usage line. */
typedef int (*opt_parse_fn)(struct parse_state *ps, const char *arg);

/* What an option does: reads a value (parse), chooses a mode, or turns a bool of the options on. */
enum opt_kind { OPT_VALUE = 1, OPT_MODE, OPT_FLAG };

/* One option: the table drives getopt_long, --help, and through --help the completion. */
struct opt_desc {
	const char *name;		/* long name */
	int short_name;			/* 0: none */
	int has_arg;			/* no_argument, required_argument, optional_argument */
	const char *arg_help;		/* how the value is spelled in --help, after the name */
	const char *group;		/* heading in --help; NULL: hidden */
	const char *help;		/* lines after the first are indented to the help column */
	enum opt_kind kind;
	opt_parse_fn parse;		/* OPT_VALUE */
	enum wtg_mode mode;		/* OPT_MODE */
	size_t flag;			/* OPT_FLAG: the bool's offset in struct wtg_options */
};

#define VALUE(fn) .kind = OPT_VALUE, .parse = (fn)
#define MODE(m) .kind = OPT_MODE, .mode = (m)
#define FLAG(field) .kind = OPT_FLAG, .flag = offsetof(struct wtg_options, field)

/* The table, in --help's order, and its length (at most WTG_MAX_OPTS, which optable.c asserts). */
#define WTG_MAX_OPTS 64
extern const struct opt_desc wtg_opts[];
extern const size_t wtg_nopts;

#endif
