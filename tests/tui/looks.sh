# tests/tui/looks.sh: sparing looks at the screen for the dashboard's scenarios that wait on a live
# run. Source it after tests/lib.sh. Each look forks one tmux client and matches in the shell: on
# this kind of machine every process costs milliseconds of CPU, and lib.sh's wait_for (a look every
# 150 ms, a tmux client and a grep each) spent seconds of a test's CPU on waiting out runs.

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
			return 1
		fi
		looks_left=$((looks_left - 1))
		sleep 0.4
	done
}

# run_done NAME: a line of the screen says NAME's run is done ("NAME · ... done in")
run_done() {
	screen_line_has "$(tm_screen)" "$1 · " "done in"
}

# run_ended NAME: NAME's run ended on screen within 120 s (a live run lasts a second or more on a
# loaded machine)
run_ended() {
	wait_sparse 120 run_done "$1"
}
