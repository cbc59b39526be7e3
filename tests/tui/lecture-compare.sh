#!/bin/sh
# tests/tui/lecture-compare.sh: compare says what it compared ("syscall: burners off vs on"), gives
# a verdict (no detectable change, or slower/faster by X% with its CI), and v cycles the pairs the
# registry allows and reruns.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

start C.UTF-8 80 24 --order=compare
tm_wait "press a key to begin" 10 || bail "no start screen"
tm_keys x
check "compare names its pair" wait_for 60 tm_match "syscall: burners off vs on: "
# the verdict at a projector's 80x24, the compact 60x20 and a large 120x35: the window is resized
# with the run's verdict on screen (one live run shows the three layouts)
for size in 80x24 60x20 120x35; do
	tm_resize ${size%x*} ${size#*x}
	check "$size: ... the verdict" \
		wait_for 5 tm_match "syscall: burners off vs on: (no detectable change|(slower|faster) by [0-9.]+%)"
	check "$size: ... with its CI (wrapped as the width needs)" \
		wait_for 5 tm_flat_match "(the CI holds 0|CI \[-?[0-9.]+, -?[0-9.]+\]%)"
done
tm_resize 80 24
tm_keys v
check "v: the next pair, said on the status line" tm_wait "compare: syscall with background off vs on" 5
check "v reruns compare with it" wait_for 60 tm_match "syscall: background policy off vs on: "
tm_keys v v v
check "v past the last condition: the next experiment compare can pair" \
	wait_for 5 tm_match "compare: [a-z]+ with burn off vs on"
tm_keys q
wait_exit 10
check_eq "exit status 0" "$(status)" 0

finish
