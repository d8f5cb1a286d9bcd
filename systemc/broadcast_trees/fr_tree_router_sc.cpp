#include "systemc/broadcast_trees/fr_tree_router_sc.h"

#include "sw/core/faults.h"
#include "sw/kinds/broadcast_trees/tables.h"
#include "sw/kinds/port_rules/tables.h"
#include "sw/topology/topology.h"

namespace fixroute {

TreeRouterSc::TreeRouterSc(sc_core::sc_module_name name, int node, int nodes, int ports, std::vector<int32_t> rows)
    : sc_core::sc_module(name),
      in_valid("in_valid", static_cast<size_t>(ports)),
      in_data("in_data", static_cast<size_t>(ports)),
      out_valid("out_valid", static_cast<size_t>(ports)),
      out_data("out_data", static_cast<size_t>(ports)),
      node_(node),
      rows_(std::move(rows)),
      held_(static_cast<size_t>(nodes)) {
  SC_HAS_PROCESS(TreeRouterSc);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

void TreeRouterSc::on_clock() {
  const size_t ports = in_valid.size();
  if (reset.read()) {
    std::fill(held_.begin(), held_.end(), false);
    held_[static_cast<size_t>(node_)] = true;
    round_ = 0;
    for (size_t p = 0; p < ports; ++p) out_valid[p].write(false);
    return;
  }
  // What the neighbours sent in the last round is stored...
  for (size_t p = 0; p < ports; ++p)
    if (in_valid[p].read()) held_[static_cast<size_t>(in_data[p].read())] = true;
  // ...and the next round's row says what goes out on each port.
  const bool rows_left = (round_ + 1) * ports <= rows_.size();
  for (size_t p = 0; p < ports; ++p) {
    const int32_t origin = rows_left ? rows_[round_ * ports + p] : kNoSend;
    const bool send = origin != kNoSend && held_[static_cast<size_t>(origin)];
    out_valid[p].write(send);
    if (send) out_data[p].write(origin);
  }
  if (rows_left) ++round_;
  sent_.notify(sc_core::SC_ZERO_TIME);  // once the writes are seen
}

TreeNetworkSc::TreeNetworkSc(sc_core::sc_module_name name, const Topology& topology, const BroadcastTreeTables& tables,
                             FaultInjector* faults)
    : LinkedNetworkSc(
          name, topology,
          [&](const char* n, int node) {
            return new TreeRouterSc(n, node, tables.nodes, tables.ports, tables.router_rows(node));
          },
          "link_origin_",
          faults && faults->any() ? RoundLoss<int>([faults](int64_t round, int from, int to, const int& origin, bool record) {
            return record ? !faults->arrives(round, from, to, origin, kBroadcastDest, 0) : faults->loses(round, from, to);
          })
                                  : RoundLoss<int>(),
          RecordLoss::AtSend) {}

}  // namespace fixroute
