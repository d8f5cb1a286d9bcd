// The systemc engine's combining runs: a CombiningNetworkSc on the round bench
// (tb/round_bench_sc.h), the links recorded at every falling edge and the stop rule of
// sw/kinds/combining/engine.h applied to the routers' `full` and `learnt`. One run per
// process.
#include "tb/round_bench_sc.h"
#include "sw/kinds/combining/engine.h"
#include "sw/kinds/combining/tables.h"
#include "systemc/combining/fr_combining_router_sc.h"

namespace fixroute {

namespace {

const KindRoutersRegistrar systemc_combining(
    KindRouters::of(kCombiningKind, "systemc").taking_faults().streaming().at_most(1e7).running(
        [](const Topology& topology, const Tables& t, const EngineOptions& options) {
          check_combining_run_size(topology);
          check_combining_faults(options);
          return combining_output(run_round_bench<CombiningNetworkSc, CombiningClockMonitor, CombiningRun>(
                                      topology, as_kind<CombiningTables>(t), options),
                                  StepRecorder<CombiningEvent>::streams(options));
        }));

}  // namespace

}  // namespace fixroute
