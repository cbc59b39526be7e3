#!/bin/sh
# tests/tui/header.sh: at 80x24 in UTF-8: the header (the CPUs, the page size, the data file with
# its known sum), the tab bar, the always-on panels, the conditions and the status line.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
dash_init

start C.UTF-8 80 24
# the CPUs, after the CPU's short name where it fits beside the data file; then the page size and the
# steal (shown while the hypervisor takes time) where they fit, each whole: the page size gives way
# first, the name last
check "80x24: header names wtg and the CPUs" wait_for 10 tm_match "^ wtg +([^ ·][^·]* · )?[0-9]+ CPUs"
check "80x24: then the page size and the steal where they fit, each whole" \
	tm_sees "^ wtg +([^ ·][^·]* · )?[0-9]+ CPUs( · 4K pages)?( · steal [0-9.]+%)?(  |\$)"
check "80x24: the first tab is selected" tm_wait "1 bytewise]"
check "80x24: the tab bar lists the first tabs" tm_shows "2 syscall  3 valley"
check "80x24: the data file is created and shown with its known sum" tm_wait "data 64M in $tmp/data, sum" 60
check "80x24: one data file in --dir" has_datafile
check "80x24: the always-on panels" tm_shows "where the time went"
check "80x24: conditions with their keys" tm_shows "[b] burners off"
check "80x24: the status line lists the keys" tm_shows "? help  q quit"

finish
