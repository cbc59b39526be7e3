#!/bin/sh
# tests/tui/resize.sh: resizing: below 60x20 the screen says so, back at 80x24 or larger the
# dashboard returns, and q quits from the too-small screen (exit 0, the terminal restored, no data
# file left).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

dash_ready
tm_resize 70 20
check "at 70x20 the compact layout: no panels" wait_for 5 tm_lacks "where the time went"
tm_resize 50 20
check "below 60x20 the screen says so" tm_wait "terminal too small: need 60x20, have 50x20" 5
tm_resize 80 24
check "back at 80x24 the dashboard returns" tm_wait "where the time went" 5
tm_resize 100 30
check "at 100x30 too" tm_wait "where the time went" 5
tm_resize 60 12
check "small again" tm_wait "terminal too small: need 60x20, have 60x12" 5
tm_keys q
check "q quits from the too-small screen" wait_exit 10
check_eq "q: exit status 0" "$(status)" 0
check_eq "q: the terminal is back on its normal screen" "$(tm_var alternate_on)" 0
check "q: the data file is gone" no_datafile

finish
