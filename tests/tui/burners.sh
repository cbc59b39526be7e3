#!/bin/sh
# tests/tui/burners.sh: the dashboard with the most burners --burn allows (32 per online CPU) still
# draws and answers keys: the first frame comes, a tab key switches the tab, b cycles the burners
# (stream, off, spin; at 80 columns the panel shows "burners on: N stream" and "... spin"), q quits with status 0 and
# the data file gone. No timings here (bench/burnkeys.sh measures how fast); every wait polls the
# screen with a generous deadline.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

need tmux
[ -x "$WTG" ] || skip "$WTG is not built"

scratch
tmp=$lib_tmp
mkdir -p "$tmp/data" || exit 99
ncpu=$(getconf _NPROCESSORS_ONLN)
max=$((32 * ncpu))
[ "$max" -gt 1024 ] && max=1024

check "--burn=$((max + 1)) is refused" sh -c "'$WTG' --burn=$((max + 1)) --run=syscall 2>&1 >/dev/null |
	grep -qF \"wtg: --burn must be a whole number from 1 to $max (32 per online CPU), not '$((max + 1))'\""

tm_start 80 24 "ulimit -c 0; env LC_ALL=C.UTF-8 '$WTG' --quick --size=16M --dir='$tmp/data' --burn=$max; \
echo \$? >'$tmp/status'"
check "--burn=$max: the first frame" tm_wait "q quit" 60
check "--burn=$max: the burners are on" tm_wait "burners on: $max spin" 30
tm_keys 3
check "--burn=$max: a tab key switches the tab" tm_wait "3 valley]" 30
tm_keys 2
check "--burn=$max: and back" tm_wait "2 syscall]" 30
tm_keys b
check "--burn=$max: b makes them stream" wait_for 60 tm_match "burners (on, |on: )?$max (threads )?st"
tm_keys b
check "--burn=$max: b again turns them off" tm_wait "[b] burners off" 30
tm_keys b
# while a row runs the panel says "burners N spin, pending" until the next row lands
check "--burn=$max: b turns $max on again" wait_for 30 tm_match "burners (on, |on: )?$max (threads )?sp"
tm_keys q
check "--burn=$max: q quits" wait_for 30 test -s "$tmp/status"
check_eq "--burn=$max: exit status 0" "$(cat "$tmp/status" 2>/dev/null)" 0
check "--burn=$max: the data file is gone" [ -z "$(ls -A "$tmp/data")" ]
tm_stop
finish
