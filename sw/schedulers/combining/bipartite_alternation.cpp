// Two-colour alternation on bipartite networks (the all-to-all broadcast paper, all-port
// half-duplex combining, Lemma: G bipartite => t_AAB <= D+1): in odd rounds the nodes of
// colour 0 send on every port, in even rounds those of colour 1. Colours alternate along
// every path, so an origin of colour 0 moves a hop every round from round 1, one of colour
// 1 from round 2: a node at distance d learns it in round d or d+1.
#include <algorithm>

#include "sw/core/formulas.h"
#include "sw/schedulers/combining.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {

const AlgorithmRegistrar bipartite_alternation([] {
  Algorithm a = combining_algorithm("bipartite-alternation",
                                    "combining gossip, all-port half-duplex bipartite networks: the two colours send in "
                                    "turn, <= D+1 rounds (AAB paper, SF combining, all-port half-duplex lemma)");
  a.unsupported = [](const Problem& p) -> std::string {
    if (!is_bipartite(p.topology)) return "the network is not bipartite (it has an odd cycle)";
    return combining_model_refusal(p.port_model, "all-port", "half");
  };
  a.is_default = [](const Problem& p) {
    return !(p.topology.kind() == TopologyKind::Hypercube && p.topology.dims()[0] >= 4);  // orientation: n rounds
  };
  a.formula = [](const Problem& p) -> std::optional<int64_t> {
    int64_t eccentricity[2] = {0, 0};
    const std::vector<int> colour = two_colouring(p.topology);
    for (int n = 0; n < p.topology.num_nodes(); ++n) {
      int64_t& e = eccentricity[colour[static_cast<size_t>(n)]];
      e = std::max<int64_t>(e, p.topology.eccentricity(n));
    }
    return formulas::combining_bipartite_alternation(eccentricity[0], eccentricity[1]);
  };
  a.paper_formula = [](const Problem& p) -> std::optional<int64_t> { return p.topology.diameter() + 1; };
  a.build = [](const Problem& p) {
    CombiningTables t = empty_combining_tables(p.topology, 2);
    const std::vector<int> colour = two_colouring(p.topology);
    for (int n = 0; n < p.topology.num_nodes(); ++n) {
      uint16_t all = 0;
      for (int q = 0; q < p.topology.num_ports(); ++q)
        if (p.topology.neighbour(n, q) >= 0) all = static_cast<uint16_t>(all | (1u << q));
      t.send[static_cast<size_t>(n) * 2 + static_cast<size_t>(colour[static_cast<size_t>(n)])] = all;
    }
    return finish_combining_tables(std::move(t), p, "bipartite-alternation");
  };
  a.sweep = [](int max_size) {
    std::vector<std::string> specs;
    for (const std::string& s : joined({combining_lines(max_size), combining_rings(max_size), combining_meshes(),
                                        combining_tori(), combining_hypercubes(), combining_irregular()}))
      if (is_bipartite(Topology::parse(s))) specs.push_back(s);
    return combining_cases(specs, PortModel{false, true});
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
