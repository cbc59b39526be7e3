#!/bin/sh
# tests/tui/record.sh: --record=FILE.cast. A session on the saved runs of tests/fixtures/views.json
# (--load: nothing measured, so nothing depends on a measured figure; under a name of double-width
# characters, which the header shows) at 80x24: a few keys (a tab,
# the next one, the help and back, a resize to 100x30 and back), recorded; the file is asciicast v2
# (header, events in time, valid UTF-8, the two resizes as "r" events) and, its events written back
# into a fresh 80x24 window (by tests/tui/castplay.py, and by asciinema cat where asciinema is
# installed), shows exactly the last screen the session saw. A recording whose
# writes fail (/dev/full) stops with one line on the status line and one on stderr at the end while
# the dashboard goes on; a FIFO a player reads gets the recording as it is made (and one nobody
# reads is one line, exit 1); the usage errors of --record (a --load file, the --file, the
# terminal, a folder, with --run).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
views=$top_srcdir/tests/fixtures/views.json
valley_key=$(awk '$2 == "valley" { print substr("1234567890", $1 + 1, 1) }' "$tmp/list")

cp "$views" "$tmp/课堂.json"	# a label of double-width characters: each drawn once, over two cells
start C.UTF-8 80 24 --load="'$tmp/课堂.json'" --record=talk.cast
check "--load with --record: the dashboard opens on the saved runs" tm_wait "课堂"
tm_keys "$valley_key"
check "valley's saved run is drawn" tm_wait "$(tab_text "$(index_of valley)")]"
tm_keys Tab
tm_keys '?'
check "? opens the help" tm_wait "this help"
tm_keys x
check "a key closes it" tm_wait_gone "this help"
tm_resize 100 30
check "resized to 100x30: the dashboard fills it" wait_for 10 tm_match "^.{99}"
tm_resize 80 24
check "back to 80x24" wait_for 10 tm_lacks_re "^.{81}"
ls -A "$tmp/cwd" >"$tmp/during"
check "while it records, no file is named in the folder yet" [ ! -s "$tmp/during" ]
tm_still "$tmp/last"
tm_keys q
wait_exit 10
check_eq "q ends it with status 0" "$(status)" 0
check "the recording is written" test -s "$tmp/cwd/talk.cast"
check_eq "... and nothing else is left in the folder" "$(ls -A "$tmp/cwd")" "talk.cast"
said=$(python3 "$top_srcdir/tests/tui/castplay.py" check "$tmp/cwd/talk.cast")
diag "$said"
case $said in
"ok 80x24 "*) pass "the recording is asciicast v2 of an 80x24 terminal, events in time, UTF-8 ($said)" ;;
*) fail "the recording is asciicast v2 of an 80x24 terminal ($said)" ;;
esac
case $said in
*"resizes: 100x30 80x24") pass "the resizes are recorded as r events, in order" ;;
*) fail "the resizes are recorded as r events, in order ($said)" ;;
esac
head -n 1 "$tmp/cwd/talk.cast" | grep -q '"env": {"TERM": "[^"]*", "SHELL": "[^"]*"}' &&
	pass "the header carries TERM and SHELL, as asciinema's does" ||
	fail "the header carries TERM and SHELL ($(head -c 200 "$tmp/cwd/talk.cast"))"

replay_is "$tmp/cwd/talk.cast" 80 24 "$tmp/last" "replayed into a fresh 80x24 window, the recording shows the session's last screen"
if command -v asciinema >/dev/null 2>&1; then
	replay_is "$tmp/cwd/talk.cast" 80 24 "$tmp/last" "asciinema cat, in a fresh 80x24 window, draws the same last screen" \
		asciinema
else
	skip_one "asciinema cat draws the same last screen" "asciinema is not installed"
fi

# a recording whose writes fail: the dashboard goes on, says so once, and once more at the end
start C.UTF-8 80 24 --load="'$views'" --record=/dev/full "2>'$tmp/err'"
check "/dev/full: the dashboard goes on, the status line says the recording stopped" \
	tm_wait "recording stopped at"
check "... and why" tm_shows "No space left on device"
tm_keys "$valley_key"
check "... keys still work" tm_wait "$(tab_text "$(index_of valley)")]"
tm_keys q
wait_exit 10
check_eq "a recording that failed: exit 1" "$(status)" 1
case $(cat "$tmp/err") in
"wtg: --record '/dev/full': No space left on device; stopped after "*" s") pass "... and one line on stderr names the file and the cause" ;;
*) fail "... and one line on stderr names the file and the cause ($(cat "$tmp/err"))" ;;
esac

# a FIFO a player reads: written in place, a frame at a time; what came through replays as well
mkfifo "$tmp/live.fifo" "$tmp/none.fifo" || bail "mkfifo failed"
cat "$tmp/live.fifo" >"$tmp/live.cast" &
reader=$!
start C.UTF-8 80 24 --load="'$views'" --record="'$tmp/live.fifo'"
check "a FIFO: the dashboard opens" tm_wait "views"
tm_keys "$valley_key"
check "... keys work" tm_wait "$(tab_text "$(index_of valley)")]"
tm_still "$tmp/last-live"
tm_keys q
wait_exit 10
wait "$reader"
check_eq "... q: exit 0" "$(status)" 0
said=$(python3 "$top_srcdir/tests/tui/castplay.py" check "$tmp/live.cast")
case $said in
"ok 80x24 "*) pass "... what the FIFO's reader got is asciicast v2 ($said)" ;;
*) fail "... what the FIFO's reader got is asciicast v2 ($said)" ;;
esac
replay_is "$tmp/live.cast" 80 24 "$tmp/last-live" "... and replays as the last screen"
start C.UTF-8 80 24 --load="'$views'" --record="'$tmp/none.fifo'" "2>'$tmp/err'"
wait_exit 10
check_eq "a FIFO nobody reads: exit 1" "$(status)" 1
check_eq "... with one line saying so" "$(cat "$tmp/err")" \
	"wtg: --record '$tmp/none.fifo': no program reads this FIFO yet: start the player first"

# usage errors: one line, exit 2, before any terminal is touched
cp "$views" "$tmp/saved.json"
out=$("$WTG" --load="$tmp/saved.json" --record="$tmp/saved.json" 2>&1)
check_eq "--record onto a --load file: exit 2" "$?" 2
check_eq "... with one line naming both" "$out" \
	"wtg: --record '$tmp/saved.json' is the --load file '$tmp/saved.json', which wtg never writes (see 'wtg --help')"
ln -s "$tmp/saved.json" "$tmp/link.cast"
out=$("$WTG" --load="$tmp/saved.json" --record="$tmp/link.cast" 2>&1)
check_eq "--record through a link to a --load file: refused" "$out" \
	"wtg: --record '$tmp/link.cast' is the --load file '$tmp/saved.json', which wtg never writes (see 'wtg --help')"
out=$("$WTG" --file="$tmp/saved.json" --record="$tmp/saved.json" 2>&1)
check_eq "--record onto the --file data file: refused" "$out" \
	"wtg: --record '$tmp/saved.json' is the --file data file '$tmp/saved.json', which wtg never writes (see 'wtg --help')"
out=$("$WTG" --record=- 2>&1)
check_eq "--record=-: the terminal itself, refused" "$out" \
	"wtg: --record '-' is the terminal the dashboard draws on: name a file (see 'wtg --help')"
out=$("$WTG" --record="$tmp" 2>&1)
check_eq "--record onto a folder: refused" "$out" \
	"wtg: --record '$tmp' is a folder: name a file (FILE.cast) (see 'wtg --help')"
out=$("$WTG" --run=clock --record="$tmp/x.cast" 2>&1)
check_eq "--record with --run: refused" "$out" \
	"wtg: --record records the dashboard, not --run or --dry-run (see 'wtg --help')"
out=$("$WTG" --record="$tmp/no/such/x.cast" 2>&1)
check_eq "--record into a folder that is not there: refused" "$out" \
	"wtg: --record '$tmp/no/such/x.cast': folder '$tmp/no/such': No such file or directory (see 'wtg --help')"
check "nothing was written by the refused commands" [ ! -e "$tmp/x.cast" ]
cmp -s "$views" "$tmp/saved.json" && pass "the --load file is unchanged" || fail "the --load file is unchanged"
finish
