#!/bin/sh
# tests/tui/viewkey.sh: m, from the runs overlaid to the machines view and back. Three generated
# reports of three machines (tests/fixtures/mkfleet.py) --load'ed on a terminal at 80x24 open overlaid
# on the tabs; m shows the same runs as the machines view (3 machines, the strip of all, the keys'
# line saying m goes back), Right its next figure, m again the tab as it was; Esc goes back too (laid
# out for a size the terminal took in the machines view); q in
# the machines view ends wtg with 0 and the terminal restored. More than 8 runs open the machines
# view itself, where m says the overlay draws at most 8; without --load, m says it needs saved runs.
# The help lists m.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
src=${top_srcdir:-$(dirname "$0")/../..}
python3 "$src/tests/fixtures/mkfleet.py" "$tmp/three" 3 --seed=7 || bail "mkfleet.py failed"
python3 "$src/tests/fixtures/mkfleet.py" "$tmp/ten" 10 --seed=7 || bail "mkfleet.py failed"
valley_key=$(awk '$2 == "valley" { print substr("1234567890", $1 + 1, 1) }' "$tmp/list")
valley_tab="$(tab_text "$(index_of valley)")]"

start C.UTF-8 80 24 --load="'$tmp/three'"
check "3 runs: the dashboard opens overlaid on the tabs" tm_wait "saved: r runs it live" 20
tm_keys "$valley_key"
check "the valley tab" tm_wait "$valley_tab"
tm_snap_clear
tm_still "$tmp/overlay"
tm_keys m
check "m: the machines view of the same runs" tm_wait "wtg · 3 machines, 3 runs · figure 1 of"
check "m: the strip of all 3 machines" tm_sees "^all +3 "
check "m: its keys say m goes back" tm_shows "Up/Down groups  m back  q quit"
check "m: the line in words" tm_sees "^[a-z]+: 3 machines, median "
tm_keys Right
check "Right: its next figure" tm_wait "· figure 2 of"
tm_keys m
check "m again: back to the tab it left" tm_wait "$valley_tab"
tm_still "$tmp/back"
if cmp -s "$tmp/overlay" "$tmp/back"; then
	pass "m again: the screen is the one m left, cell for cell"
else
	fail "m again: the screen is the one m left, cell for cell"
	diff "$tmp/overlay" "$tmp/back" | sed 's/^/# /'
fi
tm_keys m
check "m once more: the machines view" tm_wait "wtg · 3 machines, 3 runs"
tm_resize 100 30
check "resized there: the machines view fills 100 columns" wait_for 10 tm_match "^.{99}"
tm_keys Escape
check "Esc: back to the runs overlaid" tm_wait "$valley_tab"
check "... laid out for 100x30 (the box's edge in the last column)" wait_for 10 tm_match "^┌.{98}┐$"
tm_resize 80 24
check "... and back at 80x24" wait_for 10 tm_match "^┌.{78}┐$"
tm_keys '?'
check "the help lists m" tm_wait "m: saved runs as machines"
tm_keys x m
check "m after the help: the machines view" tm_wait "wtg · 3 machines, 3 runs"
tm_keys q
wait_exit 10
check_eq "q in the machines view ends wtg with 0" "$(status)" 0
check "... the terminal restored (the normal screen)" [ "$(tm_var alternate_on)" = 0 ]

start C.UTF-8 80 24 --load="'$tmp/ten'"
check "10 runs: the machines view opens itself" tm_wait "wtg · 10 machines, 10 runs" 20
check "... its keys' line: figure, groups, quit" tm_shows "Up/Down groups  q quit"
tm_keys m
check "m: the overlay draws at most 8 runs, and says so" tm_wait "m: the runs overlaid are at most 8; these are 10 runs"
tm_keys Right
check "the next key: the keys' line again" tm_wait "Up/Down groups  q quit"
tm_keys q
wait_exit 10
check_eq "q: exit 0" "$(status)" 0

start C.UTF-8 80 24 --order=clock
check "live, no --load: the start screen" tm_wait "press a key to begin" 10
tm_keys x
tm_keys Space
tm_keys m
check "m without --load: it says the machines view needs saved runs" \
	tm_wait "m: the machines view draws saved runs: open them with --load"
tm_keys q
wait_exit 10
check_eq "q: exit 0" "$(status)" 0
finish
