# tests/lib.sh: helpers the shell tests share. Source it:
#	. "${top_srcdir:-.}/tests/lib.sh"
# It reports in TAP (automake's tap-driver.sh counts the lines): check and check_eq print
# "ok N - what" or "not ok N - what", diag prints "# ..." lines, finish prints the plan "1..N";
# skip and bail end a script early. It also gives a private scratch folder and a private tmux
# server to drive the dashboard at a fixed size and read its screen, both removed at every exit.
# POSIX sh; every wait polls with a deadline instead of sleeping a fixed time.
#
# Exit status: 0 when every check passed; when one failed, 1 when run by hand and 0 under make
# check (WTG_TAP_DRIVER set), where the "not ok" lines are the failures and a non-zero status means
# the script broke.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
WTG=${WTG:-$top_builddir/src/wtg}

# ---- reporting (TAP) ---------------------------------------------------------------

lib_passed=0
lib_failed=0

# One line: TAP is line by line.
lib_one_line() {
	printf '%s' "$*" | tr '\n' ' '
}

pass() {
	lib_passed=$((lib_passed + 1))
	printf 'ok %d - %s\n' "$((lib_passed + lib_failed))" "$(lib_one_line "$*")"
}

fail() {
	lib_failed=$((lib_failed + 1))
	printf 'not ok %d - %s\n' "$((lib_passed + lib_failed))" "$(lib_one_line "$*")"
}

# diag TEXT...: diagnostic lines for the log ("# ..."), one per line of TEXT.
diag() {
	printf '%s\n' "$*" | sed 's/^/# /'
}

# check DESCRIPTION COMMAND [ARG]...: pass when the command succeeds.
check() {
	lib_desc=$1
	shift
	if "$@"; then pass "$lib_desc"; else fail "$lib_desc"; fi
}

# check_eq DESCRIPTION GOT WANT: pass when the strings are equal; says both when not.
check_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1 (got '$2', want '$3')"; fi
}

lib_status() {
	if [ "$lib_failed" -eq 0 ] || [ -n "${WTG_TAP_DRIVER:-}" ]; then return 0; fi
	return 1
}

# The plan and a summary comment, then exit (see the top of this file for the status).
finish() {
	echo "1..$((lib_passed + lib_failed))"
	diag "$(basename "$0"): $lib_passed passed, $lib_failed failed"
	lib_status
	exit
}

# skip REASON: skip the rest of the script ("1..0 # SKIP REASON" before any check, else one skipped
# result after those made), then exit.
skip() {
	if [ "$((lib_passed + lib_failed))" -eq 0 ]; then
		echo "1..0 # SKIP $(lib_one_line "$*")"
		exit 0
	fi
	lib_n=$((lib_passed + lib_failed + 1))
	echo "ok $lib_n - the rest # SKIP $(lib_one_line "$*")"
	echo "1..$lib_n"
	lib_status
	exit
}

# skip_one WHAT REASON: one skipped result ("ok N - WHAT # SKIP REASON").
skip_one() {
	lib_passed=$((lib_passed + 1))
	echo "ok $((lib_passed + lib_failed)) - $(lib_one_line "$1") # SKIP $(lib_one_line "$2")"
}

# bail REASON: the script cannot go on (its set-up failed); the driver reports an error.
bail() {
	echo "Bail out! $(lib_one_line "$*")"
	exit 99
}

# The interpreter for the checks written in Python, picked as tests/python.sh picks it: $PYTHON, else
# the system's /usr/bin/python3 (the one bootstrap installs the python3-* modules for), else python3
# on PATH. A version manager's shim first on PATH (pyenv's is a shell script that forks a dozen
# processes) cost 0.6 s of CPU a start here, against 0.06 s for the interpreter itself.
if [ -n "${PYTHON:-}" ]; then
	lib_python=$PYTHON
elif [ -x /usr/bin/python3 ]; then
	lib_python=/usr/bin/python3
else
	lib_python=python3
fi
python3() {
	"$lib_python" "$@"
}

need() {
	case $1 in
	python3) command -v "$lib_python" >/dev/null 2>&1 || skip "python3 is not installed" ;;
	*) command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed" ;;
	esac
}

# scratch: make a private folder, named in $lib_tmp and removed at exit (with the tmux server, whose
# socket folder it holds unless TMUX_TMPDIR says otherwise: tmux would leave /tmp/tmux-UID behind).
# Call it directly, not in $(...): the exit trap must see the name.
lib_tmp=
scratch() {
	if [ -z "$lib_tmp" ]; then
		lib_tmp=$(mktemp -d "${TMPDIR:-/tmp}/wtg-test.XXXXXX") || exit 99
		if [ -z "${TMUX_TMPDIR:-}" ]; then	# one the caller chose stands
			TMUX_TMPDIR=$lib_tmp
			export TMUX_TMPDIR
		fi
	fi
}

# At every exit, a failing one too: the tmux server and its socket, the scratch folder.
lib_cleanup() {
	tm_stop
	[ -n "$lib_tmp" ] && rm -rf "$lib_tmp"
	return 0
}
trap lib_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
trap 'exit 141' PIPE

# Milliseconds since the epoch.
now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# wait_for SECONDS COMMAND [ARG]...: run the command until it succeeds; 0 or 1. It looks again after
# 50 ms, then 100, then every 150 ms: each look forks a tmux client and a grep, and on this kind of
# machine a look costs tens of milliseconds of CPU that the measurement under test needs. The time
# is counted in naps (no clock read per look), so a slow look makes the wait longer, never shorter.
wait_for() {
	lib_wait_s=$1
	lib_left_ms=$(($1 * 1000))
	lib_nap_ms=50
	shift
	while :; do
		"$@" && return 0
		if [ "$lib_left_ms" -le 0 ]; then
			# in the log: a wait that ran out (a check that failed, or one waiting for nothing)
			diag "waited ${lib_wait_s} s in vain: $*"
			return 1
		fi
		case $lib_nap_ms in
		50) sleep 0.05 ;;
		100) sleep 0.1 ;;
		*) sleep 0.15 ;;
		esac
		lib_left_ms=$((lib_left_ms - lib_nap_ms))
		[ "$lib_nap_ms" -ge 150 ] || lib_nap_ms=$((lib_nap_ms + 50))
	done
}

# Sparing looks for the scenarios that wait on a live run: one tmux client a look, matched in the
# shell (wait_for looks every 150 ms, and each process costs milliseconds of CPU here).

# screen_line_has SCREEN A B: a line of SCREEN (text) holds the fixed string A and, after it, B
screen_line_has() {
	while IFS= read -r looks_line; do
		case $looks_line in *"$2"*"$3"*) return 0 ;; esac
	done <<EOF
$1
EOF
	return 1
}

# wait_sparse SECONDS COMMAND [ARG]...: run the command until it succeeds, as lib.sh's wait_for, but
# a look every 0.4 s: for waits of seconds (a live run, autoplay going through its tabs)
wait_sparse() {
	looks_left=$(($1 * 5 / 2))
	shift
	while :; do
		"$@" && return 0
		if [ "$looks_left" -le 0 ]; then
			diag "waited in vain: $*"
			# the dashboard as it stood, where one is up: what came instead of the state waited for
			if tm has-session -t "$TM_TARGET" 2>/dev/null; then
				tm_screen 2>/dev/null | sed 's/^/# | /'
			fi
			return 1
		fi
		looks_left=$((looks_left - 1))
		sleep 0.4
	done
}

# run_done NAME [N]: a line of the screen says NAME's run is done ("NAME · ... done in"); with N,
# its run N of this session (a rerun: "NAME · ... run N · done in"), never the run before it
run_done() {
	if [ -n "${2:-}" ]; then
		screen_line_has "$(tm_screen)" "$1 · " "run $2 · done in"
	else
		screen_line_has "$(tm_screen)" "$1 · " "done in"
	fi
}

# run_ended NAME [N]: NAME's run (run N) ended on screen within 120 s (a live run lasts a second or
# more on a loaded machine)
run_ended() {
	wait_sparse 120 run_done "$@"
}

# ---- a private tmux server -----------------------------------------------------

# One server per tm_start (a fresh socket name each time: a server being killed may linger).
lib_servers=0
TM_SOCK=wtg-test-$$-0
TM_TARGET=t

tm() {
	tmux -L "$TM_SOCK" -f /dev/null "$@"
}

# tm_start COLS ROWS COMMAND: a new window of COLS x ROWS running COMMAND (one shell command line).
# The pane stays after the command exits, so its exit status and last screen can be read.
tm_start() {
	lib_cols=$1
	lib_rows=$2
	shift 2
	tm_stop
	scratch
	lib_servers=$((lib_servers + 1))
	TM_SOCK=wtg-test-$$-$lib_servers
	lib_term=screen
	infocmp tmux-256color >/dev/null 2>&1 && lib_term=tmux-256color
	tm start-server \; set-option -g remain-on-exit on \; set-option -g default-terminal "$lib_term" \; \
		set-option -g history-limit 0 \; \
		new-session -d -s "$TM_TARGET" -x "$lib_cols" -y "$lib_rows" "$*"
	lib_rc=$?
	# where the server made its socket, from the server itself: tmux skips a TMUX_TMPDIR that does
	# not exist and falls back to /tmp, so the path cannot be worked out from the environment
	lib_socket=$(tm display-message -p '#{socket_path}' 2>/dev/null)
	return "$lib_rc"
}

# The socket file tmux made for the current server (kill-server leaves it behind).
lib_socket=
tm_socket() {
	echo "$lib_socket"
}

tm_stop() {
	# no server started: nothing to stop (a tmux client would make its socket folder)
	[ "$lib_servers" -gt 0 ] || return 0
	tm kill-server 2>/dev/null
	# a server busy with a loaded machine may still be going: wait for it (2 s at most), then
	# remove the socket file, which kill-server leaves behind
	lib_n=0
	while [ "$lib_n" -lt 40 ] && tm list-sessions >/dev/null 2>&1; do
		sleep 0.05
		lib_n=$((lib_n + 1))
	done
	[ -n "$lib_socket" ] && rm -f "$lib_socket"
	lib_socket=
	return 0
}

# What the pane shows now, as text.
tm_screen() {
	tm capture-pane -p -t "$TM_TARGET"
}

tm_keys() {
	tm send-keys -t "$TM_TARGET" "$@"
}

tm_resize() {
	tm resize-window -t "$TM_TARGET" -x "$1" -y "$2"
}

# A pane variable: pane_pid, pane_dead, pane_dead_status, alternate_on, ...
tm_var() {
	tm display-message -p -t "$TM_TARGET" "#{$1}"
}

# tm_has TEXT: the screen shows TEXT (a fixed string; one tmux client, no grep: on this kind of
# machine every process a look starts costs milliseconds of CPU that a measurement under test needs).
tm_has() {
	case $(tm_screen) in *"$1"*) return 0 ;; esac
	return 1
}

# tm_match REGEX: the screen has a line matching the extended regular expression.
tm_match() {
	tm_screen | grep -qE -- "$1"
}

# tm_flat_match ERE: the screen's lines joined into one, box edges and repeated blanks gone, so a
# line the layout wrapped (a verdict on a 60-column screen) still matches
tm_flat_match() {
	tm_screen | sed -E ':a;N;$!ba;s/│|┌|┐|└|┘|─//g;s/\n/ /g;s/ +/ /g' | grep -qE -- "$1"
}

# tm_sees REGEX, tm_flat_sees ERE: tm_match and tm_flat_match within 3 s, for a check after a wait on
# something else: tmux can capture a frame ncurses is still writing, so one look may catch half of it
tm_sees() {
	wait_for 3 tm_match "$1"
}

tm_flat_sees() {
	wait_for 3 tm_flat_match "$1"
}

tm_lacks() {
	! tm_has "$1"
}

# tm_lacks_re REGEX: no line of the screen matches the extended regular expression.
tm_lacks_re() {
	! tm_match "$1"
}

# Many checks of one screen read it once: tm_snap_shows TEXT and tm_snap_match ERE look in the last
# screen read, and read it again (every 50 ms, 3 s at most) only when it lacks what they look for (a
# frame ncurses was still drawing, a screen that changed). tm_snap_clear forgets that read: call it
# after a key that changes the screen. (Checks that something is absent read the screen afresh.)
lib_snap=
tm_snap_clear() {
	lib_snap=
}

lib_snap_has() {
	case $lib_snap in *"$1"*) return 0 ;; esac
	return 1
}

lib_snap_re() {
	[ -n "$lib_snap" ] && printf '%s\n' "$lib_snap" | grep -qE -- "$1"
}

lib_snap_read_has() {
	lib_snap=$(tm_screen)
	lib_snap_has "$1"
}

lib_snap_read_re() {
	lib_snap=$(tm_screen)
	lib_snap_re "$1"
}

tm_snap_shows() {
	[ -n "$lib_snap" ] && lib_snap_has "$1" && return 0
	wait_for 3 lib_snap_read_has "$1"
}

tm_snap_match() {
	lib_snap_re "$1" || wait_for 3 lib_snap_read_re "$1"
}

# tm_wait TEXT [SECONDS]: wait until the screen shows TEXT (default 10 s).
tm_wait() {
	wait_for "${2:-10}" tm_has "$1"
}

# tm_shows TEXT: the screen shows TEXT within 3 s. For assertions after a wait on something else:
# tmux can capture a frame that ncurses is still writing, so a single look may catch half of it.
tm_shows() {
	wait_for 3 tm_has "$1"
}

# tm_wait_gone TEXT [SECONDS]
tm_wait_gone() {
	wait_for "${2:-10}" tm_lacks "$1"
}

# Dead, with its exit status known (tmux may learn of the death before the status).
tm_is_dead() {
	[ "$(tm_var pane_dead)" = 1 ] && [ -n "$(tm_var pane_dead_status)$(tm_var pane_dead_signal)" ]
}

# tm_wait_dead [SECONDS]: wait until the pane's command has exited.
tm_wait_dead() {
	wait_for "${1:-10}" tm_is_dead
}

# The process ids the pane's own process started (its shell's children).
tm_children() {
	lib_pp=$(tm_var pane_pid)
	tr -s ' ' '\n' <"/proc/$lib_pp/task/$lib_pp/children" 2>/dev/null | grep .
}

# Print the screen into the log, for a person reading a failure.
tm_dump() {
	echo "---- screen ($1)"
	tm_screen | sed 's/^/| /'
	echo "----"
}

# ---- the dashboard's scenarios (tests/tui/) -----------------------------------------

# dash_init: what every dashboard scenario needs (tmux, python3, a built wtg), a scratch folder $tmp
# with the data folder $tmp/data and the working folder $tmp/cwd (where s saves), and the
# experiments in tab order in $tmp/list, one a line: "index name view".
dash_init() {
	need tmux
	need python3
	[ -x "$WTG" ] || skip "$WTG is not built"
	scratch
	tmp=$lib_tmp
	mkdir -p "$tmp/data" "$tmp/cwd" || bail "cannot make folders in $tmp"
	"$WTG" --list | awk '{ print NR - 1, $1, $2 }' >"$tmp/list" ||
		bail "wtg --list failed"
}

# index_of NAME: its tab index.
index_of() {
	awk -v n="$1" '$2 == n { print $1 }' "$tmp/list"
}

# dash_ready [OPTION]...: the dashboard at 80x24 in UTF-8 with its data file made (64M, --quick's,
# or the size a --size=N option gives); bails if it does not come up (every check of the scenario
# would fail for the same reason).
dash_ready() {
	lib_size=64M
	for lib_opt in "$@"; do
		case $lib_opt in --size=*) lib_size=${lib_opt#--size=} ;; esac
	done
	start C.UTF-8 80 24 "$@"
	tm_wait "data $lib_size in $tmp/data, sum" 60 || { tm_dump "start"; bail "the dashboard did not come up"; }
}

# start LOCALE COLS ROWS [OPTION]...: wtg --quick in a fresh window, from $tmp/cwd (where s saves),
# with the NAME=VALUE words of $start_env added to its environment.
# A shell around it writes wtg's exit status to $tmp/status (tmux may mark a pane dead before it
# learns the status); the shell ignores SIGINT so that Ctrl-C is wtg's alone to handle.
start() {
	loc=$1
	cols=$2
	rows=$3
	shift 3
	rm -f "$tmp/status"
	cmd="trap '' INT; ulimit -c 0; env LC_ALL=$loc LANG=$loc ${start_env:-} '$WTG' --quick --dir='$tmp/data' $*"
	tm_start "$cols" "$rows" "cd '$tmp/cwd' || exit; $cmd; echo \$? >'$tmp/status'"
}

exited() {
	[ -s "$tmp/status" ]
}

# wait_exit [SECONDS]: wait until wtg has exited.
wait_exit() {
	wait_for "${1:-10}" exited
}

status() {
	cat "$tmp/status" 2>/dev/null
}

datafiles() {
	ls -A "$tmp/data" | wc -l
}

has_datafile() {
	[ "$(datafiles)" -eq 1 ]
}

no_datafile() {
	[ "$(datafiles)" -eq 0 ]
}

name_of() {
	awk -v i="$1" '$1 == i { print $2 }' "$tmp/list"
}

# The text of tab i, as the tab bar shows it ("3 valley", "threads").
tab_text() {
	if [ "$1" -lt 10 ]; then echo "$((($1 + 1) % 10)) $(name_of "$1")"; else name_of "$1"; fi
}

# goto i: select tab i with the number keys, and Tab beyond the tenth.
goto() {
	if [ "$1" -lt 9 ]; then
		tm_keys "$(($1 + 1))"
	else
		tm_keys 0
		n=$(($1 - 9))
		while [ "$n" -gt 0 ]; do
			tm_keys Tab
			n=$((n - 1))
		done
	fi
	tm_wait "$(tab_text "$1")]" 5
}

# save: press s, wait for the notice, print the JSON path saved.
save() {
	rm -f "$tmp/cwd"/wtg-*.json "$tmp/cwd"/wtg-*.html "$tmp/cwd"/wtg-*.csv
	tm_keys s
	wait_for 10 saved_set || return 1
	ls "$tmp/cwd"/wtg-*.json 2>/dev/null | head -n 1
}

# The last file of a save set (CSV) is there and the status line says so.
saved_set() {
	ls "$tmp/cwd"/wtg-*.csv >/dev/null 2>&1 && tm_has "saved "
}

# run_here i: run tab i's experiment and wait until it ended. The dashboard is kept paused between
# runs (r runs anyway), so that no tab starts by itself when it is visited on the way. What it waits
# for lasts: the box's end ("done in" or "failed") told from the run before by the box's "run N"
# (a run can end before any look sees it running).
run_here() {
	box_before=$(box_line)
	tm_keys r
	wait_sparse 600 box_ended_anew || return 1	# a sanitizer build runs kernels' 2 GiB buffer slowly
	tm_keys Space
	tm_wait "paused: nothing starts until space" 5
}

# The top edge of the experiment's box, with its state on the right.
box_line() {
	tm capture-pane -p -t "$TM_TARGET" -S 2 -E 2	# the box's top line alone: one process a look
}

# box_ended_anew: the box shows a run that ended (done or failed) and is not the one $box_before
# showed (a rerun's end reads "run N · done in ...", N counting the tab's runs)
box_ended_anew() {
	lib_box=$(box_line)
	[ "$lib_box" != "$box_before" ] || return 1
	case $lib_box in *"done in"* | *failed*) return 0 ;; esac
	return 1
}

# Ended: done or failed (a run stopped by r's restart is not the end).
tm_ended() {
	case $(box_line) in *"done in"* | *failed*) return 0 ;; esac
	return 1
}

# ---- --record: a recording played back -------------------------------------------------

# tm_still FILE: wait until the screen stays the same across two looks 0.5 s apart (10 s at most),
# then write it into FILE: the last screen a session saw, before a key ends it
tm_still() {
	lib_still_n=0
	lib_still=$(tm_screen)
	while [ "$lib_still_n" -lt 20 ]; do
		sleep 0.5
		lib_still_now=$(tm_screen)
		[ "$lib_still_now" = "$lib_still" ] && break
		lib_still=$lib_still_now
		lib_still_n=$((lib_still_n + 1))
	done
	printf '%s\n' "$lib_still" >"$1"
}

# replay_screen CAST COLS ROWS FILE [asciinema]: the recording's events written, with no delays, into
# a fresh tmux window of COLS x ROWS (tests/tui/castplay.py play, or asciinema's own reader: asciinema
# cat); what the window then shows goes into FILE. Starts a new tmux server: the session that
# recorded has ended.
replay_screen() {
	rm -f "$lib_tmp/replayed"
	if [ "${5:-}" = asciinema ]; then
		lib_player="asciinema cat '$1' && touch '$lib_tmp/replayed'; sleep 600"
	else
		lib_player="'$lib_python' '$top_srcdir/tests/tui/castplay.py' play '$1' '$lib_tmp/replayed'"
	fi
	tm_start "$2" "$3" "env LC_ALL=C.UTF-8 $lib_player"
	wait_for 20 test -e "$lib_tmp/replayed" || return 1
	tm_still "$4"	# tmux may still be reading what the script wrote before it made the file
}

# replay_is CAST COLS ROWS LAST WHAT [asciinema]: one check that the recording, played back into a
# fresh COLS x ROWS window (replay_screen), shows the screen saved in LAST (tm_still); the difference
# in the log
replay_is() {
	if ! replay_screen "$1" "$2" "$3" "$lib_tmp/replayed-screen" "${6:-}"; then
		fail "$5 (the replay did not run)"
	elif cmp -s "$4" "$lib_tmp/replayed-screen"; then
		pass "$5"
	else
		fail "$5"
		diff "$4" "$lib_tmp/replayed-screen" | sed 's/^/# /'
	fi
}

# ---- for the bench/ scripts ------------------------------------------------------

# median, maximum: of the numbers on stdin, one a line.
median() {
	sort -n | awk '{ v[NR] = $1 }
		END {
			if (NR == 0) { print "n/a"; exit }
			print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		}'
}

maximum() {
	sort -n | tail -n 1
}

# measure KEY TEXT: ms from sending KEY until the screen shows TEXT (a fixed string); 5 s at most.
measure() {
	t0=$(now_ms)
	tm_keys "$1"
	while ! tm_has "$2" && [ $(($(now_ms) - t0)) -lt 5000 ]; do :; done
	echo $(($(now_ms) - t0))
}
