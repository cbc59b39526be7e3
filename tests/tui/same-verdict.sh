#!/bin/sh
# tests/tui/same-verdict.sh: the dashboard's before -> after line and the headless comparison give
# the same verdict and the same interval for the same saved runs, near an interval's edge. Two tail
# runs made from tests/fixtures/views.json, the second with its burners-off samples (1,000 of them,
# the median headline's) 2.25% slower: the bootstrap's interval of the ratio just excludes 1, the
# interval combined from the two runs' own CIs just holds it, so a screen that took the second way
# for many samples would give another interval than the headless report. Two runs one after the
# other (sequential) whose interval lies inside 1 +- 10% read "no change" either way. Then the same runs
# with their series' replicas (five blocks of 200 batches, as tail measures them): both ways draw
# the two-level bootstrap, its interval at least as wide, and agree again.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

# before.json and after.json in $tmp/one (series as saved) and $tmp/two (with their replicas); the
# file names are the runs' labels
mkdir -p "$tmp/one" "$tmp/two" || bail "cannot make the folders"
python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
doc["experiments"] = [e for e in doc["experiments"] if e["name"] == "tail"]
def save(d, name):
    json.dump(d, open(sys.argv[2] + "/one/" + name, "w"))
    for s in d["experiments"][0]["series"]:
        if len(s["samples"]) == 1000:
            s["replicas"] = [200] * 5
    json.dump(d, open(sys.argv[2] + "/two/" + name, "w"))
save(json.loads(json.dumps(doc)), "before.json")
k = 1.0225
e = doc["experiments"][0]
for r in e["rows"]:
    if r["condition"] == "burners off":
        for c in ("mean_ns", "median_ns", "p90_ns", "p99_ns", "max_ns", "ci_low_ns", "ci_high_ns", "min_ns"):
            r[c] = r[c] * k
for s in e["series"]:
    if s["name"] == "burners off":
        s["samples"] = [v * k for v in s["samples"]]
save(doc, "after.json")' "$top_srcdir/tests/fixtures/views.json" "$tmp" || bail "cannot make the saved tail runs"

# compare DIR: the headless comparison of DIR's two runs (the median's method, ratio, interval,
# width and verdict into $method .. $verdict, the screen's wording into $want), then the same runs
# on the dashboard's tail tab, which must show that line
compare() {
	dir=$1
	"$WTG" --load="$1/before.json" --load="$1/after.json" --format=json >"$1/cmp.json" 2>"$tmp/cmp.err" ||
		bail "wtg --load --load failed: $(cat "$tmp/cmp.err")"
	set -- $(python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
f = [x for x in doc["figures"] if x["experiment"] == "tail" and x["run"] == 1 and x["figure"].startswith("median ns")][0]
print("%s %.2f %.2f %.2f %.9f %s" % (f["ci_method"].replace(" ", "_"), f["ratio"], f["ci_low"], f["ci_high"],
                                    f["ci_high"] - f["ci_low"], f["verdict"]))' "$dir/cmp.json")
	method=$1 ratio=$2 lo=$3 hi=$4 width=$5
	shift 5
	verdict="$*"
	# the screen words it "x1.02 [CI 1.00-1.04] slower" (the dash is the screen's)
	want="x$ratio \[CI $lo[^ ]+$hi\] $verdict: median ns per getpid"
	diag "headless ($method): x$ratio [CI $lo .. $hi] $verdict"
	start C.UTF-8 140 30 --load="$dir/before.json" --load="$dir/after.json"
	tm_wait "before: " 10 || bail "the dashboard did not open on the saved runs in $dir"
	goto "$(index_of tail)"
	what="dashboard: the same ratio, interval and verdict as the headless comparison ($method)"
	if wait_for 10 tm_flat_match "before: quiet and burners → after: quiet and burners, sequential: .*$want"; then
		pass "$what"
	else
		fail "$what"
		diag "$(tm_screen)"
	fi
	tm_keys q
	wait_exit 10
	check_eq "exit status 0 ($method)" "$(status)" 0
}

compare "$tmp/one"
check_eq "headless: the median's interval is the bootstrap's, of all 1,000 samples a run" "$method" bootstrap
check "headless: near the edge, the interval just excludes 1" python3 -c '
import json, sys
f = [x for x in json.load(open(sys.argv[1]))["figures"] if x["run"] == 1 and x["figure"].startswith("median ns")][0]
sys.exit(not 1 < f["ci_low"] < f["ci_high"] < 1.1)' "$tmp/one/cmp.json"
check_eq "headless: ... inside 1 +- 10%, two runs one after the other: no change" "$verdict" "no change"
one=$width
compare "$tmp/two"
check_eq "headless: with the replicas, the two-level bootstrap" "$method" bootstrap_of_replicas
wide=$(python3 -c 'import sys; print("yes" if float(sys.argv[1]) >= float(sys.argv[2]) - 1e-9 else "no")' "$width" "$one")
check_eq "headless: the two-level interval ($width wide) is at least as wide as the one-level one ($one)" "$wide" yes

finish
