#!/bin/sh
# tests/tui/glyphs.sh: sizes and glyphs: the long title and every tab at 200x50, UTF-8 frames,
# --ascii and a C locale drawing with ASCII only.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

start C.UTF-8 200 50
check "200x50: the long title" tm_wait "wtg · where the time goes"
check "200x50: every tab fits" tm_shows "compare"
check "200x50: the full panel title" tm_shows "faults · switches · CPUs"
check "200x50: UTF-8 frames" tm_shows "┌─"
tm_keys q
wait_exit 10

start C.UTF-8 80 24 --ascii
check "--ascii 80x24: ASCII frames" tm_wait "+- bytewise - Why did adding up bytes take 21 s?"
check "--ascii 80x24: no line-drawing characters" tm_lacks "─"
check "--ascii 80x24: the tabs" tm_shows "1 bytewise]"
tm_keys q
wait_exit 10

start C.UTF-8 200 50 --ascii
check "--ascii 200x50: ASCII frames" tm_wait "+- where the time went"
check "--ascii 200x50: no line-drawing characters" tm_lacks "│"
tm_keys q
wait_exit 10

start C 80 24
check "a C locale picks ASCII by itself" tm_wait "+- where the time went"
check "a C locale: no line-drawing characters" tm_lacks "─"
tm_keys q
check "a C locale: q quits" wait_exit 10

check "no data file is left behind" no_datafile

finish
