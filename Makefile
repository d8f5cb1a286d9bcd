# Front door: `make run` (the regression report) and `make test` (the whole suite).
# Both install missing Debian packages first, then configure and build.
BUILD   ?= build
JOBS    ?= 2
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release

.PHONY: all deps configure build run test check bench bench-scaling clean test-sanitize fuzz

all: build

deps:
	scripts/install-deps.sh

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

configure: deps $(BUILD)/CMakeCache.txt

# One pass: an edit of rtl/*.v re-configures and re-verilates first (rtl/CMakeLists.txt).
build: configure
	cmake --build $(BUILD) -j$(JOBS)

# The rows to results.csv, the HTML report to report/index.html.
run: build
	$(BUILD)/fixroute sweep --csv results.csv --report report

test: build
	ctest --test-dir $(BUILD) -j$(JOBS) --output-on-failure

# The quick loop: the tests labelled `unit` (no SystemC, RTL, co-simulation or slow ones).
check: build
	ctest --test-dir $(BUILD) -j$(JOBS) --output-on-failure -L unit

# One process for ref and rtl, one per SystemC case (SystemC elaborates once per process).
bench: build
	$(BUILD)/bench/bench_engines --benchmark_filter='BM_(CrossCoreRoundTrip|StepThreadsPhase|Ref|Rtl|XbarRef|XbarRtl|GossipSchedule|GossipRef)'
	for c in line64 ring64 line33 ring33 torus8x8_gossip torus16x16_gossip torus32x32_gossip; do $(BUILD)/bench/bench_engines --benchmark_filter="BM_Systemc/$$c\$$"; done

# How the cost grows with the network (docs/benchmarks.md): torus gossip on the three
# engines, medians of 3, results as JSON in $(BUILD)/bench-scaling/, drawn into SCALING_SVG.
SCALING_SVG ?= docs/benchmark-scaling.svg
SCALING_RUN = --benchmark_repetitions=3 --benchmark_report_aggregates_only=true --benchmark_out_format=json
bench-scaling: build
	rm -rf $(BUILD)/bench-scaling && mkdir -p $(BUILD)/bench-scaling
	$(BUILD)/bench/bench_engines $(SCALING_RUN) --benchmark_out=$(BUILD)/bench-scaling/ref-rtl.json \
	  --benchmark_filter='BM_(RefVerified|Rtl)/torus(8x8|16x16|32x32|64x64|128x128)_gossip(/|$$)'
	for c in torus8x8_gossip torus16x16_gossip torus32x32_gossip; do $(BUILD)/bench/bench_engines $(SCALING_RUN) \
	  --benchmark_out=$(BUILD)/bench-scaling/systemc-$$c.json --benchmark_filter="BM_Systemc/$$c\$$"; done
	$(BUILD)/bench/bench_plot $(SCALING_SVG) $(BUILD)/bench-scaling/*.json

# Everything but the verilated models built with AddressSanitizer and UndefinedBehaviorSanitizer,
# running the unit, cosim and fuzz labels (docs/fuzzing.md).
SANITIZE_BUILD ?= build-sanitize
test-sanitize: deps
	cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFIXROUTE_SANITIZE=ON
	cmake --build $(SANITIZE_BUILD) -j$(JOBS)
	ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(SANITIZE_BUILD) -j$(JOBS) --output-on-failure -L 'unit|cosim|fuzz'

# The fuzz targets under clang's libFuzzer, FUZZ_RUNS inputs each (FUZZ_MAX_SECONDS: at most that long; docs/fuzzing.md).
FUZZ_BUILD ?= build-fuzz
FUZZ_RUNS ?= 10000000
fuzz:
	scripts/install-deps.sh fuzz
	CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFIXROUTE_LIBFUZZER=ON -DFIXROUTE_WERROR=OFF
	cmake --build $(FUZZ_BUILD) -j$(JOBS) --target fuzz_topology_spec fuzz_permutation fuzz_table_dir fuzz_cli
	scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_RUNS)

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD) $(FUZZ_BUILD) results.csv report
