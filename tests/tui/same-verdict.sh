#!/bin/sh
# tests/tui/same-verdict.sh: the dashboard's before -> after line and the headless comparison give
# the same verdict and the same interval for the same saved runs, near an interval's edge. Two tail
# runs made from tests/fixtures/views.json, the second with its burners-off samples (1,000 of them,
# the median headline's) 2.25% slower: the bootstrap's interval of the ratio just excludes 1, the
# interval combined from the two runs' own CIs just holds it, so a screen that took the second way
# for many samples would say "no change" where the headless report says "slower".
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

finish
