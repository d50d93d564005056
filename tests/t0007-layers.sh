#!/bin/bash
# The layering rules of docs/ARCHITECTURE.md, checked on the sources: the
# floors each module may include, interface headers only across modules
# and the files each outside library's headers may be included in (all
# read from the page's "layers" block, so the page and the code cannot
# drift apart), every layout decoded in src/perfdata, and src/ printing
# and exiting never.  Each rule fails on one planted violation (try it).

. "$(dirname "$0")/lib.sh"

DOC=$MPERF_ROOT/docs/ARCHITECTURE.md
SRC=$MPERF_ROOT/src
CMD=$MPERF_ROOT/cmd

# The code of files, without comments and string or character literals,
# as "FILE: text" lines (cc -fpreprocessed drops the comments and expands
# nothing; sed empties the literals).  One cc for all the files: each is
# given after a line marker naming it, which cc passes on.
code_lines () {
	for f in "$@"; do
		printf '# 1 "%s"\n' "${f#$MPERF_ROOT/}"
		cat "$f"
		echo
	done |
	"${CC:-cc}" -fpreprocessed -dD -E -x c - 2>/dev/null |
	awk '/^# [0-9]+ "/ { f = $3; gsub(/"/, "", f); next } NF { print f ": " $0 }' |
	sed 's/"\([^"\\]\|\\.\)*"/""/g; s/'"'"'\([^'"'"'\\]\|\\.\)*'"'"'/0/g'
}

# The "layers" block of the page: "MODULE -> MODULES..." lines, the
# "interface:" line and "uses <HEADER>...: FILES" lines.
layers () {
	sed -n '/^```layers$/,/^```$/p' "$DOC" | grep -v '^```'
}

# The code of src/ (and of cmd/, for the first rule), once.
code_lines "$SRC"/*/*.[ch] >"$TRASH_DIRECTORY/src.code"
code_lines "$CMD"/*.[ch] "$CMD"/ui/*.[ch] >"$TRASH_DIRECTORY/cmd.code"

test_expect_success PLAIN 'the page has its layers block, one line per module' '
	layers >rules &&
	for m in lib ring host perfdata record report stat ui cmd; do
		test "$(grep -c "^$m *->" rules)" = 1 || { fail "no rule for $m"; exit 1; }
	done &&
	grep -q "^interface:" rules
'

# Every quoted include of src/ and cmd/ as "FILE LINE INCLUDED MODULE
# INCLUDED-MODULE": src/M/x.c's "y.h" is M's, its "../N/y.h" N's;
# cmd/x.c's "../src/N/y.h" is N's, its "y.h" cmd's, its "ui/y.h" ui's;
# cmd/ui/x.c's "../../src/N/y.h" is N's, its "y.h" ui's, its "../y.h" cmd's.
include_lines () {
	(cd "$MPERF_ROOT" && grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' src/*/*.[ch] cmd/*.[ch] cmd/ui/*.[ch]) |
	sed 's|^\([^:]*\):\([0-9]*\):[^"]*"\([^"]*\)".*|\1 \2 \3|' |
	awk '{
		own = $1 ~ /^cmd\/ui\// ? "ui" : $1 ~ /^cmd\// ? "cmd" : $1; sub(/^src\//, "", own); sub(/\/.*/, "", own)
		inc = $3
		if (own == "ui" && inc ~ /^\.\.\/\.\.\/src\//) { sub(/^\.\.\/\.\.\/src\//, "", inc); mod = inc; sub(/\/.*/, "", mod) }
		else if (own == "ui" && inc ~ /^\.\.\/[^\/]*$/) mod = "cmd"
		else if (own == "cmd" && inc ~ /^ui\/[^\/]*$/) mod = "ui"
		else if (inc ~ /^\.\.\/src\//) { sub(/^\.\.\/src\//, "", inc); mod = inc; sub(/\/.*/, "", mod) }
		else if (inc ~ /^\.\.\//) { sub(/^\.\.\//, "", inc); mod = inc; sub(/\/.*/, "", mod) }
		else if (inc ~ /\//) mod = "?"
		else mod = own
		print $1, $2, $3, own, mod
	}'
}

test_expect_success PLAIN 'each module includes only its own headers and the floors the page allows' '
	layers >rules &&
	include_lines >incs &&
	test -s incs &&
	awk "NR == FNR { if (\$2 == \"->\") { for (i = 3; i <= NF; i++) ok[\$1 \" \" \$i] = 1 } next }
	     \$4 != \$5 && !ok[\$4 \" \" \$5] { print \$1 \":\" \$2 \": \" \$4 \" includes \" \$3 \", not allowed by the page\" }" \
		rules incs >bad &&
	test_must_be_empty bad
'

test_expect_success PLAIN 'across modules, only interface headers (the page'\''s interface line)' '
	layers >rules &&
	interface=$(sed -n "s/^interface: *//p" rules) &&
	test -n "$interface" &&
	include_lines >incs &&
	set -f &&
	while read -r file line inc own mod; do
		test "$own" = "$mod" && continue
		ok=
		for i in $interface; do
			case $mod/${inc##*/} in $i) ok=1 ;; esac
		done
		test -n "$ok" || echo "$file:$line: $inc is private to $mod"
	done <incs >bad &&
	set +f &&
	test_must_be_empty bad
'

test_expect_success PLAIN 'each outside library is included where the page says, and only there (its uses lines)' '
	layers >rules &&
	grep "^uses " rules >uses &&
	test -s uses &&
	(cd "$MPERF_ROOT" && grep -Hn "^[[:space:]]*#[[:space:]]*include[[:space:]]*<" src/*/*.[ch] cmd/*.[ch] cmd/ui/*.[ch]) |
		sed "s|^\([^:]*\):\([0-9]*\):[^<]*<\([^>]*\)>.*|\1 \2 \3|" >sys &&
	set -f &&
	while read -r _ spec; do
		headers=${spec%%:*} files=${spec#*:}
		for h in $headers; do
			h=${h#<} h=${h%>}
			while read -r file line inc; do
				case $inc in $h) ;; *) continue ;; esac
				ok=
				for f in $files; do
					test "$file" = "src/$f" -o "$file" = "${f#../}" && ok=1
				done
				test -n "$ok" || echo "$file:$line: includes <$inc>, which the page allows only in$files"
			done <sys
		done
		# And the page names no file that does not use the library.
		for f in $files; do
			used=
			while read -r file line inc; do
				test "$file" = "src/$f" -o "$file" = "${f#../}" || continue
				for h in $headers; do
					h=${h#<} h=${h%>}
					case $inc in $h) used=1 ;; esac
				done
			done <sys
			test -n "$used" || echo "src/$f: the page says it uses $headers, and it includes none"
		done
	done <uses >bad &&
	set +f &&
	test_must_be_empty bad
'

test_expect_success PLAIN 'no byte-offset reads (pd_u16, pd_u32, pd_u64) outside src/perfdata' '
	cat "$TRASH_DIRECTORY/src.code" "$TRASH_DIRECTORY/cmd.code" | grep -v "^src/perfdata/" >code &&
	test -s code &&
	grep -E "\<pd_u(16|32|64)\>" code >bad || : &&
	test_must_be_empty bad
'

# src/ writes only to a FILE its caller gives it (report'\''s out.c, stat'\''s
# display.c) and says everything else through the log hook: it never names
# stdout or stderr, never calls the functions that write to them, and
# never exits (but the forked workload, before its exec: _exit).
test_expect_success PLAIN 'src/ never prints to stdout or stderr' '
	cp "$TRASH_DIRECTORY/src.code" code &&
	test -s code &&
	grep -E "\<(stdout|stderr)\>|\<(printf|vprintf|puts|putchar|perror)[[:space:]]*\(" code >bad || : &&
	test_must_be_empty bad
'

test_expect_success PLAIN 'src/ never exits; _exit only in the forked workload' '
	cp "$TRASH_DIRECTORY/src.code" code &&
	test -s code &&
	grep -E "\<(exit|_Exit|abort|quick_exit)[[:space:]]*\(" code >bad || : &&
	grep -E "\<_exit[[:space:]]*\(" code | grep -v "^src/record/workload.c: " >>bad || : &&
	test_must_be_empty bad
'

test_done
