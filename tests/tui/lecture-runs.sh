#!/bin/sh
# tests/tui/lecture-runs.sh: a save keeps every run a tab shows, each labelled with its conditions,
# and reopened with --load the tab shows them all; a save from a --load session keeps every tab, the
# ones not rerun as saved. From a fixture derived from
# tests/fixtures/views.json: valley saved quiet then uncached, syscall quiet then under two spinning
# burners (earlier_runs), each saved with its own why_here from the saved machine (kvm). At 80x24 and
# 60x20 drawn without measuring; then syscall rerun live (a second at most) beside the saved runs,
# saved with s and reopened.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
py=python3	# tests/lib.sh's: the interpreter itself, not a version manager's shim
"$py" "$top_srcdir/tests/fixtures/mkearlier.py" "$top_srcdir/tests/fixtures/views.json" "$tmp/two.json" --kvm ||
	bail "cannot derive the fixture"

for size in 80x24 60x20; do
	start C.UTF-8 ${size%x*} ${size#*x} --load="$tmp/two.json" --order=syscall,valley
	tm_wait "press a key to begin" 10 || bail "$size: no start screen"
	tm_keys x
	check "$size: syscall shows its quiet run before the saved one under burners" \
		wait_for 10 tm_flat_match "quiet (→|->) saved: burners 2 spin, sequential: x[0-9.]+"
	check "$size: ... both in the legend" tm_flat_sees "quiet .* saved: burners 2 spin"
	[ $size = 80x24 ] && check "$size: the conditions panel says the run shown was not quiet" \
		tm_sees "─ conditions ─+ not quiet ─"
	tm_keys 2
	check "$size: valley shows its quiet run before the saved uncached one" \
		wait_for 5 tm_flat_match "quiet (→|->) saved: uncached, sequential: x[0-9.]+"
	[ $size = 80x24 ] && check "$size: ... and the panel says it was uncached, not '[u] I/O cached' alone" \
		tm_sees "─ conditions ─+ uncached ─"
	check "$size: the saved run is labelled by its conditions, not the file's name" tm_lacks_re "[●◆] two"
	tm_keys q
	wait_exit 10
	check_eq "$size: exit status 0" "$(status)" 0
done
check "drawing the saved runs measured nothing: no data file" no_datafile

# s before anything runs live keeps every tab the session shows: each saved run with its earlier
# runs and their labels (a save from a --load session once kept only the tabs rerun)
start C.UTF-8 80 24 --load="$tmp/two.json" --order=syscall,valley
tm_wait "press a key to begin" 10 && tm_keys x
tm_wait "saved: r runs it live" 10
json=$(save)
check "s with nothing rerun saves" [ -n "$json" ]
check "... every experiment of the file, valley and syscall with their earlier runs, labelled" "$py" -c '
import json, sys
d, src = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert [e["name"] for e in d["experiments"]] == [e["name"] for e in src["experiments"]], \
	[e["name"] for e in d["experiments"]]
e = {x["name"]: x for x in d["experiments"]}
assert [r["label"] for r in e["valley"]["earlier_runs"]] == ["quiet"], e["valley"].get("earlier_runs")
assert e["valley"]["rows"] and all(r["cond_io"] == "direct" for r in e["valley"]["rows"])
assert all(r["cond_io"] == "cached" for r in e["valley"]["earlier_runs"][0]["rows"])
assert [r["label"] for r in e["syscall"]["earlier_runs"]] == ["quiet"]
assert all(r["cond_burners"] == 2 for r in e["syscall"]["rows"])
assert "earlier_runs" not in e["clock"] and e["clock"]["rows"]' "$json" "$tmp/two.json"
check "... each run with its own why_here, from the saved machine (kvm, page-table isolation)" "$py" -c '
import json, sys
e = {x["name"]: x for x in json.load(open(sys.argv[1]))["experiments"]}
kvm = "13x the essay\x27s: page-table isolation on a kvm virtual machine"
assert e["syscall"]["earlier_runs"][0].get("why_here") == kvm, e["syscall"]["earlier_runs"][0].get("why_here")
assert e["syscall"]["why_here"] == kvm, e["syscall"]["why_here"]
assert "kvm virtual machine" in e["valley"]["earlier_runs"][0]["why_here"], e["valley"]["earlier_runs"][0]["why_here"]
assert e["clock"]["why_here"] is None' "$json"
if "$py" -c "import jsonschema" 2>/dev/null; then
	check "... and the save is valid against data/wtg-report.schema.json" "$py" -c '
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' "$json" \
		"$top_srcdir/data/wtg-report.schema.json"
else
	skip_one "the save is valid against the schema" "the Python module jsonschema is not installed"
fi
check "... and measured nothing" no_datafile
tm_keys q
wait_exit 10
start C.UTF-8 80 24 --load="$json" --order=valley
tm_wait "press a key to begin" 10 && tm_keys x
check "reopened: valley's quiet run before the saved uncached one, each labelled" \
	wait_for 10 tm_flat_match "quiet (→|->) saved: uncached, sequential: x[0-9.]+"
tm_keys q
wait_exit 10

# a live rerun beside the saved runs names both sides' conditions, and s keeps all three
start C.UTF-8 80 24 --load="$tmp/two.json" --order=syscall,valley
tm_wait "press a key to begin" 10 && tm_keys x
tm_wait "saved: r runs it live" 10
tm_keys r
check "syscall rerun live" run_ended syscall
check "the live run is named with its conditions beside the saved ones" \
	tm_flat_sees "saved: burners 2 spin .*live: quiet"
json=$(save)
check "s saves" [ -n "$json" ]
check "the save keeps syscall's earlier runs, labelled, oldest first" "$py" -c '
import json, sys
d = json.load(open(sys.argv[1]))
e = [x for x in d["experiments"] if x["name"] == "syscall"][0]
labels = [r["label"] for r in e["earlier_runs"]]
assert labels == ["quiet", "saved: burners 2 spin"], labels
assert all(r["cond_burners"] == 2 for r in e["earlier_runs"][1]["rows"])
assert all(r["cond_burners"] == 0 for r in e["earlier_runs"][0]["rows"])
assert e["rows"] and all(r["cond_burners"] == 0 for r in e["rows"])
v = [x for x in d["experiments"] if x["name"] == "valley"][0]
assert [r["label"] for r in v["earlier_runs"]] == ["quiet"], "valley, not rerun, kept with its runs"
assert all(r["cond_io"] == "direct" for r in v["rows"])
kvm = "13x the essay\x27s: page-table isolation on a kvm virtual machine"
assert [r.get("why_here") for r in e["earlier_runs"]] == [kvm, kvm], [r.get("why_here") for r in e["earlier_runs"]]' "$json"
tm_keys q
wait_exit 10
start C.UTF-8 80 24 --load="$json" --order=syscall
tm_wait "press a key to begin" 10 && tm_keys x
check "reopened: the three runs of syscall, each labelled" \
	wait_for 10 tm_flat_match "quiet .*saved: burners 2 spin .*saved: quiet"
tm_keys q
wait_exit 10
check_eq "exit status 0" "$(status)" 0

finish
