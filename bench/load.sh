#!/bin/sh
# bench/load.sh: how long --load takes on a 100 MB results file, beside Python's json.load.
# The file is a real --quick report (syscall, valley, readcost, passes, zerofill) whose rows are
# repeated until it holds about 100 MB. wtg reads it twice and compares it with itself
# (--baseline=F --load=F: two strict loads, a few lines of output); Python's json.load reads it
# twice too. Runs alternate (wtg, python, wtg, ...), 5 each; the medians and their ratio print.
# WTG_PEER=path/to/another/wtg joins the alternation (e.g. a build from before a change), with its
# median and its ratio to this wtg.
#
# usage: bench/load.sh [MB]      (from the top of a built tree; default 100)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
WTG=${WTG:-$top/src/wtg}
mb=${1:-100}
out=$(mktemp -d "${TMPDIR:-/var/tmp}/wtg-load-XXXXXX")
trap 'rm -rf "$out"' EXIT INT TERM HUP

"$WTG" --run=syscall,valley,readcost,passes,zerofill --quick --dir="$out" --progress=never \
	--format=json -o "$out/small.json" -q >/dev/null || exit 1

python3 - "$out" "$mb" "$WTG" "${WTG_PEER:-}" <<'PY'
import json, os, subprocess, sys, time
d, mb, wtg, peer = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
doc = json.load(open(os.path.join(d, "small.json")))
rows = sum(len(json.dumps(e["rows"], indent=1)) for e in doc["experiments"])
reps = max(1, int((mb * 1e6 - len(json.dumps(doc, indent=1))) / rows))
for e in doc["experiments"]:
    e["rows"] = e["rows"] * reps
big = os.path.join(d, "big.json")
with open(big, "w") as f:
    json.dump(doc, f, indent=1)
print("file: %.1f MB, %d rows" % (os.path.getsize(big) / 1e6, sum(len(e["rows"]) for e in doc["experiments"])))

def wtg_run(prog=wtg):
    t = time.perf_counter()
    p = subprocess.run([prog, "--baseline=" + big, "--load=" + big], capture_output=True)
    assert p.returncode == 0, p.stderr
    return (time.perf_counter() - t) / 2

def py_run():
    t = time.perf_counter()
    for _ in range(2):
        json.load(open(big))
    return (time.perf_counter() - t) / 2

w, p, o = [], [], []
for i in range(5):
    w.append(wtg_run())
    p.append(py_run())
    if peer:
        o.append(wtg_run(peer))
med = lambda v: sorted(v)[len(v) // 2]
print("wtg --load (strict, into tables): median %.3f s per load  %s" % (med(w), " ".join("%.3f" % x for x in w)))
if peer:
    print("peer %s: median %.3f s per load  %s  (ratio wtg/peer %.2f)"
          % (peer, med(o), " ".join("%.3f" % x for x in o), med(w) / med(o)))
print("python3 json.load:                median %.3f s per load  %s" % (med(p), " ".join("%.3f" % x for x in p)))
print("ratio wtg/python: %.2f  (load average %s)" % (med(w) / med(p), open("/proc/loadavg").read().split()[0]))
PY
