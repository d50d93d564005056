#!/bin/bash
# Regenerate tests/expected/corpus.sha256 from perf 6.1: for each line
# "VIEW FILE [prefix]" of corpus.list, the number of lines and the sha256
# of what perf prints of the corpus FILE in VIEW (tests/lib.sh's
# corpus_view), and the build ids of the kernels perf warns it found no
# symbols for ("-": none).  make check compares mperf's output and
# warnings with these (t3006); MPERF_TEST_CORPUS_LIVE=1 make check-perf
# compares the two live, with the diff.
#
#   tests/expected/regen-corpus.sh [PERF]     (default: perf)
#
# Run it after a change to corpus.list or to the corpus, with perf 6.1
# (the reference), as root or not, on a machine of the CI's type: a
# perf.data of an old perf names its DSOs by path, and perf reads the
# files of those paths that it finds on the machine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
PERF=${1:-perf}
"$PERF" --version | grep -q "^perf version 6\.1\." ||
	{ echo "regen-corpus: $("$PERF" --version) is not perf 6.1, the reference" >&2; exit 1; }

# tests/lib.sh's helpers without its test harness.
CORPUS=${MPERF_CORPUS:-$here/../../../shared/corpus/perf_data_converter}
test -r "$CORPUS/perf.data.busy.0-3.4" || { echo "regen-corpus: no corpus at $CORPUS" >&2; exit 1; }
eval "$(sed -n '/^# --- the corpus.s views/,/^# No hardware PMU/p' "$here/../lib.sh")"

# An empty build-id cache, as the tests have (their own HOME).
HOME=$(mktemp -d) && trap 'rm -rf "$HOME"' EXIT && export HOME
out=$here/corpus.sha256.tmp
{
	echo "# VIEW FILE LINES SHA256 KALLSYMS-WARNINGS of perf 6.1's output ($("$PERF" --version)):"
	echo "# written by tests/expected/regen-corpus.sh from corpus.list; do not edit."
	grep -v '^#' "$here/corpus.list" | while read -r view f mode; do
		corpus_view "$view" "$PERF" "$f" 3>"$HOME/err" >"$HOME/out" || true
		n=$(wc -l <"$HOME/out")
		test "$n" -gt 5 || { echo "regen-corpus: perf printed $n lines of $view $f" >&2; exit 1; }
		echo "$view $f $n $(sha256sum <"$HOME/out" | cut -d' ' -f1) $(corpus_kallsyms_ids <"$HOME/err")"
	done
} >"$out"
mv "$out" "$here/corpus.sha256"
echo "regen-corpus: $(grep -vc '^#' "$here/corpus.sha256") views written to $here/corpus.sha256" >&2
