// The `broadcast-trees` router kind: store-and-forward routers for all-to-all broadcast
// without combining, each packet sent on down its origin's broadcast tree by a table of
// rounds x ports naming the packet to send (sw/kinds/broadcast_trees/tables.h; the
// all-to-all broadcast paper, "All-port full-duplex model" and after). Its file form,
// table sizes, lower bounds and scoreboard, and its routers on the ref engine; the
// SystemC and RTL routers register from tb/.
#include <fmt/format.h>

#include "sw/report/draw.h"
#include "sw/core/algorithm.h"
#include "sw/kinds/broadcast_trees/draw.h"
#include "sw/kinds/broadcast_trees/engine.h"
#include "sw/kinds/broadcast_trees/tables.h"
#include "sw/topology/topology.h"
#include "sw/kinds/broadcast_trees/scoreboard.h"

namespace fixroute {
namespace {

const RouterKindRegistrar broadcast_tree_kind([] {
  RouterKind k;
  k.name = kBroadcastTreeKind;
  k.summary = "store-and-forward routers that send each packet on down its origin's broadcast tree, by round and port";
  k.switching = "packet";
  k.write = [](const Tables& t, const Topology& topology, const std::string& dir, TableForm form) {
    write_broadcast_tree_tables(as_kind<BroadcastTreeTables>(t), topology, dir, form);
  };
  k.load = [](const std::string& dir) -> std::shared_ptr<const Tables> {
    return std::make_shared<BroadcastTreeTables>(load_broadcast_tree_tables(dir));
  };
  k.table_bits = [](const Tables& t, const Topology& topology) {
    return std::vector<int64_t>(static_cast<size_t>(topology.num_nodes()),
                                broadcast_tree_table_bits(as_kind<BroadcastTreeTables>(t)));
  };
  k.shared_table_bits = [](const Tables& t) { return generic_table_bits(as_kind<BroadcastTreeTables>(t)); };
  k.bounds = [](const Tables& t, const Topology& topology, int) {
    Bounds b = all_to_all_bounds(topology, t.port_model);
    if (const int proven = as_kind<BroadcastTreeTables>(t).exact_lower_bound; proven > 0)
      b.parts.push_back({"exact search", proven,
                         fmt::format("no schedule of these routers gossips in {} rounds (SAT, trees-exact)", proven - 1)});
    return b;
  };
  k.score = [](const Tables& t, const Topology& topology, int, const Trace& trace) {
    return score_broadcast_trees(topology, as_kind<BroadcastTreeTables>(t), as_kind<BroadcastTreeTrace>(trace).events);
  };
  // The scoreboard's arrival and send rounds per node and origin; a trace row per reception.
  k.least_trace_rows = [](const Topology& topology, const DemandSize& demand) {
    return demand.receptions(topology.num_nodes());  // a crossing per reception at the least
  };
  k.run_bytes = [](const Topology& topology, const DemandSize& demand, bool trace_kept) {
    const int64_t nodes = topology.num_nodes();
    return broadcast_tree_scoreboard_bytes(nodes) +
           (trace_kept ? demand.receptions(nodes) * static_cast<int64_t>(sizeof(TreeEvent)) : 0);
  };
  k.draw = [](const Problem& problem, const Tables& t, const std::string& title) {
    const BroadcastTreeTables& trees = as_kind<BroadcastTreeTables>(t);
    return draw_generic_tree(problem.topology, trees,
                             fmt::format("{}: generic tree of {} rounds", with_construction(title, t), trees.rounds));
  };
  return k;
}());

const KindRoutersRegistrar broadcast_trees_ref_routers(KindRouters::of(kBroadcastTreeKind, "ref").taking_faults().at_most(3e8).running(
    [](const Topology& topology, const Tables& t, const EngineOptions& options) {
      return broadcast_tree_output(
          run_broadcast_trees_ref(topology, as_kind<BroadcastTreeTables>(t), options));
    }));

}  // namespace
}  // namespace fixroute
