#!/bin/sh
# bench/writers.sh: the size of each report and the time each writer takes on the full catalogue.
# One `wtg --run=all --quick` writes every format at once (-o r.json -o r.csv -o r.md -o r.txt);
# strace timestamps each output from the creation of its temporary file to the rename into place
# (so the figure includes the write, the fflush and the fsync). As a peer, Python re-serialises
# the same document with json.dump and the same records with csv.writer, alternating with reading
# them back, and the ratios wtg/Python are printed.
#
# usage: bench/writers.sh [RUN_LIST]      (from the top of a built tree; default all)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
WTG=${WTG:-$top/src/wtg}
list=${1:-all}
command -v strace >/dev/null || { echo "bench/writers.sh: needs strace" >&2; exit 1; }
out=$(mktemp -d "${TMPDIR:-/var/tmp}/wtg-writers-XXXXXX")
trap 'rm -rf "$out"' EXIT

strace -f -ttt -qq -e trace=openat,rename,renameat,renameat2 -o "$out/trace" \
	"$WTG" --run="$list" --quick --dir="$out" --progress=never -q \
	-o "$out/r.json" -o "$out/r.csv" -o "$out/r.md" -o "$out/r.txt" || exit 1

python3 - "$out" <<'PY'
import csv, io, json, os, re, sys, time
d = sys.argv[1]
start, took = {}, {}
for line in open(os.path.join(d, "trace")):
    m = re.search(r"^\d+\s+([\d.]+) openat\(.*\"[^\"]*/\.r\.(\w+)\.\w{6}\".*O_CREAT", line)
    if m:
        start[m.group(2)] = float(m.group(1))
    m = re.search(r"^\d+\s+([\d.]+) rename\w*\(.*\"[^\"]*/\.r\.(\w+)\.\w{6}\"", line)
    if m and m.group(2) in start:
        took[m.group(2)] = float(m.group(1)) - start[m.group(2)]

def peer(fn, n=5):
    best = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        best.append(time.perf_counter() - t)
    best.sort()
    return best[len(best) // 2]

doc = json.load(open(os.path.join(d, "r.json")))
recs = list(csv.reader(open(os.path.join(d, "r.csv"), newline="")))
peers = {"json": peer(lambda: json.dump(doc, io.StringIO(), indent=2)),
         "csv": peer(lambda: csv.writer(io.StringIO()).writerows(recs))}
print("%-5s %10s %10s %14s %8s" % ("fmt", "bytes", "wtg ms", "python ms", "ratio"))
for ext in ("json", "csv", "md", "txt"):
    size = os.path.getsize(os.path.join(d, "r." + ext))
    ms = took.get(ext, float("nan")) * 1e3
    p = peers.get(ext)
    print("%-5s %10d %10.2f %14s %8s" % (ext, size, ms, "%.2f" % (p * 1e3) if p else "-",
                                        "%.2f" % (ms / (p * 1e3)) if p else "-"))
print("experiments: %d, rows: %d, series samples: %d" % (
    len(doc["experiments"]), sum(len(e["rows"]) for e in doc["experiments"]),
    sum(s["count"] for e in doc["experiments"] for s in e["series"])))
PY
