#!/bin/sh
# no-kallsyms.sh CMD [ARGS]: run CMD with an empty /proc/kallsyms, in a
# private mount namespace, where root can make one; else as it is.  The
# kernel's symbols are this machine's, not the fuzzer's input: reading
# 100k lines of them each run would leave the consumers' fuzzer a run a
# second.
empty=${TMPDIR:-/tmp}/mperf-fuzz-kallsyms.$$
: >"$empty" || exec "$@"
if test "$(id -u)" = 0 && unshare -m sh -c 'mount --bind "$1" /proc/kallsyms' sh "$empty" 2>/dev/null; then
	unshare -m sh -c 'mount --bind "$1" /proc/kallsyms && shift && exec "$@"' sh "$empty" "$@"
	rc=$?
else
	"$@"
	rc=$?
fi
rm -f "$empty"
exit $rc
