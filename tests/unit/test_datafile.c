/* test_datafile.c: the data file's known sums are the sums of the bytes on disk.
 *
 * Files of sizes around the 2 MiB generation block (empty tail, one byte past a block, a short last
 * chunk) are created in a private folder; the total and every chunk sum must equal a reference
 * summed byte by byte from a pread of the file, every prefix sum must agree with them, using the
 * same file through wtg_datafile_use must give the same sums, the same seed must give the same
 * bytes, and removing the file must leave the folder empty.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "wtg/datafile.h"

static char dir[] = "/tmp/wtg-test-datafile-XXXXXX";

/* The file's bytes summed one at a time: its total, and its WTG_CHUNK sums into chunk[]. */
/* The file's sum read back with pread, and each unit-sized part's sum in sums. */
static int64_t reference_by(const char *path, uint64_t size, uint64_t unit, int64_t *sums)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	unsigned char *buf = malloc(unit);
	int64_t total = 0;
	for (uint64_t off = 0; buf && off < size; off += unit) {
		size_t want = size - off < unit ? (size_t)(size - off) : unit;
		if (pread(fd, buf, want, (off_t)off) != (ssize_t)want) {
			total = -1;
			break;
		}
		int64_t s = 0;
		for (size_t i = 0; i < want; i++)
			s += buf[i];
		sums[off / unit] = s;
		total += s;
	}
	free(buf);
	close(fd);
	return total;
}

static int64_t reference(const char *path, uint64_t size, int64_t *chunk)
{
	return reference_by(path, size, WTG_CHUNK, chunk);
}

static void reference_pages(const char *path, uint64_t size, int64_t *page)
{
	reference_by(path, size, WTG_SUM_PAGE, page);
}

static bool folder_empty(void)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *de;
	while (d && (de = readdir(d)) != NULL)
		n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
	if (d)
		closedir(d);
	return d && n == 0;
}

/* Create a file of size bytes with seed; check its sums against the bytes and against --file. */
static void one_size(uint64_t size, uint64_t seed, int64_t *sum_out)
{
	struct wtg_datafile df = { 0 };
	char err[256];
	int rc = wtg_datafile_create(&df, dir, "--dir", size, seed, err, sizeof err);
	CHECK(rc == 0);
	if (rc) {
		fprintf(stderr, "size %llu: %s\n", (unsigned long long)size, err);
		return;
	}
	CHECK(df.size == size && df.nchunks == (size + WTG_CHUNK - 1) / WTG_CHUNK);
	int64_t *chunk = calloc(df.nchunks, sizeof *chunk);
	CHECK(reference(df.path, size, chunk) == df.sum);
	int bad = 0;
	int64_t prefix = 0;
	for (uint64_t i = 0; i < df.nchunks; i++) {
		bad += chunk[i] != df.chunk_sums[i];
		prefix += df.chunk_sums[i];
		if ((i + 1) * WTG_CHUNK <= size)
			bad += wtg_datafile_prefix_sum(&df, (i + 1) * WTG_CHUNK) != prefix;
	}
	CHECK(bad == 0);
	CHECK(prefix == df.sum && wtg_datafile_prefix_sum(&df, size) == df.sum);
	/* at every page boundary the known sum is the bytes' sum; between pages there is none */
	int64_t *page = calloc((size + WTG_SUM_PAGE - 1) / WTG_SUM_PAGE, sizeof *page);
	reference_pages(df.path, size, page);
	bad = 0;
	prefix = 0;
	for (uint64_t i = 0; (i + 1) * WTG_SUM_PAGE <= size; i++) {
		prefix += page[i];
		bad += wtg_datafile_prefix_sum(&df, (i + 1) * WTG_SUM_PAGE) != prefix;
	}
	CHECK(bad == 0);
	CHECK(size <= WTG_SUM_PAGE || wtg_datafile_prefix_sum(&df, WTG_SUM_PAGE + 1) == -1);
	free(page);

	struct wtg_datafile used = { 0 };
	CHECK(wtg_datafile_use(&used, df.path, err, sizeof err) == 0);
	CHECK(used.sum == df.sum && used.nchunks == df.nchunks && !used.owned);
	CHECK(used.chunk_sums &&
	      memcmp(used.chunk_sums, df.chunk_sums, df.nchunks * sizeof *df.chunk_sums) == 0);
	wtg_datafile_free(&used);

	*sum_out = df.sum;
	wtg_datafile_remove(&df);
	wtg_datafile_free(&df);
	free(chunk);
	CHECK(folder_empty());
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	const uint64_t mib = 1u << 20;
	const uint64_t sizes[] = { 1, WTG_CHUNK - 1, 2 * mib, 2 * mib + 1, 3 * mib + 4099, 6 * mib };
	int64_t sums[6], again;
	for (size_t i = 0; i < 6; i++)
		one_size(sizes[i], 42, &sums[i]);
	/* the same seed, the same bytes; another seed, others */
	one_size(3 * mib + 4099, 42, &again);
	CHECK(again == sums[4]);
	one_size(3 * mib + 4099, 43, &again);
	CHECK(again != sums[4]);
	rmdir(dir);
	return unit_done("test_datafile");
}
