// TreeRouterSc: the broadcast-tree router in SystemC, cycle for cycle the behaviour of
// rtl/broadcast_trees/fr_tree_router.v (docs/broadcast-trees.md, "The routers"): it stores every packet it
// receives (a slot per origin; its own at reset); one round is one clock cycle. At each
// rising edge it stores what its neighbours sent in the last round, then sends, on each
// port, the packet its table's row for the next round names, if it holds it. After the
// last row it sends nothing. It sees only its ports, its table rows and its round counter.
#pragma once
#include <systemc>

#include <cstdint>
#include <vector>

#include "systemc/fr_link_wiring_sc.h"

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

  // Its round counter (rounds sent), and an event notified once its outputs hold a round's
  // sends: what a test bench's fault link (systemc/fr_fault_link_sc.h) reads of it.
  size_t round() const { return round_; }
  const sc_core::sc_event& sent() const { return sent_; }

 private:
  void on_clock();

  const int node_;
  const std::vector<int32_t> rows_;
  std::vector<bool> held_;
  size_t round_ = 0;  // rounds sent
  sc_core::sc_event sent_;
};

// The routers of a topology wired by its adjacency (systemc/fr_link_wiring_sc.h).
class TreeNetworkSc : public LinkedNetworkSc<TreeRouterSc, int> {
 public:
  // `faults` (optional, docs/faults.md): a packet a fault takes is not on link_valid and
  // not stored by its receiver.
  TreeNetworkSc(sc_core::sc_module_name name, const Topology& topology, const BroadcastTreeTables& tables,
                FaultInjector* faults = nullptr);
  int link_origin(int node, int port) const { return link_data(node, port); }
};

}  // namespace fixroute
