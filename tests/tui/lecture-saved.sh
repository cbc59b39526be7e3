#!/bin/sh
# tests/tui/lecture-saved.sh: a lecture presented from a saved file (--load) never measures until r:
# PageDown (under --step too) and autoplay move through the saved tabs, the saved figure stays on
# screen, and no data file is made. r alone measures live. At 80x24 and 60x20, from the fixture.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
fixture=$top_srcdir/tests/fixtures/views.json
order=bytewise,syscall,valley,mmap,pagecache,wss,threads,uncached,clock,tail

for size in 80x24 60x20; do
	start C.UTF-8 ${size%x*} ${size#*x} --load="$fixture" --order=$order --step --hold=0.5
	tm_wait "press a key to begin" 10 || bail "$size: no start screen"
	tm_keys x
	check "$size: the first tab shows its saved run" tm_wait "saved: r runs it live" 10
	tm_keys NPage
	check "$size: --step PageDown: syscall's saved run stays" wait_for 5 tm_match "syscall · .*saved: r runs it live"
	tm_keys NPage
	check "$size: --step PageDown: valley's saved run stays" wait_for 5 tm_match "valley · .*saved: r runs it live"
	tm_keys NPage
	check "$size: ... and mmap's" wait_for 5 tm_match "mmap · .*saved: r runs it live"
	check "$size: nothing stopped, nothing runs" tm_lacks_re "running|stopped before the end|here: not run yet"
	sleep 1
	check "$size: PageDown made no data file" no_datafile
	tm_keys a
	check "$size: autoplay moves through the saved tabs to the last" wait_sparse 20 tm_has "autoplay: every experiment has run"
	check "$size: ... the last tab's saved run on screen" wait_for 5 tm_match "tail · .*saved: r runs it live"
	check "$size: autoplay measured nothing" tm_lacks_re "running|stopped before the end"
	check "$size: ... and made no data file" no_datafile
	tm_keys 2
	tm_wait "syscall · " 5
	tm_keys r
	check "$size: r measures live" wait_for 10 tm_match "syscall · .*(running|done in)"
	tm_keys q
	wait_exit 10
	check_eq "$size: exit status 0" "$(status)" 0
done
check "every data file was removed" no_datafile

finish
