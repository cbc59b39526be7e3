#!/bin/sh
# tests/tui/pause.sh: space pauses (the status and the progress line say so) and resumes.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

dash_ready
tm_keys Space
check "space pauses" tm_wait "paused: " 5
check "the progress line says paused" tm_wait "‖ paused" 5
tm_keys Space
check "space again resumes" tm_wait "resumed" 5

finish
