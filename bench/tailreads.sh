#!/bin/sh
# bench/tailreads.sh: what tail's reads around each batch cost beside the batch, and what they
# find. tail reads the thread's CPU clock and schedstat around every batch, and /proc/interrupts and
# /proc/stat where one read costs at most 10% of a batch (about 1 ms, 0.25 ms with --quick). Over
# ROUNDS runs of each size this prints, per run: the read costs (irq_read_ns, stat_read_ns), which
# parts were therefore divided, and each condition's p99 extra time with its division; then the
# median read costs. A shared machine moves the figures: read the shares and the costs' order of
# magnitude, not a single run.
#
# usage: bench/tailreads.sh [ROUNDS]     (from the top of a built tree; default 3)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
WTG=${WTG:-$top/src/wtg}
rounds=${1:-3}
command -v python3 >/dev/null || { echo "bench/tailreads.sh: needs python3" >&2; exit 1; }
out=$(mktemp -d "${TMPDIR:-/var/tmp}/wtg-tailreads-XXXXXX")
trap 'rm -rf "$out"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ "$i" -lt "$rounds" ]; do
	for size in quick full; do
		flag=""
		[ "$size" = quick ] && flag="--quick"
		"$WTG" --run=tail $flag --format=json -o "$out/$size-$i.json" >/dev/null 2>&1 ||
			{ echo "bench/tailreads.sh: $WTG --run=tail $flag failed" >&2; exit 1; }
	done
	i=$((i + 1))
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$out" <<'PY'
import glob, json, os, statistics, sys
PARTS = ["wait", "oncpu", "irq", "steal", "unexplained"]
costs = {"quick": ([], []), "full": ([], [])}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    size = os.path.basename(path).split("-")[0]
    e = next(x for x in json.load(open(path))["experiments"] if x["name"] == "tail")
    r0 = e["rows"][0]
    costs[size][0].append(r0["irq_read_ns"] or float("nan"))
    costs[size][1].append(r0["stat_read_ns"] or float("nan"))
    print("%-5s irq read %6.0f ns, stat read %6.0f ns" % (size, r0["irq_read_ns"] or float("nan"),
                                                          r0["stat_read_ns"] or float("nan")))
    for r in e["rows"]:
        parts = ", ".join("%s %s" % (p, "n/a" if r["p99_%s_pct" % p] is None else "%.0f%%" % r["p99_%s_pct" % p])
                          for p in PARTS)
        print("      %-16s p99 extra %8.1f ns: %s" % (r["condition"], r["p99_excess_ns"] or float("nan"), parts))
for size, (irq, stat) in costs.items():
    print("%-5s median read: /proc/interrupts %.0f ns, /proc/stat %.0f ns (%d runs)"
          % (size, statistics.median(irq), statistics.median(stat), len(irq)))
PY
