#!/bin/sh
# test_completion.sh: the bash completion (completion/wtg) run as bash runs it, through
# bash-completion's _init_completion, with COMP_WORDS split the way bash splits a line: '=' and ':'
# are in COMP_WORDBREAKS, so "wtg --run=sys" is the four words wtg, --run, =, sys.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

BASH_COMPLETION=${BASH_COMPLETION:-/usr/share/bash-completion/bash_completion}
need bash
if bash -n "$top_srcdir/completion/wtg"; then pass "completion/wtg parses as bash"; else fail "completion/wtg parses as bash"; fi
[ -r "$BASH_COMPLETION" ] || skip "bash-completion is not installed ($BASH_COMPLETION)"

# The driver: bash with bash-completion and completion/wtg loaded calls _wtg as bash would for
# the line $1 whose words are $2..., the cursor at the end; prints COMPREPLY, one a line, sorted.
scratch
cat >"$lib_tmp/offers.bash" <<'DRIVER'
. "$BASH_COMPLETION" && . "$top_srcdir/completion/wtg" || exit 1
COMP_WORDBREAKS=$' \t\n"'"'"'><=;|&(:'
COMP_LINE=$1
COMP_POINT=${#1}
shift
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMPREPLY=()
_wtg wtg "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
[ ${#COMPREPLY[@]} -gt 0 ] && printf '%s\n' "${COMPREPLY[@]}" | sort
DRIVER

# offers LINE WORD...: the candidates for LINE, one a line
offers() {
	PATH="$top_builddir/src:$PATH" BASH_COMPLETION=$BASH_COMPLETION top_srcdir=$top_srcdir \
		bash "$lib_tmp/offers.bash" "$@"
}

# expect LINE WANT WORD...: the candidates for LINE are WANT (space-separated, sorted)
expect() {
	expect_line=$1
	expect_want=$2
	shift 2
	expect_got=$(offers "$expect_line" "$@" | tr '\n' ' ' | sed 's/ $//')
	check_eq "'$expect_line<Tab>' offers: $expect_want" "$expect_got" "$expect_want"
}

expect "wtg --run=sys" "syscall" wtg --run = sys
expect "wtg --run=syscall,va" "syscall,valley" wtg --run = syscall,va
expect "wtg --run sys" "syscall" wtg --run sys
expect "wtg --run=" "$( (echo all; "$WTG" --list | awk '{print $1}') | sort | tr '\n' ' ' | sed 's/ $//')" wtg --run =
expect "wtg --order=byt" "bytewise" wtg --order = byt
expect "wtg --format=" "csv html json markdown svg text" wtg --format =
expect "wtg --format=j" "json" wtg --format = j
expect "wtg --progress=" "always auto never" wtg --progress =
expect "wtg --progress=n" "never" wtg --progress = n
expect "wtg --burn=s" "spin stream" wtg --burn = s
expect "wtg --compare=sys" "syscall:" wtg --compare = sys
expect "wtg --compare=syscall:" "background burn cold uncached" wtg --compare = syscall :
expect "wtg --compare=syscall:b" "background burn" wtg --compare = syscall : b
expect "wtg --qui" "--quick --quiet" wtg --qui
expect "wtg --ord" "--order=" wtg --ord
expect "wtg --format=json --pro" "--progress=" wtg --format = json --pro
# after --load: the reports and the folders of them (a class's folder), from where it is typed
mkdir -p "$lib_tmp/cwd/class" && : >"$lib_tmp/cwd/ci.json"
cd "$lib_tmp/cwd" || bail "cannot enter $lib_tmp/cwd"
expect "wtg --load=c" "ci.json class" wtg --load = c
cd - >/dev/null || bail "cannot go back"
finish
