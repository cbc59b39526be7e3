#!/bin/sh
# tests/tui/tabs.sh: the tab keys: numbers, 0 for the tenth, Tab and Shift-Tab, Right and Left, and
# the tab beyond the tenth (keyed !).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

nexp=$(wc -l <"$tmp/list")
check "--list names the eleven tabs this test keys, or more" [ "$nexp" -ge 11 ]
start C.UTF-8 80 24
tm_wait "1 bytewise]" || bail "the dashboard did not come up"
tm_keys 3
check "key 3 selects valley" tm_wait "3 valley]" 5
check "valley's box shows its question" tm_wait "valley · How big should the read buffer be?" 5
tm_keys Tab
check "Tab moves to kernels" tm_wait "4 kernels]" 5
tm_keys BTab
check "Shift-Tab moves back" tm_wait "3 valley]" 5
tm_keys Right
check "Right moves on" tm_wait "4 kernels]" 5
tm_keys Left
check "Left moves back" tm_wait "3 valley]" 5
tm_keys 0
check "key 0 selects the tenth tab" tm_wait "0 threads]" 5
tm_keys Tab
check "Tab reaches the eleventh tab, keyed !" tm_wait "[! roofline]" 5
tm_keys 1

finish
