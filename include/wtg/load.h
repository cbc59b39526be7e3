/* load.h: saved runs come back. A strict reader of wtg's JSON report (schema 2) into the same
 * tables the experiments fill, plus what the file says about its run (machine, date, label,
 * conditions, options), for the headless conversion, the comparison, the gate and the views. */
#ifndef WTG_LOAD_H
#define WTG_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wtg/conditions.h"
#include "wtg/machine.h"
#include "wtg/session.h"
#include "wtg/table.h"

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
	char label[128];		/* --label, the saved label, else the file's base name */
	char path[1024];		/* the file, "" for the live run */
	char timestamp[40];		/* "2026-11-30T19:26:36Z", "" unknown */
	char version[32];		/* the wtg that wrote it */
	double duration_s;		/* NAN when unknown */
	int schema;
	struct wtg_machine machine;	/* the fields the file holds; "" or -1 elsewhere */
	struct wtg_cond_snapshot cond;	/* the conditions block */
	struct wtg_run_options opt;
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
};

/* Read path into l. On any problem returns -1 with one line in err: "FILE: line 3 column 7: ..."
 * where the parser knows the place, else "FILE: experiments[2].rows[5].gbps: not a number". Never
 * leaves anything to free on failure. */
int wtg_load_file(const char *path, struct wtg_loaded *l, char *err, size_t errlen);
/* The same from memory (name stands for the file in messages and gives the label). */
int wtg_load_buffer(const char *buf, size_t len, const char *name, struct wtg_loaded *l, char *err,
		    size_t errlen);
void wtg_loaded_free(struct wtg_loaded *l);

/* "runs/quiet.json" -> "quiet". */
void wtg_load_label_from_path(const char *path, char *buf, size_t len);

/* The live run's metadata: label (--label, else "live"), machine, options, conditions now. */
void wtg_run_meta_live(struct wtg_run_meta *m, const struct wtg_session *s);

/* Move the loaded tables into a session that has not started (its tables initialised, none run):
 * the writers then write them as they write a live run. Marks them in which[] (registry index).
 * The loaded run keeps its strings: free it after the session. */
void wtg_load_into_session(struct wtg_loaded *l, struct wtg_session *s, bool *which);

#endif
