#!/bin/sh
# tests/cross/arm64.sh [BUILD_DIR]: wtg cross-built for aarch64 with Debian's cross compiler and
# tested under qemu-user; prints TAP (one line per step and per test program) and exits 1 when a
# step failed, 0 otherwise (a skip included: "1..0 # SKIP why" when a tool is missing).
#
# It installs nothing. What it needs (Debian; .ci/run installs them as root):
#	gcc-aarch64-linux-gnu qemu-user, and dpkg --add-architecture arm64 for
#	libncurses-dev:arm64 libjansson-dev:arm64 libyajl-dev:arm64 (configure.ac's libraries)
# The build is out of tree (VPATH) in BUILD_DIR (default: build-arm64 in the source tree), from a
# clean copy of the sources in BUILD_DIR/src when the tree is configured in place (configure refuses
# a VPATH build beside an in-tree one): BUILD_DIR/build is `../src/configure --host=aarch64-linux-gnu`.
# pkg-config reads the arm64 .pc files (PKG_CONFIG_LIBDIR), the compiler the arm64 libraries.
#
# What runs under qemu-aarch64 (no binfmt needed: LOG_COMPILER for the unit tests, WTG_TEST_WTG, a
# wrapper, for the Python tests, WTG_TEST_EMULATOR for test_kernels' runs of itself):
#	the unit tests in CROSS_UNIT (below: all but test_conditions and test_guard, test_kernels with every NEON
#	level among them; a test program is killed after 10 minutes),
#	tests/cli/test_usage.py (--help, --version, usage errors) and tests/cross/headless.py
#	(--list, --dry-run, a headless run with -o json against the schema, kernels at each NEON
#	level with every sample's sum checked against the scalar one).
# CROSS_TESTS="..." replaces that list (paths as in Makefile.am's TESTS).
set -u
host=aarch64-linux-gnu
emu=qemu-aarch64
sysroot=/usr/$host
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/build-arm64}
n=0
failed=0

ok() {
	n=$((n + 1))
	echo "ok $n - $*"
}
not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $*"
}
skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}
# show FILE: the last lines of a log, as TAP diagnostics
show() {
	tail -n "${2:-15}" "$1" | sed 's/^/# /'
}

# --- what the cross build needs ---------------------------------------------------------------
command -v "$host-gcc" >/dev/null 2>&1 || skip_all "$host-gcc is not installed (apt-get install gcc-$host)"
command -v "$emu" >/dev/null 2>&1 || skip_all "$emu is not installed (apt-get install qemu-user)"
pcdir=/usr/lib/$host/pkgconfig
for lib in ncursesw jansson yajl; do
	[ -f "$pcdir/$lib.pc" ] || skip_all "the arm64 $lib library is not installed ($pcdir/$lib.pc; dpkg --add-architecture arm64, then apt-get install the :arm64 -dev package)"
done
[ -d "$sysroot/lib" ] || skip_all "no arm64 C library in $sysroot (apt-get install libc6-dev-arm64-cross)"

# --- the sources: in place when the tree is not configured in place, else a clean copy ----------
mkdir -p "$out" || { not_ok "mkdir $out"; echo "1..$n"; exit 1; }
out=$(cd "$out" && pwd)
if [ -f "$top/config.status" ] || [ ! -x "$top/configure" ]; then
	src=$out/src
	rm -rf "$src" && mkdir -p "$src"
	if command -v git >/dev/null 2>&1 && git -C "$top" rev-parse --verify -q HEAD >/dev/null 2>&1; then
		# the files git keeps or would keep, as they are in the work tree (uncommitted edits included)
		(cd "$top" && git ls-files -z -c -o --exclude-standard | tar --null -T - -cf - 2>/dev/null) | tar -xf - -C "$src"
	else
		(cd "$top" && tar -cf - --exclude=./build-arm64 --exclude='*.o' --exclude=config.status \
			--exclude=config.log --exclude=Makefile --exclude=config.h .) | tar -xf - -C "$src"
	fi
	if (cd "$src" && autoreconf -fi) >"$out/autoreconf.log" 2>&1; then
		ok "a clean copy of the sources in $src (autoreconf)"
	else
		not_ok "autoreconf in the copy of the sources"
		show "$out/autoreconf.log"
		echo "1..$n"
		exit 1
	fi
	srcrel=../src
else
	src=$top
	srcrel=$top
fi

# --- can the emulator start a thread? ---------------------------------------------------------
# qemu-user 7.2 on some host kernels never returns from pthread_create in a dynamically linked guest
# (seen on Linux 6.18), while a statically linked one starts its threads. wtg measures in a worker
# thread, so where only the static probe runs, wtg and its tests are linked statically (the arm64
# libraries' archives: libyajl_s.a stands in for libyajl.a); where neither runs, the headless runs
# are skipped with the reason.
probe=$out/thread-probe
printf '%s\n' '#include <pthread.h>' 'static void *f(void *a) { return a; }' \
	'int main(void) { pthread_t t; return pthread_create(&t, 0, f, 0) || pthread_join(t, 0); }' >"$probe.c"
static_ldflags=
staticlib=$out/staticlib
if ! "$host-gcc" -pthread -o "$probe" "$probe.c" >/dev/null 2>&1; then
	threads="no: the thread probe did not build"
elif QEMU_LD_PREFIX=$sysroot timeout -s KILL 30 "$emu" "$probe" >/dev/null 2>&1; then
	threads=yes
elif "$host-gcc" -static -pthread -o "$probe-static" "$probe.c" >/dev/null 2>&1 &&
	timeout -s KILL 30 "$emu" "$probe-static" >/dev/null 2>&1 &&
	[ -f "/usr/lib/$host/libncursesw.a" ] && [ -f "/usr/lib/$host/libjansson.a" ] &&
	{ [ -f "/usr/lib/$host/libyajl.a" ] || [ -f "/usr/lib/$host/libyajl_s.a" ]; }; then
	mkdir -p "$staticlib"
	[ -f "/usr/lib/$host/libyajl.a" ] || ln -sf "/usr/lib/$host/libyajl_s.a" "$staticlib/libyajl.a"
	static_ldflags="-static -L$staticlib"
	threads=yes
	echo "# $emu starts no thread in a dynamically linked program here ($(uname -sr)): wtg is linked statically"
else
	threads="no: $emu never returned from pthread_create in 30 s, linked either way ($(uname -sr))"
fi

# --- configure and build out of tree -------------------------------------------------------------
build=$out/build
rm -rf "$build" && mkdir -p "$build"
if (cd "$build" && PKG_CONFIG=pkg-config PKG_CONFIG_LIBDIR="$pcdir:/usr/share/pkgconfig" PKG_CONFIG_PATH= \
	LDFLAGS="$static_ldflags" "$srcrel/configure" --host="$host") >"$out/configure.log" 2>&1; then
	ok "configure --host=$host (out of tree, in $build)"
else
	not_ok "configure --host=$host"
	show "$out/configure.log"
	echo "1..$n"
	exit 1
fi
jobs=$(nproc 2>/dev/null || echo 2)
if make -C "$build" -j"$jobs" all >"$out/make.log" 2>&1 && make -C "$build" -j"$jobs" check TESTS= \
	>>"$out/make.log" 2>&1; then
	ok "make: src/wtg and the unit tests built for $host"
else
	not_ok "make (the cross build)"
	grep -E 'error|Error' "$out/make.log" | head -n 10 | sed 's/^/# /'
	echo "1..$n"
	exit 1
fi
warnings=$(grep -c 'warning:' "$out/make.log")
if [ "$warnings" -eq 0 ]; then
	ok "the cross build has no compiler warnings"
else
	not_ok "the cross build has $warnings compiler warnings"
	grep 'warning:' "$out/make.log" | head -n 5 | sed 's/^/# /'
fi
machine=$(LC_ALL=C readelf -h "$build/src/wtg" 2>/dev/null | sed -n 's/^ *Machine: *//p')
case $machine in
*AArch64*) ok "src/wtg is an AArch64 executable ($machine)" ;;
*) not_ok "src/wtg is an AArch64 executable (readelf says: ${machine:-nothing})" ;;
esac

# --- the tests under qemu-user -------------------------------------------------------------------
# The unit tests under emulation: all but test_conditions, which counts the burner threads in
# /proc/self/task right after they end, where qemu-user's threads leave later than the guest's join,
# and test_guard, whose child reads a truncated mapping and expects the kernel's SIGBUS with its
# own handler's words, where qemu-user reports the guest's fault itself.
CROSS_UNIT="tests/unit/test_kernels tests/unit/test_machine tests/unit/test_topology tests/unit/test_stats
	tests/unit/test_util tests/unit/test_report tests/unit/test_compare tests/unit/test_datafile
	tests/unit/test_faulttrace tests/unit/test_keys tests/unit/test_layout tests/unit/test_modes
	tests/unit/test_paired tests/unit/test_readers tests/unit/test_registry tests/unit/test_table
	tests/unit/test_watch tests/unit/test_relay tests/unit/test_session"
tests=${CROSS_TESTS:-$CROSS_UNIT tests/cli/test_usage.py tests/cross/headless.py}
echo "# threads under $emu: $threads"
# wtg for the Python tests: the aarch64 binary through the emulator (exec: signals reach qemu)
wrapper=$build/wtg-qemu
printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$emu" "$build/src/wtg" >"$wrapper" && chmod +x "$wrapper"
t0=$(date +%s)
QEMU_LD_PREFIX=$sysroot WTG_TEST_EMULATOR=$emu WTG_TEST_WTG=$wrapper WTG_TEST_EMULATOR_THREADS=$threads \
	make -C "$build" -j"$jobs" check TESTS="$(echo $tests)" LOG_COMPILER="timeout -s KILL 600 $emu" \
	>"$out/check.log" 2>&1
echo "# the tests under $emu took $(($(date +%s) - t0)) s"
for t in $tests; do
	trs=$build/${t%.py}.trs
	if [ ! -f "$trs" ]; then
		not_ok "$t under $emu: it did not run (no $trs)"
		continue
	fi
	p=$(grep -c '^:test-result: PASS' "$trs")
	f=$(grep -c -E '^:test-result: (FAIL|ERROR|XPASS)' "$trs")
	s=$(grep -c '^:test-result: SKIP' "$trs")
	if [ "$f" -eq 0 ] && [ "$((p + s))" -gt 0 ]; then
		ok "$t under $emu: $p passed, $s skipped"
	elif [ "$f" -eq 0 ]; then
		not_ok "$t under $emu: no assertion ran"
	else
		not_ok "$t under $emu: $f failed, $p passed"
		grep -E '^(not ok|ERROR)' "${trs%.trs}.log" 2>/dev/null | head -n 10 | sed 's/^/# /'
	fi
done
# WTG_SIMD under the emulator (test_kernels does not fork itself there): each arm64 level name runs
# that level, an unknown name the best the emulated CPU has; each run checks every sum again
best=$(QEMU_LD_PREFIX=$sysroot timeout -s KILL 600 "$emu" "$build/tests/unit/test_kernels" --best-level 2>/dev/null)
for pair in asimd:asimd portable:portable asimddp:"$best" mmx:"$best"; do
	level=${pair%%:*}
	want=${pair#*:}
	log=$out/simd-$level.log
	if [ -n "$want" ] && QEMU_LD_PREFIX=$sysroot WTG_SIMD=$level timeout -s KILL 600 "$emu" \
		"$build/tests/unit/test_kernels" --expect "$want" >"$log" 2>&1; then
		ok "test_kernels under $emu with WTG_SIMD=$level runs $want: $(grep -c '^ok' "$log") sums and names checked"
	else
		not_ok "test_kernels under $emu with WTG_SIMD=$level runs ${want:-the best level}"
		grep '^not ok' "$log" | head -n 5 | sed 's/^/# /'
	fi
done
echo "1..$n"
echo "# arm64: $((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
