#!/bin/sh
# tests/tui/lecture-conditions.sh: honest condition keys. A key pressed while a row runs says
# "pending: from the next batch" and the conditions panel marks it pending; on a tab whose
# experiment sets the condition itself (tail: burners; pagecache: the page cache) the key says so.
# One live row at 80x24 (resized to 60x20 and 120x35 while the key is pending); tail's b at the
# other sizes on the saved run tests/fixtures/views.json.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

fixture=$top_srcdir/tests/fixtures/views.json

# A key pressed while a row runs stays pending until the next row lands, which may be a tenth of a
# second on a fast core: bytewise is held before its first row (WTG_TEST_HOLD) for as long as the
# checks need, whatever the machine. Live at a projector's 80x24; the window is resized while the
# key is pending to the compact 60x20 (no panels: the status line alone says it) and to 120x35, so
# one live run shows all three layouts.
start_env=WTG_TEST_HOLD=bytewise
start C.UTF-8 80 24 --order=bytewise,tail,pagecache --size=16M	# 16M: pagecache reads less
start_env=
tm_wait "press a key to begin" 10 || bail "no start screen"
tm_keys x
check "bytewise runs (held before its first row)" wait_for 20 tm_match "bytewise · .*running"
tm_keys b
check "80x24: b while a row runs: pending from the next batch" \
	tm_wait "pending: from the next batch of bytewise" 5
check "80x24: ... the panel marks the burners pending" \
	wait_for 5 tm_match "\[b\] burners [0-9]+ (spin|stream), pending"
tm_resize 60 20
check "60x20: ... the status line says it, no panels" \
	wait_for 5 sh -c '! tmux -L "$1" capture-pane -p -t t | grep -q "where the time went" &&
		tmux -L "$1" capture-pane -p -t t | grep -qF "pending: from the next batch of bytewise"' - "$TM_SOCK"
tm_resize 120 35
check "120x35: ... the panel marks the burners pending" \
	wait_for 5 tm_match "\[b\] burners [0-9]+ (spin|stream), pending"
# b b: the burners off again (spin, stream, off): still pending while the row has not landed
tm_keys b b
check "120x35: b b: the panel says the burners are off, pending" \
	wait_for 5 tm_match "\[b\] burners off, pending"
# space: bytewise stops, and nothing starts by itself (a tab shown runs when the worker is free), so
# tail's tab is seen without running tail; r runs pagecache
tm_keys Space
tm_wait "paused: " 5
check "... until the run ends (space stopped it)" wait_for 10 tm_lacks_re "\[b\] .*pending"
tm_resize 80 24
tm_keys 2
check "80x24: tail: the panel says tail sets the burners" tm_wait "burners: set by tail" 5
tm_keys b
check "80x24: b on tail: tail runs both itself, the burners stay off" tm_wait "tail runs quiet and burners itself: b leaves them off" 5
tm_keys b b 3 r
check "pagecache runs" wait_for 60 tm_match "pagecache · .*(running|done in)"
# c needs the data file, not pagecache's end: pressed while it runs, then q stops the run
tm_keys c
check "80x24: c on pagecache: pagecache evicts itself" tm_wait "pagecache sets the page cache itself" 5
tm_keys q
wait_exit 10
check_eq "80x24: exit status 0" "$(status)" 0

# b on the tab of an experiment that sets the burners itself, at the other sizes: the same lecture
# drawn from the saved run (nothing to measure, the notice is the same; c needs a data file, so
# pagecache's is seen live above)
for size in 60x20 120x35; do
	cols=${size%x*}
	start C.UTF-8 $cols ${size#*x} --order=bytewise,tail,pagecache --load="$fixture"
	wait_for 10 tm_match "press a key to begin|bytewise · " || bail "$size: the saved lecture did not open"
	tm_has "press a key to begin" && tm_keys x
	tm_keys 2
	check "$size: the tail tab" tm_wait "tail · " 5
	[ "$cols" -lt 80 ] || check "$size: tail: the panel says tail sets the burners" tm_wait "burners: set by tail" 5
	tm_keys b
	check "$size: b on tail: tail runs both itself, the burners stay off" tm_wait "tail runs quiet and burners itself: b leaves them off" 5
	tm_keys b b
	tm_keys q
	wait_exit 10
	check_eq "$size: exit status 0" "$(status)" 0
done
check "the saved lectures measured nothing: no data file" no_datafile

# b pressed in the middle of valley's rounds (at round 2 to 7 of --quick's 15): the samples so far are
# dropped and the rounds start again, so no row mixes quiet and loaded samples. --burn=1 makes b's
# burners one thread (one is enough to change the conditions, and valley finishes on the other CPU);
# they are switched off (b b: spin, stream, off) with the key that leaves the cover, before valley
# starts, and again as soon as valley is done. The data file is --quick's 256M rather than 64M, so the
# rounds span seconds (a 64M valley ran all 15 in 1.3 s here; rounds 2 to 7 would be 0.5 s of it on
# this core, less on a faster one).
rm -f "$tmp/status"
tm_start 120 50 "cd '$tmp/cwd' || exit; env LC_ALL=C.UTF-8 '$WTG' --dir='$tmp/data' --quick --size=256M --burn=1 --order=valley; echo \$? >'$tmp/status'"
tm_wait "press a key to begin" 10 && tm_keys x b b
check "valley's rounds are under way" wait_for 30 tm_match "round ([2-7])/[0-9]+"
tm_keys b
check "valley finishes" wait_for 90 tm_has "done in"
tm_keys b b
# (in the saved run: valley's notes outnumber the lines the notes panel has at 120x50)
tm_keys Space
tm_wait "paused: nothing starts until space" 5
json=$(save)
check "a note says the rounds started again after the key" python3 -c '
import json, re, sys
v = [e for e in json.load(open(sys.argv[1]))["experiments"] if e["name"] == "valley"][0]
# round 2 or later, where the key was pressed (not the b b sent with the key that left the cover)
pat = r"the conditions changed in round ([2-9]|[1-9][0-9]+) of [0-9]+: the [0-9]+ samples taken so far were dropped"
assert any(re.search(pat, n) for n in v["notes"]), v["notes"]' "$json"
check "every valley row says it was measured with one burner (cond_burners)" python3 -c '
import json, sys
v = [e for e in json.load(open(sys.argv[1]))["experiments"] if e["name"] == "valley"][0]
got = [r["cond_burners"] for r in v["rows"]]
assert got and all(b == 1 for b in got), got' "$json"
check "every row was measured under the burners: no quiet series" tm_lacks "● quiet"
tm_keys q
wait_exit 10
check "every data file was removed" no_datafile

finish
