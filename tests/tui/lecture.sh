#!/bin/sh
# tests/tui/lecture.sh: the dashboard driven as a lecturer with a clicker would: --order sets the
# tabs and their keys, PageDown/PageUp step through them, --step runs each tab afresh on "next",
# '.' blanks the screen until the next key, the shifted digits reach the tabs past the tenth, and
# --hold sets autoplay's pause. Private tmux server, no timings: every wait polls with a deadline.
# The tab bar and the keys that move between tabs are drawn from the saved run
# (tests/fixtures/views.json), measuring nothing; the data file, c, '.', --step and autoplay live
# (on the cheapest tabs that show each: clock, mmap and passes on a 16 MiB data file, syscall, wss).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

need tmux
[ -x "$WTG" ] || skip "$WTG is not built"

scratch
tmp=$lib_tmp
mkdir -p "$tmp/data" || exit 99
fixture=$top_srcdir/tests/fixtures/views.json

# start COLS ROWS OPTION...: wtg in a fresh window; its exit status goes to $tmp/status (tmux may
# mark a pane dead before it learns the status)
start() {
	cols=$1
	rows=$2
	shift 2
	rm -f "$tmp/status"
	tm_start "$cols" "$rows" "ulimit -c 0; LC_ALL=C.UTF-8 '$WTG' --quick --dir='$tmp/data' $*; echo \$? >'$tmp/status'"
	tm_wait "wtg" 10
}

# begin: past the start screen a lecture (--order, --step) opens with; the key does nothing else
begin() {
	tm_wait "press a key to begin" 10 && tm_keys x
}

quit_ok() {
	tm_keys q
	wait_for 10 test -s "$tmp/status" && [ "$(cat "$tmp/status")" = 0 ]
}

tabs_line() {
	tm_screen | sed -n 2p
}

# --order: the tabs a lecture shows, in its order, keyed 1, 2, 3 (saved runs: nothing measures)
start 80 24 --load="$fixture" --order=clock,syscall,bytewise
check "--order: a start screen comes first" tm_wait "press a key to begin" 10
begin
check "--order: the tab bar lists the lecture's tabs in order" \
	wait_for 5 sh -c "tmux -L '$TM_SOCK' capture-pane -p -t t | sed -n 2p | grep -qE '1 clock.*2 syscall.*3 bytewise'"
check "--order: an experiment left out has no tab" sh -c "! tmux -L '$TM_SOCK' capture-pane -p -t t | sed -n 2p | grep -q valley"
check "--order: the first tab is the lecture's first" tm_wait "clock · How fine is the stopwatch?" 5
tm_keys NPage
check "PageDown moves to the next tab of the lecture" tm_wait "syscall · What does one kernel crossing cost?" 5
tm_keys NPage
check "PageDown again: the third" tm_wait "bytewise · Why did adding up bytes take 21 s?" 5
tm_keys NPage
check "PageDown past the last wraps to the first" tm_wait "clock · How fine is the stopwatch?" 5
tm_keys PPage
check "PageUp goes back (wrapping to the last)" tm_wait "bytewise · Why did adding up bytes take 21 s?" 5
tm_keys 2
check "a number key picks the lecture's tab at that place" tm_wait "syscall · What does one kernel crossing cost?" 5

# the same steps on the compact 60x20 layout and a large 120x35 screen
for size in 60x20 120x35; do
	start ${size%x*} ${size#*x} --load="$fixture" --order=clock,syscall,bytewise
	check "$size: a start screen comes first" tm_wait "press a key to begin" 10
	begin
	check "$size: the tab bar lists the lecture's tabs in order" \
		wait_for 5 sh -c "tmux -L '$TM_SOCK' capture-pane -p -t t | sed -n 2p | grep -qE '1 clock.*2 syscall.*3 bytewise'"
	check "$size: the first tab is the lecture's first" tm_wait "clock · How fine" 5
	tm_keys NPage
	check "$size: PageDown moves to the next tab" tm_wait "syscall · What does" 5
	tm_keys NPage
	check "$size: PageDown again: the third" tm_wait "bytewise · Why did" 5
	tm_keys NPage
	check "$size: PageDown past the last wraps to the first" tm_wait "clock · How fine" 5
	tm_keys PPage
	check "$size: PageUp goes back (wrapping to the last)" tm_wait "bytewise · Why did" 5
	check "$size: q quits with status 0" quit_ok
done
# live from here: a 16 MiB data file (no check is about its size)
start 80 24 --order=clock,syscall,mmap --size=16M
begin
check "clock, which reads no data file, runs" tm_wait "done in" 20
check "... and makes no data file" [ -z "$(ls -A "$tmp/data")" ]

# the data file is made when the first tab that reads it runs (mmap here), not before
tm_keys 3
tm_keys r
check "mmap, the lecture's first tab that reads the data file, makes it" tm_wait "data 16M in" 60
tm_keys 1
tm_wait "clock · How fine is the stopwatch?" 5

# the conditions panel shows the data file's page-cache residency live, so c visibly empties it
check "the conditions panel shows how much of the data file is cached" wait_for 20 tm_match "\[c\] [0-9]+%"
tm_keys c
# Whether the kernel drops the pages is its outcome, not wtg's (a loaded machine or another reader can
# keep some): the share the panel shows after c is a few per cent at most, or a SKIP that gives it
check "c says it evicted the data file" tm_wait "evicted the data file: " 5
if wait_for 5 tm_match "\[c\] [0-9]%"; then
	pass "after c the share falls to a few per cent at most"
else
	kept=$(tm_screen | sed -n 's/.*\[c\] \([0-9][0-9]*%\).*/\1/p' | head -n 1)
	skip_one "after c the share falls to a few per cent at most" "the kernel kept ${kept:-an unknown share} of the data file's pages"
fi

# '.' (a clicker's blank-screen key) blanks the screen; the next key only brings it back
tm_keys .
check "'.' blanks the screen" wait_for 5 sh -c "[ -z \"\$(tmux -L '$TM_SOCK' capture-pane -p -t t | tr -d ' \n')\" ]"
tm_keys NPage
check "any key brings the screen back" tm_wait "clock · How fine is the stopwatch?" 5
check "the key that unblanks does nothing else (still clock)" tm_lacks "syscall · What does"
check "q quits with status 0" quit_ok

# the shifted digits reach the tabs past the tenth, in the default order (saved runs)
start 200 50 --load="$fixture"
check "the eleventh tab is keyed !" tm_wait "! roofline" 5
tm_keys '!'
check "! picks the eleventh tab" tm_wait "roofline · " 5
tm_keys '&'
check "& picks the seventeenth tab" tm_wait "compare · Did the condition change it?" 5
tm_keys '?'
check "the help names the clicker keys" tm_wait "PgDn PgUp" 5
tm_keys x
check "q quits" quit_ok

# --step: each next runs the tab afresh, even one that has run (without --step a tab runs only the
# first time it is shown). Every wait is for what lasts: a run's end, told from the run before it
# by the box's "run N" (a --quick syscall run lasts about 130 ms on a fast core: never wait for it
# to be seen running). passes is short, and the line comparing its two runs is cheap to draw
# (clock's, from 50,000 samples a run, cost the dashboard a CPU for as long as it was on screen)
start 80 24 --order=passes,syscall --step --size=16M
begin
check "--step: the first tab runs" wait_for 20 tm_match "passes · .*done in"
check "... its first run is not numbered" tm_lacks "run 1"
tm_keys NPage
check "--step: next runs the next tab (running or done)" wait_for 10 tm_match "syscall · .*(running|done in)"
tm_keys NPage
check "--step: next on passes runs it afresh: its second run ends" wait_for 20 tm_match "passes · .*run 2 · done in"
tm_keys NPage
check "--step: back on syscall, it runs afresh: its second run ends (the first was stopped or done)" \
	wait_for 30 tm_match "syscall · .*run 2 · done in"
check "q quits" quit_ok

# autoplay started while a row runs: its tag and the time left share the progress line, apart
start 80 24 --order=wss,clock --size=16M
begin
tm_keys a
check "autoplay's tag stands at the right end of the progress line" \
	wait_for 10 tm_match "(left|starting|s)  +.*autoplay *$"
check "... never glued to the time left" tm_lacks_re "[[:alnum:]]autoplay"
check "q quits" quit_ok

# --hold: autoplay keeps a finished tab for that long (the status line counts it down)
start 80 24 --order=clock,syscall --hold=30
begin
tm_keys a
# the countdown's first figure seen: at most 30, and above the default 4 s (how far below 30 it has
# got when the screen is read is up to the machine's load)
wait_for 30 tm_match "next in [0-9]+ s"
held=$(tm_screen | sed -n 's/.*next in \([0-9][0-9]*\) s.*/\1/p' | head -n 1)
check "--hold: autoplay holds a finished tab for 30 s (next in ${held:-nothing} s)" \
	sh -c '[ -n "$1" ] && [ "$1" -gt 4 ] && [ "$1" -le 30 ]' - "$held"
tm_keys x
check "q quits" quit_ok
check "every data file was removed" [ -z "$(ls -A "$tmp/data")" ]

finish
