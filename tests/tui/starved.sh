#!/bin/sh
# tests/tui/starved.sh: the worker starved (background policy under burners, a full-size valley with
# tiny reads): the screen says so, and the keys and q still work.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

rm -f "$tmp/status"
cmd="env LC_ALL=C.UTF-8 '$WTG' --size=64M --dir='$tmp/data'"
tm_start 80 24 "cd '$tmp/cwd' || exit; $cmd; echo \$? >'$tmp/status'"
tm_wait "data 64M in" 60
tm_keys 3
tm_wait "3 valley]" 5
tm_keys b p r
check "background policy under burners: the screen says the worker is starved" \
	tm_wait "worker starved: no progress for " 60
tm_keys 5
check "starved: the keys still work" tm_wait "5 mmap]" 5
tm_keys q
check "starved: q still quits" wait_exit 10
check_eq "starved: exit status 0" "$(status)" 0
check "starved: the data file is gone" no_datafile

finish
