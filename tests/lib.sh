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

# bail REASON: the script cannot go on (its set-up failed); the driver reports an error.
bail() {
	echo "Bail out! $(lib_one_line "$*")"
	exit 99
}

need() {
	command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed"
}

# scratch: make a private folder, named in $lib_tmp and removed at exit (with the tmux server).
# Call it directly, not in $(...): the exit trap must see the name.
lib_tmp=
scratch() {
	if [ -z "$lib_tmp" ]; then
		lib_tmp=$(mktemp -d "${TMPDIR:-/tmp}/wtg-test.XXXXXX") || exit 99
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

# wait_for SECONDS COMMAND [ARG]...: run the command every 50 ms until it succeeds; 0 or 1.
wait_for() {
	lib_deadline=$(($(now_ms) + $1 * 1000))
	shift
	while :; do
		"$@" && return 0
		[ "$(now_ms)" -ge "$lib_deadline" ] && return 1
		sleep 0.05
	done
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

# tm_has TEXT: the screen shows TEXT (a fixed string).
tm_has() {
	tm_screen | grep -qF -- "$1"
}

# tm_match REGEX: the screen has a line matching the extended regular expression.
tm_match() {
	tm_screen | grep -qE -- "$1"
}

tm_lacks() {
	! tm_has "$1"
}

# tm_lacks_re REGEX: no line of the screen matches the extended regular expression.
tm_lacks_re() {
	! tm_match "$1"
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
