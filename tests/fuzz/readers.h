/* readers.h: the two readers of saved runs side by side. The streaming reader (wtg_load_buffer) must
 * agree with the reference one (jansson's whole tree, wtg_load_buffer_whole) on any bytes: the same
 * error line, or the same experiments, rows and cells. The fuzz target (fuzz_load.c) asks it of
 * every input libFuzzer makes; tests/unit/test_readers.c of every file in tests/fuzz/corpus, on
 * every make check. */
#ifndef WTG_TESTS_READERS_H
#define WTG_TESTS_READERS_H

#include <stddef.h>

/* Reads buf (len bytes, called name in messages) with both readers. Returns NULL when they agree,
 * else what differs (a static string); loaded, when given, says whether they both took it. */
const char *wtg_readers_differ(const char *buf, size_t len, const char *name, int *loaded);

/* Reads buf as --load reads a file (wtg_load_buffer_runs: one report, or a --replicate document's
 * runs, at most WTG_RUNS_CHECK_MAX). Returns NULL when it loads 1 to that many runs, or refuses with
 * one line naming the file and nothing left loaded; else what went wrong. *nruns, when given: the
 * runs it took. */
#define WTG_RUNS_CHECK_MAX 4
const char *wtg_runs_check(const char *buf, size_t len, const char *name, int *nruns);

#endif
