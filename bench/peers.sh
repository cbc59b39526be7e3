#!/usr/bin/env bash
# bench/peers.sh: wtg's headline figures beside an established peer, measured in one run, one
# right after the other, reported as ratios (wtg / peer). The machine is shared and noisy: read the
# ratios, not the absolute numbers, and run it twice before believing a change.
#
#   syscall   median ns per getpid (batch 10000)       perf bench syscall basic (getppid)
#   zerofill  ns per zero-fill page fault              stress-ng --fault 1 (its own ns per fault)
#   uncached  O_DIRECT 64 KiB sequential GB/s          fio --direct=1 --rw=read --bs=64k
#             random 16 KiB median latency             fio --direct=1 --rw=randread --bs=16k
#   threads   1-thread GB/s of the byte sum            likwid-bench -t sum_avx (1 thread, 1 GB)
#
# Usage: bench/peers.sh [--quick]   (needs linux-perf, stress-ng, fio, likwid; skips what is missing)
set -u
cd "$(dirname "$0")/.."
WTG=${WTG:-src/wtg}
quick=${1:-}
dir=$(mktemp -d "${TMPDIR:-/var/tmp}/wtg-bench-XXXXXX")
trap 'rm -rf "$dir"' EXIT

"$WTG" --run=syscall,zerofill,uncached,threads --threads=2 ${quick:+--quick} --format=json \
	--dir="$dir" -o "$dir/wtg.json" || { echo "wtg failed" >&2; exit 1; }

peer_syscall=""; peer_fault=""; peer_seq=""; peer_rand=""; peer_sum=""
if command -v perf >/dev/null; then
	peer_syscall=$(perf bench syscall basic 2>/dev/null | awk '/usecs\/op/ {print $1 * 1000}')
fi
if command -v stress-ng >/dev/null; then
	peer_fault=$(stress-ng --fault 1 -t 5 --metrics 2>&1 | sed -n 's/.* \([0-9.]*\) nanosecs per page fault.*/\1/p' | head -n 1)
fi
if command -v fio >/dev/null; then
	f="$dir/fio.dat"
	fio --name=seq --filename="$f" --size=256M --direct=1 --rw=read --bs=64k --runtime=5 --time_based \
		--output-format=json >"$dir/seq.json" 2>/dev/null &&
		peer_seq=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["jobs"][0]["read"]["bw_bytes"]/1e9)' "$dir/seq.json")
	fio --name=rand --filename="$f" --size=256M --direct=1 --rw=randread --bs=16k --runtime=5 --time_based \
		--output-format=json >"$dir/rand.json" 2>/dev/null &&
		peer_rand=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["jobs"][0]["read"]["clat_ns"]["percentile"]["50.000000"]/1e3)' "$dir/rand.json")
	rm -f "$f"
fi
if command -v likwid-bench >/dev/null; then
	peer_sum=$(likwid-bench -t sum_avx -w S0:1GB:1 2>/dev/null | awk '/^MByte\/s/ {print $2 / 1000}')
fi

python3 - "$dir/wtg.json" "$peer_syscall" "$peer_fault" "$peer_seq" "$peer_rand" "$peer_sum" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
peers = [float(x) if x else None for x in sys.argv[2:]]

def rows(name):
    for e in doc["experiments"]:
        if e["name"] == name:
            cols = [c["name"] for c in e["columns"]]
            return [dict(zip(cols, r)) for r in e["rows"]]
    return []

def pick(name, key, **where):
    for r in rows(name):
        if all(r.get(k) == v for k, v in where.items()) and r.get(key) is not None:
            return float(r[key])
    return None

figures = [
    ("syscall median ns/call (batch 10000)", pick("syscall", "median_ns", batch=10000),
     "perf bench syscall basic", peers[0], "ns"),
    ("zero-fill ns per fault", pick("zerofill", "ns_per_fault"), "stress-ng --fault 1", peers[1], "ns"),
    ("O_DIRECT 64K sequential GB/s", pick("uncached", "gbps", mode="sequential", bufsize=65536),
     "fio --direct=1 read bs=64k", peers[2], "GB/s"),
    ("O_DIRECT random 16K median us", pick("uncached", "median_us", mode="random"),
     "fio --direct=1 randread bs=16k", peers[3], "us"),
    ("1-thread byte sum GB/s", pick("threads", "gbps", threads=1), "likwid-bench sum_avx 1 thread",
     peers[4], "GB/s"),
]
print("%-38s %15s   %-32s %15s %8s" % ("wtg figure", "wtg", "peer", "peer", "ratio"))
for name, ours, peer_name, theirs, unit in figures:
    if ours is None or theirs is None or theirs == 0:
        print("%-38s %15s   %-32s %15s %8s" % (name, ours if ours is not None else "n/a", peer_name,
                                               theirs if theirs is not None else "n/a", "n/a"))
    else:
        print("%-38s %10.3f %-4s   %-32s %10.3f %-4s %8.2f" % (name, ours, unit, peer_name, theirs, unit,
                                                               ours / theirs))
PY
