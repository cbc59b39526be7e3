#!/bin/sh
# tests/tui/lecture-fit.sh: nothing is cut silently on a projector's 80x24 or the compact 60x20: a
# count too wide for the switches panel is abbreviated (7,202 -> 7.2k), the conditions panel says
# what pagecache sets in words that fit, a title too long for the box ends in an ellipsis, and the
# essay's line is drawn in normal weight (dim only for its labels). From a fixture derived from
# tests/fixtures/views.json, measuring nothing.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
python3 - "$top_srcdir/tests/fixtures/views.json" "$tmp/fit.json" <<'PY' || bail "cannot derive the fixture"
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["experiments"]:
    if e["name"] == "syscall":
        e["probe"]["ivcsw"] = 7202
        e["probe"]["vcsw"] = 1234567890
json.dump(d, open(sys.argv[2], "w"))
PY

# dim_at TEXT: the screen draws TEXT dim (SGR 2 in force where it starts), from tmux's escapes
dim_at() {
	tm capture-pane -e -p -t "$TM_TARGET" | python3 -c '
import re, sys
want = sys.argv[1]
for line in sys.stdin:
    dim, text = False, ""
    for part in re.split(r"(\x1b\[[0-9;]*m)", line):
        m = re.fullmatch(r"\x1b\[([0-9;]*)m", part)
        if m:
            for p in (m.group(1) or "0").split(";"):
                if p in ("", "0", "22"):
                    dim = False
                elif p == "2":
                    dim = True
            continue
        i = part.find(want)
        if i >= 0:
            sys.exit(0 if dim else 1)
sys.exit(2)' "$1"
}

# not_dim TEXT: the screen shows TEXT, not dim
not_dim() {
	dim_at "$1"
	[ $? -eq 1 ]
}

start C.UTF-8 80 24 --load="$tmp/fit.json" --order=syscall,pagecache,valley
tm_wait "press a key to begin" 10 || bail "no start screen"
tm_keys x
tm_wait "syscall · " 10
check "80x24: the saved run's switches: 7,202 involuntary ones read 7.2k" wait_for 5 tm_match "invol 7\.2k"
check "80x24: ... a count wider still keeps its magnitude (1235M)" tm_sees "vol +(1\.2G|1,?235M) "
check "80x24: the essay's figures are in normal weight" not_dim "89 ns a raw getpid"
check "80x24: ... its label dim" dim_at "essay:"
tm_keys 2
tm_wait "pagecache · " 5
check "80x24: the conditions panel says pagecache sets the I/O, whole" wait_for 5 tm_has "[u] I/O: set by pagecache"
check "80x24: ... never cut mid-word" tm_lacks_re "\(pagecache set[^s]|\(pagecache sets? *│"
tm_keys q
wait_exit 10

start C.UTF-8 60 20 --load="$tmp/fit.json" --order=valley
tm_wait "press a key to begin" 10 || bail "no start screen"
tm_keys x
check "60x20: valley's long title ends in an ellipsis" wait_for 10 tm_match "valley · How big should .*… "
check "60x20: the essay line's figures are in normal weight" not_dim "a valley: 16-byte"
tm_keys q
wait_exit 10
check_eq "exit status 0" "$(status)" 0
check "nothing measured: no data file" no_datafile

finish
