// The systemc engine's runs of summing routers: a SumNetworkSc on the round bench
// (tb/round_bench_sc.h), the links recorded at every falling edge for the tables' rounds
// and the answers read one edge later (SumClockMonitor, sw/kinds/combining_sum/engine.h).
// One run per process.
#include "tb/round_bench_sc.h"
#include "sw/kinds/combining_sum/engine.h"
#include "sw/kinds/combining_sum/tables.h"
#include "systemc/combining_sum/fr_sum_router_sc.h"

namespace fixroute {

namespace {

const KindRoutersRegistrar systemc_sums(
    KindRouters::of(kCombiningSumKind, "systemc").taking_faults().at_most(1e7).running(
        [](const Topology& topology, const Tables& t, const EngineOptions& options) {
          check_sum_faults(options);
          return combining_sum_output(run_round_bench<SumNetworkSc, SumClockMonitor, CombiningSumRun>(
              topology, as_kind<CombiningSumTables>(t), options));
        }));

}  // namespace

}  // namespace fixroute
