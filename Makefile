# SPDX-License-Identifier: BSD-3-Clause
# The two commands: `make demo` and `make check` (both install missing Debian
# packages first). Everything else is CMake underneath.
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc)
SAMPLES ?= $(or $(HPCDB_SAMPLE_DATA),$(CURDIR)/../shared/data)
export HPCDB_SAMPLE_DATA := $(SAMPLES)

.PHONY: all deps deps-browser build demo check test asan fuzz fuzz-cli fuzz-long crash-campaign bench clean install

all: build

deps:
	@scripts/deps.sh

# the tests drive Debian's chromium with playwright-core: `make check` installs them itself
deps-browser:
	@scripts/deps.sh --browser

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	@scripts/demo.sh $(BUILD) "$(SAMPLES)"

test: build deps-browser
	cd $(BUILD) && HPCDB_REQUIRE_BROWSER=1 ctest --output-on-failure -j $(JOBS)

asan: deps deps-browser
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DHPCDB_SANITIZE=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && HPCDB_REQUIRE_BROWSER=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --output-on-failure -j $(JOBS)

check: test asan

fuzz: deps
	CC=clang CXX=clang++ cmake -S . -B build-fuzz -DHPCDB_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build build-fuzz -j $(JOBS)

# The mutation campaign over the commands (fuzz/fuzz_cli.py): every sample,
# damaged at random, through every command of the ASan + UBSan build.
FUZZ_MINUTES ?= 60
FUZZ_OUT ?= campaign
fuzz-cli: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DHPCDB_SANITIZE=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS) --target hpcdb
	nice -n 19 python3 fuzz/fuzz_cli.py $(ASAN_BUILD)/hpcdb "$(SAMPLES)" $(FUZZ_OUT) --minutes $(FUZZ_MINUTES)

# The long libFuzzer campaign (fuzz/fuzz_long.sh): every target for a share of
# HOURS, the corpus minimised into fuzz/corpus/ (ctest replays it).
HOURS ?= 1
FUZZ_JOBS ?= 1
fuzz-long: fuzz
	fuzz/fuzz_long.sh build-fuzz $(HOURS) $(FUZZ_JOBS) $(FUZZ_OUT)-long

# kill -9 of every writer at random moments and at its crash points
# (fuzz/crash_campaign.py, docs/fuzzing.md); ctest's reliab/crash-points is a few.
CRASH_POINTS ?= 600
crash-campaign: build
	nice -n 10 python3 fuzz/crash_campaign.py $(BUILD)/hpcdb "$(SAMPLES)" $(BUILD)/crash-campaign --points $(CRASH_POINTS)

bench: build
	bench/run.sh $(BUILD)

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz
