// What every engine of the broadcast-tree routers returns (ref here; SystemC and RTL in
// systemc/, rtl/ and tb/): the broadcast-tree trace of docs/trace-format.md
// (`step,node,port,to,origin`: one row per packet sent), and the clock monitor the hardware
// harnesses share. A run lasts the tables' rounds, one round per clock on the hardware.
#pragma once
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "sw/core/event_trace.h"
#include "sw/core/router_kind.h"
#include "sw/topology/topology.h"

namespace fixroute {

struct BroadcastTreeTables;

struct TreeEvent {
  int64_t step = 0;
  int node = 0;
  int port = 0;
  int to = 0;
  int origin = 0;
  static constexpr const char* kCsvHeader = "step,node,port,to,origin";
  auto fields() const { return std::tie(step, node, port, to, origin); }
  bool operator==(const TreeEvent& o) const { return same_fields(*this, o); }
  bool operator<(const TreeEvent& o) const {
    return step != o.step ? step < o.step : node != o.node ? node < o.node : port < o.port;
  }
};

struct TreeRun : RunStats {
  std::vector<TreeEvent> trace;  // sorted
};

// Injected faults (docs/faults.md), one rule on every engine: a packet sent in round R from
// A to B arrives unless FaultInjector::arrives(R, A, B, origin, kBroadcastDest, 0) says a
// fault takes it (then no row, not stored); a stuck router's sends and what is sent to it
// are taken. Flips have nothing to flip here: InputError.
void check_tree_faults(const EngineOptions& options);

// The reference engine: in round r every router sends, on each port, the packet its row
// names if it holds it; then every router stores what reached it.
TreeRun run_broadcast_trees_ref(const Topology& topology, const BroadcastTreeTables& tables,
                                const EngineOptions& options = {});

// What the hardware harnesses (SystemC, RTL) do after every clock edge: the edge put one
// round's packets on the links; they are recorded until the tables' rounds have passed.
// `Network` answers link_valid(node, port) and link_origin(node, port).
class TreeClockMonitor {
 public:
  TreeClockMonitor(const Topology& topology, int rounds) : topology_(topology), rounds_(rounds) {}
  bool finished() const { return round_ >= rounds_; }
  template <class Network>
  void clock_edge(const Network& network);
  void finish(TreeRun& run);

 private:
  const Topology& topology_;
  int64_t rounds_;
  int64_t round_ = 0;
  std::vector<TreeEvent> trace_;
};

using BroadcastTreeTrace = EventTrace<TreeEvent>;
EngineOutput broadcast_tree_output(TreeRun run);

template <class Network>
void TreeClockMonitor::clock_edge(const Network& network) {
  ++round_;
  for (int i = 0; i < topology_.num_nodes(); ++i)
    for (int q = 0; q < topology_.num_ports(); ++q)
      if (network.link_valid(i, q)) trace_.push_back({round_, i, q, topology_.neighbour(i, q), network.link_origin(i, q)});
}

}  // namespace fixroute
