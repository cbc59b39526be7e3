#!/bin/sh
# tests/tui/same-verdict.sh: the dashboard's before -> after line and the headless comparison give
# the same verdict and the same interval for the same saved runs, near an interval's edge. Two tail
# runs made from tests/fixtures/views.json, the second with its burners-off samples (1,000 of them,
# the median headline's) 2.25% slower: the bootstrap's interval of the ratio just excludes 1, the
# interval combined from the two runs' own CIs just holds it, so a screen that took the second way
# for many samples would say "no change" where the headless report says "slower". Then the same runs
# with their series' replicas: both ways draw the two-level bootstrap, and agree again.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
doc["experiments"] = [e for e in doc["experiments"] if e["name"] == "tail"]
json.dump(doc, open(sys.argv[2], "w"))
k = 1.0225
e = doc["experiments"][0]
for r in e["rows"]:
    if r["condition"] == "burners off":
        for c in ("mean_ns", "median_ns", "p90_ns", "p99_ns", "max_ns", "ci_low_ns", "ci_high_ns", "min_ns"):
            r[c] = r[c] * k
for s in e["series"]:
    if s["name"] == "burners off":
        s["samples"] = [v * k for v in s["samples"]]
json.dump(doc, open(sys.argv[3], "w"))' "$top_srcdir/tests/fixtures/views.json" "$tmp/before.json" "$tmp/after.json" ||
	bail "cannot make the saved tail runs"

# the headless comparison: the median's ratio, its interval and verdict, as the screen words them
# ("x1.02 [CI 1.00-1.04] slower"; the dash is the screen's)
"$WTG" --load="$tmp/before.json" --load="$tmp/after.json" --format=json >"$tmp/cmp.json" 2>"$tmp/cmp.err" ||
	bail "wtg --load --load failed: $(cat "$tmp/cmp.err")"
headless=$(python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
f = [x for x in doc["figures"] if x["experiment"] == "tail" and x["run"] == 1 and x["figure"].startswith("median ns")][0]
print("%s %.2f %.2f %.2f %s" % (f["ci_method"], f["ratio"], f["ci_low"], f["ci_high"], f["verdict"]))' "$tmp/cmp.json")
set -- $headless
check_eq "headless: the median's interval is the bootstrap's, of all 1,000 samples a run" "$1" bootstrap
check_eq "headless: near the edge, the interval just excludes 1: slower" "$5" slower
want="x$2 \[CI $3[^ ]+$4\] $5: median ns per getpid"
diag "headless: x$2 [CI $3 .. $4] $5"

start C.UTF-8 140 30 --load="$tmp/before.json" --load="$tmp/after.json"
tm_wait "before: " 10 || bail "the dashboard did not open on the saved runs"
goto "$(index_of tail)"
what="dashboard: the same ratio, interval and verdict as the headless comparison"
if wait_for 10 tm_flat_match "before: quiet → after: quiet: .*$want"; then
	pass "$what"
else
	fail "$what"
	diag "$(tm_screen)"
fi
tm_keys q
wait_exit 10
check_eq "exit status 0" "$(status)" 0

# The same two runs with their series' replicas (five blocks of 200 batches, as tail measures them):
# both sides compare through the two-level bootstrap, its interval at least as wide, and the screen
# again says what the headless comparison says (the files keep their names: the labels).
mkdir -p "$tmp/r" || bail "cannot make $tmp/r"
python3 -c '
import json, sys
for src, dst in ((sys.argv[1], sys.argv[3]), (sys.argv[2], sys.argv[4])):
    doc = json.load(open(src))
    for s in doc["experiments"][0]["series"]:
        if s["name"] in ("burners off", "burners on (2)") and len(s["samples"]) == 1000:
            s["replicas"] = [200] * 5
    json.dump(doc, open(dst, "w"))' "$tmp/before.json" "$tmp/after.json" "$tmp/r/before.json" "$tmp/r/after.json" ||
	bail "cannot add the replicas"
"$WTG" --load="$tmp/r/before.json" --load="$tmp/r/after.json" --format=json >"$tmp/cmp-r.json" 2>"$tmp/cmp.err" ||
	bail "wtg --load --load (replicas) failed: $(cat "$tmp/cmp.err")"
two=$(python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
f = [x for x in doc["figures"] if x["experiment"] == "tail" and x["run"] == 1 and x["figure"].startswith("median ns")][0]
print("%s %.2f %.2f %.2f %.6f %s" % (f["ci_method"].replace(" ", "_"), f["ratio"], f["ci_low"], f["ci_high"],
                                    f["ci_high"] - f["ci_low"], f["verdict"]))' "$tmp/cmp-r.json")
set -- $two
check_eq "headless: with the replicas, the two-level bootstrap" "$1" bootstrap_of_replicas
wide=$(python3 -c '
import json, sys
a = [x for x in json.load(open(sys.argv[1]))["figures"] if x["experiment"] == "tail" and x["run"] == 1 and x["figure"].startswith("median ns")][0]
print("yes" if float(sys.argv[2]) >= a["ci_high"] - a["ci_low"] - 1e-12 else "no")' "$tmp/cmp.json" "$5")
check_eq "headless: the two-level interval is at least as wide as the one-level one" "$wide" yes
set -- $two
ratio=$2 lo=$3 hi=$4
shift 5
verdict="$*"
want="x$ratio \[CI $lo[^ ]+$hi\] $verdict: median ns per getpid"
diag "headless, two levels: x$ratio [CI $lo .. $hi] $verdict"
start C.UTF-8 140 30 --load="$tmp/r/before.json" --load="$tmp/r/after.json"
tm_wait "before: " 10 || bail "the dashboard did not open on the saved runs with replicas"
goto "$(index_of tail)"
what="dashboard, two levels: the same ratio, interval and verdict as the headless comparison"
if wait_for 10 tm_flat_match "before: quiet → after: quiet: .*$want"; then
	pass "$what"
else
	fail "$what"
	diag "$(tm_screen)"
fi
tm_keys q
wait_exit 10
check_eq "exit status 0 (replicas)" "$(status)" 0

finish
