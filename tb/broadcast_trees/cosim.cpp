#include "cosim.h"

#include <fmt/format.h>

#include <memory>
#include <string>

#include "sw/kinds/broadcast_trees/engine.h"
#include "systemc/broadcast_trees/fr_tree_router_sc.h"
#include "tb/broadcast_trees/tree_rtl.h"
#include "tb/round_cosim.h"

namespace fixroute {

namespace {

struct TreeCosim {
  using Network = TreeNetworkSc;
  using Driver = TreeRtlDriver;
  using Monitor = TreeClockMonitor;
  using Run = TreeRun;
  static std::string router(const Network&, const Driver&, int) { return ""; }
  static bool same_data(const Network& sc, const Driver& rtl, int node, int port) {
    return sc.link_origin(node, port) == rtl.link_origin(node, port);
  }
  template <class Side>
  static std::string data(const Side& side, int node, int port) {
    return fmt::format("the packet of origin {}", side.link_origin(node, port));
  }
  static std::shared_ptr<const Trace> trace(Run run) { return std::make_shared<BroadcastTreeTrace>(std::move(run.trace)); }
};

}  // namespace

CosimReport run_tree_cosim(const Topology& topology, const BroadcastTreeTables& systemc_tables,
                           const BroadcastTreeTables& rtl_tables, const std::vector<Fault>& faults) {
  return run_round_cosim_of<TreeCosim>(topology, systemc_tables, faults, check_tree_faults,
                                       [&](RunStats& load) { return load_tree_rtl(topology, rtl_tables, "", load); });
}

namespace {

const KindCosimRegistrar tree_cosim({kBroadcastTreeKind, [](const Topology& topology, const Tables& tables,
                                                           const std::vector<Fault>& faults) {
                                       const BroadcastTreeTables& t = as_kind<BroadcastTreeTables>(tables);
                                       return run_tree_cosim(topology, t, t, faults);
                                     }});

}  // namespace

}  // namespace fixroute
