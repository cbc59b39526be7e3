#!/bin/sh
# tests/tui/overlay.sh: saved runs in the dashboard and runs drawn beside each other. A quiet valley
# run and a --burn=8 one (made from the saved fixture) --load'ed together at 100x30: both labels on
# the valley tab, the ratio line, nothing measured and no data file until r; r draws the live run
# beside them;
# a rerun after b keeps the run before it and is paired against its conditions ("quiet vs burners 1
# spin, paired over 15 rounds: x..."); --load opens where
# nothing could be measured (TMPDIR and the working folder unwritable).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

# the two saved runs, made from the saved valley of tests/fixtures/views.json: quiet.json as it is,
# burn8.json as if measured under 8 burners at half the GB/s (by construction: nothing is measured)
python3 -c '
import copy, json, sys
doc = json.load(open(sys.argv[1]))
doc["experiments"] = [e for e in doc["experiments"] if e["name"] == "valley"]
json.dump(doc, open(sys.argv[2], "w"))
doc["conditions"]["burners"] = 8
for r in doc["experiments"][0]["rows"]:
    r["cond_burners"] = 8
    for k in ("gbps", "gbps_ci_low", "gbps_ci_high", "gbps_min", "gbps_max", "ms"):
        if isinstance(r.get(k), (int, float)):
            r[k] = r[k] * 2 if k == "ms" else r[k] / 2
json.dump(doc, open(sys.argv[3], "w"))' "$top_srcdir/tests/fixtures/views.json" "$tmp/quiet.json" "$tmp/burn8.json" ||
	bail "cannot make the saved valley runs"

# the valley tab's place in the deck (its key)
valley_key=$(awk '$2 == "valley" { print substr("1234567890", $1 + 1, 1) }' "$tmp/list")

start C.UTF-8 100 30 --size=16M --load="$tmp/quiet.json" --load="$tmp/burn8.json"	# 16M: r's file
check "--load: the dashboard opens on the saved runs, their labels in the header" tm_wait "quiet: "
tm_keys "$valley_key"
check "valley: the sweep's legend names the quiet run" tm_wait "● quiet"
check "valley: ... and the burn8 run" tm_shows "◆ burn8"
check "valley: each headline's ratio to the first run, with a CI" tm_flat_sees "quiet(: quiet)? → burn8(: burners 8 spin)?, sequential: x[0-9.]+ \[CI [0-9.]+–[0-9.]+\] (faster|slower|no change|inconclusive|the machine moved|drift unknown): GB/s"
check "--load: nothing measured yet, no data file" no_datafile
check "--load: the header says no data file yet" tm_shows "no data file yet"
tm_keys 2
check "a tab neither file holds says so" tm_wait "not in the saved runs: r measures it"
tm_keys "$valley_key" r
check "r: the live run is drawn beside the saved ones" tm_wait "■ live: quiet" 60
check "r: ... and the ratio line takes it in, each run by its mark on the chart" \
	wait_for 60 tm_match "vs ●: ◆ x[0-9.]+ \[[0-9.]+, [0-9.]+\], ■ x[0-9.]+ "
check "r: the data file is made only now" has_datafile
tm_keys q
wait_exit 10
check "q ends it with status 0" [ "$(cat "$tmp/status" 2>/dev/null)" = 0 ]
check "the data file is removed at exit" no_datafile

# before and after, at a projector's 80x24: a plain dashboard, valley run quiet, then again under
# burners; both runs drawn, labelled, and the ratio line leads with the ratio so it survives 60
# columns: the window is resized to the compact 60x20 and a large 120x35 with both runs on screen
# (one live scenario shows the three layouts). --burn=1: b's burners are one thread (one changes the
# conditions; the run under them finishes on the other CPU); they are off (b b: spin, stream, off)
# from the key that leaves the cover, and switched off again as soon as the run under them is done
start C.UTF-8 80 24 "--order=valley" --size=16M --burn=1	# 16M: a quarter of the file to make
# --order opens on the lecture's start screen: a key starts it
check "the start screen waits" tm_wait "press a key to begin" 10
tm_keys x b b
check "valley runs on its own first" tm_wait "done in" 60
tm_keys e
check "e with no earlier run says so" tm_wait "no earlier run of valley"
# the rerun under the burner ends: the box's top edge (its state at the right) shows an end that is
# not the first run's ("run 2 · done in"), one tmux client a look
box_before=$(box_line)
tm_keys b r
wait_sparse 120 box_ended_anew
tm_keys b b
for size in 80x24 60x20 120x35; do
	tm_resize ${size%x*} ${size#*x}
	check "$size: rerun after b: the quiet run stays, labelled with its conditions" tm_wait "● quiet" 60
	check "$size: rerun after b: the new run is labelled with its burners" \
		wait_for 60 tm_match "◆ burners [0-9]+ spin"
	check "$size: rerun after b: paired against the conditions before, the ratio on screen" \
		wait_for 60 tm_flat_match "quiet vs burners [0-9]+ spin, paired over 15 rounds: x[0-9]+\.[0-9]{2}"
done
tm_resize 80 24
tm_keys r
check "a third run: the earlier one beside it is the one just before" tm_wait "◆ quiet" 60
tm_keys e
check "e steps one further back" tm_wait "the run 2 before this one" 10
tm_keys q
wait_exit 10
check_eq "exit status 0" "$(status)" 0

# --load where nothing could be measured: TMPDIR missing, the working folder read-only (/proc)
rm -f "$tmp/status"
tm_start 100 30 "cd /proc || exit; env TMPDIR=/proc/wtg-none LC_ALL=C.UTF-8 '$WTG' --load='$tmp/quiet.json'; echo \$? >'$tmp/status'"
check "--load opens with TMPDIR unwritable" tm_wait "quiet: "
tm_keys "$valley_key"
check "... and draws the saved valley" tm_wait "by read() buffer size"
tm_keys q
wait_exit 10
check "... and ends with status 0" [ "$(cat "$tmp/status" 2>/dev/null)" = 0 ]

finish
