# mperf: see README.md.  `./configure` is optional; without config.mak the
# defaults below are used and pkg-config is asked for REQUIRED_PKGS.  A
# config.mak older than configure is refreshed first (see its rule below).
ifneq ($(wildcard config.mak),)
include config.mak
endif

CC ?= cc
prefix ?= /usr/local
PKG_CONFIG ?= pkg-config
# The libraries the code links, as pkg-config names them; configure checks
# the same list.  One call for all of them: pkg-config says nothing when any
# one is missing, so nothing else may hide in this list.
REQUIRED_PKGS = libelf libdw libtraceevent libzstd zlib capstone ncursesw
ifndef PKG_LIBS
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(REQUIRED_PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(REQUIRED_PKGS) 2>/dev/null)
# Without pkg-config (or its .pc files), the libraries are usually still
# in the compiler's default paths (libtraceevent's headers under traceevent/).
ifeq ($(strip $(PKG_LIBS)),)
PKG_CFLAGS := -I/usr/include/traceevent
PKG_LIBS := -ldw -lelf -ltraceevent -lzstd -lz -lcapstone -lncursesw -ltinfo
endif
endif

VERSION := 0.1.0
# mperf --version: VERSION, and in a git checkout what `git describe` says
# of it (a tag v0.1.0-3-gabc1234, else VERSION-gabc1234; -dirty when the
# tree has changes).  A tarball has no .git: VERSION alone.
GIT_VERSION := $(shell test -e .git && git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null | sed 's/^v//')
ifeq ($(GIT_VERSION),)
GIT_VERSION := $(shell test -e .git && git describe --always --dirty 2>/dev/null | sed 's/^/$(VERSION)-g/')
endif
FULL_VERSION := $(if $(GIT_VERSION),$(GIT_VERSION),$(VERSION))
# A sanitizer build at -O1, as the sanitizers' documentation advises: it
# compiles in about half the time of -O2 (CI builds it for every run).
CFLAGS ?= $(if $(SANITIZE),-O1 -g,-O2 -g)
ALL_CFLAGS = -std=gnu11 -pthread -D_GNU_SOURCE -DMPERF_VERSION='"$(VERSION)"' -Wall -Wextra \
	-Wno-missing-field-initializers $(PKG_CFLAGS) $(CFLAGS) -MMD -MP
ifdef DEVELOPER
ALL_CFLAGS += -Werror -Wshadow -Wformat=2
endif
ifdef SANITIZE
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=$(SANITIZE)
endif
# libiberty (Debian libiberty-dev, a static library without a .pc file)
# demangles C++ and Rust names as perf 6.1 does.
# libcapstone is not linked: src/annotate/cslib.c loads it on first use
# (its relocations cost every start), through dlopen (libdl before glibc 2.34).
LIBS = -pthread $(filter-out -lcapstone,$(PKG_LIBS)) -ldl -liberty -lm
LDFLAGS += -Wl,--as-needed

ifneq ($(V),1)
Q = @
QUIET_CC = @echo '  CC      '$@;
QUIET_LINK = @echo '  LINK    '$@;
endif

B = build
SHARES = $(B)/workloads/old/shares $(B)/workloads/new/shares $(B)/workloads/base/shares \
	$(B)/workloads/hot/shares $(B)/workloads/slow/shares
NOPERF = $(B)/workloads/noperf
LIB_SRC = $(wildcard src/lib/*.c src/ring/*.c src/perfdata/*.c src/host/*.c src/record/*.c src/resolve/*.c src/report/*.c src/annotate/*.c src/stat/*.c)
CMD_SRC = $(wildcard cmd/*.c cmd/ui/*.c)
LIB_OBJ = $(LIB_SRC:%.c=$(B)/%.o)
CMD_OBJ = $(CMD_SRC:%.c=$(B)/%.o)
UNIT_SRC = $(wildcard tests/unit/test-*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(B)/tests/unit/%)

# The test workloads, built under build/ with the objects: the repository's
# root holds sources and ./mperf alone.
W = $(B)/workloads
WORKLOADS = $(W)/noploop $(W)/cpuspin $(W)/twophase $(W)/callpaths $(W)/callpaths-nofp

# ./mperf is the default build's (B=build).  Another build directory links
# its own (make B=build-san SANITIZE=...: build-san/mperf), which its make
# check tests: two builds can be tested at once, and ./mperf stays the plain one.
MPERF_BIN = $(if $(filter build,$(B)),mperf,$(B)/mperf)

all: $(MPERF_BIN) $(WORKLOADS) $(SHARES) $(NOPERF)

# Everything is rebuilt when the compiler flags change (SANITIZE=, CFLAGS=...),
# so a sanitizer build never lingers in a build directory; a change of the
# libraries alone (config.mak's PKG_LIBS, LDFLAGS) relinks and compiles nothing.
FLAGS_FILE = $(B)/.flags
$(FLAGS_FILE): FORCE
	@mkdir -p $(B)
	@echo '$(CC) $(ALL_CFLAGS)' | cmp -s - $@ || echo '$(CC) $(ALL_CFLAGS)' >$@
LINK_FLAGS_FILE = $(B)/.ldflags
$(LINK_FLAGS_FILE): FORCE
	@mkdir -p $(B)
	@echo '$(LDFLAGS) $(LIBS)' | cmp -s - $@ || echo '$(LDFLAGS) $(LIBS)' >$@

$(MPERF_BIN): $(CMD_OBJ) $(B)/libmperf.a $(FLAGS_FILE) $(LINK_FLAGS_FILE)
	$(QUIET_LINK)$(CC) $(LDFLAGS) -o $@ $(CMD_OBJ) $(B)/libmperf.a $(LIBS)

$(W)/noploop: tests/workloads/noploop.c
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) -O1 -Wall -o $@ $<

$(W)/cpuspin: tests/workloads/cpuspin.c
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) -O1 -Wall -pthread -o $@ $<

$(W)/twophase: tests/workloads/twophase.c
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) -O1 -Wall -o $@ $<

# Known call paths for the call-graph tests: every function keeps its frame.
$(W)/callpaths: tests/workloads/callpaths.c
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) -O0 -fno-omit-frame-pointer -fno-inline -Wall -pthread -o $@ $<

# The same paths optimised and without frame pointers, for DWARF unwinding:
# no inlining, no tail calls, no clones or merged twins (b and helper are
# alike), so that each call keeps its frame and its name.
$(W)/callpaths-nofp: tests/workloads/callpaths.c
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) -O2 -g -fomit-frame-pointer -fno-inline -fno-optimize-sibling-calls \
		-fno-ipa-cp -fno-ipa-sra -fno-ipa-icf -Wall -pthread -o $@ $<

# Two builds of one program, for the diff tests: f 70% and g 25% of the
# time in old, 40% and 55% in new, and a function each has alone.  One file
# name in two directories, as perf diff matches DSOs by name; no PLT (a
# sample there is named one way or another by the shape of perf's tree).
# A seccomp filter that refuses perf_event_open, as a container's profile.
$(NOPERF): tests/workloads/noperf.c
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) -O1 -Wall -o $@ $<

$(B)/workloads/old/shares: tests/workloads/shares.c
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) -O0 -fno-inline -fno-plt -Wall -DF_SHARE=70 -DG_SHARE=25 -DOLD_ONLY=5 -o $@ $<

$(B)/workloads/new/shares: tests/workloads/shares.c
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) -O0 -fno-inline -fno-plt -Wall -DF_SHARE=40 -DG_SHARE=55 -DNEW_ONLY=5 -o $@ $<

# Three builds for the gate (mperf diff --check): base (f 70, g 25), hot
# (f does 20% more work: 84) and slow (15% more work in every function).
$(B)/workloads/base/shares: tests/workloads/shares.c
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) -O0 -fno-inline -fno-plt -Wall -DF_SHARE=70 -DG_SHARE=25 -o $@ $<

$(B)/workloads/hot/shares: tests/workloads/shares.c
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) -O0 -fno-inline -fno-plt -Wall -DF_SHARE=84 -DG_SHARE=25 -o $@ $<

$(B)/workloads/slow/shares: tests/workloads/shares.c
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) -O0 -fno-inline -fno-plt -Wall -DF_SHARE=70 -DG_SHARE=25 -DSCALE=115 -o $@ $<

# Only main() prints the full version: a new commit relinks mperf, it does
# not rebuild everything (the flags, and so the .flags file, stay the same).
$(B)/version.h: FORCE
	@mkdir -p $(B)
	@echo '#define MPERF_VERSION_STRING "$(FULL_VERSION)"' | cmp -s - $@ || \
		echo '#define MPERF_VERSION_STRING "$(FULL_VERSION)"' >$@
$(B)/cmd/mperf.o: $(B)/version.h
$(B)/cmd/mperf.o: private ALL_CFLAGS += -I$(B)

$(B)/libmperf.a: $(LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/%.o: %.c $(FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/tests/unit/%: tests/unit/%.c tests/unit/tap.h $(B)/libmperf.a $(FLAGS_FILE) $(LINK_FLAGS_FILE)
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libmperf.a $(LIBS)

units: $(UNIT_BIN)

# Unit tests (C, TAP) and end-to-end tests (shell, TAP), all through prove,
# in parallel on every CPU (JOBS=1 for one at a time).  Three tiers:
#   check       the unit tests and every test that does not run perf (the
#               perf comparisons skip, MPERF_TEST_PERF=0): a few minutes
#   check-perf  the tests that run perf or a browser, what check skipped (the other tests
#               of their scripts skip there, MPERF_TEST_ONLY_PERF=1)
#   check-all   every test: check-perf's, the slow ones (valgrind over the
#               unit tests, the build's five rebuilds), then, alone since
#               they change a machine-wide setting for a moment, those
#               that lower kernel.perf_event_max_sample_rate (when
#               MPERF_TEST_SYSCTL=1)
# .ci/run runs check, check-perf, the slow and lone tests, then check again
# under sanitizers (B=build-san SANITIZE=...: its own build-san/mperf; the
# tests marked PLAIN, which run none of mperf's code, skip there).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PROVE = prove --timer -j$(JOBS)
TESTS_SLOW = tests/t0002-unit-valgrind.sh tests/t0003-build.sh
# t3008 compares reports made at two moments against the build-id cache and
# this machine's kernel symbols; beside other tests it failed now and then
# (#9, #12, #18), alone never: it runs alone until the cause is found
# (.ci/run runs it beside the slow ones, which record nothing).
TESTS_ALONE = tests/t1010-record-sysctl.sh tests/t3008-buildid.sh
TESTS = $(filter-out $(TESTS_SLOW) $(TESTS_ALONE),$(sort $(wildcard tests/t[0-9]*.sh)))
TESTS_PERF = $(shell grep -l "^test_expect_success [A-Z_!,]*\(PERF\|CHROMIUM\)" $(TESTS))

check: all units
	MPERF_TEST_PERF=0 MPERF_BUILD_DIR=$(B) MPERF_BIN=$(abspath $(MPERF_BIN)) $(if $(SANITIZE),MPERF_TEST_SANITIZED=1) $(PROVE) $(UNIT_BIN) $(TESTS)

# perf record waits up to a second for its side-band thread as it ends, on
# no CPU: PERF_JOBS=4 on 2 CPUs fills that (6m41 -> 6m03 and 6m29), but the
# -a recordings then catch more of the other scripts' processes (perf's
# addr2line children among them), which three fresh-clone runs met as
# differences in tests that compare whole system-wide outputs.
PERF_JOBS ?= $(JOBS)

check-perf: all units
	MPERF_TEST_ONLY_PERF=1 MPERF_BUILD_DIR=$(B) MPERF_BIN=$(abspath $(MPERF_BIN)) prove --timer -j$(PERF_JOBS) $(TESTS_PERF)

check-all: all units
	MPERF_BUILD_DIR=$(B) MPERF_BIN=$(abspath $(MPERF_BIN)) $(PROVE) $(UNIT_BIN) $(TESTS) $(TESTS_SLOW)
	MPERF_BUILD_DIR=$(B) MPERF_BIN=$(abspath $(MPERF_BIN)) prove $(TESTS_ALONE)

# libFuzzer harnesses (clang), with ASan and UBSan.  `make fuzz-smoke`
# runs each for FUZZ_SECONDS over a scratch copy of its corpus (the
# consumers' with an empty kernel symbol table: see no-kallsyms.sh).
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 30
FUZZ_BIN = $(B)/fuzz/fuzz-reader $(B)/fuzz/fuzz-ring $(B)/fuzz/fuzz-consumers

FUZZ_CFLAGS = -g -O1 -fno-sanitize-recover=all -std=gnu11 -pthread -D_GNU_SOURCE \
	-DMPERF_VERSION='"$(VERSION)"' $(PKG_CFLAGS) -MMD -MP
# The library is compiled once for the three harnesses (it was once each).
FUZZ_OBJ = $(LIB_SRC:%.c=$(B)/fuzz/obj/%.o)

# Kept: make deletes the objects a pattern rule made for another as
# intermediate files, and `make fuzz-smoke` after `make fuzz` (CI) then
# compiled all of them again (91 files, most of its 47 s).
.SECONDARY: $(FUZZ_OBJ)

$(B)/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined -c -o $@ $<

$(B)/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJ)
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined \
		-o $@ $< $(FUZZ_OBJ) $(PKG_LIBS) -liberty -lm

fuzz: $(FUZZ_BIN)

# Each harness is its own target, so that make -jN fuzzes N at a time.
FUZZ_SMOKE = $(addprefix fuzz-smoke-,reader ring consumers)
fuzz-smoke: $(FUZZ_SMOKE)

$(FUZZ_SMOKE): fuzz-smoke-%: $(B)/fuzz/fuzz-%
	@rm -rf $(B)/fuzz/work-$* && mkdir -p $(B)/fuzz/work-$* && \
	cp tests/fuzz/corpus/$*/* $(B)/fuzz/work-$*/ 2>/dev/null; \
	echo "fuzz-$*: $(FUZZ_SECONDS) s"; \
	wrap=; test $* != consumers || wrap=tests/fuzz/no-kallsyms.sh; \
	$$wrap $(B)/fuzz/fuzz-$* -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -print_final_stats=1 \
		-artifact_prefix=$(B)/fuzz/ $(B)/fuzz/work-$* tests/fuzz/corpus/$* \
		>$(B)/fuzz/$*.log 2>&1 || { tail -n 12 $(B)/fuzz/$*.log; \
		echo "fuzz-$*: the report's first frames:"; \
		grep -m1 -A24 -E 'ERROR: |runtime error|deadly signal' $(B)/fuzz/$*.log; exit 1; }; \
	grep -E 'stat::number_of_executed_units|stat::peak_rss' $(B)/fuzz/$*.log | sed 's/^/fuzz-$*: /'

# A config.mak older than configure may disagree with what configure checks
# now: rerun configure with the options it recorded, then make starts over
# with the new file.  If configure fails it removes config.mak and make
# stops; the next make uses the defaults.  The rule exists only when
# config.mak does, so that no config.mak means "the defaults", never "run
# configure".  make deps refreshes config.mak itself, after installing what
# configure would miss; make clean needs no configuration.
CONFIGURE = CC= PKG_CONFIG= sh ./configure $(CONFIGURE_ARGS)
ifneq ($(wildcard config.mak),)
ifeq ($(filter deps check-deps,$(MAKECMDGOALS)),)
ifneq ($(MAKECMDGOALS),clean)
config.mak: configure
	@echo "config.mak is older than configure: rerunning configure with its options"
	$(Q)$(CONFIGURE)
endif
endif
endif

# The Debian packages, then an existing config.mak rewritten for what is
# installed now, so that `make deps && make` works whatever ran before.
# deps: what the build needs (and so the demo); check-deps: that and what
# the tests use (perf, the reference; mandoc, clang, chromium, go, strace).
deps check-deps:
	sh ./configure --install-$(if $(filter check-deps,$@),test-,)deps
	$(Q)if test -f config.mak; then \
		echo "make $@: refreshing config.mak with the options it recorded"; \
		$(CONFIGURE); \
	fi

# The main job: the seed's command, then the tail of the dump.
demo: all
	./mperf record -e cycles,cycles,cycles -o demo.data $(W)/noploop 3
	./mperf report -D -i demo.data | tail -n 24
	./mperf report -i demo.data --percent-limit 1

bench: all
	bench/report-vs-perf.sh
	bench/record-startup-vs-perf.sh
	bench/record-loss-vs-perf.sh
	bench/callgraph-vs-perf.sh
	bench/script-vs-perf.sh
	bench/dwarf-vs-perf.sh
	bench/stat-startup-vs-perf.sh
	bench/diff-vs-perf.sh
	bench/buildid-list-vs-perf.sh
	bench/export-vs-perf.sh
	bench/inline-vs-perf.sh
	bench/tui-startup-vs-perf.sh
	bench/top-vs-perf.sh
	bench/gate-trials.sh
	bench/table-vs-perf.sh

# make install [PREFIX=/usr/local] [DESTDIR=/staging]: the binary, the man
# pages and the bash completion; make uninstall removes exactly those files.
PREFIX ?= $(prefix)
bindir = $(PREFIX)/bin
man1dir = $(PREFIX)/share/man/man1
bashcompdir = $(PREFIX)/share/bash-completion/completions
MAN_PAGES = $(wildcard man/*.1)

install: $(MPERF_BIN)
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(man1dir) $(DESTDIR)$(bashcompdir)
	install -m 755 $(MPERF_BIN) $(DESTDIR)$(bindir)/mperf
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(man1dir)/
	install -m 644 contrib/mperf-completion.bash $(DESTDIR)$(bashcompdir)/mperf

uninstall:
	rm -f $(DESTDIR)$(bindir)/mperf $(DESTDIR)$(bashcompdir)/mperf
	rm -f $(addprefix $(DESTDIR)$(man1dir)/,$(notdir $(MAN_PAGES)))

clean:
	rm -rf $(B) $(MPERF_BIN)

.PHONY: all units check check-perf check-all check-deps deps demo bench install uninstall clean fuzz fuzz-smoke $(FUZZ_SMOKE) FORCE
-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(UNIT_BIN:=.d) $(FUZZ_OBJ:.o=.d)
