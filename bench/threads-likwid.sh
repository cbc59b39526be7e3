#!/usr/bin/env bash
# bench/threads-likwid.sh: the threads experiment's one-thread and all-CPU GB/s beside
# likwid-bench's load_avx512 (AVX-512 loads, no arithmetic) over the same working set and with as
# many threads, run alternately ROUNDS times (the order flipped every round); prints each pair's
# ratio wtg / likwid and the median ratio per thread count. The goal for these figures: a median
# ratio of at least 0.9.
#
# The machine may be shared and noisy: the pairs run back to back so both see the same load; read
# the median ratio, not the absolute numbers, and the load printed beside each round.
#
# Pages matter here: wtg's data file is written in 2 MiB blocks so that the page cache holds it in
# PMD-sized folios and the mapping uses 2 MiB page-table entries (grep FilePmdMapped
# /proc/PID/smaps); likwid-bench's buffer is plain anonymous memory, in 4 KiB pages unless THP is
# "always". Under a hypervisor's nested paging every 4 KiB TLB miss is a two-dimensional walk.
#
# Usage: bench/threads-likwid.sh [ROUNDS] [SIZE]   (defaults 5 and 256M; needs likwid-bench)
set -u
cd "$(dirname "$0")/.."
WTG=${WTG:-src/wtg}
rounds=${1:-5}
size=${2:-256M}
command -v likwid-bench >/dev/null || { echo "likwid-bench is not installed" >&2; exit 1; }
ncpu=$(getconf _NPROCESSORS_ONLN)
mb=$(python3 -c 'import sys; s = sys.argv[1]; u = {"K": 1 / 1024, "M": 1, "G": 1024}[s[-1]]; print(int(float(s[:-1]) * u))' "$size")
dir=$(mktemp -d "${TMPDIR:-/var/tmp}/wtg-bench-XXXXXX")
trap 'rm -rf "$dir"' EXIT

# likwid-bench's GB/s for n threads over the working set (MB, split among them)
likwid() {
	likwid-bench -t load_avx512 -w "S0:${mb}MB:$1" 2>/dev/null | awk '/^MByte\/s/ {print $2 / 1000}'
}

# wtg's one-thread and all-CPU GB/s, as "G1 GN"
wtg() {
	"$WTG" --run=threads --size="$size" --format=json --dir="$dir" -o "$dir/wtg.json" >/dev/null 2>&1 ||
		{ echo "wtg failed" >&2; return 1; }
	python3 - "$dir/wtg.json" "$ncpu" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
e = [x for x in doc["experiments"] if x["name"] == "threads"][0]
cols = [c["name"] for c in e["columns"]]
got = {}
for row in e["rows"]:
    # schema 2 writes each row as an object keyed by column name, schema 1 as an array
    r = row if isinstance(row, dict) else dict(zip(cols, row))
    got[r["threads"]] = r["gbps"]
print(got.get(1, 0), got.get(int(sys.argv[2]), 0))
PY
}

# the order flips every round, so neither side always runs right after the other
for r in $(seq 1 "$rounds"); do
	if [ $((r % 2)) -eq 1 ]; then
		w=$(wtg) || exit 1
		l1=$(likwid 1)
		ln=$(likwid "$ncpu")
	else
		l1=$(likwid 1)
		ln=$(likwid "$ncpu")
		w=$(wtg) || exit 1
	fi
	echo "round $r (load $(cut -d' ' -f1-3 /proc/loadavg)): 1 thread wtg ${w% *} GB/s likwid $l1 GB/s; $ncpu threads wtg ${w#* } GB/s likwid $ln GB/s"
	echo "${w% *} $l1 ${w#* } $ln" >>"$dir/pairs"
done

python3 - "$dir/pairs" "$ncpu" <<'PY'
import statistics, sys
pairs = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
for name, i in (("1 thread", 0), (sys.argv[2] + " threads", 2)):
    ratios = [p[i] / p[i + 1] for p in pairs if p[i + 1] > 0]
    print("%-10s wtg / likwid load_avx512: %s; median %.2f" %
          (name, " ".join("%.2f" % x for x in ratios), statistics.median(ratios) if ratios else float("nan")))
PY
