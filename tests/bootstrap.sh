#!/bin/sh
# tests/bootstrap.sh: bootstrap's decisions, on a throwaway copy of it with a PATH of stand-ins:
# who it is (id), what is installed (a command is there or not), what apt knows and installs
# (apt-cache and apt-get that log), and the build steps (autoreconf, configure, make that leave a
# mark). Nothing is installed or built for real; quick, and the same as root or not.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

scratch
t=$lib_tmp

# stand-in PROGRAM BODY: a script in $t/bin
stand_in() {
	printf '#!/bin/sh\n%s\n' "$2" >"$t/bin/$1"
	chmod +x "$t/bin/$1"
}

# setup PRESENT...: a fresh copy, and a PATH with these commands (and make, autoreconf, the ones bootstrap
# needs to run at all)
setup() {
	rm -rf "$t/tree" "$t/bin" "$t/log"
	mkdir -p "$t/tree" "$t/bin" "$t/log"
	cp "$top_srcdir/bootstrap" "$t/tree/bootstrap"
	printf '#!/bin/sh\n: >"%s/log/configure"\n' "$t" >"$t/tree/configure"
	chmod +x "$t/tree/configure"
	for c in sh dirname grep cat nproc; do
		ln -s "$(command -v "$c")" "$t/bin/$c"
	done
	stand_in id 'echo "$FAKE_UID"'
	stand_in locale 'echo C.UTF-8'
	stand_in autoreconf ": >'$t/log/autoreconf'"
	stand_in make ": >'$t/log/make'"
	stand_in pkg-config 'exit 0'
	# apt-cache knows $FAKE_KNOWN; apt-get logs, fails on $FAKE_BROKEN and on any name apt does not
	# know, and "installs" gcc by putting it on PATH
	stand_in apt-cache 'case " $FAKE_KNOWN " in *" $2 "*) exit 0 ;; esac; exit 100'
	stand_in apt-get "echo \"\$*\" >>'$t/log/apt'
[ \"\$1\" = update ] && exit 0
for p in \"\$@\"; do
	case \$p in -*|install) continue ;; esac
	case \" \$FAKE_KNOWN \" in *\" \$p \"*) ;; *) echo \"E: Unable to locate package \$p\" >&2; exit 100 ;; esac
	case \" \$FAKE_BROKEN \" in *\" \$p \"*) echo \"E: \$p is broken\" >&2; exit 100 ;; esac
done
for p in \"\$@\"; do
	[ \"\$p\" = gcc ] && printf '#!/bin/sh\\n' >'$t/bin/gcc' && '$(command -v chmod)' +x '$t/bin/gcc'
done
exit 0"
	for c in "$@"; do
		stand_in "$c" 'exit 0'
	done
	: >"$t/bash_completion"
}

ALL_TOOLS="gcc automake tmux strace perf python3 xmllint git groff man clang chromium"
KNOWN="gcc make autoconf automake pkg-config libncurses-dev tmux strace linux-perf python3 \
python3-jsonschema python3-pandas libxml2-utils locales git groff-base man-db libjansson-dev clang libclang-rt-14-dev \
chromium bash-completion"

# boot UID: run the copy's bootstrap as that user id; status in $rc, output in $t/out, $t/err.
# bash-completion is there when $t/bash_completion is (setup makes it; a case may remove it).
boot() {
	FAKE_UID=$1 PATH="$t/bin" PYTHON="$t/bin/python3" BASH_COMPLETION="$t/bash_completion" \
		/bin/sh "$t/tree/bootstrap" >"$t/out" 2>"$t/err"
	rc=$?
}

built() {
	[ -e "$t/log/autoreconf" ] && [ -e "$t/log/configure" ] && [ -e "$t/log/make" ]
}

not_built() {
	[ ! -e "$t/log/autoreconf" ] && [ ! -e "$t/log/make" ]
}

err_has() {
	grep -qF -- "$1" "$t/err"
}

apt_has() {
	grep -qE -- "$1" "$t/log/apt" 2>/dev/null
}

no_apt() {
	[ ! -e "$t/log/apt" ]
}

# 1. not root, every build need there, perf missing: it builds, and names perf
setup $(echo "$ALL_TOOLS" | sed 's/ perf//')
export FAKE_KNOWN="$KNOWN" FAKE_BROKEN=
boot 1000
check_eq "not root, perf missing: exit 0" "$rc" 0
check "not root, perf missing: it builds" built
check "not root, perf missing: it names the missing test tool" \
	err_has "tools for the tests are missing: linux-perf"
check "not root, perf missing: it says their tests skip" err_has "the tests that need them will skip"
check "not root: apt-get is never run" no_apt

# 2. not root, no C compiler: it stops with the apt-get line, before building
setup $(echo "$ALL_TOOLS" | sed 's/gcc //')
boot 1000
check_eq "not root, no compiler: exit 1" "$rc" 1
check "not root, no compiler: the apt-get line" err_has "  apt-get install gcc"
check "not root, no compiler: nothing is built" not_built
check "not root, no compiler: apt-get is never run" no_apt

# 3. root on Ubuntu (perf is linux-tools-common), xmllint's package unknown here: the rest installs
setup $(echo "$ALL_TOOLS" | sed 's/ perf//; s/ xmllint//')
FAKE_KNOWN=$(echo "$KNOWN" | sed 's/ linux-perf/ linux-tools-common/; s/ libxml2-utils//')
boot 0
check_eq "root, Ubuntu names: exit 0" "$rc" 0
check "root: apt-get installs perf by Ubuntu's name" apt_has "install .*linux-tools-common"
check "root: Debian's name is not tried where apt does not know it" sh -c "! grep -q linux-perf '$t/log/apt'"
check "root: an unknown package is named" err_has "could not install libxml2-utils"
check "root: an unknown package does not stop the build" built

# 4. root, one known package fails to install: the others go in one at a time
setup $(echo "$ALL_TOOLS" | sed 's/ perf//; s/ tmux//')
FAKE_KNOWN=$KNOWN FAKE_BROKEN=tmux
boot 0
check_eq "root, a broken package: exit 0" "$rc" 0
check "root, a broken package: the others are installed alone" \
	apt_has "^install -y -qq --no-install-recommends linux-perf$"
check "root, a broken package: it is named" err_has "could not install tmux"
check "root, a broken package: it still builds" built

# 5. root, no compiler: installed, then built
setup $(echo "$ALL_TOOLS" | sed 's/gcc //')
FAKE_BROKEN=
boot 0
check_eq "root, no compiler: exit 0" "$rc" 0
check "root, no compiler: apt-get installs it" apt_has "install .* gcc"
check "root, no compiler: then it builds" built

# 6. root, the compiler cannot be installed: exit 1, nothing built
setup $(echo "$ALL_TOOLS" | sed 's/gcc //')
FAKE_BROKEN=gcc
boot 0
check_eq "root, the compiler fails to install: exit 1" "$rc" 1
check "root, the compiler fails to install: it says so" err_has "could not install what the build needs: gcc"
check "root, the compiler fails to install: nothing is built" not_built

# 7. root, a fresh machine for the HTML and completion tests: chromium and bash-completion installed
setup $(echo "$ALL_TOOLS" | sed 's/ chromium//')
rm -f "$t/bash_completion"
FAKE_BROKEN=
boot 0
check_eq "root, no chromium nor bash-completion: exit 0" "$rc" 0
check "root: apt-get installs chromium (the HTML test renders in it)" apt_has "install .*chromium"
check "root: apt-get installs bash-completion (the completion test runs through it)" \
	apt_has "install .*bash-completion"
check "root, no chromium: it still builds" built
check "root: what it installs for the tests is said before apt-get runs, the browser named" \
	grep -q "installing with apt-get what only the tests use: .*chromium.*(chromium, a browser" "$t/out"
check "root: ... and how to do without them" grep -q "WTG_NO_TEST_TOOLS=1 ./bootstrap builds without them" "$t/out"

# 8. root with WTG_NO_TEST_TOOLS: the build's packages only, the test tools named as skipped
setup $(echo "$ALL_TOOLS" | sed 's/ chromium//; s/gcc //')
export WTG_NO_TEST_TOOLS=1
boot 0
unset WTG_NO_TEST_TOOLS
check_eq "root, WTG_NO_TEST_TOOLS: exit 0" "$rc" 0
check "root, WTG_NO_TEST_TOOLS: the build's package is installed" apt_has "install .* gcc"
check "root, WTG_NO_TEST_TOOLS: chromium is not" sh -c "! grep -q chromium '$t/log/apt'"
check "root, WTG_NO_TEST_TOOLS: it says which test tools it leaves out" \
	grep -q "WTG_NO_TEST_TOOLS is set: not installing what only the tests use: chromium" "$t/out"
check "root, WTG_NO_TEST_TOOLS: it builds" built

finish
