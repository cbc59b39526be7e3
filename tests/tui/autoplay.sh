#!/bin/sh
# tests/tui/autoplay.sh: a starts autoplay, which moves on to the next built experiment by itself;
# any key stops it.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

dash_ready
first=$(awk '$4 == 1 { print $1; exit }' "$tmp/list")
second=$(awk '$4 == 1 { n++ } $4 == 1 && n == 2 { print $1; exit }' "$tmp/list")
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

finish
