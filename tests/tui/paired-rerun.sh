#!/bin/sh
# tests/tui/paired-rerun.sh: r reruns a tab paired against the conditions it last ran under. syscall
# once, then r with nothing changed: the line above the view names an A/A run ("quiet vs quiet
# (A/A), paired over 15 rounds: x..."); then b (one burner) and r: "quiet vs burners 1 spin, paired
# over 15 rounds: x...". The words only, never which way a figure moved; at 80x24, whole (no "…").
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

# no_cut_paired: the paired line's lines (from "paired over" to the view) hold no ellipsis and no
# faster or slower in an A/A run
no_cut_paired() {
	lines=$(tm_screen | sed -n '/paired over/,/by calls per batch/p')
	[ -n "$lines" ] || return 1
	case $lines in *…*) return 1 ;; esac
	case $lines in *"(A/A)"*faster* | *"(A/A)"*slower*) return 1 ;; esac
	return 0
}

start C.UTF-8 80 24 --order=syscall
tm_wait "press a key to begin" 10 || bail "no start screen"
tm_keys r
check "syscall's first run ends" run_ended syscall
tm_keys r
check "r again: its second run ends" run_ended syscall 2
check "nothing changed: an A/A run, paired over its rounds" \
	wait_for 5 tm_flat_match "quiet vs quiet \(A/A\), paired over 15 rounds: x[0-9]+\.[0-9]{2} \[[0-9.]+.[0-9.]+\] (holds 1|excludes 1 \(noise does so 1 in 20\)): ns per getpid"
check "... whole at 80x24, never faster or slower" no_cut_paired
tm_keys b
tm_keys r
check "b, then r: its third run ends" run_ended syscall 3
check "the line pairs the conditions before and now, with every figure's verdict" \
	wait_for 5 tm_flat_match "quiet vs burners [0-9]+ spin, paired over 15 rounds: x[0-9]+\.[0-9]{2} \[[0-9.]+.[0-9.]+\] (slower|faster|no change|inconclusive)[a-z ()]*: ns per getpid"
check "... whole at 80x24" no_cut_paired
check "... and says nothing of an A/A run" tm_lacks "(A/A)"
tm_keys q
wait_exit 10
check_eq "exit status 0" "$(status)" 0

finish
