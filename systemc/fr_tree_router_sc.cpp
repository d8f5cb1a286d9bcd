#include "fr_tree_router_sc.h"

#include <fmt/format.h>

#include "fr_link_wiring_sc.h"
#include "sw/tables/broadcast_tree_tables.h"
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
}

TreeNetworkSc::TreeNetworkSc(sc_core::sc_module_name name, const Topology& topology, const BroadcastTreeTables& tables)
    : sc_core::sc_module(name),
      nodes_(topology.num_nodes()),
      ports_(topology.num_ports()),
      routers_("router", static_cast<size_t>(nodes_),
               [&](const char* n, size_t i) {
                 return new TreeRouterSc(n, static_cast<int>(i), tables.nodes, tables.ports,
                                         tables.router_rows(static_cast<int>(i)));
               }),
      link_valid_("link_valid", static_cast<size_t>(nodes_) * static_cast<size_t>(ports_)),
      link_data_("link_data", static_cast<size_t>(nodes_) * static_cast<size_t>(ports_)) {
  for (TreeRouterSc& r : routers_) {
    r.clk(clk);
    r.reset(reset);
  }
  wire_links_sc(topology, routers_, link_valid_, link_data_, no_valid_, no_data_);
}

void TreeNetworkSc::trace(sc_core::sc_trace_file* file) const {
  for (size_t i = 0; i < link_valid_.size(); ++i) {
    const std::string at = fmt::format("{}_{}", i / static_cast<size_t>(ports_), i % static_cast<size_t>(ports_));
    sc_core::sc_trace(file, link_valid_[i], "link_valid_" + at);
    sc_core::sc_trace(file, link_data_[i], "link_origin_" + at);
  }
}

}  // namespace fixroute
