#!/bin/sh
# tests/tui/views.sh: each experiment, run from its tab, shows in its view (sweep, bars,
# histogram, counters) what it measured: the lines tests/tui/expect.py works out from a save of the
# rows, the axis labels, and for valley its x range, y unit and read calls. WTG_TEST_EXPERIMENTS
# (names, space-separated) runs only those and reports the others as skipped: .ci/run's
# ThreadSanitizer pass leaves out the experiments with machine-sized buffers.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

dash_ready
# each experiment: run it from its tab, then its view shows what it measured
tm_keys Space
tm_wait "paused: nothing starts until space" 5
# wanted NAME: WTG_TEST_EXPERIMENTS is unset or names it
wanted() {
	case " $(echo ${WTG_TEST_EXPERIMENTS:-$1}) " in *" $1 "*) return 0 ;; esac
	return 1
}

while read -r i name view; do
	wanted "$name" || { skip_one "$name: its view" "not in WTG_TEST_EXPERIMENTS"; continue; }
	goto "$i"
	if ! run_here "$i"; then
		fail "$name: runs to the end from its tab"
		tm_dump "$name"
		continue
	fi
	check "$name: ended without failing" tm_lacks "failed ✗"
	# what the screen must show of the rows measured, worked out from the saved JSON
	json=$(save)
	python3 "$top_srcdir/tests/tui/expect.py" "$json" "$name" "$view" >"$tmp/expect" || fail "$name: nothing to expect"
	while IFS= read -r want; do
		check "$name: the screen shows '$want'" tm_shows "$want"
	done <"$tmp/expect"
	case $view in
	sweep)
		check "$name: the sweep labels its log x axis" tm_shows "(log scale"
		if [ "$name" = valley ]; then
			# ms per GB spans five decades: y is log too, ticked at powers of ten
			check "valley: both axes are log" tm_shows "(log scales)"
			check "valley: y ticks at powers of ten" tm_match "(^|[^0-9.])(1|10|100)[kM]?┤"
			check "valley: ... and no linear axis' 0 tick" tm_lacks_re "[^0-9.]0┤"
		fi
		check "$name: the latest row in words under the chart" tm_shows ": " ;;
	bars)
		check "$name: the bars show their values with units" tm_match "[0-9] (ms|s|us|ns|GB/s)" ;;
	histogram)
		check "$name: median, p90 and p99 are marked" tm_shows "median"
		check "$name: the figures under the histogram" tm_shows "p99 " ;;
	counters)
		check "$name: the counters name their faults" tm_shows "faults" ;;
	esac
	if [ "$name" = valley ]; then
		check "valley: the x axis runs from 16B to 16M" tm_match "16B .* 16M"
		check "valley: the y axis is time per GB (the essay's valley)" tm_shows "ms  by read() buffer size"
		json=$(save)
		calls=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = [e for e in d["experiments"] if e["name"] == "valley"][0]
c = "read_calls"
n = v["rows"][-1][c]
print("{:,} read call{}".format(n, "" if n == 1 else "s"))' "$json")
		check "valley: the screen shows the last row's read calls ($calls)" tm_shows "$calls"
	fi
done <"$tmp/list"

finish
