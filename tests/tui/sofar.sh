#!/bin/sh
# tests/tui/sofar.sh: a tab has a number on screen before its first row. tail adds its rows when its
# last block ends; from its first pair of blocks on, the panel shows the p99 ratio so far under
# "measuring:", wrapped whole at the compact 60x20 (never cut), and gone once the rows are drawn.
# One live run of tail (its blocks are a fixed count of batches: the line stands for 9 of its 10
# block pairs whatever the machine's speed).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

start C.UTF-8 60 20 --order=tail
tm_wait "press a key to begin" 10 || bail "no start screen"
tm_keys r
check "60x20: tail runs (or has run)" wait_for 20 tm_match "tail · .*(running|done in)"
check "60x20: a figure so far under 'measuring:' before the rows" \
	wait_for 60 tm_match "so far: p99 x[0-9]+\.[0-9]{2} with burners: [0-9]+ vs [0-9]+ ns"
# read while it is there: the whole line, its end wrapped onto the next one rather than cut
if tm_flat_match "so far: p99 x[0-9.]+ with burners: [0-9]+ vs [0-9]+ ns \([0-9]+ of 10 block pairs\)"; then
	check "60x20: ... whole, wrapped, nothing cut" true
elif tm_has "done in"; then
	skip_one "60x20: ... whole, wrapped, nothing cut" "tail's rows came before the line could be read"
else
	check "60x20: ... whole, wrapped, nothing cut: $(tm_screen | grep -A1 'so far' | tr '\n' ' ')" false
fi
check "60x20: tail ends" wait_for 60 tm_has "done in"
check "60x20: with the rows on screen the 'so far' line is gone" tm_lacks "so far:"
tm_keys q
wait_exit 10
check_eq "exit status 0" "$(status)" 0

finish
