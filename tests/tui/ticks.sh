#!/bin/sh
# tests/tui/ticks.sh: the dashboard's axis labels differ at the precision they show. A saved readcost
# run whose samples all lie between 1.10 and 1.20 us (made from the saved fixture: nothing is
# measured) gets a time axis with ticks 20 ns apart; they read "1.10us 1.12us ...", never
# "1.1us 1.1us 1.1us" (the rule the SVG charts' axes follow, wtg_lay_tick_labels), at a projector's
# 80x24 and at 120x35.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
doc["experiments"] = [e for e in doc["experiments"] if e["name"] == "readcost"]
doc["run"].pop("label", None)
e = doc["experiments"][0]
for s in e["series"]:
    n = len(s["samples"])
    s["samples"] = [1100 + 100 * i / (n - 1) for i in range(n)]
    s["count"] = n
for r in e["rows"]:
    r.update(mean_ns=1150, median_ns=1150, ci_low_ns=1140, ci_high_ns=1160, p90_ns=1190, p99_ns=1199,
             max_ns=1200, min_ns=1100, drift_pct=0)
json.dump(doc, open(sys.argv[2], "w"))' "$top_srcdir/tests/fixtures/views.json" "$tmp/narrow.json" ||
	bail "cannot make the saved readcost run"

# The time labels on the line under the axis (the line with its ticks), one a line.
tick_labels() {
	tm_screen | awk '/┬/ && /──/ { getline; print; exit }' | grep -oE '[0-9][0-9.]*(ns|us|ms|s)'
}

has_labels() {
	[ "$(tick_labels | grep -c .)" -ge 3 ]
}

for size in 80x24 120x35; do
	start C.UTF-8 ${size%x*} ${size#*x} --load="$tmp/narrow.json"
	tm_wait "narrow: " 30 || { tm_dump "start"; bail "the dashboard did not open the saved run"; }
	goto "$(index_of readcost)"
	check "$size: readcost's histogram is drawn with its axis labelled" wait_for 5 has_labels
	labels=$(tick_labels)
	n=$(printf '%s\n' "$labels" | grep -c .)
	distinct=$(printf '%s\n' "$labels" | sort -u | grep -c .)
	check_eq "$size: the axis' tick labels all differ: $(echo $labels)" "$distinct" "$n"
	check "$size: ... with the digit that tells them apart (1.1Xus)" tm_sees '1\.1[0-9]us'
	[ "$distinct" = "$n" ] || tm_dump "$size: readcost"
	tm_keys q
	check "$size: q ends it" wait_exit 10
	check_eq "$size: exit status 0" "$(status)" 0
done
check "nothing was measured: no data file" no_datafile

finish
