#!/bin/sh
# bench/observer.sh: does the dashboard's own work move what it measures? syscall's ns per getpid
# (batches of 1000) and valley's GB/s at 4 KiB, measured under the dashboard (a 100x30 tmux window: r
# runs syscall, then valley; s saves the results) and headless (--run=syscall, then --run=valley: one
# experiment a run, as the dashboard runs them, so neither side interleaves), alternating,
# the order flipped every round. Per figure: each side's median over the rounds, the ratio dashboard
# / headless with a bootstrap 95% CI (5000 resamples of the rounds' figures, seeded) and the range of
# the per-round ratios. The goal: 0.98-1.02. The machine may be shared: the load average is printed
# before and after; read the ratios, not the absolute numbers.
#
# usage: bench/observer.sh [WTG] [ROUNDS] [--quick]  (from the top of a built tree; this tree's
#        src/wtg and 5 rounds by default; --quick for the quick sizes)
top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
. "$top_srcdir/tests/lib.sh"

need tmux
need python3
exe=${1:-$WTG}
rounds=${2:-5}
quick=${3:-}
case $exe in /*) ;; *) exe=$(pwd)/$exe ;; esac
[ -x "$exe" ] && [ "$rounds" -ge 1 ] 2>/dev/null || {
	echo "usage: bench/observer.sh [WTG] [ROUNDS] [--quick] (build first)" >&2
	exit 2
}
scratch
tmp=$lib_tmp
mkdir -p "$tmp/data" || exit 1

# poll SECONDS TEXT: wait for TEXT on the screen, looking once a second (a poll is work too).
poll() {
	n=0
	while [ "$n" -lt "$1" ]; do
		tm_has "$2" && return 0
		sleep 1
		n=$((n + 1))
	done
	return 1
}

# dashboard N: syscall then valley under the dashboard; the save set lands in $tmp/dash-N.
dashboard() {
	dir=$tmp/dash-$1
	mkdir -p "$dir"
	tm_start 100 30 "cd '$dir' && env LC_ALL=C.UTF-8 '$exe' --order=syscall,valley $quick --dir='$tmp/data' \
--time-limit=120"
	poll 30 "press a key to begin" || { echo "observer: the dashboard did not start" >&2; exit 1; }
	tm_keys r
	poll 600 "done in" || { echo "observer: syscall did not finish" >&2; exit 1; }
	tm_keys 2
	sleep 1
	tm_keys r
	sleep 1
	poll 600 "done in" || { echo "observer: valley did not finish" >&2; exit 1; }
	tm_keys s
	n=0
	while [ "$n" -lt 30 ] && [ -z "$(ls "$dir"/wtg-*.csv 2>/dev/null)" ]; do
		sleep 1
		n=$((n + 1))
	done
	tm_keys q
	tm_wait_dead 10 >/dev/null
	tm_stop
	ls "$dir"/wtg-*.json >/dev/null 2>&1 || { echo "observer: no save set in $dir" >&2; exit 1; }
}

# headless N: syscall, then valley, each in a run of its own as the dashboard runs them (a headless
# run of both would interleave their replicas, another way of measuring than the dashboard's)
headless() {
	for e in syscall valley; do
		"$exe" --run=$e $quick --format=json --progress=never --dir="$tmp/data" --time-limit=120 \
			-o "$tmp/head-$1-$e.json" >/dev/null || { echo "observer: the headless run failed" >&2; exit 1; }
	done
}

echo "dashboard / headless, $rounds rounds, $exe $quick; $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ "$i" -lt "$rounds" ]; do
	if [ $((i % 2)) -eq 0 ]; then
		dashboard "$i"
		headless "$i"
	else
		headless "$i"
		dashboard "$i"
	fi
	i=$((i + 1))
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$tmp" "$rounds" "$top_srcdir" <<'EOF'
import glob, json, os, random, statistics, sys
tmp, rounds = sys.argv[1], int(sys.argv[2])
sys.path.insert(0, os.path.join(sys.argv[3], "tests", "cli"))
from wtgtest import q7  # noqa: E402

def row(doc, name, key, value):
    e = next(x for x in doc["experiments"] if x["name"] == name)
    cols = [c["name"] for c in e["columns"]]
    for r in e["rows"]:
        r = r if isinstance(r, dict) else dict(zip(cols, r))
        if r.get(key) == value:
            return r
    return None

FIGS = [("syscall", "batch", 1000, "median_ns", "syscall: ns per getpid, batches of 1000"),
        ("valley", "bufsize", 4096, "gbps", "valley: GB/s at 4 KiB")]
def figures(doc):
    out = []
    for name, key, val, col, _ in FIGS:
        r = row(doc, name, key, val)
        out.append(r[col] if r else float("nan"))
    return out

dash, head = [], []
for i in range(rounds):
    d = glob.glob(os.path.join(tmp, "dash-%d" % i, "wtg-*.json"))
    dash.append(figures(json.load(open(d[0]))))
    h = [json.load(open(os.path.join(tmp, "head-%d-%s.json" % (i, e)))) for e in ("syscall", "valley")]
    head.append(figures({"experiments": h[0]["experiments"] + h[1]["experiments"]}))

rng = random.Random(1)
for k, (_, _, _, _, what) in enumerate(FIGS):
    a = [x[k] for x in dash]
    b = [x[k] for x in head]
    ratio = statistics.median(a) / statistics.median(b)
    boots = []
    for _ in range(5000):
        ra = [a[rng.randrange(len(a))] for _ in a]
        rb = [b[rng.randrange(len(b))] for _ in b]
        boots.append(statistics.median(ra) / statistics.median(rb))
    per = [x / y for x, y in zip(a, b)]
    inside = 0.98 <= ratio <= 1.02
    print("%-42s dashboard %9.4g  headless %9.4g  ratio %.3f [%.3f, %.3f]  per round %.3f-%.3f  %s"
          % (what, statistics.median(a), statistics.median(b), ratio, q7(boots, 0.025), q7(boots, 0.975),
             min(per), max(per), "within 0.98-1.02" if inside else "OUTSIDE 0.98-1.02"))
EOF
