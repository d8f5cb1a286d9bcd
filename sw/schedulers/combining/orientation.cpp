// Flooding along an orientation (the all-to-all broadcast paper, all-port half-duplex
// combining: D <= t_AAB <= min(2D, D')): every link is given one direction and every node
// sends on its out-links in every round, so each link carries one way and the count is
// the oriented diameter D'.
//   hypercube:n  the G x K2 induction (Lemma; Corollary: diam(Q_n) = n for n >= 4): Q4's
//                orientation of diameter 4 with every node on a directed 4-cycle, then for
//                each further dimension k the link from u (bit k 0) to u + 2^k points up
//                where u's lower k bits have odd parity (the "black" nodes), down elsewhere.
//                Q2 and Q3 take orientations of diameter 3 and 5, as the paper's figure.
//   ring         one way round (D' = z-1).
//   torus        the line along dimension k through a node points + where the node's other
//                coordinates sum to an even number, - elsewhere.
//   mesh:RxC     Manhattan streets: row 0 east, row R-1 west, rows between alternating;
//                column C-1 south, column 0 north, columns between alternating.
// The orientations of Q2, Q3 and Q4 were found by a local search over the links'
// directions (diameter, then the sum of distances), once; test_combining checks them.
#include <fmt/format.h>

#include <deque>

#include "sw/core/errors.h"
#include "sw/core/formulas.h"
#include "sw/schedulers/combining.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {

// The oriented diameter comes from a breadth-first search from every node (N^2 work): the
// algorithm takes networks up to this size.
constexpr int kMaxOrientedNodes = 16384;

// Bit i set: the i-th link of Q_n points from its end with the bit 0 to the other, links
// counted by node u (ascending), then dimension k (ascending), over u with bit k 0.
constexpr uint64_t kBaseOrientation[] = {0, 0, 5, 1717, 1423648426};

// Each node's out-ports under the orientation; InputError where the topology has none.
std::vector<uint16_t> orientation_out_ports(const Topology& t) {
  const int nodes = t.num_nodes();
  std::vector<uint16_t> out(static_cast<size_t>(nodes), 0);
  auto arc = [&](int from, int port) { out[static_cast<size_t>(from)] |= static_cast<uint16_t>(1u << port); };
  switch (t.kind()) {
    case TopologyKind::Line:
      throw InputError("a line's links are bridges: it has no strong orientation");
    case TopologyKind::Hypercube: {
      const int n = t.dims()[0];
      if (n < 2) throw InputError("hypercube:1 is one link: it has no strong orientation");
      const int base = std::min(n, 4);
      std::vector<int> index(static_cast<size_t>(1 << base) * static_cast<size_t>(base), -1);
      int i = 0;
      for (int u = 0; u < (1 << base); ++u)
        for (int k = 0; k < base; ++k)
          if (!((u >> k) & 1)) index[static_cast<size_t>(u * base + k)] = i++;
      for (int u = 0; u < nodes; ++u)
        for (int k = 0; k < n; ++k) {
          if ((u >> k) & 1) continue;
          const int low = u & ((1 << k) - 1);
          const bool up = k < base ? (kBaseOrientation[base] >> index[static_cast<size_t>((u & ((1 << base) - 1)) * base + k)]) & 1u
                                   : __builtin_popcount(static_cast<unsigned>(low)) % 2 == 1;
          arc(up ? u : u | (1 << k), k);
        }
      return out;
    }
    case TopologyKind::Ring:
      for (int u = 0; u < nodes; ++u) arc(u, 0);
      return out;
    case TopologyKind::Torus:
      for (int u = 0; u < nodes; ++u) {
        const std::vector<int> c = t.coords(u);
        int sum = 0;
        for (int x : c) sum += x;
        for (size_t k = 0; k < c.size(); ++k) arc(u, static_cast<int>(2 * k) + ((sum - c[k]) % 2 == 0 ? 0 : 1));
      }
      return out;
    case TopologyKind::Mesh: {
      const int rows = t.dims()[0], cols = t.dims()[1];
      for (int u = 0; u < nodes; ++u) {
        const int r = u / cols, c = u % cols;
        const bool east = r == 0 || (r != rows - 1 && r % 2 == 0);
        const bool south = c == cols - 1 || (c != 0 && c % 2 == 1);
        if (t.neighbour(u, east ? 2 : 3) >= 0) arc(u, east ? 2 : 3);
        if (t.neighbour(u, south ? 0 : 1) >= 0) arc(u, south ? 0 : 1);
      }
      return out;
    }
    case TopologyKind::Complete:
    case TopologyKind::Biswapped:
    case TopologyKind::Swapped:
    case TopologyKind::Graph: break;
  }
  throw InputError(fmt::format("no orientation is built for {}", t.spec()));
}

// The orientation's diameter (breadth-first from every node); InputError if some node
// cannot reach another.
int oriented_diameter(const Topology& t, const std::vector<uint16_t>& out) {
  const int nodes = t.num_nodes();
  int diameter = 0;
  std::vector<int> dist(static_cast<size_t>(nodes));
  std::deque<int> queue;
  for (int s = 0; s < nodes; ++s) {
    std::fill(dist.begin(), dist.end(), -1);
    dist[static_cast<size_t>(s)] = 0;
    queue.assign(1, s);
    int reached = 1;
    while (!queue.empty()) {
      const int u = queue.front();
      queue.pop_front();
      for (int q = 0; q < t.num_ports(); ++q)
        if ((out[static_cast<size_t>(u)] >> q) & 1u) {
          const int v = t.neighbour(u, q);
          if (dist[static_cast<size_t>(v)] >= 0) continue;
          dist[static_cast<size_t>(v)] = dist[static_cast<size_t>(u)] + 1;
          diameter = std::max(diameter, dist[static_cast<size_t>(v)]);
          ++reached;
          queue.push_back(v);
        }
    }
    if (reached < nodes) throw InputError(fmt::format("the orientation of {} is not strongly connected", t.spec()));
  }
  return diameter;
}

const AlgorithmRegistrar orientation([] {
  Algorithm a = combining_algorithm("orientation",
                                    "combining gossip, all-port half-duplex: every link one way, flooding along the "
                                    "orientation, D' rounds (AAB paper, SF combining, orientation lemma; hypercubes: n)");
  a.unsupported = [](const Problem& p) -> std::string {
    if (p.topology.kind() == TopologyKind::Line) return "a line's links are bridges: it has no strong orientation";
    if (p.topology.kind() == TopologyKind::Hypercube && p.topology.dims()[0] < 2)
      return "hypercube:1 is one link: it has no strong orientation";
    if (p.topology.kind() == TopologyKind::Mesh && p.topology.dims().size() != 2)
      return "the orientation of a mesh is the paper's 2D one (rows and columns alternating)";
    if (p.topology.num_nodes() > kMaxOrientedNodes)
      return fmt::format("its oriented diameter is found by a breadth-first search from every node: up to {} nodes",
                         kMaxOrientedNodes);
    return combining_model_refusal(p.port_model, "all-port", "half");
  };
  a.is_default = [](const Problem& p) { return p.topology.kind() == TopologyKind::Hypercube && p.topology.dims()[0] >= 4; };
  a.formula = [](const Problem& p) -> std::optional<int64_t> {
    return oriented_diameter(p.topology, orientation_out_ports(p.topology));
  };
  a.paper_formula = [](const Problem& p) -> std::optional<int64_t> {
    if (p.topology.kind() != TopologyKind::Hypercube) return std::nullopt;
    return formulas::combining_hypercube_orientation(p.topology.dims()[0]);
  };
  a.build = [](const Problem& p) {
    CombiningTables t = empty_combining_tables(p.topology, 1);
    t.send = orientation_out_ports(p.topology);
    t.construction = fmt::format("oriented diameter {} (diameter {})", oriented_diameter(p.topology, t.send),
                                 p.topology.diameter());
    return finish_combining_tables(std::move(t), p, "orientation");
  };
  a.sweep = [](int max_size) {
    std::vector<std::string> specs;
    for (const std::string& s : joined({combining_rings(max_size), combining_meshes(), combining_tori(), combining_hypercubes()}))
      if (s != "hypercube:1") specs.push_back(s);
    return combining_cases(specs, PortModel{false, true});
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
