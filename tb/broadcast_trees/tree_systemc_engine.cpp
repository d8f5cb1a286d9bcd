// The systemc engine's broadcast-tree runs: a TreeNetworkSc on the round bench
// (tb/round_bench_sc.h), the links recorded at every falling edge for the tables' rounds
// (sw/kinds/broadcast_trees/engine.h). One run per process.
#include "tb/round_bench_sc.h"
#include "sw/kinds/broadcast_trees/engine.h"
#include "sw/kinds/broadcast_trees/tables.h"
#include "systemc/broadcast_trees/fr_tree_router_sc.h"

namespace fixroute {

namespace {

const KindRoutersRegistrar systemc_trees(
    KindRouters::of(kBroadcastTreeKind, "systemc").taking_faults().at_most(1e7).running(
        [](const Topology& topology, const Tables& t, const EngineOptions& options) {
          check_tree_faults(options);
          return broadcast_tree_output(run_round_bench<TreeNetworkSc, TreeClockMonitor, TreeRun>(
              topology, as_kind<BroadcastTreeTables>(t), options));
        }));

}  // namespace

}  // namespace fixroute
