#!/bin/sh
# tests/tui/quit.sh: every way out restores the terminal and removes the data file: q, SIGTERM,
# Ctrl-C, a crash (SIGSEGV), q while the measuring thread is deaf to cancel, and the terminal
# closing (SIGHUP).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

dash_ready
tm_keys q
check "q: wtg exits" wait_exit 10
check_eq "q: exit status 0" "$(status)" 0
check_eq "q: the terminal is restored" "$(tm_var alternate_on)" 0
check "q: the data file is gone" no_datafile

start C.UTF-8 80 24
tm_wait "data 64M in" 60
check "SIGTERM: the data file exists first" has_datafile
kill -TERM "$(tm_children)"
check "SIGTERM: wtg exits" wait_exit 10
check_eq "SIGTERM: exit status 143" "$(status)" 143
check_eq "SIGTERM: the terminal is restored" "$(tm_var alternate_on)" 0
check "SIGTERM: the data file is gone" no_datafile

start C.UTF-8 80 24
tm_wait "data 64M in" 60
tm_keys C-c
check "Ctrl-C: wtg exits" wait_exit 10
check_eq "Ctrl-C: exit status 130" "$(status)" 130
check_eq "Ctrl-C: the terminal is restored" "$(tm_var alternate_on)" 0
check "Ctrl-C: the data file is gone" no_datafile

start C.UTF-8 80 24
tm_wait "data 64M in" 60
kill -SEGV "$(tm_children)"
check "a crash: wtg dies of its signal" wait_exit 10
check_eq "a crash: exit status 139" "$(status)" 139
check "a crash: the terminal is restored" [ "$(tm_var alternate_on)" = 0 ]
check "a crash: the data file is gone" no_datafile

# q while the measuring thread never looks at cancel (WTG_TEST_DEAF): wtg exits all the same
start_env=WTG_TEST_DEAF=bytewise
start C.UTF-8 80 24 --order=bytewise
start_env=
tm_wait "press a key to begin" 10 && tm_keys x
check "deaf: bytewise runs" wait_for 60 tm_match "bytewise · .*running"
tm_keys q
check "q with a measuring thread deaf to cancel: wtg exits" wait_exit 10
check_eq "deaf: exit status 0" "$(status)" 0
check_eq "deaf: the terminal is restored" "$(tm_var alternate_on)" 0
check "deaf: the data file is gone" no_datafile

start C.UTF-8 80 24
tm_wait "data 64M in" 60
tm_stop
check "the terminal closing (SIGHUP): the data file is gone" wait_for 10 no_datafile

finish
