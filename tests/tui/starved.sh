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

# kernels under the same: its measuring thread, starved while it fills its memory-sized buffer, holds
# the process's memory-map lock, and the dashboard once froze behind it in an mmap (the page-cache
# residency it reads each half second) for half a minute, its watchdog with it, so a 3 s limit ended
# the run only after 35 s. Now the residency needs no mapping and the watchdog has a thread of its
# own: the run ends with the limit's words, well before the freeze would have let it (r at once,
# while the starved worker is still making the data file too: the build before this change failed
# here, 36 s).
rm -f "$tmp/status"
cmd="env LC_ALL=C.UTF-8 '$WTG' --quick --size=16M --dir='$tmp/data' --burn --background --time-limit=3"
tm_start 80 24 "cd '$tmp/cwd' || exit; $cmd; echo \$? >'$tmp/status'"
tm_wait "4 kernels" 10
tm_keys 4
tm_wait "4 kernels]" 5
tm_keys r
check "kernels starved while filling its buffer: ended by the 3 s limit, the screen says so" \
	tm_wait "ended after 3 s starved" 20
check "... the reason whole at 80x24, on a second line, not cut" \
	tm_flat_sees "ended after 3 s starved: the measuring thread was runnable but waited for a CPU \(background policy while [0-9]+ burners? ran\)"
tm_keys q
check "starved kernels: q quits" wait_exit 10
check_eq "starved kernels: exit status 0" "$(status)" 0

finish
