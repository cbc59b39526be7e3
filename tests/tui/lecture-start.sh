#!/bin/sh
# tests/tui/lecture-start.sh: the start screen a lecture opens with (--order or --step) at 80x24,
# 60x20 and 120x35: the question, this machine, the lecture's tabs, the keys, "press a key"; the key
# that leaves it does nothing else, and the first tab runs only then. Plain wtg has none.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

for size in "80 24" "60 20" "120 35"; do
	set -- $size
	start C.UTF-8 "$1" "$2" --order=syscall,clock
	check "$1x$2: the start screen asks the question" tm_wait "Where does the time go?" 10
	check "$1x$2: ... waits for a key" tm_shows "press a key to begin"
	check "$1x$2: ... names the lecture's tabs" tm_shows "the lecture: syscall clock"
	check "$1x$2: ... summarises the machine" tm_sees "[0-9]+ CPUs? "
	check "$1x$2: ... lists the clicker's keys" tm_shows "PageDown/PageUp"
	check "$1x$2: nothing runs behind it" sh -c "! tmux -L '$TM_SOCK' capture-pane -p -t t | grep -q 'done in'"
	tm_keys NPage
	check "$1x$2: a key leaves it for the first tab (not the second)" \
		tm_wait "syscall · What does one" 5
	# the run that follows is the same at every size: seen to the end at 80x24 only
	[ "$1" != 80 ] || check "$1x$2: ... and the first tab runs" tm_wait "done in" 30
	tm_keys q
	wait_exit 10
	check_eq "$1x$2: exit status 0" "$(status)" 0
done

# q on the start screen quits at once
start C.UTF-8 80 24 --step
check "--step opens a lecture too" tm_wait "press a key to begin" 10
tm_keys q
wait_exit 10
check_eq "q on the start screen quits with 0" "$(status)" 0

# without --order or --step the first tab comes at once
start C.UTF-8 80 24
check "plain wtg opens on the first tab" tm_wait "1 bytewise]" 10
check "... with no start screen" tm_lacks "press a key to begin"
tm_keys q
wait_exit 10
check "every data file was removed" no_datafile

finish
