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

# run_ended NAME: NAME's run ended on screen ("NAME · ... done in") within 120 s: a look every 0.4 s
# (a live run lasts a second or more on a loaded machine)
run_ended() {
	looks_n=0
	while [ "$looks_n" -le 300 ]; do
		screen_line_has "$(tm_screen)" "$1 · " "done in" && return 0
		looks_n=$((looks_n + 1))
		sleep 0.4
	done
	diag "waited 120 s in vain: $1's run to end"
	return 1
}
