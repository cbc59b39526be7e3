#!/bin/sh
# tests/tui/autoplay.sh: a starts autoplay, which moves on to the next experiment by itself;
# any key stops it. a pressed while a run is under way: the progress line says autoplay after its
# time left, with nothing run together. wtg pinned to one CPU: the faults panel says "CPU 0".
# One live dashboard does it all: pinned to CPU 0, a is pressed while the first tab's experiment
# runs, and autoplay then moves on to the second (--hold=0.5: the shortest hold on a finished tab).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

first=$(awk 'NR == 1 { print $1 }' "$tmp/list")
second=$(awk 'NR == 2 { print $1 }' "$tmp/list")
name=$(name_of "$first")
# 16M: a quarter of the file to make (the first tab's run is its one-byte row, whatever the size)
tm_start 80 24 "cd '$tmp/cwd' || exit; env LC_ALL=C.UTF-8 LANG=C.UTF-8 WTG_TEST_HOLD=$name:6 taskset -c 0 '$WTG' --quick --size=16M \
--hold=0.5 --dir='$tmp/data'; echo \$? >'$tmp/status'"
tm_wait "data 16M in $tmp/data, sum" 60 || { tm_dump "start"; bail "the dashboard did not come up"; }
goto "$first"
# the tab shown runs by itself: a during that run (held 6 s before its first row, WTG_TEST_HOLD, so
# that it is running when a is pressed on any machine; a fast core ends a --quick run in a blink)
check "$name runs" wait_for 20 tm_match "$name · .*running"
tm_keys a
if [ -n "$second" ]; then
	check "a starts autoplay" tm_wait "autoplay: every experiment in turn" 5
	# ("less than 1 s left  autoplay", never "less thanautoplay")
	check "a during a run: the status line says autoplay" tm_shows "autoplay: every experiment in turn"
	check "... and the progress line adds it after the time left" \
		wait_for 5 tm_match "((s|min) left|estimating time left|starting) +autoplay"
	check "... with nothing run together" tm_lacks_re "[a-z]autoplay"
fi
# one CPU is "CPU 0", not "CPUs 0" (which reads as "no CPUs")
check "pinned to CPU 0, the faults panel says CPU 0" wait_for 30 tm_match "│CPU +0 "
check "... never CPUs 0" tm_lacks_re "CPUs +0 "
if [ -n "$second" ]; then
	check "autoplay moves to the next experiment by itself" tm_wait "$(tab_text "$second")]" 150
	tm_keys x
	check "any key stops autoplay" tm_wait "autoplay stopped" 5
else
	check "a says what autoplay can do with what is built" tm_wait "autoplay" 5
fi
tm_keys q
wait_exit 10
check_eq "q ends it with status 0" "$(status)" 0

finish
