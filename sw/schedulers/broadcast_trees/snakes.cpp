// Four rotated snakes (the all-to-all broadcast paper, "2D tori": "The B(*) consists of 4
// snakes of size (z1 z2 - 1)/4, which are rotations of the same pattern and which cover
// completely the whole torus"; Figure "Two different TADBTs in T(7,7)"). On T(z,z), z = 2k+1,
// seen centred at the root: the quarter x in 1..k, y in 0..k is one snake, walked column
// by column from (1,0), up and down in turn; turning it by 90 degrees three times covers
// the other quarters. Arc i of every snake is in round i, and the four turned copies of a
// direction are the four directions: each round's arcs are of distinct directions.
// Bufferless: every node sends the packet on in the round after it arrives.
#include <fmt/format.h>

#include "sw/core/formulas.h"
#include "sw/schedulers/broadcast_trees.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {

bool odd_square_torus(const Topology& t) {
  return t.kind() == TopologyKind::Torus && t.dims().size() == 2 && t.dims()[0] == t.dims()[1] && t.dims()[0] % 2 == 1;
}

std::vector<GenericArc> snakes(const Topology& topology) {
  const int z = topology.dims()[0], k = (z - 1) / 2;
  auto id = [&](int x, int y) { return ((x % z + z) % z) * z + ((y % z + z) % z); };
  // Ports of the directions +x, -x (dimension 0) and +y, -y (dimension 1).
  auto port = [](int dx, int dy) { return dx == 1 ? 0 : dx == -1 ? 1 : dy == 1 ? 2 : 3; };
  std::vector<std::pair<int, int>> path = {{0, 0}};
  for (int x = 1; x <= k; ++x)
    for (int i = 0; i <= k; ++i) path.push_back({x, x % 2 == 1 ? i : k - i});
  std::vector<GenericArc> arcs;
  for (int turn = 0; turn < 4; ++turn) {
    auto rotate = [turn](std::pair<int, int> p) {
      for (int r = 0; r < turn; ++r) p = {-p.second, p.first};
      return p;
    };
    for (size_t i = 1; i < path.size(); ++i) {
      const auto a = rotate(path[i - 1]), b = rotate(path[i]);
      arcs.push_back({static_cast<int>(i), port(b.first - a.first, b.second - a.second), id(a.first, a.second),
                      id(b.first, b.second)});
    }
  }
  return arcs;
}

const AlgorithmRegistrar snakes_registrar([] {
  Algorithm a = broadcast_tree_algorithm(
      "snakes", "gossip without combining on T(z,z), z odd: four rotated snakes as the generic time-arc-disjoint "
                "tree, (z^2-1)/4 rounds, no buffers (AAB paper, all-port full-duplex, 2D tori)");
  a.unsupported = [](const Problem& p) -> std::string {
    if (!odd_square_torus(p.topology)) return "the four snakes cover a square torus of odd side, torus:ZxZ";
    return all_port_full_refusal(p.port_model);
  };
  a.formula = [](const Problem& p) -> std::optional<int64_t> { return formulas::tadbt_odd_square_torus(p.topology.dims()[0]); };
  a.paper_buffers = [](const Problem&) { return std::optional<int64_t>{0}; };  // section 3: memory optimal
  a.build = [](const Problem& p) { return generic_tree_tables(p, "snakes", "four rotated snakes", snakes(p.topology)); };
  a.sweep = [](int max_size) {
    std::vector<SweepCase> out;
    for (int z = 3; z <= std::min(max_size, 15); z += 2) out.push_back({fmt::format("torus:{}x{}", z, z), {}, ""});
    return out;
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
