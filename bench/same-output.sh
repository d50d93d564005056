#!/bin/bash
# Whether a change left mperf's output alone: two builds of mperf, OLD and
# NEW, run on each FILE (default: the corpus, ../shared/corpus, and the
# benchmarks' files in ${TMPDIR:-/tmp}) as report --stdio (both views),
# report -D, script, report --sort srcline (both views) and annotate
# --stdio; prints each command whose stdout or exit status differs, and
# the count.  Exits 1 when any differs.
set -uo pipefail

usage () {
	echo "usage: bench/same-output.sh OLD-MPERF NEW-MPERF [FILE...]" >&2
	exit 129
}
test $# -ge 2 || usage
old=$1 new=$2
shift 2
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
if test $# = 0; then
	set -- ../shared/corpus/*/* "${TMPDIR:-/tmp}"/mperf-bench-*.perf.data "${TMPDIR:-/tmp}"/mperf-bench-inline/*.data
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mperf-same.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0 differ=0
for f in "$@"; do
	test -f "$f" || continue
	for c in "report --stdio" "report --stdio --no-children" "report -D" "script" \
		 "report --stdio --sort srcline" "report --stdio --sort srcline --no-children" "annotate --stdio"; do
		# shellcheck disable=SC2086  # $c is a command line, split on purpose
		"$old" --no-pager $c -i "$f" >"$tmp/old" 2>/dev/null
		ro=$?
		# shellcheck disable=SC2086
		"$new" --no-pager $c -i "$f" >"$tmp/new" 2>/dev/null
		rn=$?
		n=$((n + 1))
		if test "$ro" != "$rn" || ! cmp -s "$tmp/old" "$tmp/new"; then
			differ=$((differ + 1))
			echo "differs: $c -i $f (exit $ro/$rn, $(diff "$tmp/old" "$tmp/new" | grep -c '^[<>]') lines)"
		fi
	done
done
echo "$n comparisons, $differ differ"
test "$differ" = 0
