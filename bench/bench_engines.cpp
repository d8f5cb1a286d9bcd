// Simulated router-steps per second of the three engines on the same work: total
// exchange (the default algorithm) on line:64 and ring:64 (ref, systemc) and on the
// largest verilated line and ring (all three). Figures and machine: docs/benchmarks.md.
//
// SystemC elaborates once per process, so each SystemC benchmark needs its own process:
// `make bench` runs this binary once per SystemC case with --benchmark_filter.
#include <benchmark/benchmark.h>

#include <memory>
#include <systemc>  // declares sc_main with the C linkage libsystemc calls

#include "sw/algorithms/registry.h"
#include "sw/topology.h"
#include "tb/rtl_engine.h"
#include "tb/systemc_bench.h"
#include "tb/systemc_support.h"

namespace {

using namespace fixroute;

struct Work {
  Topology topology;
  NetworkTables tables;
  explicit Work(const char* spec)
      : topology(Topology::parse(spec)),
        tables(build_tables(find_algorithm("total-exchange", "", topology), topology, PortModel{})) {}
};

void report(benchmark::State& state, const Work& w, int64_t steps, int64_t runs) {
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["router_steps_per_s"] = benchmark::Counter(
      static_cast<double>(steps * w.topology.num_nodes() * runs), benchmark::Counter::kIsRate);
}

void BM_Ref(benchmark::State& state, const char* spec) {
  Work w(spec);
  int64_t steps = 0, runs = 0;
  for (auto _ : state) {
    EngineResult r = run_ref_engine(w.topology, w.tables, {});
    benchmark::DoNotOptimize(r.trace.data());
    steps = r.steps_simulated;
    ++runs;
  }
  report(state, w, steps, runs);
}

// Each iteration constructs the verilated model and loads the tables through the
// configuration port (not measured), then runs the collective (measured).
void BM_Rtl(benchmark::State& state, const char* spec) {
  Work w(spec);
  const RtlModelInfo& model = find_rtl_model(w.topology);
  const std::vector<std::vector<uint32_t>> images = rtl_images(model, w.topology, w.tables);
  int64_t steps = 0, runs = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<RtlDriver> rtl = model.make(model);
    rtl_reset_and_load(*rtl, images);
    rtl->tick();
    state.ResumeTiming();
    EngineResult r = rtl_run_loaded(*rtl, model, w.topology);
    benchmark::DoNotOptimize(r.trace.data());
    steps = r.steps_simulated;
    ++runs;
  }
  report(state, w, steps, runs);
}

// Elaborates once (not measured), then each iteration resets the network and runs it.
void BM_Systemc(benchmark::State& state, const char* spec) {
  static std::unique_ptr<Work> work;
  static std::unique_ptr<SystemcBench> bench;
  if (!bench) {
    work = std::make_unique<Work>(spec);
    claim_systemc_elaboration();
    bench = std::make_unique<SystemcBench>("bench", work->topology, work->tables, true);
  } else if (work->topology.spec() != Topology::parse(spec).spec()) {
    state.SkipWithError("SystemC elaborates once per process: run each SystemC case alone (--benchmark_filter)");
    return;
  }
  int64_t steps = 0, runs = 0;
  for (auto _ : state) {
    EngineResult r = bench->run();
    benchmark::DoNotOptimize(r.trace.data());
    steps = r.steps_simulated;
    ++runs;
  }
  report(state, *work, steps, runs);
}

BENCHMARK_CAPTURE(BM_Ref, line64, "line:64")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Ref, ring64, "ring:64")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Ref, line33, "line:33")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Ref, ring33, "ring:33")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Rtl, line33, "line:33")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Rtl, ring33, "ring:33")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Systemc, line64, "line:64")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Systemc, ring64, "ring:64")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Systemc, line33, "line:33")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Systemc, ring33, "ring:33")->Unit(benchmark::kMillisecond);

}  // namespace

int sc_main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
