#!/bin/sh
# tests/tui/views.sh: each experiment's view (sweep, bars, histogram, counters) shows what its rows
# hold: the lines tests/tui/expect.py works out from a saved JSON report, the axis labels, and for
# valley its x range, y unit and read calls.
#
# Drawn from a saved run first, measuring nothing: tests/fixtures/views.json (every experiment of a
# --quick run, made small by tests/fixtures/trim.py) opened with --load, every tab in turn: every
# view kind of every experiment. Then two run live from their tabs end to end (valley's sweep and
# clock's histogram), their views checked against a save of what they measured.
# WTG_TEST_EXPERIMENTS (names, space-separated) replaces that live list: .ci/run's ThreadSanitizer
# pass runs those with threads of their own.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
py=python3	# tests/lib.sh's: the interpreter itself, not a version manager's shim
fixture=$top_srcdir/tests/fixtures/views.json
LIVE=${WTG_TEST_EXPERIMENTS:-valley clock}

# expectations DIR JSON: what the screen must show of each experiment's rows in JSON, one file a
# name in DIR (tests/tui/expect.py), none for an experiment JSON does not hold
expectations() {
	rm -rf "$1" && mkdir -p "$1" && "$py" "$top_srcdir/tests/tui/expect.py" "$2" "$tmp/list" "$1"
}

# view_checks NAME VIEW DIR: the screen shows what DIR says of NAME's rows, and the view's frame
# (the checks read the screen once and again only when needed: tm_snap_clear before it)
view_checks() {
	if [ -f "$3/$1" ]; then
		while IFS= read -r want; do
			check "$1: the screen shows '$want'" tm_snap_shows "$want"
		done <"$3/$1"
	else
		fail "$1: nothing to expect"
	fi
	case $2 in
	sweep)
		check "$1: the sweep labels its log x axis" tm_snap_shows "(log scale"
		if [ "$1" = valley ]; then
			# ms per GB spans five decades: y is log too, ticked at powers of ten
			check "valley: both axes are log" tm_snap_shows "(log scales)"
			check "valley: y ticks at powers of ten" tm_snap_match "(^|[^0-9.])(1|10|100)[kM]?┤"
			check "valley: ... and no linear axis' 0 tick" tm_lacks_re "[^0-9.]0┤"
		fi
		check "$1: the latest row in words under the chart" tm_snap_shows ": " ;;
	bars)
		check "$1: the bars show their values with units" tm_snap_match "[0-9] (ms|s|us|ns|GB/s)" ;;
	histogram)
		check "$1: median, p90 and p99 are marked" tm_snap_shows "median"
		# the line of figures starts with the count and the median with its CI (how much of the
		# rest fits depends on the width of the figures)
		check "$1: the figures under the histogram" tm_snap_match ": n [0-9]+, median [0-9.]+ [nuµm]?s \[" ;;
	counters)
		check "$1: the counters name their faults" tm_snap_shows "faults" ;;
	esac
	if [ "$1" = valley ]; then
		check "valley: the x axis runs from 16B to 16M" tm_snap_match "16B .* 16M"
		check "valley: the y axis is time per GB (the essay's valley)" tm_snap_shows "ms per GB  by read() buffer size"
		calls=$(cat "$3/valley.calls")
		check "valley: the screen shows the last row's read calls ($calls)" tm_snap_shows "$calls"
	fi
}

# ---- every experiment, drawn from the saved run -------------------------------------------------
expectations "$tmp/saved" "$fixture" || bail "cannot read $fixture"
start C.UTF-8 80 24 --load="$fixture"
tm_wait "views: " 30 || { tm_dump "start"; bail "the dashboard did not open the fixture"; }
while read -r i name view; do
	if [ ! -f "$tmp/saved/$name" ]; then
		fail "$name: in tests/fixtures/views.json (refresh it: see tests/fixtures/trim.py)"
		continue
	fi
	goto "$i"
	tm_snap_clear
	check "saved $name: the tab says it is a saved run" tm_snap_shows "saved: r runs it live"
	check "saved $name: not failed" tm_lacks "failed ✗"
	view_checks "$name" "$view" "$tmp/saved"
done <"$tmp/list"
check "the saved views measured nothing: no data file" no_datafile
tm_keys q
check "q leaves the saved views with status 0" wait_exit 10
check_eq "exit status 0" "$(status)" 0

# ---- a few live: one experiment per view kind, run from its tab ---------------------------------
# (16M: mmap and threads go by the data file's size; no view is about the size)
dash_ready --size=16M
tm_keys Space
tm_wait "paused: " 5	# "nothing starts", or the first tab stopped
while read -r i name view; do
	case " $(echo $LIVE) " in *" $name "*) ;; *) continue ;; esac
	goto "$i"
	if ! run_here "$i"; then
		fail "$name: runs to the end from its tab"
		tm_dump "$name"
		continue
	fi
	check "$name: ended without failing" tm_lacks "failed ✗"
	expectations "$tmp/live" "$(save)" || fail "$name: nothing to expect"
	tm_snap_clear
	view_checks "$name" "$view" "$tmp/live"
done <"$tmp/list"

finish
