#!/bin/sh
# bench/burnkinds.sh: do stream burners contend for memory where spin burners do not? Runs wss, threads
# and valley headless with no burners, with N spin burners and with N stream burners, the three
# conditions alternating (none, spin, stream, none, ...) TRIALS times, and prints for each condition
# the median over the trials of: wss's largest (memory-sized) row, threads' row with the most threads
# (compact placement), valley's largest buffer; then each burner kind's ratio to none.
#
# usage: bench/burnkinds.sh [TRIALS] [N] [EXTRA OPTION]...   (default 3 trials, 1 burner; from the top
#        of a built tree; WTG=path picks another binary)
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
WTG=${WTG:-$top_srcdir/src/wtg}
command -v python3 >/dev/null || { echo "bench/burnkinds.sh: needs python3" >&2; exit 1; }
[ -x "$WTG" ] || { echo "bench/burnkinds.sh: build first ($WTG is missing)" >&2; exit 1; }
trials=${1:-3}
[ $# -gt 0 ] && shift
n=${1:-1}
[ $# -gt 0 ] && shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wtg-burnkinds.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "wtg $("$WTG" --version | head -n 1 | cut -d' ' -f2), $(getconf _NPROCESSORS_ONLN) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg), $n burner(s) $*"
i=0
while [ $i -lt "$trials" ]; do
	for kind in none spin stream; do
		burn=
		[ $kind != none ] && burn="--burn=$n:$kind"
		"$WTG" --run=wss,threads,valley --format=json --dir="$tmp" $burn "$@" >"$tmp/$kind.$i.json" ||
			echo "  trial $i $kind: exit $?" >&2
	done
	i=$((i + 1))
done
python3 - "$tmp" "$trials" <<'PY'
import json, statistics, sys
tmp, trials = sys.argv[1], int(sys.argv[2])
def rows(e):
    cols = [c["name"] for c in e["columns"]]
    return [r if isinstance(r, dict) else dict(zip(cols, r)) for r in e["rows"]]
def figures(doc):
    out = {}
    for e in doc["experiments"]:
        rs = rows(e)
        if not rs:
            continue
        if e["name"] == "wss":
            r = max(rs, key=lambda r: r["wss"])
            out["wss %d B" % r["wss"]] = r["gbps"]
        elif e["name"] == "threads":
            top = max(r["threads"] for r in rs)
            r = [r for r in rs if r["threads"] == top and r.get("placement", "compact") == "compact"][0]
            out["threads %d" % top] = r["gbps"]
        elif e["name"] == "valley":
            r = max(rs, key=lambda r: r["bufsize"])
            out["valley %d B" % r["bufsize"]] = r["gbps"]
    return out
med = {}
for kind in ("none", "spin", "stream"):
    per = {}
    for i in range(trials):
        try:
            f = figures(json.load(open("%s/%s.%d.json" % (tmp, kind, i))))
        except (OSError, ValueError):
            continue
        for k, v in f.items():
            per.setdefault(k, []).append(v)
    med[kind] = {k: statistics.median(v) for k, v in per.items()}
    for k, v in sorted(per.items()):
        print("  %-7s %-22s GB/s median %8.2f   runs %s" % (kind, k, med[kind][k], " ".join("%.2f" % x for x in v)))
for kind in ("spin", "stream"):
    for k in sorted(med["none"]):
        if k in med[kind] and med["none"][k] > 0:
            print("  %-7s / none  %-22s %.2f" % (kind, k, med[kind][k] / med["none"][k]))
PY
