#!/bin/sh
# tests/tui/machines.sh: the machines view. 40 generated reports (tests/fixtures/mkfleet.py, two
# hosts run twice) and a truncated one in a folder, opened with --load=FOLDER on a terminal: at 80x24
# and 200x50 the figure's name, the strips of all machines and of the groups with their counts, the
# highlighted machine's mark, the line in words and the broken report named; Right changes the
# figure, Down scrolls the groups, q quits with exit status 1 (a report was left out) and the
# terminal restored; Ctrl-C ends it with 130, the terminal restored too.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

# the fifth line of the screen does not start with TEXT
line5_lacks() {
	[ "$(tm_screen | sed -n 5p | cut -c1-14)" != "$1" ]
}

src=${top_srcdir:-$(dirname "$0")/../..}
python3 "$src/tests/fixtures/mkfleet.py" "$tmp/class" 38 --repeat=2 --seed=5 || bail "mkfleet.py failed"
head -c 4000 "$tmp/class/0000.json" >"$tmp/class/zz-broken.json"
# how many machines have page-table isolation, from the headless summary's long CSV
pti=$("$WTG" --load="$tmp/class" --format=csv 2>/dev/null | grep -c ',,group,,page-table isolation,,,,PTI$')

start C.UTF-8 80 24 --load="'$tmp/class'" --highlight=host-0003
check "80x24: the first figure, its machines and runs" tm_wait "wtg · 38 machines, 40 runs · figure 1 of" 20
check "80x24: the legend names the highlighted machine" tm_shows "◆ this one (host-0003)"
check "80x24: the strip of all machines, with their count" tm_sees "^all +38 "
check "80x24: the page-table isolation group, with its count" tm_sees "^PTI +$pti "
check "80x24: the broken report is named, left out" tm_shows "1 report left out: zz-broken.json"
check "80x24: the axis is labelled" tm_sees "^groups 1-[0-9]+ of [0-9]+ +─"
tm_keys Right
check "Right: the next figure (syscall)" tm_wait "syscall: ns per getpid, batches of 1000 (ns, lower is better)" 5
check "80x24: syscall's line in words, wrapped" tm_flat_sees "syscall: 38 machines, median [0-9,]+ ns \[quartiles [0-9,]+-[0-9,]+\]; the $pti slowest are virtual machines with page-table isolation"
check "80x24: the highlighted machine's mark on the strips" tm_sees "^all .*◆"
first=$(tm_screen | sed -n 5p | cut -c1-14)
tm_keys Down
check "Down: the groups scroll" wait_for 5 tm_match "^groups 2-"
check "Down: the first group strip scrolled away" wait_for 5 line5_lacks "$first"
tm_resize 200 50
check "200x50: every group shown" tm_wait_gone "groups 1-" 5
check "200x50: the line in words on one line" tm_flat_sees "syscall: 38 machines, median .*; this one: [0-9,]+ ns, [0-9]+(st|nd|rd|th) fastest"
tm_resize 50 20
check "below 60x16: the screen says so" tm_wait "terminal too small: need 60x16, have 50x20" 5
tm_keys q
check "q quits" wait_exit 10
check_eq "q: exit status 1, a report was left out" "$(status)" 1
check_eq "q: the terminal is back on its normal screen" "$(tm_var alternate_on)" 0

# without --highlight, this machine is "this one" when it is among them; Ctrl-C: the view ends at
# once, the terminal restored, 128 + SIGINT
host=$(uname -n)
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["machine"]["hostname"] = sys.argv[2]
json.dump(d, open(sys.argv[1], "w"))' "$tmp/class/0010.json" "$host" || bail "cannot edit a report"
start C.UTF-8 80 24 --load="'$tmp/class'"
check "again: the view is up" tm_wait "wtg · 38 machines, 40 runs · figure 1 of" 20
check "without --highlight: this machine is this one" tm_shows "this one ($host)"
tm_keys C-c
check "Ctrl-C ends the view" wait_exit 10
check_eq "Ctrl-C: exit status 130" "$(status)" 130
check_eq "Ctrl-C: the terminal is back on its normal screen" "$(tm_var alternate_on)" 0
finish
