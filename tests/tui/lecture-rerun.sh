#!/bin/sh
# tests/tui/lecture-rerun.sh: a rerun keeps the result before it on screen until the new run has a
# row: the box never falls back to "measuring: batch 312 of 1200" alone, nor bytewise's essay line
# to "here: not run yet". Each tab shows a saved run (tests/fixtures/views.json) when r reruns it
# live; every look at the screen until the run ends must find a result in the box.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
fixture=$top_srcdir/tests/fixtures/views.json

# empty_look: one look at the screen finds a run measuring with no result in its box
empty_look() {
	tm_screen >"$tmp/screen"
	grep -q "running" "$tmp/screen" && grep -qE "│ +measuring|here: not run yet|stopped before the first row" "$tmp/screen"
}
# (rerun_keeps asks twice, 50 ms apart: tmux can capture a frame ncurses is still writing, so one
# look may catch half of one)

# rerun_keeps NAME: r on NAME's tab; true when no look until its run ended found the box empty
rerun_keeps() {
	tm_keys r
	# a short run (mmap: a third of a second) may be over before a look sees it running
	wait_for 10 tm_match "$1 · .*(running|done in)" || return 1
	lib_looks=0	# a look every 100 ms or more: 1,800 of them are 3 minutes at least
	while :; do
		tm_screen >"$tmp/screen"	# one capture for both questions
		grep -qE "$1 · .*done in" "$tmp/screen" && break
		if grep -q "running" "$tmp/screen" &&
			grep -qE "│ +measuring|here: not run yet|stopped before the first row" "$tmp/screen" &&
			sleep 0.05 && empty_look; then
			tm_dump "$1 rerun"
			return 1
		fi
		lib_looks=$((lib_looks + 1))
		[ "$lib_looks" -ge 1800 ] && return 1
		sleep 0.1
	done
	return 0
}

start C.UTF-8 80 24 --load="$fixture" --order=syscall,mmap,tail,bytewise
tm_wait "press a key to begin" 10 || bail "no start screen"
tm_keys x
pos=1
for name in syscall mmap tail bytewise; do
	tm_keys $pos
	tm_wait "$name · " 5
	check "80x24: $name: the saved run is on screen" tm_wait "saved: r runs it live" 5
	check "80x24: $name: its rerun keeps a result on screen until it ends" rerun_keeps $name
	pos=$((pos + 1))
done
tm_keys q
wait_exit 10
check_eq "exit status 0" "$(status)" 0

start C.UTF-8 60 20 --load="$fixture" --order=syscall,tail
tm_wait "press a key to begin" 10 || bail "no start screen"
tm_keys x
for name in syscall tail; do
	[ $name = tail ] && tm_keys 2
	tm_wait "$name · " 5
	check "60x20: $name: its rerun keeps a result on screen until it ends" rerun_keeps $name
done
tm_keys q
wait_exit 10
check_eq "60x20: exit status 0" "$(status)" 0
check "every data file was removed" no_datafile

finish
