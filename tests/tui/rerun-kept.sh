#!/bin/sh
# tests/tui/rerun-kept.sh: a completed run is never displaced. A valley rerun cancelled (space) after
# a completed run: the box keeps the completed run and says so ("the rerun was cancelled; showing the
# run of HH:MM:SS"), never "stopped before the end"; s saves the completed run as valley's table and
# the cancelled one beside it with its state; the file loaded back shows the completed run (the
# build before saved the cancelled rerun as the table, which loaded back as "not run yet" when it
# had no rows); saved while a rerun measures, the completed run is the table all the same. Then a
# tab rerun past the cap (16 runs a tab): the screen (e) and the file count the runs dropped.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

# box_running: the box's top edge says the run measures (a valley run lasts seconds)
box_running() {
	case $(box_line) in *running*) return 0 ;; esac
	return 1
}

# box_rows: the run measures in its second round or later (rows of its own: a row lands with each
# buffer size's first round, after the warm-ups)
box_rows() {
	tm_match "valley .*round ([2-9]|[1-9][0-9])/"
}

start C.UTF-8 80 24 --order=syscall,valley
tm_wait "press a key to begin" 10 || bail "no start screen"
tm_keys x
check "syscall runs to the end" run_ended syscall
tm_keys 2
tm_wait "2 valley]" 5
tm_keys r
check "valley runs to the end" run_ended valley
tm_keys r
check "valley's rerun measures, rows of its own" wait_for 60 box_rows
tm_keys Space
check "space cancels the rerun" tm_wait "paused: valley stopped" 10
check "the box keeps the completed run and says the rerun was cancelled" \
	tm_wait "the rerun was cancelled; showing the run of " 10
check "the box does not say stopped before the end" tm_lacks "stopped before the end"
check "the completed run's headline is on screen" tm_flat_sees "best buffer [0-9]"
json=$(save)
check "s saves" [ -n "$json" ]
check "the save holds valley's completed run as its table, the cancelled rerun beside it" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ex = {e["name"]: e for e in d["experiments"]}
v = ex["valley"]
assert v["state"] == "done" and v["rows"], (v["state"], len(v["rows"]))
runs = v.get("earlier_runs", [])
assert [r["state"] for r in runs] == ["cancelled"], [(r["label"], r["state"]) for r in runs]
assert runs[0]["rows"], "the cancelled rerun has rows of its own"
assert runs[0]["label"].endswith("(cancelled)"), runs[0]["label"]
assert ex["syscall"]["state"] == "done" and ex["syscall"]["rows"]' "$json"
cp "$json" "$tmp/kept.json"
# saved while a rerun measures: the completed run is still the table, the running one beside it
tm_keys r
check "valley's next rerun measures" wait_for 60 box_running
json=$(save)
check "saved during a rerun: the completed run is the table, the rerun beside it as running" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = [e for e in d["experiments"] if e["name"] == "valley"][0]
assert v["state"] == "done" and v["rows"], v["state"]
runs = v["earlier_runs"]
assert [r["state"] for r in runs] == ["cancelled", "running"], [(r["label"], r["state"]) for r in runs]
assert runs[-1]["label"].endswith("(running)"), runs[-1]["label"]' "$json"
# ended, it is drawn beside the completed run (two before it), not the cancelled one just before
check "the rerun ends" wait_sparse 60 tm_ended
check "beside it: the completed run, two before" tm_shows "quiet, 2 before"
check "... not the cancelled run" tm_lacks "(cancelled)"
tm_keys q
wait_exit 10

start C.UTF-8 80 24 --load="$tmp/kept.json" --order=syscall,valley
tm_wait "press a key to begin" 10 || bail "no start screen with --load"
tm_keys x 2
tm_wait "2 valley]" 5
check "loaded back, valley shows the completed run" tm_wait "saved: r runs it live" 5
check "loaded back, valley is not 'not run yet'" tm_lacks "not run yet"
check "loaded back, its headline is on screen" tm_flat_sees "best buffer [0-9]"
tm_keys q
wait_exit 10

# ---- past the cap: 17 runs of syscall keep the current and 15 before it, and say 1 was dropped ----
# kept N: e says the tab keeps N earlier runs (a new run counts the one before it when it starts);
# the 16th earlier run is one too many: 15 kept, 1 dropped
kept() {
	tm_keys e
	if [ "$1" -le 15 ]; then tm_has "; $1 kept"; else tm_has "; 15 kept, 1 dropped (16 a tab)"; fi
}

start C.UTF-8 80 24 --order=syscall,valley
tm_wait "press a key to begin" 10 || bail "no start screen"
tm_keys x
run_ended syscall || bail "syscall did not run"
n=1
while [ $n -le 16 ]; do
	tm_keys r
	wait_for 30 kept $n || break
	wait_sparse 60 tm_ended || break
	n=$((n + 1))
done
check_eq "sixteen reruns" "$n" 17
check "e says 15 kept and 1 dropped, and the cap" tm_wait "15 kept, 1 dropped (16 a tab)" 5
json=$(save)
check "the save holds the 15 earlier runs and says 1 was dropped" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = [e for e in d["experiments"] if e["name"] == "syscall"][0]
assert v["state"] == "done" and v["rows"]
assert len(v["earlier_runs"]) == 15 and all(r["state"] == "done" for r in v["earlier_runs"]), len(v["earlier_runs"])
assert v["earlier_runs_dropped"] == 1, v.get("earlier_runs_dropped")' "$json"
cp "$json" "$tmp/cap.json"
tm_keys q
wait_exit 10
start C.UTF-8 80 24 --load="$tmp/cap.json" --order=syscall,valley
tm_wait "press a key to begin" 10
tm_keys x
check "a save of 16 runs of a tab loads back" tm_wait "saved: r runs it live" 5
tm_keys q
wait_exit 10

finish
