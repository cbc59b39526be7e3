/* fuzz_load.c: libFuzzer target for the reader of saved runs: any bytes either load (as one report,
 * or as the runs of a --replicate document) or give one error line; nothing crashes, leaks or hangs;
 * and the streaming reader (wtg_load_buffer) agrees
 * with the reference one (jansson's whole tree, wtg_load_buffer_whole): the same message, or the
 * same experiments, rows and cells (readers.c; tests/unit/test_readers.c replays the corpus through
 * the same comparison on every make check). Built by 'make fuzz' (clang); run as
 *   tests/fuzz/fuzz_load -max_total_time=30 tests/fuzz/corpus */
#include <stddef.h>
#include <stdint.h>

#include "readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (wtg_readers_differ((const char *)data, size, "fuzz.json", NULL))
		__builtin_trap();	/* the readers disagree, or an error is not one line naming the file */
	if (wtg_runs_check((const char *)data, size, "fuzz.json", NULL))
		__builtin_trap();	/* --load's reading of it (a --replicate document's runs too) went wrong */
	return 0;
}
