#!/bin/sh
# tests/tui/save-runs.sh: the HTML and CSV that s saves carry every run the JSON does, each with its
# label and its own conditions. From a fixture derived from tests/fixtures/views.json (valley saved
# quiet then uncached, syscall quiet then under two spinning burners), syscall rerun live (quiet)
# beside them, then s: the page shows each run under its label with what it was measured under (a
# page once said only the conditions when it was written, "burners off", beside a run measured under
# burners), and the CSV has each earlier run's records, run "RUN, earlier K of N: LABEL", their
# cond_burners and cond_io cells the JSON rows' own.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
py=python3
"$py" "$top_srcdir/tests/fixtures/mkearlier.py" "$top_srcdir/tests/fixtures/views.json" "$tmp/two.json" --only ||
	bail "cannot derive the fixture"

start C.UTF-8 80 24 --load="$tmp/two.json" --order=syscall,valley
tm_wait "press a key to begin" 10 && tm_keys x
tm_wait "saved: r runs it live" 10
tm_keys r
check "syscall rerun live" run_ended syscall
json=$(save)
check "s saves" [ -n "$json" ]
base=${json%.json}
check "the JSON holds syscall's three runs and valley's two, as saved" "$py" -c '
import json, sys
d = json.load(open(sys.argv[1]))
ex = {e["name"]: e for e in d["experiments"]}
assert [r["label"] for r in ex["syscall"]["earlier_runs"]] == ["quiet", "saved: burners 2 spin"]
assert [r["label"] for r in ex["valley"]["earlier_runs"]] == ["quiet"]' "$json"

# what a run was measured under, in the words the page uses, from its JSON rows
cat >"$tmp/words.py" <<'PY'
def words(rows):
    ws = set()
    for r in rows:
        w = []
        if r.get("cond_burners"):
            w.append("burners %d spin" % r["cond_burners"])
        if r.get("cond_policy") == "background":
            w.append("background")
        if r.get("cond_io") == "direct":
            w.append("uncached")
        ws.add(", ".join(w) or "quiet")
    return ws.pop() if len(ws) == 1 else "mixed conditions"
PY
check "the page: each run under its label with its own conditions, as the JSON has them" "$py" -c '
import html, json, re, sys
sys.path.insert(0, sys.argv[3])
from words import words
d, page = json.load(open(sys.argv[1])), open(sys.argv[2], encoding="utf-8").read()
for e in d["experiments"]:
    sec = re.search(r"<section class=\"exp\" id=\"%s\">(.*?)</section>" % e["name"], page, re.S).group(1)
    under = re.findall(r"<p class=\"sub\">measured under ([^;<]*);", sec)
    want = [words(e["rows"])] + [words(r["rows"]) for r in e["earlier_runs"]]
    assert under == want, (e["name"], under, want)
    heads = [html.unescape(h) for h in re.findall(r"<h3>\d+\. (.*?)</h3>", sec)]
    assert heads == [r["label"] for r in e["earlier_runs"]], (e["name"], heads)
    assert sec.count("<table class=\"rows\">") >= 1 + len(e["earlier_runs"]), e["name"]
ex = {e["name"]: e for e in d["experiments"]}
assert words(ex["valley"]["rows"]) == "uncached" and words(ex["syscall"]["earlier_runs"][1]["rows"]) == "burners 2 spin"' \
	"$json" "$base.html" "$tmp"
check "the CSV: each earlier run's records under its label, its conditions the JSON rows' own" "$py" -c '
import csv, json, sys
d = json.load(open(sys.argv[1]))
recs = list(csv.DictReader(open(sys.argv[2], encoding="utf-8")))
run = d["run"]["label"] or d["run"]["timestamp"]
def cells(name, runname, col):
    got = {}
    for r in recs:
        if r["experiment"] == name and r["run"] == runname and r["kind"] == "cell" and r["name"] == col:
            got[int(r["row"])] = r["value"] if r["value"] != "" else r["text"]
    return [got[i] for i in sorted(got)]
def want(rows, col):
    return [str(r[col]) for r in rows]
for e in d["experiments"]:
    n = len(e["earlier_runs"])
    runs = [(run, e["rows"])] + [("%s, earlier %d of %d: %s" % (run, k + 1, n, r["label"]), r["rows"])
                                 for k, r in enumerate(e["earlier_runs"])]
    for name, rows in runs:
        for col in ("cond_burners", "cond_io"):
            assert cells(e["name"], name, col) == want(rows, col), (e["name"], name, col)
        assert [r["status"] for r in recs if r["experiment"] == e["name"] and r["run"] == name
                and r["kind"] == "state"] == ["done"], (e["name"], name)
    verdicts = [r for r in recs if r["experiment"] == e["name"] and r["kind"] == "verdict"]
    assert len(verdicts) == 1 + n, (e["name"], len(verdicts))' "$json" "$base.csv"
tm_keys q
wait_exit 10
check_eq "exit status 0" "$(status)" 0

finish
