// Gather-scatter over a broadcast tree (the all-to-all broadcast paper, SF combining:
// "one node accumulates all the packets and then broadcasts the accumulated information in
// one aggregate packet using OAB", t_AAB <= 2 t_OAB, 1-port and either duplex). The tree:
// breadth-first from a centre (the lowest node of least eccentricity); a node informs its
// children one per round, the child with the slowest subtree first, so its subtree is
// informed t(v) = max_i (i + t(c_i)) rounds after it. Scatter runs that 1-port broadcast
// from the root in rounds T+1..2T; the gather before it is the same schedule run backwards
// (a child sends up in round T+1-b where its parent would send down in b), so a node sends
// up only once its whole subtree has reached it.
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <vector>

#include "sw/schedulers/combining.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {

struct BroadcastTree {
  int root = 0;
  int rounds = 0;                // T: the 1-port broadcast's rounds
  std::vector<int> parent;       // -1 at the root
  std::vector<int> informed_in;  // the broadcast round a node receives in (0 at the root)
};

// Hop distances from `from` (-1: unreachable).
std::vector<int> distances(const Topology& t, int from) {
  std::vector<int> d(static_cast<size_t>(t.num_nodes()), -1);
  std::deque<int> queue{from};
  d[static_cast<size_t>(from)] = 0;
  while (!queue.empty()) {
    const int u = queue.front();
    queue.pop_front();
    for (int q = 0; q < t.num_ports(); ++q)
      if (const int v = t.neighbour(u, q); v >= 0 && d[static_cast<size_t>(v)] < 0) {
        d[static_cast<size_t>(v)] = d[static_cast<size_t>(u)] + 1;
        queue.push_back(v);
      }
  }
  return d;
}

// A lower bound on t_OAB, the fewest rounds of a 1-port broadcast from the best root:
// informed nodes at most double per round (ceil(log2 N)); from a root r the furthest
// nodes take ecc(r) rounds, one more where no single neighbour of r starts a shortest path
// to all of them (the root informs one neighbour per round). Taken over every root up to
// 4096 nodes, beyond that from the radius alone.
int one_port_broadcast_bound(const Topology& t) {
  const int nodes = t.num_nodes();
  int doubling = 0;
  while ((int64_t{1} << doubling) < nodes) ++doubling;
  int best = std::numeric_limits<int>::max();
  for (int r = 0; r < nodes; ++r) {
    if (nodes > 4096) {
      best = std::min(best, t.eccentricity(r));
      continue;
    }
    const std::vector<int> from_root = distances(t, r);
    const int ecc = *std::max_element(from_root.begin(), from_root.end());
    if (ecc >= best) continue;
    bool one_neighbour = false;
    for (int q = 0; q < t.num_ports() && !one_neighbour; ++q) {
      const int w = t.neighbour(r, q);
      if (w < 0) continue;
      const std::vector<int> from_w = distances(t, w);
      one_neighbour = true;
      for (int v = 0; v < nodes && one_neighbour; ++v)
        if (from_root[static_cast<size_t>(v)] == ecc && from_w[static_cast<size_t>(v)] != ecc - 1) one_neighbour = false;
    }
    best = std::min(best, ecc + (one_neighbour || ecc == 0 ? 0 : 1));
  }
  return std::max(doubling, best);
}

BroadcastTree broadcast_tree(const Topology& t) {
  const int nodes = t.num_nodes();
  BroadcastTree tree;
  for (int n = 0; n < nodes; ++n)
    if (t.eccentricity(n) < t.eccentricity(tree.root)) tree.root = n;
  tree.parent.assign(static_cast<size_t>(nodes), -1);
  std::vector<int> order{tree.root};
  std::vector<bool> seen(static_cast<size_t>(nodes), false);
  seen[static_cast<size_t>(tree.root)] = true;
  for (size_t i = 0; i < order.size(); ++i)
    for (int q = 0; q < t.num_ports(); ++q)
      if (const int v = t.neighbour(order[i], q); v >= 0 && !seen[static_cast<size_t>(v)]) {
        seen[static_cast<size_t>(v)] = true;
        tree.parent[static_cast<size_t>(v)] = order[i];
        order.push_back(v);
      }
  std::vector<std::vector<int>> children(static_cast<size_t>(nodes));
  for (int v : order)
    if (v != tree.root) children[static_cast<size_t>(tree.parent[static_cast<size_t>(v)])].push_back(v);
  std::vector<int> subtree(static_cast<size_t>(nodes), 0);  // t(v)
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    std::vector<int>& c = children[static_cast<size_t>(*it)];
    std::stable_sort(c.begin(), c.end(), [&](int a, int b) { return subtree[static_cast<size_t>(a)] > subtree[static_cast<size_t>(b)]; });
    for (size_t i = 0; i < c.size(); ++i)
      subtree[static_cast<size_t>(*it)] = std::max(subtree[static_cast<size_t>(*it)], static_cast<int>(i) + 1 + subtree[static_cast<size_t>(c[i])]);
  }
  tree.rounds = subtree[static_cast<size_t>(tree.root)];
  tree.informed_in.assign(static_cast<size_t>(nodes), 0);
  for (int v : order) {
    const std::vector<int>& c = children[static_cast<size_t>(v)];
    for (size_t i = 0; i < c.size(); ++i)
      tree.informed_in[static_cast<size_t>(c[i])] = tree.informed_in[static_cast<size_t>(v)] + static_cast<int>(i) + 1;
  }
  return tree;
}

const AlgorithmRegistrar gather_scatter([] {
  Algorithm a = combining_algorithm("gather-scatter",
                                    "combining gossip, 1-port, any network: gather up a broadcast tree, then scatter "
                                    "down it, 2 t_OAB of the tree (AAB paper, SF combining, gather-scatter lemma)");
  a.unsupported = [](const Problem& p) { return combining_model_refusal(p.port_model, "1-port", "any"); };
  a.is_default = [](const Problem& p) {  // where the paper gives nothing faster
    if (!p.port_model.half_duplex) return false;
    return p.topology.kind() == TopologyKind::Mesh || p.topology.kind() == TopologyKind::Hypercube;
  };
  a.formula = [](const Problem& p) -> std::optional<int64_t> { return 2 * int64_t{broadcast_tree(p.topology).rounds}; };
  a.build = [](const Problem& p) {
    const BroadcastTree tree = broadcast_tree(p.topology);
    const int T = std::max(tree.rounds, 1);
    CombiningTables t = empty_combining_tables(p.topology, 2 * T);
    for (int v = 0; v < p.topology.num_nodes(); ++v) {
      const int up = tree.parent[static_cast<size_t>(v)];
      if (up < 0) continue;
      const int b = tree.informed_in[static_cast<size_t>(v)];  // the parent sends down in round b of the broadcast
      t.send[static_cast<size_t>(v) * static_cast<size_t>(2 * T) + static_cast<size_t>(T - b)] =
          static_cast<uint16_t>(1u << p.topology.port_towards(v, up));
      t.send[static_cast<size_t>(up) * static_cast<size_t>(2 * T) + static_cast<size_t>(T + b - 1)] |=
          static_cast<uint16_t>(1u << p.topology.port_towards(up, v));
    }
    const int oab_bound = one_port_broadcast_bound(p.topology);
    t.construction = tree.rounds == oab_bound
                         ? fmt::format("breadth-first tree from node {}, 1-port broadcast in {} rounds = t_OAB "
                                       "(its lower bound)",
                                       tree.root, tree.rounds)
                         : fmt::format("breadth-first tree from node {}, 1-port broadcast in {} rounds (t_OAB >= {})",
                                       tree.root, tree.rounds, oab_bound);
    return finish_combining_tables(std::move(t), p, "gather-scatter");
  };
  a.sweep = [](int max_size) {
    const std::vector<std::string> specs = joined({combining_lines(max_size), combining_rings(max_size),
                                                   combining_meshes(), combining_tori(), combining_hypercubes(), combining_irregular()});
    return joined_cases(combining_cases(specs, PortModel{true, false}), combining_cases(specs, PortModel{true, true}));
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
