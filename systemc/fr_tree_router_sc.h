// TreeRouterSc: the broadcast-tree router in SystemC, cycle for cycle the behaviour of
// rtl/fr_tree_router.v (docs/broadcast-trees.md, "The routers"): it stores every packet it
// receives (a slot per origin; its own at reset); one round is one clock cycle. At each
// rising edge it stores what its neighbours sent in the last round, then sends, on each
// port, the packet its table's row for the next round names, if it holds it. After the
// last row it sends nothing. It sees only its ports, its table rows and its round counter.
#pragma once
#include <systemc>

#include <cstdint>
#include <vector>

namespace fixroute {

class Topology;
struct BroadcastTreeTables;

class TreeRouterSc : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> reset;
  sc_core::sc_vector<sc_core::sc_in<bool>> in_valid;
  sc_core::sc_vector<sc_core::sc_in<int>> in_data;  // the packet's origin
  sc_core::sc_vector<sc_core::sc_out<bool>> out_valid;
  sc_core::sc_vector<sc_core::sc_out<int>> out_data;

  // `rows`: rounds x ports entries, an origin or kNoSend.
  TreeRouterSc(sc_core::sc_module_name name, int node, int nodes, int ports, std::vector<int32_t> rows);

 private:
  void on_clock();

  const int node_;
  const std::vector<int32_t> rows_;
  std::vector<bool> held_;
  size_t round_ = 0;  // rounds sent
};

// The routers of a topology wired by its adjacency (systemc/fr_link_wiring_sc.h).
class TreeNetworkSc : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> reset;

  TreeNetworkSc(sc_core::sc_module_name name, const Topology& topology, const BroadcastTreeTables& tables);

  bool link_valid(int node, int port) const { return link_valid_[link(node, port)].read(); }
  int link_origin(int node, int port) const { return link_data_[link(node, port)].read(); }
  void trace(sc_core::sc_trace_file* file) const;

 private:
  size_t link(int node, int port) const { return static_cast<size_t>(node) * static_cast<size_t>(ports_) + static_cast<size_t>(port); }
  const int nodes_, ports_;
  sc_core::sc_vector<TreeRouterSc> routers_;
  sc_core::sc_vector<sc_core::sc_signal<bool>> link_valid_;
  sc_core::sc_vector<sc_core::sc_signal<int>> link_data_;
  sc_core::sc_signal<bool> no_valid_;  // what a border input sees
  sc_core::sc_signal<int> no_data_;
};

}  // namespace fixroute
