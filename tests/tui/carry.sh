#!/bin/sh
# tests/tui/carry.sh: the rows measured after a condition key carry it: passes after b has burners,
# after u (rerun with Enter) the uncached I/O mode.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

# passes: one row, the quickest experiment that reads the data file; 16M: a quarter of --quick's file
dash_ready --size=16M
tm_keys Space
tm_wait "paused: " 5	# "nothing starts", or the first tab stopped
goto "$(index_of passes)"
tm_keys b
tm_wait "[b] burners on" 5
run_here "$(index_of passes)"
json=$(save)
check "passes rows measured after b carry the burners" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = [e for e in d["experiments"] if e["name"] == "passes"][0]
c = "cond_burners"
assert v["rows"] and all(r[c] > 0 for r in v["rows"]), v["rows"]' "$json"
tm_keys b b
tm_wait "[b] burners off" 5
tm_keys u
tm_wait "[u] I/O uncached: " 5
box_before=$(box_line)
tm_keys Enter
tm_wait "running passes" 5
wait_for 10 box_changed
wait_for 120 tm_ended
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
