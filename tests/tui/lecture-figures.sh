#!/bin/sh
# tests/tui/lecture-figures.sh: runs compared must be comparable, and each tab's before -> after leads
# with what its experiment is about. Two files derived from tests/fixtures/views.json, "home" and
# "class": bytewise read an 8 MiB slice at home and a 1 MiB one in class (--quick), 1.5 times slower
# a byte; class's wss stopped at a 16 MiB span, home's went to 64 MiB; tail's p99 ratio 1.50 at home,
# 3.20 in class. The dashboard (at 80x24 and 60x20, measuring nothing) and the headless comparison
# of the same files give the same verdicts: bytewise per byte (x1.50, not x0.19 faster), wss not
# comparable, tail's p99 ratio first with its interval, then the median (whole at 120x35). Two runs
# one after the other with no replicas to measure the drift by: sequential, and the changes beyond
# their intervals are said to be so, not called slower. wss's sweep has a log y axis, as valley's.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
python3 - "$top_srcdir/tests/fixtures/views.json" "$tmp/home.json" "$tmp/class.json" <<'PY' || bail "cannot derive the fixtures"
import copy, json, sys
src = json.load(open(sys.argv[1]))

def derive(bytes_1b, per_byte_scale, max_span, p99):
    d = copy.deepcopy(src)
    for e in d["experiments"]:
        if e["name"] == "bytewise":
            for r in e["rows"]:
                if r["variant"] == "1B per read":
                    scale = bytes_1b / r["bytes"] * per_byte_scale
                    r["bytes"] = r["read_calls"] = bytes_1b
                    r["ms"] *= scale
                    r["ms_ci_low"], r["ms_ci_high"] = r["ms"] * 0.98, r["ms"] * 1.02
                    r["ns_per_byte"] *= per_byte_scale
        if e["name"] == "wss":
            e["rows"] = [r for r in e["rows"] if r["wss"] <= max_span]
        if e["name"] == "tail":
            at = [c["name"] for c in e["columns"]].index("p99_ratio") + 1
            e["columns"][at:at] = [{"name": "p99_ratio_ci_low", "unit": "", "type": "real"},
                                   {"name": "p99_ratio_ci_high", "unit": "", "type": "real"}]
            for r in e["rows"]:
                on = r["condition"] != "burners off"
                r["p99_ratio"] = p99[0] if on else 1
                r["p99_ratio_ci_low"] = p99[1] if on else 1
                r["p99_ratio_ci_high"] = p99[2] if on else 1
    return d

json.dump(derive(8 << 20, 1.0, 64 << 20, (1.5, 1.2, 1.9)), open(sys.argv[2], "w"))
json.dump(derive(1 << 20, 1.5, 16 << 20, (3.2, 2.6, 3.9)), open(sys.argv[3], "w"))
PY

# ---- headless: the comparison of the two files -------------------------------------------------
"$WTG" --load="$tmp/home.json" --load="$tmp/class.json" >"$tmp/cmp.txt" 2>"$tmp/cmp.err"
check_eq "headless comparison: exit status 0" "$?" 0
# the class row under a figure's heading: "  class  VALUE  RATIO  [CI] method  VERDICT"
figure_row() {
	awk -v f="$1" 'index($0, f) == 1 { on = 1; next } on && /^$/ { on = 0 } on && $1 == "class" { print; exit }' \
		"$tmp/cmp.txt"
}
# row_has FIGURE REGEX: the class row of FIGURE matches REGEX
row_has() {
	figure_row "$1" | grep -Eq "$2"
}
NODRIFT="differ by more than their intervals \(no run-to-run drift measured\)"
check "headless: bytewise per byte, x1.5 beyond the intervals, no drift to call it slower (the slices' times said x0.19)" \
	row_has "bytewise: ns per byte, one byte per read()" " 1\.50?0? .* $NODRIFT$"
check "headless: wss's largest spans differ: not comparable" \
	row_has "wss: GB/s over the largest span" "not comparable: wss 64M vs 16M$"
check "headless: tail's p99 ratio, beyond the intervals" row_has "tail: p99 ratio" "$NODRIFT$"
check "headless: sequential, said so" grep -q "^sequential: " "$tmp/cmp.txt"
[ "$lib_failed" = 0 ] || diag "$(cat "$tmp/cmp.txt")"

# ---- the dashboard: the same verdicts ------------------------------------------------------------
for size in 80x24 60x20 120x35; do
	start C.UTF-8 ${size%x*} ${size#*x} --load="$tmp/home.json" --load="$tmp/class.json" \
		--order=bytewise,wss,tail,valley
	tm_wait "press a key to begin" 10 || bail "$size: no start screen"
	tm_keys x
	check "$size: bytewise compares per byte, sequential, as headless says" \
		wait_for 10 tm_flat_match "home: quiet (→|->) class: quiet, sequential: x1\.50 \[CI [0-9.]+.[0-9.]+"
	# 60 columns cut the line's end: the verdict comes before the figure's words
	[ $size = 60x20 ] || check "$size: ... beyond the intervals, no drift measured: not called slower" \
		tm_flat_match "\] drift unknown"
	[ $size = 120x35 ] && check "$size: ... of the figure per byte" tm_flat_sees "\] drift unknown: ns per byte"
	check "$size: ... never slower" tm_lacks_re "\] slower"
	check "$size: ... not the slices' times" tm_lacks_re "x0\.1[0-9]"
	tm_keys 2
	check "$size: wss: the largest spans differ, not compared" \
		wait_for 5 tm_flat_match "home: quiet (→|->) class: quiet, sequential: not comparable"
	[ $size = 60x20 ] || check "$size: ... saying what differs" tm_flat_sees "not comparable \(wss 64M vs 16M\)"
	[ $size = 60x20 ] || check "$size: wss's sweep: both axes log" tm_shows "(log scales)"
	check "$size: ... y ticked at powers of ten" tm_sees "(^|[^0-9.])(1|10|100|1000)[kM]?┤"
	check "$size: ... no linear axis' 0 tick" tm_lacks_re "[^0-9.]0┤"
	tm_keys 3
	# (tail sets the burners itself: its runs are "quiet and burners", not "mixed conditions")
	check "$size: tail leads with the p99 ratio" \
		wait_for 5 tm_flat_match "home: quiet and burners (→|->) class: quiet and burners, sequential: p99 ratio x1\.50"
	[ $size = 60x20 ] || check "$size: ... the class's with its interval" \
		tm_flat_match "p99 ratio x1\.50 (→|->) x3\.20 \[CI 2\.60"
	[ $size = 120x35 ] && check "$size: ... beyond the intervals, no drift measured" \
		tm_flat_sees "x3\.20 \[CI 2\.60.3\.90\], drift unknown"
	# the whole line where the view has the room for it
	[ $size = 120x35 ] && check "$size: ... then the median" \
		tm_flat_sees "p99 ratio .*unknown; x1\.0[0-9] \[CI [0-9.]+.[0-9.]+\]"
	tm_keys q
	wait_exit 10
	check_eq "$size: exit status 0" "$(status)" 0
done
check "nothing measured: no data file" no_datafile

finish
