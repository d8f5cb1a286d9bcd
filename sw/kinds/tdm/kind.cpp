// The `tdm` router kind: bufferless routers that repeat a slot table of one period, each
// phit moving a hop a slot along the connections its slots set up (sw/kinds/tdm/tables.h,
// docs/tdm.md). Its file form, table sizes, period bounds and scoreboard, and its routers
// on the ref engine.
#include <fmt/format.h>

#include "sw/core/collectives.h"
#include "sw/engines/trace.h"
#include "sw/kinds/tdm/bounds.h"
#include "sw/kinds/tdm/engine.h"
#include "sw/kinds/tdm/scoreboard.h"
#include "sw/kinds/tdm/tables.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {

const RouterKindRegistrar tdm_kind([] {
  RouterKind k;
  k.name = kTdmKind;
  k.summary = "bufferless TDM routers: a slot table of one period connects inputs to outputs, a hop a slot";
  k.switching = "circuit";
  k.write = [](const Tables& t, const Topology&, const std::string& dir, TableForm form) {
    write_tdm_tables(as_kind<TdmTables>(t), dir, form);
  };
  k.load = [](const std::string& dir) -> std::shared_ptr<const Tables> {
    return std::make_shared<TdmTables>(load_tdm_tables(dir));
  };
  k.table_bits = [](const Tables& t, const Topology& topology) {
    return std::vector<int64_t>(static_cast<size_t>(topology.num_nodes()), tdm_table_bits(as_kind<TdmTables>(t)));
  };
  k.bounds = [](const Tables& t, const Topology& topology, int) {
    const TdmTables& tdm = as_kind<TdmTables>(t);
    Bounds b = tdm_period_bounds(topology, tdm.flows);
    if (tdm.exact_lower_bound > 0)
      b.parts.push_back({"exact search", tdm.exact_lower_bound,
                         fmt::format("no shortest-path schedule of period {} exists (SAT, tdm-exact)",
                                     tdm.exact_lower_bound - 1)});
    return b;
  };
  k.demand_bounds = [](const Topology& topology, const std::string& collective) {
    return tdm_period_bounds(topology, tdm_demand_flows(topology, collective));
  };
  // A period at least as long as the busiest node's injections: a slot word each per router.
  k.table_bytes = [](const Topology& topology, const DemandSize& demand) {
    const int64_t nodes = topology.num_nodes(), slots = (demand.packets() + nodes - 1) / std::max<int64_t>(nodes, 1);
    return nodes * std::max<int64_t>(slots, 1) * (topology.num_ports() + 1 + 4);
  };
  // A row per phit ejected in each period run, at the least.
  k.least_trace_rows = [](const Topology&, const DemandSize& demand) { return demand.packets() * kTdmPeriodsRun; };
  // The routers' inputs twice, the chains' arrivals, the trace where kept.
  k.run_bytes = [](const Topology& topology, const DemandSize& demand, bool trace_kept) {
    const int64_t inputs = int64_t{topology.num_nodes()} * topology.num_ports();
    return inputs * 16 + demand.packets() * (kTdmPeriodsRun * 8 + 16) +
           (trace_kept ? demand.packets() * kTdmPeriodsRun * static_cast<int64_t>(sizeof(TdmEvent)) : 0);
  };
  k.score = [](const Tables& t, const Topology& topology, int, const Trace& trace) {
    const std::vector<DemandPacket> demand = find_collective(t.collective).packets(topology, 1);
    return score_tdm(topology, as_kind<TdmTables>(t), demand, as_kind<TdmTrace>(trace).events);
  };
  k.online_score = [](const Tables& t, const Topology& topology, int, const std::string& trace_path, int) {
    const TdmTables& tdm = as_kind<TdmTables>(t);
    return std::unique_ptr<OnlineScore>(std::make_unique<BoardOnlineScore<TdmEvent, TdmScoreboard>>(
        trace_path, topology, tdm, find_collective(tdm.collective).packets(topology, 1)));
  };
  return k;
}());

const KindRoutersRegistrar tdm_ref_routers(KindRouters::of(kTdmKind, "ref").taking_faults().streaming().at_most(3e8).running(
    [](const Topology& topology, const Tables& t, const EngineOptions& options) {
      TdmRun run = run_tdm_ref(topology, as_kind<TdmTables>(t), options);
      const bool streamed = run.streamed;
      EngineOutput out = engine_output<TdmTrace>(std::move(run));
      out.streamed = streamed;
      return out;
    }));

}  // namespace
}  // namespace fixroute
