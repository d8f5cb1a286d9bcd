// Flooding: every node sends everything it knows on every port in every round (the
// all-to-all broadcast paper, "SF switching with packet combining", all-port full-duplex):
// an origin moves one hop per round along every shortest path, diam(G) rounds on any network.
#include "sw/schedulers/combining.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {

const AlgorithmRegistrar flooding([] {
  Algorithm a = combining_algorithm(
      "flooding", "combining gossip, all-port full-duplex: every port every round, diam(G) rounds (AAB paper, SF combining)");
  a.unsupported = [](const Problem& p) { return combining_model_refusal(p.port_model, "all-port", "full"); };
  a.is_default = [](const Problem&) { return true; };
  a.formula = [](const Problem& p) -> std::optional<int64_t> { return p.topology.diameter(); };
  a.build = [](const Problem& p) {
    CombiningTables t = empty_combining_tables(p.topology, 1);
    for (int n = 0; n < p.topology.num_nodes(); ++n)
      for (int q = 0; q < p.topology.num_ports(); ++q)
        if (p.topology.neighbour(n, q) >= 0) t.send[static_cast<size_t>(n)] |= static_cast<uint16_t>(1u << q);
    return finish_combining_tables(std::move(t), p, "flooding");
  };
  a.sweep = [](int max_size) {
    return combining_cases(joined({combining_lines(max_size), combining_rings(max_size), combining_meshes(),
                                   combining_tori(), combining_hypercubes(), combining_irregular()}),
                           PortModel{});
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
