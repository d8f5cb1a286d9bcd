# Front door: `make run` (the regression report) and `make test` (the whole suite).
# Both install missing Debian packages first, then configure and build.
BUILD   ?= build
JOBS    ?= 2
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release

.PHONY: all deps configure build run test check bench clean

all: build

deps:
	scripts/install-deps.sh

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

configure: deps $(BUILD)/CMakeCache.txt

# One pass: an edit of rtl/*.v re-configures and re-verilates first (rtl/CMakeLists.txt).
build: configure
	cmake --build $(BUILD) -j$(JOBS)

run: build
	$(BUILD)/fixroute sweep --csv results.csv

test: build
	ctest --test-dir $(BUILD) -j$(JOBS) --output-on-failure

# The quick loop: the tests labelled `unit` (no SystemC, RTL, co-simulation or slow ones).
check: build
	ctest --test-dir $(BUILD) -j$(JOBS) --output-on-failure -L unit

# One process for ref and rtl, one per SystemC case (SystemC elaborates once per process).
bench: build
	$(BUILD)/bench/bench_engines --benchmark_filter='BM_(Ref|Rtl|XbarRef|XbarRtl|GossipSchedule|GossipRef)'
	for c in line64 ring64 line33 ring33; do $(BUILD)/bench/bench_engines --benchmark_filter="BM_Systemc/$$c\$$"; done

clean:
	rm -rf $(BUILD) results.csv
