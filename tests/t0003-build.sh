#!/bin/bash
# shellcheck disable=SC2016
# The build from a copy of the working tree (committed or not): configure
# writes config.mak only when the libraries are there, make refreshes a
# config.mak older than configure, and `make deps` then `make` builds
# whatever ran before.

. "$(dirname "$0")/lib.sh"

if ! command -v git >/dev/null 2>&1 ||
	! top=$(git -C "$MPERF_ROOT" rev-parse --show-toplevel 2>/dev/null) ||
	test "$(cd "$top" && pwd -P)" != "$(cd "$MPERF_ROOT" && pwd -P)"; then
	echo "1..0 # SKIP git is missing or $MPERF_ROOT is not a git checkout"
	exit 0
fi

# The makes below are not part of the one running the suite: no jobserver,
# and no sanitizer build (it only costs time here).
unset MAKEFLAGS MFLAGS MAKELEVEL SANITIZE DEVELOPER
# What is tested is configure and make's logic, not the code they compile:
# unoptimised and without debug information, a full build costs a third
# of the CPU (the last test builds with the defaults).
export CFLAGS=-O0

# make deps installs packages: only as root, on a Debian system.
have_deps () {
	test "$(id -u)" = 0 &&
	command -v apt-get >/dev/null 2>&1 &&
	command -v dpkg-query >/dev/null 2>&1
}

VERSION=$(sed -n 's/^VERSION := *//p' "$MPERF_ROOT/Makefile")
export VERSION

# An empty directory for PKG_CONFIG_LIBDIR: pkg-config then finds nothing.
mkdir "$TRASH_DIRECTORY/no-pc"

# stale_config_mak: replace config.mak's PKG_LIBS by a library that does
# not exist, keeping the rest (the options it recorded).
stale_config_mak () {
	sed "s/^PKG_LIBS = .*/PKG_LIBS = -lmperf_no_such_lib/" config.mak >config.mak.new &&
	mv config.mak.new config.mak &&
	grep -q "^PKG_LIBS = -lmperf_no_such_lib\$" config.mak
}

# built: ./mperf was just linked and prints the Makefile's version.
built () {
	test -x mperf &&
	./mperf --version >version.out &&
	grep -q "^mperf version $VERSION\$" version.out
}

test_expect_success 'copy the tracked and untracked files of the tree' '
	test -n "$VERSION" &&
	git -C "$MPERF_ROOT" ls-files -z --cached --others --exclude-standard >files &&
	mkdir tree &&
	while IFS= read -r -d "" f; do
		# a tracked file deleted and not yet committed
		test -e "$MPERF_ROOT/$f" || test -L "$MPERF_ROOT/$f" || continue
		mkdir -p "tree/$(dirname "$f")" &&
		cp -pP "$MPERF_ROOT/$f" "tree/$f" || exit 1
	done <files &&
	test -x tree/configure && test -f tree/Makefile && test -f tree/src/resolve/symbols.c &&
	! test -e tree/config.mak && ! test -e tree/mperf && ! test -e tree/build &&
	# configure older than any config.mak written now, newer than 2000s
	touch -t 201001010000 tree/configure
'

test_expect_success 'configure without the libraries exits 1 and writes no config.mak' '
	cd tree &&
	test_expect_code 1 env PKG_CONFIG_LIBDIR="$TRASH_DIRECTORY/no-pc" ./configure >out 2>err &&
	! test -e config.mak && ! test -e config.mak.tmp &&
	grep "libelf.*libelf-dev" err &&
	grep "libdw.*libdw-dev" err &&
	! grep "^wrote config.mak" out
'

test_expect_success 'configure without the libraries removes an old config.mak, in one line' '
	cd tree &&
	printf "PKG_LIBS = -lelf\n" >config.mak &&
	test_expect_code 1 env PKG_CONFIG_LIBDIR="$TRASH_DIRECTORY/no-pc" ./configure >out 2>err &&
	! test -e config.mak &&
	grep "config.mak" err >lines &&
	test_line_count = 1 lines &&
	grep "removed" lines
'

test_expect_success DEPS 'make deps after a failed configure' '
	cd tree &&
	make deps >out 2>&1 &&
	! test -e config.mak
'

test_expect_success 'configure with the libraries writes config.mak and records its options' '
	cd tree &&
	./configure --prefix="/opt/it'\''s" "CC=cc -pipe" >out 2>err &&
	grep "^wrote config.mak" out &&
	grep "^PKG_LIBS = .*-lelf" config.mak &&
	grep "^PKG_LIBS = .*-ldw" config.mak &&
	grep "^PKG_LIBS = .*-ltraceevent" config.mak &&
	grep "^HAVE_LIBTRACEEVENT = 1\$" config.mak &&
	grep "^HAVE_LIBDW = 1\$" config.mak &&
	grep "^HAVE_NCURSESW = 1\$" config.mak &&
	! grep "not used yet" out &&
	grep "^CC = cc -pipe\$" config.mak &&
	grep "^prefix = /opt/it'\''s\$" config.mak &&
	grep "^CONFIGURE_ARGS = .*CC=cc -pipe" config.mak
'

test_expect_success 'make builds with that config.mak' '
	cd tree &&
	rm -f mperf &&
	make -j2 V=1 mperf >out 2>&1 &&
	built &&
	grep -e "^cc -pipe .* -o mperf .*-lelf" out
'

# The control for the next test: the bogus library does break the link.
test_expect_success 'a config.mak newer than configure is used as it is' '
	cd tree &&
	stale_config_mak &&
	rm -f mperf &&
	test_expect_code 2 make mperf >out 2>&1 &&
	grep "mperf_no_such_lib" out &&
	! grep "older than configure" out &&
	! test -e mperf
'

test_expect_success 'make reruns configure, with its options, for a config.mak older than configure' '
	cd tree &&
	stale_config_mak &&
	touch -t 200001010000 config.mak &&
	rm -f mperf &&
	make -j2 mperf >out 2>&1 &&
	grep "older than configure" out &&
	built &&
	! grep mperf_no_such_lib config.mak &&
	grep "^PKG_LIBS = .*-lelf" config.mak &&
	grep "^CC = cc -pipe\$" config.mak &&
	grep "^prefix = /opt/it'\''s\$" config.mak &&
	test config.mak -nt configure
'

test_expect_success DEPS 'make deps refreshes any config.mak, then make builds' '
	cd tree &&
	stale_config_mak &&
	make deps >out 2>&1 &&
	! grep mperf_no_such_lib config.mak &&
	grep "^PKG_LIBS = .*-lelf" config.mak &&
	grep "^CC = cc -pipe\$" config.mak &&
	rm -f mperf &&
	make -j2 mperf >out 2>&1 &&
	built
'

test_expect_success 'a stale config.mak that configure cannot refresh stops make and goes' '
	cd tree &&
	stale_config_mak &&
	touch -t 200001010000 config.mak &&
	rm -f mperf &&
	test_expect_code 2 env PKG_CONFIG_LIBDIR="$TRASH_DIRECTORY/no-pc" make mperf >out 2>&1 &&
	grep "libelf-dev" out &&
	! test -e config.mak && ! test -e mperf
'

# (the one build with the defaults, last: each build of other flags compiles
# everything.  The suite's own build is made with the defaults: its objects
# are copied in, and only what its flags, kept in build/.flags, do not match
# is compiled again; the link is what this test reads.)
test_expect_success 'make without config.mak builds with the defaults, linking libelf, libdw, libtraceevent, libzstd, zlib and ncursesw' '
	cd tree &&
	! test -e config.mak &&
	rm -rf build && mkdir build &&
	for d in cmd src version.h libmperf.a .flags .ldflags; do
		! test -e "$MPERF_BUILD/$d" || cp -a "$MPERF_BUILD/$d" build/ || exit 1
	done &&
	env -u CFLAGS make -j2 V=1 mperf >out 2>&1 &&
	built &&
	grep -e " -o mperf .*-lelf" out &&
	grep -e " -o mperf .*-ldw" out &&
	grep -e " -o mperf .*-ltraceevent" out &&
	grep -e " -o mperf .*-lzstd" out &&
	grep -e " -o mperf .*-lz\( \|\$\)" out &&
	grep -e " -o mperf .*-lncursesw" out
'

test_done
