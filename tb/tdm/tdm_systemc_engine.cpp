// The systemc engine's runs of TDM routers: a TdmNetworkSc on the round bench
// (tb/round_bench_sc.h), one slot per clock, the links and ejections recorded at every
// falling edge for the run's slots (TdmClockMonitor, sw/kinds/tdm/engine.h). One run per process.
#include "sw/kinds/tdm/engine.h"
#include "sw/kinds/tdm/tables.h"
#include "systemc/tdm/fr_tdm_router_sc.h"
#include "tb/round_bench_sc.h"
#include "tb/tdm/tdm_sc_monitor.h"

namespace fixroute {

namespace {

const KindRoutersRegistrar systemc_tdm(KindRouters::of(kTdmKind, "systemc").taking_faults().at_most(1e7).running(
    [](const Topology& topology, const Tables& t, const EngineOptions& options) {
      check_tdm_faults(options);
      return engine_output<TdmTrace>(
          run_round_bench<TdmNetworkSc, TdmScMonitor, TdmRun>(topology, as_kind<TdmTables>(t), options));
    }));

}  // namespace

}  // namespace fixroute
