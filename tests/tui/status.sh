#!/bin/sh
# tests/tui/status.sh: the status line follows the worker: "running NAME" stands while the run is
# queued or measures and goes when it ends, however soon (the build before kept it for 6 s after
# the key, so a 140 ms syscall run was still "running" seconds after its box said "done in").
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

# The status line (the last line of the screen).
status_line() {
	tm_screen | tail -n 1
}

# not_running NAME: the status line does not say NAME runs, and shows the keys' hints again
not_running() {
	lib_line=$(status_line)
	case $lib_line in *"running $1"*) return 1 ;; *"? help  q quit"*) return 0 ;; esac
	return 1
}

dash_ready
tm_keys Space	# paused: nothing starts by itself, so each run below is r's
tm_wait "paused: " 5
for name in syscall mmap; do
	goto "$(index_of $name)"
	tm_wait "not run yet" 5
	tm_keys r
	check "$name: r runs it to the end" run_ended $name
	# the frame that first shows the end may have been drawn just before the worker said so
	check "$name: the run ended, the status line no longer says it runs" wait_for 1 not_running $name
	tm_keys Space
	tm_wait "paused: nothing starts until space" 5
done
# r then space at once: the run is stopped whether the worker took it yet or not, and the status
# line says so (the build before said "nothing starts until space" while the queued run started)
goto "$(index_of bytewise)"
tm_keys r Space
check "r then space at once: the status line says the run stopped" tm_wait "paused: bytewise stopped; space runs it again" 5
check "... and the box does not run it" tm_lacks_re "bytewise · .*running"
tm_keys Space
check "space runs it again: the run ends" run_ended bytewise
check "the run ended, the status line no longer says it runs" wait_for 1 not_running bytewise
tm_keys q
check "q quits" wait_exit 10
check_eq "exit status 0" "$(status)" 0

finish
