// The necklace table (the all-to-all broadcast paper, "Hypercube", Table "Partition of
// V(Q6) into a 6-column 11-row table"): the nonzero nodes of Q_n by their count of ones
// (classes R_1 .. R_n), each class split into necklaces (closed under left rotation), the
// first of R_k the one holding 1^k 0^(n-k); filled row by row into n columns, a necklace
// starting in column j rotated to start at a node u with u_j = 1 (the first of each R_k
// also with u_(j-1) = 0). Node u in row k, column j hangs off non_j(u) (bit j cleared),
// which the construction places in an earlier row: round k, direction j, and each row's
// arcs are of the n distinct directions. ceil((2^n - 1)/n) rounds.
#include <fmt/format.h>

#include <algorithm>

#include "sw/core/formulas.h"
#include "sw/schedulers/broadcast_trees.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {

int rotate_left(int u, int n) { return ((u << 1) | (u >> (n - 1))) & ((1 << n) - 1); }

}  // namespace

// The table: entry i (from 0) is the node in row i / n + 1, column i % n.
std::vector<int> necklace_table(int n) {
  std::vector<int> table;
  std::vector<bool> placed(static_cast<size_t>(1) << n, false);
  for (int k = 1; k <= n; ++k) {
    // The necklaces of R_k: the first holds 1^k 0^(n-k); the rest by their smallest node.
    std::vector<std::vector<int>> necklaces;
    const int first = ((1 << k) - 1) << (n - k);
    std::vector<bool> seen(placed.size(), false);
    auto necklace_of = [&](int u) {
      std::vector<int> members;
      for (int v = u; !seen[static_cast<size_t>(v)]; v = rotate_left(v, n)) {
        seen[static_cast<size_t>(v)] = true;
        members.push_back(v);
      }
      return members;
    };
    necklaces.push_back(necklace_of(first));
    for (int u = 1; u < (1 << n); ++u)
      if (__builtin_popcount(static_cast<unsigned>(u)) == k && !seen[static_cast<size_t>(u)]) necklaces.push_back(necklace_of(u));
    for (size_t i = 0; i < necklaces.size(); ++i) {
      const int j = static_cast<int>(table.size()) % n;
      const int before = (j + n - 1) % n;
      int start = -1;
      for (int u : necklaces[i]) {
        const bool fits = ((u >> j) & 1) && (i > 0 || k == n || !((u >> before) & 1));
        if (fits && (start < 0 || u < start)) start = u;
      }
      if (start < 0) throw std::logic_error(fmt::format("necklace table of Q{}: no rotation fits column {}", n, j));
      for (size_t m = 0, u = static_cast<size_t>(start); m < necklaces[i].size(); ++m) {
        table.push_back(static_cast<int>(u));
        placed[u] = true;
        u = static_cast<size_t>(rotate_left(static_cast<int>(u), n));
      }
    }
  }
  return table;
}

namespace {

std::vector<GenericArc> necklace_tree(int n) {
  const std::vector<int> table = necklace_table(n);
  std::vector<GenericArc> arcs;
  for (size_t i = 0; i < table.size(); ++i) {
    const int column = static_cast<int>(i) % n, row = static_cast<int>(i) / n + 1;
    arcs.push_back({row, column, table[i] & ~(1 << column), table[i]});
  }
  return arcs;
}

const AlgorithmRegistrar necklace_registrar([] {
  Algorithm a = broadcast_tree_algorithm(
      "necklace", "gossip without combining on Q_n: the necklace table as the generic time-arc-disjoint tree, "
                  "ceil((2^n-1)/n) rounds (AAB paper, all-port full-duplex, Hypercube)");
  a.unsupported = [](const Problem& p) -> std::string {
    if (p.topology.kind() != TopologyKind::Hypercube) return "the necklace table is for hypercubes";
    if (p.topology.num_nodes() > kMaxBroadcastTreeNodes)
      return fmt::format("broadcast-tree routers take at most {} nodes", kMaxBroadcastTreeNodes);
    return all_port_full_refusal(p.port_model);
  };
  a.is_default = [](const Problem& p) { return p.topology.kind() == TopologyKind::Hypercube; };
  a.formula = [](const Problem& p) -> std::optional<int64_t> { return formulas::tadbt_hypercube(p.topology.dims()[0]); };
  a.build = [](const Problem& p) {
    return generic_tree_tables(p, "necklace", "necklace table", necklace_tree(p.topology.dims()[0]));
  };
  a.sweep = [](int) {
    std::vector<SweepCase> out;
    for (int n = 1; n <= 10; ++n) out.push_back({fmt::format("hypercube:{}", n), {}, ""});
    return out;
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
