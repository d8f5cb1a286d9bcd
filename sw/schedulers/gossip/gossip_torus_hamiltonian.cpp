// Gossip on a 2D torus along two edge-disjoint Hamiltonian cycles, 2 packets per node
// (gossip paper, section 2). Each router's table is time-independent: a packet arriving
// on one port of a pair leaves on the other (O(degree) entries), plus its own two packets.
// Every node sends its packet k round cycle k in both directions, floor(P/2) hops one
// way and floor((P-1)/2) the other, so each packet reaches the P-1 others exactly once
// and every arc carries one packet per step: floor(P/2) = ceil((P-1)/2) steps.
//
// Cycles: the paper's column-parity rule where it yields two Hamiltonian cycles (both
// sizes even, where the count equals Theorem 1), square switching otherwise (beyond the
// paper: full cycles on every size, one step under Theorem 1 when P is odd).
#include "sw/core/formulas.h"
#include "sw/schedulers/common.h"
#include "sw/schedulers/port_rules.h"
#include "torus_cycles.h"

namespace fixroute {
namespace {

std::string torus2d_only(const Topology& t) {
  return t.kind() == TopologyKind::Torus && t.dims().size() == 2 ? "" : "needs a 2D torus:AxB topology";
}

NetworkTables hamiltonian_two(const Topology& topo) {
  const torus_cycles::Decomposition d = torus_cycles::hamiltonian_decomposition(topo);
  NetworkTables t = scheduling::empty_tables(topo, "gossip", "hamiltonian-2", Discipline::Fifo);
  t.construction = d.construction;
  for (RouterTable& r : t.routers) {
    r.initial.reserve(4);  // its two packets, each both ways round its cycle
    for (int port = 0; port < 4; ++port)
      r.ports[static_cast<size_t>(port)].forward_mask = 1u << d.pairing[static_cast<size_t>(r.node)][static_cast<size_t>(port)];
  }
  const int n = topo.num_nodes();
  const int forward_hops = n / 2, backward_hops = (n - 1) / 2;
  const auto cycles = torus_cycles::trails(topo, d.pairing);
  for (int k = 0; k < 2; ++k)
    for (const auto& hop : cycles[static_cast<size_t>(k)]) {
      const int node = hop[0], out = hop[1];
      const int back = d.pairing[static_cast<size_t>(node)][static_cast<size_t>(out)];
      RouterTable& r = t.routers[static_cast<size_t>(node)];
      r.initial.push_back({out, Packet{node, kBroadcastDest, k, forward_hops}, 1});
      if (backward_hops > 0) r.initial.push_back({back, Packet{node, kBroadcastDest, k, backward_hops}, 1});
    }
  return t;
}

const AlgorithmRegistrar hamiltonian_two_registrar([] {
  Algorithm a;
  a.name = "hamiltonian-2";
  a.collective = "gossip";
  a.router_kind = kPortRulesKind;
  a.summary = "2 packets per node round two edge-disjoint Hamiltonian cycles, fixed port rules (gossip paper, section 2)";
  a.packets_per_node = 2;
  a.unsupported = on_topology(torus2d_only);
  a.is_default = [](const Problem&) { return true; };
  a.formula = all_port_only([](const Topology& t) { return formulas::gossip_hamiltonian_cycles(t.num_nodes()); });
  a.paper_formula = all_port_only(
      [](const Topology& t) { return formulas::gossip_torus_two_packets(t.dims()[0], t.dims()[1]); });
  a.build = port_rules_build(hamiltonian_two);
  a.sweep = [](int max_size) { return torus_2d_cases(max_size, false); };
  return a;
}());

}  // namespace
}  // namespace fixroute
