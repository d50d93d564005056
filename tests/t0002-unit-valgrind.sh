#!/usr/bin/env bash
# The unit tests again, under valgrind (when it is installed
# and the build is not a sanitizer build, which valgrind cannot run).
. "$(dirname "$0")/lib.sh"

have_valgrind () {
	command -v valgrind >/dev/null 2>&1 &&
	! grep -q -- -fsanitize "$MPERF_ROOT/build/.flags" 2>/dev/null
}

for t in test-ring test-perfdata test-tracing test-record test-parse-events test-run test-symbols test-machine \
	test-stat test-rbtree test-hist test-diff test-script test-export test-branch; do
	test_expect_success VALGRIND "$t under valgrind: no invalid access, no leak" '
		valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
			"$MPERF_ROOT/build/tests/unit/'$t'" >out 2>err ||
			{ cat err; false; } &&
		! grep -q "^not ok" out
	'
done

test_done
