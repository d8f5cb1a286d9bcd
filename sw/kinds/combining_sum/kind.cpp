// The `combining-sum` router kind: the combining router with the sum rule. A router holds
// a few 64-bit registers instead of a set of origins; in each round it sends, on the ports
// its program names, the sum of the registers named, and adds what arrives into the
// registers named (sw/kinds/combining_sum/tables.h; broadcast, prefix sum and data sum of
// the biswapped-network paper, section 3). Its file form, table sizes, lower bounds and
// scoreboard, and its routers on the ref engine.
#include "sw/kinds/combining_sum/engine.h"
#include "sw/kinds/combining_sum/tables.h"
#include "sw/topology/topology.h"
#include "sw/kinds/combining_sum/scoreboard.h"

namespace fixroute {
namespace {

const RouterKindRegistrar combining_sum_kind([] {
  RouterKind k;
  k.name = kCombiningSumKind;
  k.summary = "store-and-forward routers that combine by addition: each send carries a sum of the router's registers";
  k.switching = "packet";
  k.write = [](const Tables& t, const Topology&, const std::string& dir, TableForm form) {
    write_combining_sum_tables(as_kind<CombiningSumTables>(t), dir, form);
  };
  k.load = [](const std::string& dir) -> std::shared_ptr<const Tables> {
    return std::make_shared<CombiningSumTables>(load_combining_sum_tables(dir));
  };
  k.table_bits = [](const Tables& t, const Topology& topology) {
    return std::vector<int64_t>(static_cast<size_t>(topology.num_nodes()),
                                combining_sum_table_bits(as_kind<CombiningSumTables>(t)));
  };
  k.bounds = [](const Tables& t, const Topology& topology, int) {
    return combining_sum_bounds(as_kind<CombiningSumTables>(t), topology);
  };
  // Registers per node, the routers' and the scoreboard's; a trace row at least per node.
  k.run_bytes = [](const Topology& topology, const DemandSize&, bool trace_kept) {
    const int64_t nodes = topology.num_nodes();
    return nodes * 2 * kMaxSumRegisters * static_cast<int64_t>(sizeof(uint64_t)) +
           (trace_kept ? nodes * static_cast<int64_t>(sizeof(SumEvent)) : 0);
  };
  k.score = [](const Tables& t, const Topology& topology, int, const Trace& trace) {
    const auto& run = as_kind<CombiningSumTrace>(trace);
    return score_combining_sum(topology, as_kind<CombiningSumTables>(t), run.events, run.answers);
  };
  return k;
}());

const KindRoutersRegistrar combining_sum_ref_routers(KindRouters::of(kCombiningSumKind, "ref").taking_faults().at_most(3e8).running(
    [](const Topology& topology, const Tables& t, const EngineOptions& options) {
      return combining_sum_output(
          run_combining_sum_ref(topology, as_kind<CombiningSumTables>(t), options));
    }));

}  // namespace
}  // namespace fixroute
