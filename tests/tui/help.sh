#!/bin/sh
# tests/tui/help.sh: ? opens the help screen, which lists the condition keys; any key closes it.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

start C.UTF-8 80 24
tm_wait "1 bytewise]" || bail "the dashboard did not come up"
tm_keys '?'
check "? opens the help" tm_wait "help: keys and views" 5
check "the help lists the condition keys" tm_shows "evict the data file from the page cache now"
tm_keys x
check "any key closes the help" tm_wait_gone "help: keys and views" 5

finish
