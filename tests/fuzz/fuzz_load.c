/* fuzz_load.c: libFuzzer target for the reader of saved runs: any bytes either load or give one
 * error line; nothing crashes, leaks or hangs. Built by 'make fuzz' (clang); run as
 *   tests/fuzz/fuzz_load -max_total_time=30 tests/fuzz/corpus */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wtg/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct wtg_loaded l;
	char err[512];
	if (wtg_load_buffer((const char *)data, size, "fuzz.json", &l, err, sizeof err) == 0) {
		wtg_loaded_free(&l);
	} else if (!err[0] || strchr(err, '\n') || strncmp(err, "fuzz.json: ", 11) != 0) {
		__builtin_trap();	/* every failure is one line naming the file */
	}
	return 0;
}
