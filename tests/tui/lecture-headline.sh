#!/bin/sh
# tests/tui/lecture-headline.sh: the headline names its run's conditions whenever they are not quiet
# ("one kernel crossing = 1104 ns · burners 2 spin"), and says nothing of them on a quiet run. From
# a fixture derived from tests/fixtures/views.json: syscall saved under two spinning burners, valley
# uncached (O_DIRECT), clock quiet. At 80x24 and 60x20, measuring nothing.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
python3 - "$top_srcdir/tests/fixtures/views.json" "$tmp/cond.json" <<'PY' || bail "cannot derive the fixture"
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["experiments"]:
    for r in e["rows"]:
        if e["name"] == "syscall":
            r["cond_burners"] = 2
        if e["name"] == "valley":
            r["cond_io"] = "direct"
json.dump(d, open(sys.argv[2], "w"))
PY

for size in 80x24 60x20; do
	start C.UTF-8 ${size%x*} ${size#*x} --load="$tmp/cond.json" --order=syscall,valley,clock
	tm_wait "press a key to begin" 10 || bail "$size: no start screen"
	tm_keys x
	check "$size: syscall's headline names its burners" \
		wait_for 10 tm_flat_match "one kernel crossing = [0-9.]+ [nu]s · burners 2 spin"
	tm_keys 2
	check "$size: valley's headline says it was uncached" \
		wait_for 5 tm_flat_match "best buffer [0-9]+[KM]?: [0-9.]+ GB/s, [0-9.]+ ms a GB · uncached"
	tm_keys 3
	tm_wait "clock · " 5
	check "$size: a quiet run's headline names no conditions" tm_lacks_re " · (quiet|burners|uncached)"
	tm_keys q
	wait_exit 10
	check_eq "$size: exit status 0" "$(status)" 0
done
check "nothing measured: no data file" no_datafile

finish
