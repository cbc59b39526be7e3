#!/bin/sh
# tests/tui/replay.sh: a saved session replayed draws what the live tabs drew, and overlaid runs all
# show. tests/fixtures/replay.json is a dashboard's save (s) of --order=tail,valley,wss: tail run
# twice, valley five times (the first stopped before its first row), wss once. --load'ed at 100x30:
# tail's both distributions (burners off and on) in each of its runs, a line of figures per run;
# wss's cache sizes from the saved machine block; the legend of valley's five runs and the mark of
# each run with points on the chart (their lines coincide: none may hide the others); wss's three
# series' marks; log y labels at whole decades, evenly spaced; at 80x24 the same. A save that let
# earlier runs go says so on the tab, and so does a tab of more saved runs than a view draws. Four
# saved tail runs at 80x24: every run's figures on screen. At 80x24 tail keeps its verdict, essay's line
# and ratio line whole, and its four strips labelled (each with its p99), nothing cut with an ellipsis. Then live at 80x24: a rerun of tail draws both distributions
# of both runs, as the first run drew its two. Nothing measured is asserted: only names, marks and
# the labels' spacing.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
fixture=$top_srcdir/tests/fixtures/replay.json

# the cache marks the live wss drew: "L<level> <size>" of each data or unified cache in the file's
# machine block (sizes whole K or M, as wtg writes them)
marks=$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["machine"]
seen = set()
for c in m["caches"]:
    if c["type"] == "Instruction" or c["level"] in seen:
        continue
    seen.add(c["level"])
    s = c["size_bytes"]
    print("L%d %s" % (c["level"], "%dM" % (s >> 20) if s % (1 << 20) == 0 else "%dK" % (s >> 10)))' "$fixture") ||
	bail "cannot read the fixture's caches"
[ -n "$marks" ] || bail "the fixture's machine block names no cache"

# y_labels_even: the chart's y labels ("100k┤") are whole decades (1, 10, 100, 1k, ... 1M, or below 1
# 0.1, 0.01), each a constant number of decades from the next and a constant number of rows apart
y_labels_even() {
	tm_screen | python3 -c '
import re, sys
rows = [(i, m.group(1)) for i, l in enumerate(sys.stdin.read().splitlines())
        for m in [re.match(r"^[│|] *([0-9.]+[kMG]?) ?┤", l)] if m]
mult = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}
import math
vals = []
for _, t in rows:
    n = re.match(r"([0-9.]+)([kMG]?)$", t)
    vals.append(float(n.group(1)) * mult[n.group(2)])
ok = len(vals) >= 3 and all(abs(math.log10(v) - round(math.log10(v))) < 1e-9 for v in vals)
steps = {round(math.log10(a / b)) for a, b in zip(vals, vals[1:])}
gaps = {b[0] - a[0] for a, b in zip(rows, rows[1:])}
ok = ok and len(steps) == 1 and len(gaps) == 1
if not ok:
    print("y labels: %s" % rows, file=sys.stderr)
sys.exit(0 if ok else 1)'
}

# marks_on_chart MARK...: each mark is on the screen at least twice (the legend, and the chart)
marks_on_chart() {
	tm_screen >"$tmp/screen"
	for m in "$@"; do
		[ "$(grep -o "$m" "$tmp/screen" | wc -l)" -ge 2 ] || { diag "mark $m not on the chart"; return 1; }
	done
}

start C.UTF-8 100 30 --load="$fixture" --order=tail,valley,wss
tm_wait "press a key to begin" 10 || bail "no start screen"
tm_keys x
check "tail replayed: the saved tab" tm_wait "tail · Where does interference live?"
check "tail replayed: the earlier run's burners-off distribution" tm_wait "● burners off"
check "tail replayed: ... and its burners-on one" tm_snap_shows "● burners on"
check "tail replayed: the saved run's burners-off distribution" tm_snap_shows "◆ burners off"
check "tail replayed: ... and its burners-on one, the lesson" tm_snap_shows "◆ burners on"
check "tail replayed: a line per run with both p99s and their ratio" \
	tm_sees "◆ saved: quiet and burners: p99 burners off [0-9.]+ [nu]s, burners on \([0-9]+\) [0-9.]+ [nu]s: [0-9.]+×"
check "tail replayed: one log axis for both runs" tm_has "log scale"
check "tail replayed: a figures line too long ends on a whole figure (not 'median 135 n')" \
	tm_sees "◆ saved: quiet and burners: p99 [^│]*×(; median [0-9.]+ [nu]s(, [0-9.]+ [nu]s)?)? +│$"
check "tail replayed: the essay's line gives this machine's figure alone, the verdict above says the rest" \
	tm_sees "essay: the median holds, the p99 moves 3.4x when other work shares the CPUs │ here: x[0-9.]+ +│$"

tm_keys 3
check "wss replayed: the saved tab" tm_wait "wss · Cache or core?"
echo "$marks" >"$tmp/marks"
while IFS= read -r m; do
	check "wss replayed: the cache mark '$m' from the saved machine block" tm_has "$m"
done <"$tmp/marks"
check "wss: the legend names its three series" tm_sees "● scalar +◆ auto +■ simd"
check "wss: each series' mark is on the chart (scalar not hidden under auto)" marks_on_chart "●" "◆" "■"
check "wss: the log y labels are whole decades, evenly spaced" y_labels_even

tm_keys 2
check "valley replayed: the saved tab" tm_wait "valley · How big should the read buffer be?"
check "valley: the legend has every run" \
	tm_sees "● \(cancelled\) +◆ quiet, #2 +■ quiet, #3 +▲ quiet, #4 +○ saved: quiet"
check "valley: each run with points shows its mark on the chart (four coinciding lines)" \
	marks_on_chart "◆" "■" "▲" "○"
check "valley: the log y labels are whole decades, evenly spaced" y_labels_even

tm_resize 80 24
check "80x24 valley: every run's mark still on the chart" wait_for 10 marks_on_chart "◆" "■" "▲" "○"
check "80x24 valley: the log y labels whole decades, evenly spaced" y_labels_even
tm_keys 1
check "80x24 tail: both runs' both distributions" tm_wait "◆ burners on"
check "80x24 tail: ... the earlier run's too" tm_snap_shows "● burners on"
check "80x24 tail: each strip labelled with its series and its p99 (no row left for the figures)" \
	tm_sees "^│ ◆ burners on \([0-9]+\) [0-9.]+ [nu]s +[█▇▆▅▄▃▂▁]"
check "80x24 tail: the essay's line whole on one line, this machine's side not restating the verdict above" \
	tm_sees "^│ essay: the median holds, the p99 moves 3.4x when other work shares the CPUs +│$"
check "80x24 tail: the ratio line whole" tm_flat_sees "sequential: p99 ratio x[0-9.]+ → x[0-9.]+ \[CI [0-9.]+–[0-9.]+\], [a-z]+; x[0-9.]+ \[CI [0-9.]+–[0-9.]+\] [a-z]+: median ns per getpid"
check "80x24 tail: nothing cut with an ellipsis" tm_lacks "…"
tm_keys q
wait_exit 10
check_eq "exit status 0" "$(status)" 0

# a save that let earlier runs go (its cap): the tab says how many; and a tab of more saved runs
# than a view draws (tail's earlier run ten times over) draws the latest and says how many older not
python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
for e in doc["experiments"]:
    if e["name"] == "tail":
        e["earlier_runs_dropped"] = 12
json.dump(doc, open(sys.argv[2], "w"))
for e in doc["experiments"]:
    if e["name"] == "tail":
        e["earlier_runs"] = e["earlier_runs"] * 10
json.dump(doc, open(sys.argv[3], "w"))' "$fixture" "$tmp/dropped.json" "$tmp/many.json" ||
	bail "cannot make the dropped fixtures"
start C.UTF-8 100 30 --load="$tmp/dropped.json" --order=tail
tm_wait "press a key to begin" 10 || bail "no start screen"
tm_keys x
check "dropped runs: the oldest saved run says 12 older were not saved" tm_wait "quiet and burners (12 older not saved)"
tm_keys q
wait_exit 10
start C.UTF-8 100 30 --load="$tmp/many.json" --order=tail
tm_wait "press a key to begin" 10 || bail "no start screen"
tm_keys x
check "11 saved runs: the oldest drawn says how many older are not drawn, and not saved" \
	tm_wait "quiet and burners (4 older not drawn, 12 before them not saved)"
check "11 saved runs: the saved run itself is drawn, last" tm_sees "□ saved: quiet and burners: p99 burners off"
tm_keys q
wait_exit 10

# four saved runs of tail (--load four times) at 80x24: too few rows for a line a run, each run's
# mark, label and p99s packed side by side; none left out
python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
doc["experiments"] = [e for e in doc["experiments"] if e["name"] == "tail"]
doc["experiments"][0].pop("earlier_runs", None)
for k in range(1, 5):
    json.dump(doc, open("%s/run%d.json" % (sys.argv[2], k), "w"))' "$fixture" "$tmp" || bail "cannot make four runs"
start C.UTF-8 80 24 --load="$tmp/run1.json" --load="$tmp/run2.json" --load="$tmp/run3.json" --load="$tmp/run4.json" \
	--order=tail
tm_wait "press a key to begin" 10 || bail "no start screen"
tm_keys x
check "80x24, four saved runs: the conditions they share said once, then the first run's mark, label and p99s" \
	wait_for 10 tm_match "quiet and burners: ● run1 p99 [0-9.]+ [nu]s, [0-9.]+ [nu]s"
for k in 2:◆ 3:■ 4:▲; do
	check "80x24, four saved runs: run ${k%%:*}'s too" tm_snap_shows "${k#*:} run${k%%:*} p99 "
done
tm_keys q
wait_exit 10

# live at 80x24: tail, then a rerun; the rerun draws both distributions of both runs, or, where a
# three-line verdict and the why line leave the chart no room for four strips, the new run's two,
# each labelled with its mark, and the run before in the comparison line over the chart
start C.UTF-8 80 24 --order=tail --size=16M
tm_wait "press a key to begin" 10 || bail "no start screen"
tm_keys x
check "live tail: the first run ends" run_ended tail
check "live tail: the first run's two distributions and their p99 ratio" tm_sees "p99 burners on .* / burners off = "
tm_keys r
check "live tail rerun: it ends" run_ended tail 2
before_drawn() {
	tm_match "● burners on" || tm_flat_match "p99 ratio x[0-9.]+ (→|->) x[0-9.]+ "
}
check "live tail rerun: the run before keeps both distributions (or its p99 ratio over the chart)" \
	wait_for 3 before_drawn
check "live tail rerun: ... and the new run has both" tm_snap_shows "◆ burners on"
# (their p99s in the label where no row is left for a line a run; a verdict that takes a third line
# on a busy machine can leave the strips no room for them: the labels stay)
check "live tail rerun: the new run's strips labelled" \
	tm_sees "◆ burners off( [0-9.]+ [nuµm]?s)? +[█▇▆▅▄▃▂▁ ]"
check "live tail rerun: ... burners on's too" tm_sees "◆ burners on \([0-9]+\)( [0-9.]+ [nuµm]?s)? +[█▇▆▅▄▃▂▁ ]"
tm_keys q
wait_exit 10
check_eq "exit status 0" "$(status)" 0

finish
