// The `combining` router kind: store-and-forward routers that merge every packet they
// receive into the set of origins they hold and send that whole set on the ports their
// table names for the round (sw/kinds/combining/tables.h; the all-to-all broadcast paper,
// "SF switching with packet combining"). Its file form, table sizes, lower bounds and
// scoreboard, and its routers on the ref engine; the SystemC and RTL routers register
// from tb/.
#include <optional>

#include <fmt/format.h>

#include "sw/report/draw.h"
#include "sw/core/algorithm.h"
#include "sw/kinds/combining/draw.h"
#include "sw/kinds/combining/engine.h"
#include "sw/engines/trace.h"
#include "sw/kinds/combining/tables.h"
#include "sw/topology/topology.h"
#include "sw/kinds/combining/scoreboard.h"

namespace fixroute {
namespace {

const RouterKindRegistrar combining_kind([] {
  RouterKind k;
  k.name = kCombiningKind;
  k.summary = "store-and-forward routers that combine: each send carries every origin the node has learnt";
  k.switching = "packet";
  k.combines = true;
  k.write = [](const Tables& t, const Topology&, const std::string& dir, TableForm form) {
    write_combining_tables(as_kind<CombiningTables>(t), dir, form);
  };
  k.load = [](const std::string& dir) -> std::shared_ptr<const Tables> {
    return std::make_shared<CombiningTables>(load_combining_tables(dir));
  };
  k.table_bits = [](const Tables& t, const Topology& topology) {
    return std::vector<int64_t>(static_cast<size_t>(topology.num_nodes()),
                                combining_table_bits(as_kind<CombiningTables>(t)));
  };
  k.bounds = [](const Tables& t, const Topology& topology, int) {
    return combining_gossip_bounds(topology, t.port_model);
  };
  k.score = [](const Tables& t, const Topology& topology, int, const Trace& trace) {
    return score_combining(topology, as_kind<CombiningTables>(t), as_kind<CombiningTrace>(trace).events);
  };
  k.online_score = [](const Tables& t, const Topology& topology, int, const std::string& trace_path, int) {
    return std::unique_ptr<OnlineScore>(std::make_unique<BoardOnlineScore<CombiningEvent, CombiningScoreboard>>(
        trace_path, topology, as_kind<CombiningTables>(t)));
  };
  // The routers' sets, merged twice over, and the scoreboard's own; a trace row at least per node.
  k.run_bytes = [](const Topology& topology, const DemandSize&, bool trace_kept) {
    const int64_t nodes = topology.num_nodes();
    return combining_sets_bytes(topology) * 3 / 2 +
           (trace_kept ? nodes * static_cast<int64_t>(sizeof(CombiningEvent)) : 0);
  };
  k.draw = [](const Problem& problem, const Tables& t, const std::string& title) {
    const CombiningTables& c = as_kind<CombiningTables>(t);
    return draw_combining_rounds(problem.topology, c,
                                 fmt::format("{}, {}: a period of {} round{}", with_construction(title, t),
                                             t.port_model.label(), c.rounds, c.rounds == 1 ? "" : "s"));
  };
  return k;
}());

const KindRoutersRegistrar combining_ref_routers(
    KindRouters::of(kCombiningKind, "ref").taking_faults().streaming().at_most(3e8).running(
        [](const Topology& topology, const Tables& t, const EngineOptions& options) {
          return combining_output(
              run_combining_ref(topology, as_kind<CombiningTables>(t), options),
              StepRecorder<CombiningEvent>::streams(options));
        }));

}  // namespace
}  // namespace fixroute
