#!/bin/sh
# tests/tui/resize.sh: resizing: below 80x24 the screen says so, back at 80x24 or larger the
# dashboard returns, and q quits from the too-small screen (exit 0, the terminal restored, no data
# file left).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

dash_ready
tm_resize 70 20
check "below 80x24 the screen says so" tm_wait "terminal too small: need 80x24, have 70x20" 5
tm_resize 80 24
check "back at 80x24 the dashboard returns" tm_wait "where the time went" 5
tm_resize 100 30
check "at 100x30 too" tm_wait "where the time went" 5
tm_resize 60 12
check "small again" tm_wait "terminal too small: need 80x24, have 60x12" 5
tm_keys q
check "q quits from the too-small screen" wait_exit 10
check_eq "q: exit status 0" "$(status)" 0
check_eq "q: the terminal is back on its normal screen" "$(tm_var alternate_on)" 0
check "q: the data file is gone" no_datafile

finish
