// Simulated router-steps per second of the engines on the same work.
// Run: build/bench/bench_engines   (figures and machine go to docs/benchmarks.md)
#include <benchmark/benchmark.h>

#include <systemc>  // declares sc_main with the C linkage libsystemc calls

#include "sw/algorithms/registry.h"
#include "sw/ref_engine.h"
#include "sw/topology.h"

namespace {

void BM_RefTotalExchange(benchmark::State& state, const char* spec) {
  using namespace fixroute;
  Topology topo = Topology::parse(spec);
  NetworkTables tables = build_tables(find_algorithm("total-exchange", "", topo), topo, PortModel{});
  int64_t router_steps = 0;
  for (auto _ : state) {
    EngineResult r = run_ref_engine(topo, tables, {});
    benchmark::DoNotOptimize(r.trace.data());
    router_steps += r.steps_simulated * topo.num_nodes();
  }
  state.counters["router_steps_per_s"] = benchmark::Counter(static_cast<double>(router_steps), benchmark::Counter::kIsRate);
}

BENCHMARK_CAPTURE(BM_RefTotalExchange, line64, "line:64")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_RefTotalExchange, ring64, "ring:64")->Unit(benchmark::kMillisecond);

}  // namespace

// libsystemc provides main() and calls sc_main().
int sc_main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
