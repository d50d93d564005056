#!/bin/bash
# make install and uninstall into a scratch DESTDIR, and the bash
# completion they install: commands, options and -e's events.

. "$(dirname "$0")/lib.sh"

# Not part of the make running the suite; -o mperf: install what is built, never
# rebuild it here (a sanitizer build of the suite stays one).
unset MAKEFLAGS MFLAGS MAKELEVEL

have_man () {
	command -v man >/dev/null 2>&1
}

test_expect_success PLAIN 'make install PREFIX=/usr DESTDIR=...: the binary, the man pages, the completion' '
	make -s -o mperf -C "$MPERF_ROOT" install PREFIX=/usr DESTDIR="$TRASH_DIRECTORY/dest" >out 2>&1 &&
	(cd dest && find . | LC_ALL=C sort) >tree &&
	cat >expect <<-\EOT &&
	.
	./usr
	./usr/bin
	./usr/bin/mperf
	./usr/share
	./usr/share/bash-completion
	./usr/share/bash-completion/completions
	./usr/share/bash-completion/completions/mperf
	./usr/share/man
	./usr/share/man/man1
	./usr/share/man/man1/mperf-annotate.1
	./usr/share/man/man1/mperf-archive.1
	./usr/share/man/man1/mperf-buildid-list.1
	./usr/share/man/man1/mperf-diff.1
	./usr/share/man/man1/mperf-doctor.1
	./usr/share/man/man1/mperf-list.1
	./usr/share/man/man1/mperf-record.1
	./usr/share/man/man1/mperf-report.1
	./usr/share/man/man1/mperf-script.1
	./usr/share/man/man1/mperf-stat.1
	./usr/share/man/man1/mperf-top.1
	./usr/share/man/man1/mperf.1
	EOT
	diff expect tree &&
	test -x dest/usr/bin/mperf &&
	dest/usr/bin/mperf --version | grep -q "^mperf version " &&
	test "$(stat -c %a dest/usr/share/man/man1/mperf.1)" = 644
'

test_expect_success MAN,PLAIN 'man finds the installed pages' '
	MANPATH="$TRASH_DIRECTORY/dest/usr/share/man" man -w mperf-record >where &&
	grep -q "dest/usr/share/man/man1/mperf-record.1" where
'

# complete_words WORD...: what the installed completion offers for the
# command line WORD... (the last word is the one being completed).
complete_words () {
	(
		. "$TRASH_DIRECTORY/dest/usr/share/bash-completion/completions/mperf" &&
		COMP_WORDS=("$@") &&
		COMP_CWORD=$(($# - 1)) &&
		PATH="$TRASH_DIRECTORY/dest/usr/bin:$PATH" &&
		_mperf &&
		printf "%s\n" "${COMPREPLY[@]}"
	)
}

test_expect_success PLAIN 'sourcing the completion registers it for mperf' '
	(. dest/usr/share/bash-completion/completions/mperf && complete -p mperf) >out &&
	grep -q "^complete -F _mperf mperf$" out
'

test_expect_success PLAIN 'mperf rec<TAB>: record' '
	complete_words mperf rec >out &&
	echo record >expect &&
	diff expect out
'

test_expect_success PLAIN 'mperf <TAB>: every command' '
	complete_words mperf "" | sort >out &&
	printf "annotate\narchive\nbuildid-list\ndiff\ndoctor\nhelp\nlist\nrecord\nreport\nscript\nstat\ntop\n" >expect &&
	diff expect out
'

test_expect_success PLAIN 'mperf record -e cpu-<TAB>: the events of mperf list' '
	complete_words mperf record -e cpu- | sort >out &&
	cat out &&
	grep -qx cpu-clock out &&
	grep -qx cpu-migrations out &&
	! grep -v "^cpu-" out
'

test_expect_success PLAIN 'mperf record -e cs,page-f<TAB>: the last event of a list' '
	complete_words mperf record -e cs,page-f >out &&
	echo cs,page-faults >expect &&
	diff expect out
'

test_expect_success PLAIN 'mperf record --ev<TAB> and mperf report --js<TAB>: options from -h' '
	complete_words mperf record --ev >out &&
	echo --event >expect &&
	diff expect out &&
	complete_words mperf report --js >out &&
	echo --json >expect &&
	diff expect out &&
	complete_words mperf report --percentage "" >out &&
	printf "relative\nabsolute\n" >expect &&
	diff expect out &&
	complete_words mperf record --call >out &&
	echo --call-graph >expect &&
	diff expect out
'

test_expect_success PLAIN 'make uninstall removes every file install put there' '
	make -s -o mperf -C "$MPERF_ROOT" uninstall PREFIX=/usr DESTDIR="$TRASH_DIRECTORY/dest" >out 2>&1 &&
	find dest -type f >left &&
	test_must_be_empty left
'

test_done
