#!/bin/sh
# tests/tui/autoplay.sh: a starts autoplay, which moves on to the next experiment by itself;
# any key stops it.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

dash_ready
first=$(awk 'NR == 1 { print $1 }' "$tmp/list")
second=$(awk 'NR == 2 { print $1 }' "$tmp/list")
if [ -n "$second" ]; then
	goto "$first"
	tm_keys a
	check "a starts autoplay" tm_wait "autoplay: every experiment in turn" 5
	check "autoplay moves to the next experiment by itself" tm_wait "$(tab_text "$second")]" 150
	tm_keys x
	check "any key stops autoplay" tm_wait "autoplay stopped" 5
else
	tm_keys a
	check "a says what autoplay can do with what is built" tm_wait "autoplay" 5
fi

# a during a run: the progress line says autoplay after its time left, with nothing run together
# ("less than 1 s left  autoplay", never "less thanautoplay")
start C.UTF-8 80 24 --order=bytewise,syscall
tm_wait "press a key to begin" 10 && tm_keys x
check "bytewise runs" wait_for 20 tm_match "bytewise · .*running"
tm_keys a
check "a during a run: the status line says autoplay" tm_wait "autoplay: every experiment in turn" 5
check "... and the progress line adds it after the time left" \
	wait_for 5 tm_match "(s|min) left +autoplay|estimating time left +autoplay"
check "... with nothing run together" tm_lacks_re "[a-z]autoplay"
tm_keys x
tm_keys q
wait_exit 10

# one CPU is "CPU 0", not "CPUs 0" (which reads as "no CPUs")
rm -f "$tmp/status"
tm_start 80 24 "cd '$tmp/cwd' || exit; env LC_ALL=C.UTF-8 taskset -c 0 '$WTG' --quick --dir='$tmp/data' --order=syscall; echo \$? >'$tmp/status'"
tm_wait "press a key to begin" 10 && tm_keys x
check "pinned to CPU 0, the faults panel says CPU 0" wait_for 30 tm_match "│CPU +0 "
check "... never CPUs 0" tm_lacks_re "CPUs +0 "
tm_keys q
wait_exit 10

finish
