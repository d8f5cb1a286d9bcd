// Full duplex simulated on half-duplex links (the all-to-all broadcast paper, all-port
// half-duplex combining: "half-duplex channels can simulate full-duplex channels with
// slowdown two", t_AAB <= 2 diam(G)): in odd rounds every node sends on its ports in the
// + direction of each dimension (a hypercube node across the dimensions where its bit is
// 0), in even rounds on the others, so each link carries one way per round. Networks
// without dimensions (complete graphs, swapped networks) orient each link towards the
// larger node id: a hop waits at most one round, <= 2 diam(G) still.
#include "sw/core/formulas.h"
#include "sw/schedulers/combining.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {

const AlgorithmRegistrar duplex_simulation([] {
  Algorithm a = combining_algorithm("duplex-simulation",
                                    "combining gossip, all-port half-duplex, any network: + ports in odd rounds, - ports "
                                    "in even rounds, <= 2 diam(G) (AAB paper, SF combining, all-port half-duplex)");
  a.unsupported = [](const Problem& p) { return combining_model_refusal(p.port_model, "all-port", "half"); };
  a.is_default = [](const Problem& p) { return !is_bipartite(p.topology); };
  // Exact where a pair of nodes must move against the + direction all the way: the
  // opposite corners of a line or mesh, 1...1 and 0...0 of a hypercube (every path between
  // them takes at least D - hops, each in its own even round), and an odd ring (min(2a-1,
  // 2(z-a)) over the a + hops of the shorter way round). An even ring's antipodes are
  // z/2 + hops apart: 2D-1. A complete graph: every pair one hop, up in round 1, down in
  // round 2. Tori, swapped networks and graph files: measured against the lemma's 2D.
  a.formula = [](const Problem& p) -> std::optional<int64_t> {
    const int64_t bound = formulas::combining_duplex_simulation(p.topology.diameter());
    switch (p.topology.kind()) {
      case TopologyKind::Torus:
      case TopologyKind::Biswapped:
      case TopologyKind::Swapped:
      case TopologyKind::Graph: return std::nullopt;
      case TopologyKind::Ring: return p.topology.num_nodes() % 2 == 0 ? bound - 1 : bound;
      default: return bound;
    }
  };
  a.paper_formula = [](const Problem& p) -> std::optional<int64_t> {
    return formulas::combining_duplex_simulation(p.topology.diameter());
  };
  a.build = [](const Problem& p) {
    CombiningTables t = empty_combining_tables(p.topology, 2);
    if (!has_axes(p.topology)) {  // links oriented by node id: towards the larger in odd rounds
      for (int n = 0; n < p.topology.num_nodes(); ++n)
        for (int q = 0; q < p.topology.num_ports(); ++q)
          if (const int m = p.topology.neighbour(n, q); m >= 0)
            t.send[static_cast<size_t>(n) * 2 + (m > n ? 0u : 1u)] |= static_cast<uint16_t>(1u << q);
      return finish_combining_tables(std::move(t), p, "duplex-simulation");
    }
    const int axes = static_cast<int>(combining_axes(p.topology).size());
    for (int n = 0; n < p.topology.num_nodes(); ++n)
      for (int k = 0; k < axes; ++k)
        for (int row = 0; row < 2; ++row)
          if (const int port = axis_port(p.topology, n, k, row == 0 ? +1 : -1); port >= 0)
            t.send[static_cast<size_t>(n) * 2 + static_cast<size_t>(row)] |= static_cast<uint16_t>(1u << port);
    return finish_combining_tables(std::move(t), p, "duplex-simulation");
  };
  a.sweep = [](int max_size) {
    return combining_cases(joined({combining_lines(max_size), combining_rings(max_size), combining_meshes(),
                                   combining_tori(), combining_hypercubes(), combining_irregular()}),
                           PortModel{false, true});
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
