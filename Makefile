# A thin wrapper around meson.  Every target first installs what is
# missing (build-aux/install-deps).
BUILD ?= build
MESON_OPTS ?=

.PHONY: all deps setup run check bench clean

all: setup
	meson compile -C $(BUILD)

deps:
	@./build-aux/install-deps $(BUILD)

setup: deps
	@if [ ! -f $(BUILD)/build.ninja ]; then \
	  meson setup $(BUILD) $(MESON_OPTS); \
	fi

run: all
	@if [ -x $(BUILD)/app/padlock ]; then \
	  exec $(BUILD)/app/padlock; \
	else \
	  $(BUILD)/sop/padlock-sop version; \
	fi

# One suite more than cores: the UI suites wait on X, D-Bus and gpg-agent
# (two at a time kept 1.45 of 2 cores busy; make check's tests took 534 s
# two at a time, 472 s three at a time, the same tree).
TEST_JOBS ?= $(shell echo $$(( $$(nproc) + 1 )))

check: all
	@meson test -C $(BUILD) --num-processes $(TEST_JOBS) --print-errorlogs $(TESTS) \
	  > $(BUILD)/meson-test.out 2>&1; \
	  status=$$?; tail -n 25 $(BUILD)/meson-test.out; \
	  ./build-aux/test-summary $(BUILD)/meson-logs/testlog.json; \
	  summary=$$?; [ $$status -eq 0 ] && [ $$summary -eq 0 ]

bench: all
	./bench/run

clean:
	rm -rf $(BUILD)

# --- Fuzzing and sanitizers (see fuzz/README.md) -------------------------
# SUMMARY_FILE: when set, each of these appends its "N passed, N failed"
# line there (.ci/run sums them into one closing line).
ASAN_BUILD ?= build-asan
FUZZ_SECONDS ?= 60
# TEST_JOBS at a time, in this order (meson starts them as listed):
# longest first, so that roundtrip (about 205 s under valgrind) has the
# others beside it, not refusals (130 s) alone after it as in the
# clean-clone run at 07aa2f5 (359 s, 120 s of it on one core).
MEMCHECK_TESTS ?= roundtrip refusals compress seipd armor packet
# Without --track-origins: it made the run 3-4 times slower; a suite
# that fails runs again with it, so that the report says where an
# uninitialised value came from.
VALGRIND ?= valgrind --error-exitcode=1 --leak-check=full \
  --errors-for-leak-kinds=definite,indirect \
  --show-leak-kinds=definite,indirect -q
VALGRIND_ORIGINS ?= $(VALGRIND) --track-origins=yes

.PHONY: fuzz asan memcheck

# Each libFuzzer target for FUZZ_SECONDS under ASan and UBSan, seeded from
# tests/data/vectors, padlock-sop and fuzz/gen-seeds.  Fails on any crash.
fuzz: all
	@FUZZ_SECONDS=$(FUZZ_SECONDS) BUILD=$(BUILD) FUZZ_SUMMARY=$(SUMMARY_FILE) \
	  ./fuzz/run

# The whole test suite built with -Db_sanitize=address,undefined
# (fuzz/asan-test: leak detection is off for the tests that open windows),
# at -O1 as the sanitizers' own guides advise: the build took 67 s
# against 84 s at -O2, and nine data-heavy suites (aead, faults,
# sighash, roundtrip...) ran in 92-96 s against 98-100 s.
asan: deps
	@./build-aux/install-deps $(ASAN_BUILD)
	@if [ ! -f $(ASAN_BUILD)/build.ninja ]; then \
	  meson setup $(ASAN_BUILD) -Db_sanitize=address,undefined \
	    -Db_lundef=false -Doptimization=1 $(MESON_OPTS); \
	fi
	meson compile -C $(ASAN_BUILD)
	@TEST_JOBS=$(TEST_JOBS) ./fuzz/asan-test $(ASAN_BUILD) $(TESTS) > $(ASAN_BUILD)/summary.out; \
	  status=$$?; cat $(ASAN_BUILD)/summary.out; \
	  if [ -n "$(SUMMARY_FILE)" ]; then \
	    tail -n 1 $(ASAN_BUILD)/summary.out | sed 's/^/asan: /' >> "$(SUMMARY_FILE)"; \
	  fi; \
	  [ $$status -eq 0 ]

# Valgrind memcheck over the round-trip tests: no errors, and no definite
# or indirect leaks (libgcrypt's secure memory pool may be "possibly lost").
memcheck: all
	@./fuzz/install-deps
	@G_SLICE=always-malloc meson test -C $(BUILD) --logbase memcheck \
	  --num-processes $(TEST_JOBS) --timeout-multiplier 10 \
	  --print-errorlogs --wrapper "$(VALGRIND)" \
	  $(MEMCHECK_TESTS) > $(BUILD)/memcheck.out 2>&1; \
	  status=$$?; tail -n 25 $(BUILD)/memcheck.out; \
	  ./build-aux/test-summary $(BUILD)/meson-logs/memcheck-valgrind.json \
	    > $(BUILD)/memcheck-summary.out; summary=$$?; \
	  cat $(BUILD)/memcheck-summary.out; \
	  failed=$$(python3 -c 'import json, sys; print(" ".join(t["name"] \
	    for t in map(json.loads, open(sys.argv[1])) \
	    if t["result"] not in ("OK", "SKIP")))' \
	    $(BUILD)/meson-logs/memcheck-valgrind.json); \
	  if [ -n "$$failed" ]; then \
	    echo "memcheck: again with --track-origins=yes: $$failed"; \
	    G_SLICE=always-malloc meson test -C $(BUILD) --logbase memcheck-origins \
	      --timeout-multiplier 20 --print-errorlogs \
	      --wrapper "$(VALGRIND_ORIGINS)" $$failed \
	      > $(BUILD)/memcheck-origins.out 2>&1; \
	    echo "memcheck: its log: $(BUILD)/meson-logs/memcheck-origins-valgrind.txt"; \
	  fi; \
	  if [ -n "$(SUMMARY_FILE)" ]; then \
	    tail -n 1 $(BUILD)/memcheck-summary.out | sed 's/^/memcheck: /' >> "$(SUMMARY_FILE)"; \
	  fi; \
	  [ $$status -eq 0 ] && [ $$summary -eq 0 ]
