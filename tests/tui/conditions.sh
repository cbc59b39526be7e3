#!/bin/sh
# tests/tui/conditions.sh: the condition keys (b, p, u, c) change the conditions panel at once and
# say what they did.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

dash_ready
# paused, nothing runs: a key applies at once (while a row runs it would be pending, see
# lecture-conditions.sh)
tm_keys Space
tm_wait "paused" 5
# condition keys: the conditions panel changes at once
tm_keys b
check "b turns the burners on, spinning" tm_wait "[b] burners on" 5
check "the conditions panel names the spin kind" tm_shows "spin"
tm_keys b
check "b again makes them stream through memory" tm_wait "stream" 5
check "the notice says what each stream burner reads" tm_shows "burners streaming:"
tm_keys b
check "a third b turns them off" tm_wait "[b] burners off" 5
tm_keys p
check "p requests the background policy" tm_wait "[p] policy background" 5
check "no thread has tried it yet: pending, not refused" tm_shows "[p] policy background pending"
tm_keys p
check "p again asks for the normal policy" tm_wait "[p] policy normal" 5
tm_keys u
check "u turns uncached I/O on and says how" tm_wait "[u] I/O uncached: " 5
tm_keys u
check "u again: cached" tm_wait "[u] I/O cached" 5
tm_keys c
check "c evicts the data file and says how many pages stay" \
	wait_for 5 tm_match "evicted( the data file)?: [0-9,?]+ (→|->) [0-9,?]+ pages"
check "... and bytewise, which reads it back, says it will not be cold" tm_shows "not cold: its calibration"
check "the conditions panel shows the cold request pending (no run has taken it)" \
	wait_for 3 tm_match "\[c\] (cached [0-9]+%, cold |[0-9]+% )?pending"
# the background policy again, then the run goes on: its next batch applies it
tm_keys p
check "p asks for the background policy again: pending" tm_wait "[p] policy background pending" 5
tm_keys Space
check "the next batch applies it: granted" tm_wait "[p] policy background granted" 30

finish
