#!/bin/sh
# tests/tui/datafile.sh: the data file: made when the first experiment that reads it is about to
# run, not before; one that cannot be made is said in the header.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

# a data file that cannot be made (no room for 1T) is said in the header when it is needed
if [ "$(df -Pk "$tmp/data" | awk 'NR == 2 { print $4 }')" -lt $((1 << 30)) ]; then
	start C.UTF-8 80 24 --size=1T
	check "a data file that cannot be made is said in the header" tm_wait "data file failed: " 30
	tm_keys q
	wait_exit 10
fi

# the data file is made when the first experiment that reads it is about to run, not before: the
# key 2 waits in the terminal before wtg starts, so the first tab to run is syscall
rm -f "$tmp/status" "$tmp/go"
cmd="while [ ! -e '$tmp/go' ]; do sleep 0.05; done; env LC_ALL=C.UTF-8 '$WTG' --quick --dir='$tmp/data'"
tm_start 80 24 "cd '$tmp/cwd' || exit; $cmd; echo \$? >'$tmp/status'"
tm_keys 2
touch "$tmp/go"
check "a key typed before the start selects syscall" tm_wait "2 syscall]" 10
check "syscall runs to the end" wait_for 60 tm_ended
check "the header says there is no data file yet" tm_shows "no data file yet"
check "syscall made no data file" no_datafile
tm_keys 1
check "bytewise, which reads the file, makes it" tm_wait "data 64M in $tmp/data, sum" 60
check "then the data file is there" has_datafile
tm_keys q
check "q quits" wait_exit 10
check "the data file is gone" no_datafile

finish
