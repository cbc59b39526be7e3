#!/bin/sh
# tests/tui/carry.sh: the rows measured after a condition key carry it: passes after b has burners,
# after u (rerun with Enter) the uncached I/O mode.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

# passes: one row, the quickest experiment that reads the data file; 16M: a quarter of --quick's file.
# The first tab runs by itself and makes the data file; then paused (the run stopped if it still
# measures: a pause also drops a run queued but not started, so pausing at the first frame would
# leave no data file), so that no tab starts by itself when it is visited.
start C.UTF-8 80 24 --size=16M
tm_wait "q quit" 60 || { tm_dump "start"; bail "the dashboard did not come up"; }
tm_wait "data 16M in $tmp/data, sum" 60 || { tm_dump "start"; bail "the data file was not made"; }
tm_keys Space
tm_wait "paused: " 5	# "nothing starts", or the first tab stopped
goto "$(index_of passes)"

# run_after KEY...: press the keys (the last one runs passes) and wait until the run ended
run_after() {
	box_before=$(box_line)
	tm_keys "$@"
	wait_sparse 120 box_ended_anew
}

# b, then r runs passes under the burners (the keys are read in order); they spin on every CPU, so
# they go off (b b: stream, off) as soon as the run ended, and the rows keep them
run_after b r
tm_keys b b Space
tm_wait "paused: nothing starts until space" 5
json=$(save)
check "passes rows measured after b carry the burners" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = [e for e in d["experiments"] if e["name"] == "passes"][0]
c = "cond_burners"
assert v["rows"] and all(r[c] > 0 for r in v["rows"]), v["rows"]' "$json"
tm_wait "[b] burners off" 5
tm_keys u
tm_wait "[u] I/O uncached: " 5
run_after Enter
tm_keys Space
tm_wait "paused: nothing starts until space" 5
json=$(save)
check "passes rows measured after u carry the uncached I/O mode (Enter reruns)" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = [e for e in d["experiments"] if e["name"] == "passes"][0]
c = "cond_io"
assert v["rows"] and all(r[c] in ("direct", "evicting") for r in v["rows"]), v["rows"]' "$json"
tm_keys u
tm_wait "[u] I/O cached" 5

finish
