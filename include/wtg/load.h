/* load.h: saved runs come back. A strict reader of wtg's JSON report (schema 2) into the same
 * tables the experiments fill, plus what the file says about its run (machine, date, label,
 * conditions, options), for the headless conversion, the comparison, the gate and the views. */
#ifndef WTG_LOAD_H
#define WTG_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wtg/conditions.h"
#include "wtg/datafile.h"
#include "wtg/experiment.h"
#include "wtg/machine.h"
#include "wtg/options.h"
#include "wtg/table.h"
#include "wtg/topology.h"

struct wtg_report_meta;

/* At most this many --load files (the overlays of up to eight runs). */
#define WTG_MAX_LOADS 8
/* The oldest and newest JSON layout the reader takes. */
#define WTG_LOAD_SCHEMA_MIN 2
#define WTG_LOAD_SCHEMA_MAX 2
/* Larger files are refused before they are read. */
#define WTG_LOAD_MAX_BYTES (1ull << 30)

/* The options of a saved run that change what its figures mean (the gate warns when they differ). */
struct wtg_run_options {
	bool known;			/* the file had an options block */
	bool quick;
	uint64_t size;			/* data file bytes */
	int threads;
	int burn;
	char burn_kind[16];
	bool background, uncached;
	uint64_t seed;
};

/* What a run says about itself: for a saved one, read from its file; for the live one, filled by
 * wtg_run_meta_live. */
struct wtg_run_meta {
	const char *label;		/* --label, the saved label (whole, in the loaded run's arena), else
					 * the file's base name (in label_buf); never NULL once filled */
	char label_buf[256];
	char path[1024];		/* the file, "" for the live run */
	char timestamp[40];		/* "2026-11-30T19:26:36Z", "" unknown */
	char version[32];		/* the wtg that wrote it */
	double duration_s;		/* NAN when unknown */
	int schema;
	struct wtg_machine machine;	/* the fields the file holds; "" or -1 elsewhere */
	struct wtg_cond_snapshot cond;	/* the conditions block */
	struct wtg_run_options opt;
};

/* What a saved report says beyond struct wtg_run_meta: everything its writer was given, so that a
 * conversion (--load with --format or -o) writes the saved run, not the current invocation. */
struct wtg_run_saved {
	bool label_saved;		/* the run block had a label (not null) */
	bool begun;			/* conditions_at_start was given (a headless run's start) */
	int64_t start_real_ns;		/* the run block's timestamp, ns since the epoch */
	struct wtg_cond_snapshot cond_start;
	uint64_t seed;
	bool quick;
	bool has_topo;			/* the machine block had a topology */
	struct wtg_topology topo;
	char topo_summary[256];
	enum wtg_df_state df_state;
	struct wtg_datafile df;		/* path, size, filesystem, known sum, O_DIRECT facts, owned */
	char df_error[512];
	const char *df_path;		/* the path of a data file not ready (--file), or NULL */
	bool has_opt;			/* the options block was given */
	struct wtg_options opt;		/* the options and the command line, as the run had them */
	const char **command_line;	/* opt.argv's array, owned (the strings stay in the document) */
	char compare_exp[64], compare_cond[32];
};

/* A run a tab showed before the one saved as its table (earlier_runs): the dashboard's before -> after. */
#define WTG_LOAD_MAX_EARLIER 32	/* a dashboard save holds up to WTG_REPORT_MAX_EARLIER */
struct wtg_loaded_run {
	struct wtg_table t;
	const char *label;		/* its conditions ("quiet", "burners 2 spin"), in the arena; never NULL */
};

/* One saved run: its metadata and its tables, indexed like the registry (tables of experiments the
 * file does not hold, or this wtg does not know, are empty with present[i] false). */
struct wtg_loaded {
	struct wtg_run_meta meta;
	struct wtg_table tables[WTG_MAX_EXP];
	bool present[WTG_MAX_EXP];
	int npresent;
	char skipped[256];		/* experiments in the file this wtg does not know, comma-separated */
	void *strings;			/* the parsed document (an arena): owns the column names and units */
	struct wtg_run_saved saved;	/* the rest of the run's metadata (strings in the arena) */
	struct wtg_loaded_run *earlier[WTG_MAX_EXP];	/* each table's earlier runs, oldest first */
	int nearlier[WTG_MAX_EXP];
	int dropped[WTG_MAX_EXP];	/* earlier runs the save let go (earlier_runs_dropped) */
};

/* Read path into l. On any problem returns -1 with one line in err: "FILE: line 3 column 7: ..."
 * where the parser knows the place, else "FILE: experiments[2].rows[5].gbps: not a number". Never
 * leaves anything to free on failure. */
int wtg_load_file(const char *path, struct wtg_loaded *l, char *err, size_t errlen);
/* The same from memory (name stands for the file in messages and gives the label). The rows are
 * read as they stream (yajl); whatever jansson alone must judge is parsed again whole. */
int wtg_load_buffer(const char *buf, size_t len, const char *name, struct wtg_loaded *l, char *err,
		    size_t errlen);
/* The reference reader: the same through jansson's whole tree only (slower; the fuzzer checks that
 * both readers give the same tables or the same message). */
int wtg_load_buffer_whole(const char *buf, size_t len, const char *name, struct wtg_loaded *l, char *err,
			  size_t errlen);
void wtg_loaded_free(struct wtg_loaded *l);

/* Read path as wtg_load_file does, or, when it is the document --replicate writes ({"tool": "wtg",
 * "replicates": N, "runs": [N whole reports], ...}), each of its runs in turn into ls[0 .. N) (each
 * named "FILE, run K" in messages, labelled "run K", or "LABEL K" when it was saved with a label, as
 * the replication table named it). *n says how many; more than max is an error. On any problem returns -1 with one line in err and nothing left to free. */
int wtg_load_file_runs(const char *path, struct wtg_loaded *ls, int max, int *n, char *err, size_t errlen);
/* The same from memory (name as for wtg_load_buffer). */
int wtg_load_buffer_runs(const char *buf, size_t len, const char *name, struct wtg_loaded *ls, int max, int *n,
			 char *err, size_t errlen);

/* "runs/quiet.json" -> "quiet". */
void wtg_load_label_from_path(const char *path, char *buf, size_t len);

#endif
