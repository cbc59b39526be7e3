#!/bin/sh
# tests/tui/stop.sh: a stop and a continue give the dashboard back whole, however the stop came: its
# terminal modes (no canonical mode, no echo: a key acts at once) and every cell of its screen, which
# a shell wrote over while it was stopped. From an interactive shell: kill -STOP from outside then
# fg (the shell puts the terminal in canonical mode with echo meanwhile: the build before this left
# it so, keys echoed and did nothing until Enter, the shell's lines stayed on screen), and Ctrl-Z then
# fg; without job control: kill -STOP, another program changing the modes and the screen, kill -CONT.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init
need bash
need stty

# modes_ours: the pane's terminal is in the dashboard's modes again (stty -a says -icanon -echo)
modes_ours() {
	lib_modes=$(stty -a -F "$(tm_var pane_tty)" 2>/dev/null) || return 1
	case $lib_modes in *-icanon*) ;; *) return 1 ;; esac
	case $lib_modes in *-echo\ *) return 0 ;; esac
	return 1
}

# whole: the dashboard's screen is back, nothing of the shell's left on it
whole() {
	lib_scr=$(tm_screen)
	case $lib_scr in *Stopped* | *'$ fg'* | *"someone else"*) return 1 ;; esac
	case $lib_scr in *"1 bytewise"*"? help  q quit"*) return 0 ;; esac
	return 1
}

# back WHAT: after WHAT, the screen is whole, the modes are the dashboard's, and ? opens the help at
# once (then any key closes it)
back() {
	check "$1: the screen is drawn again, the shell's lines gone" wait_for 5 whole
	check "$1: the terminal is in the dashboard's modes (no canonical mode, no echo)" wait_for 3 modes_ours
	tm_keys '?'
	check "$1: a key acts at once (? opens the help)" tm_wait "help: keys and views" 5
	tm_keys x
	tm_wait_gone "help: keys and views" 5
}

# ---- from an interactive shell: kill -STOP then fg, Ctrl-Z then fg ----------------------------
tm_start 80 24 "cd '$tmp/cwd' || exit; PS1='$ ' bash --norc --noprofile -i"
wait_for 10 tm_match '^[$]' || bail "no shell prompt"
tm_keys "LC_ALL=C.UTF-8 LANG=C.UTF-8 '$WTG' --quick --dir='$tmp/data'" Enter
tm_wait "data 64M in" 60 || { tm_dump "start"; bail "the dashboard did not come up"; }
pid=$(pgrep -f -- "--dir=$tmp/data" | head -n 1)
[ -n "$pid" ] || bail "no wtg process"

kill -STOP "$pid"
check "kill -STOP: the shell says the job stopped" tm_wait "Stopped" 10
tm_keys fg Enter
back "kill -STOP, then fg"

# proc_state: the wtg process's state and its main thread's signal masks, for a log to read when a
# stop did not come
proc_state() {
	echo "# wtg $pid: $(sed -n 's/^State:/state/p; s/^SigBlk:/blocked/p; s/^SigPnd:/pending/p; s/^ShdPnd:/pending (process)/p; s/^SigCgt:/caught/p' "/proc/$pid/status" 2>/dev/null | tr '\n' ' ')"
}

tm_keys C-z
if ! tm_wait "Stopped" 10; then
	tm_dump "10 s after Ctrl-Z"
	proc_state
fi
check "Ctrl-Z: the shell says the job stopped" tm_wait "Stopped" 10
tm_keys fg Enter
back "Ctrl-Z, then fg"

tm_keys q
check "q quits after the stops" wait_for 10 sh -c '! kill -0 "$1" 2>/dev/null' - "$pid"
tm_keys "echo status=\$?" Enter
check "exit status 0" tm_wait "status=0" 5

# ---- without job control: kill -STOP, the terminal changed meanwhile, kill -CONT --------------
dash_ready
pid=$(tm_children)
tty=$(tm_var pane_tty)
kill -STOP "$pid"
stty -F "$tty" icanon echo	# what a shell does with the terminal while a job is stopped
printf '\033[H\033[2Jsomeone else\n' >"$tty"
check "the screen was written over while stopped" tm_wait "someone else" 5
kill -CONT "$pid"
back "kill -STOP, the terminal changed, kill -CONT"
tm_keys q
check "q quits" wait_exit 10
check_eq "exit status 0 after kill -CONT" "$(status)" 0
check "the data file is gone" no_datafile

finish
