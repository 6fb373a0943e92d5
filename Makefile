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
	  $(BUILD)/app/padlock-sop version; \
	fi

check: all
	@meson test -C $(BUILD) --print-errorlogs $(TESTS) > $(BUILD)/meson-test.out 2>&1; \
	  status=$$?; tail -n 25 $(BUILD)/meson-test.out; \
	  ./build-aux/test-summary $(BUILD)/meson-logs/testlog.json; \
	  summary=$$?; [ $$status -eq 0 ] && [ $$summary -eq 0 ]

bench: all
	./bench/run

clean:
	rm -rf $(BUILD)
