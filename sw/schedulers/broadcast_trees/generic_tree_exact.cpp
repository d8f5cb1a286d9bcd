// A generic time-arc-disjoint tree of a 2D or 3D torus within the all-to-all broadcast
// paper's buffer promise, found by a SAT solver (CaDiCaL; docs/broadcast-trees.md,
// "generic-tree-exact"): section 3 promises time-optimal gossip on any 2D torus with at most
// 3 buffers per router (60 on 3D tori), and tree-search's greedy trees need more from 7x8
// on (torus:10x10 9; 8x8x8 66). The model: node v is entered once, in one round, across one
// port, from a node informed in an earlier round; each round's arcs have distinct ports
// (the paper's lemma); rounds ceil((N-1)/2d); and in every round at most the promised
// number of nodes other than the root wait -- informed before the round and sending again
// after it (generic_tree_buffers' count).
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "sw/core/errors.h"
#include "sw/core/formulas.h"
#include "sw/schedulers/broadcast_trees.h"
#include "sw/schedulers/sat_model.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {

constexpr int kMaxGenericTreeExactNodes = 512;
constexpr double kGenericTreeExactSeconds = 60;  // unless --budget says

// The tori the paper makes a buffer promise for: 3 on two dimensions, 60 on three.
bool promised_torus(const Topology& t) {
  return t.kind() == TopologyKind::Torus && (t.dims().size() == 2 || t.dims().size() == 3);
}

// A generic tree of ceil((N-1)/2d) rounds in which at most `buffers` nodes wait in any
// round; `name` for the construction line and errors, `limit` the line's words for it.
std::shared_ptr<const Tables> generic_tree_within(const Problem& problem, int buffers, const std::string& name,
                                                  const std::string& limit) {
  const Topology& t = problem.topology;
  const int n = t.num_nodes(), ports = t.num_ports();
  const int rounds = static_cast<int>(formulas::tadbt_rounds(n, ports));
  const double seconds = problem.budget_seconds > 0 ? problem.budget_seconds : kGenericTreeExactSeconds;
  SatModel sat;
  const std::vector<int> depth = t.distances_from(0);
  // enter(v, p, r): v entered in round r across port p of its parent (0: cannot be).
  std::vector<int> enter(static_cast<size_t>(n) * static_cast<size_t>(ports) * static_cast<size_t>(rounds + 2), 0);
  auto entered = [&](int v, int p, int r) -> int& {
    return enter[(static_cast<size_t>(v) * static_cast<size_t>(ports) + static_cast<size_t>(p)) *
                     static_cast<size_t>(rounds + 2) +
                 static_cast<size_t>(r)];
  };
  // The node whose port p leads to v.
  std::vector<int> parent_across(static_cast<size_t>(n) * static_cast<size_t>(ports), -1);
  for (int u = 0; u < n; ++u)
    for (int p = 0; p < ports; ++p)
      if (const int v = t.neighbour(u, p); v >= 0) parent_across[static_cast<size_t>(v) * static_cast<size_t>(ports) + static_cast<size_t>(p)] = u;
  auto from = [&](int v, int p) { return parent_across[static_cast<size_t>(v) * static_cast<size_t>(ports) + static_cast<size_t>(p)]; };
  std::vector<int> all;
  std::vector<GenericArc> meaning;
  for (int v = 1; v < n; ++v)
    for (int p = 0; p < ports; ++p)
      for (int r = std::max(1, depth[static_cast<size_t>(v)]); r <= rounds; ++r) {
        entered(v, p, r) = sat.variable();
        all.push_back(entered(v, p, r));
        meaning.push_back({r, p, from(v, p), v});
      }
  for (int v = 1; v < n; ++v) {
    std::vector<int> ways;
    for (int p = 0; p < ports; ++p)
      for (int r = 1; r <= rounds; ++r)
        if (entered(v, p, r)) ways.push_back(entered(v, p, r));
    sat.exactly_one(ways);
  }
  // Each round's arcs on distinct ports; and, implied (N-1 arcs in rounds x 2d slots), at
  // most rounds x 2d - (N-1) slots left free -- said outright, so that the solver sees a
  // slot left free early in the tree cost one at the end.
  std::vector<int> free_slots;
  for (int r = 1; r <= rounds; ++r)
    for (int p = 0; p < ports; ++p) {
      std::vector<int> arcs;
      for (int v = 1; v < n; ++v)
        if (entered(v, p, r)) arcs.push_back(entered(v, p, r));
      const int slot_free = sat.variable();
      for (int a : arcs) sat.clause({-slot_free, -a});
      std::vector<int> used = arcs;
      used.push_back(slot_free);
      sat.clause(used);
      free_slots.push_back(slot_free);
      sat.at_most_one(std::move(arcs));
    }
  sat.at_most(free_slots, rounds * ports - (n - 1));
  // informed(v, r): v holds the packet after round r (0: cannot yet).
  std::vector<int> informed_at(static_cast<size_t>(n) * static_cast<size_t>(rounds + 1), 0);
  auto informed = [&](int v, int r) -> int& {
    return informed_at[static_cast<size_t>(v) * static_cast<size_t>(rounds + 1) + static_cast<size_t>(r)];
  };
  const int root_holds = sat.true_variable();
  for (int r = 0; r <= rounds; ++r) informed(0, r) = root_holds;
  for (int v = 1; v < n; ++v)
    for (int r = 1; r <= rounds; ++r) {
      std::vector<int> how;
      if (informed(v, r - 1)) how.push_back(informed(v, r - 1));
      for (int p = 0; p < ports; ++p)
        if (entered(v, p, r)) how.push_back(entered(v, p, r));
      if (how.empty()) continue;
      const int i = informed(v, r) = sat.variable();
      for (int h : how) sat.clause({-h, i});  // informed = one of the ways
      how.push_back(-i);
      sat.clause(how);
    }
  for (int v = 1; v < n; ++v)
    for (int p = 0; p < ports; ++p)
      for (int r = 1; r <= rounds; ++r)
        if (const int e = entered(v, p, r)) sat.only_if(e, informed(from(v, p), r - 1));
  // sends_after(v, r): v sends in a round after r; a node waits in round r when informed
  // before it and sending after it.
  std::vector<int> after(static_cast<size_t>(n) * static_cast<size_t>(rounds + 2), 0);
  auto sends_after = [&](int v, int r) -> int& {
    return after[static_cast<size_t>(v) * static_cast<size_t>(rounds + 2) + static_cast<size_t>(r)];
  };
  for (int v = 1; v < n; ++v)
    for (int r = rounds - 1; r >= 1; --r) {
      std::vector<int> how;
      if (sends_after(v, r + 1)) how.push_back(sends_after(v, r + 1));
      for (int p = 0; p < ports; ++p)
        if (const int w = t.neighbour(v, p); w > 0 && entered(w, p, r + 1)) how.push_back(entered(w, p, r + 1));
      if (how.empty()) continue;
      const int a = sends_after(v, r) = sat.variable();
      for (int h : how) sat.clause({-h, a});
    }
  for (int r = 1; r <= rounds; ++r) {
    std::vector<int> waiting;
    for (int v = 1; v < n; ++v)
      if (informed(v, r - 1) && sends_after(v, r)) {
        const int waits = sat.variable();
        sat.clause({-informed(v, r - 1), -sends_after(v, r), waits});
        waiting.push_back(waits);
      }
    sat.at_most(waiting, buffers);
  }
  bool proven = false;
  const std::optional<std::vector<GenericArc>> arcs =
      chosen_by_sat(sat, static_cast<unsigned>(seconds * 1000), all, meaning, proven);
  if (!arcs)
    throw InputError(proven ? fmt::format("{} on {}: no generic tree of {} rounds has at most {} buffers", name,
                                          t.spec(), rounds, buffers)
                            : fmt::format("{} on {}: not settled in {} s (--budget gives it more)", name, t.spec(),
                                          seconds));
  return generic_tree_tables(
      problem, name, fmt::format("generic tree (SAT, CaDiCaL): {} rounds, {}", rounds, limit), *arcs);
}

// The generic-tree searches' common registration: 2D and 3D tori up to the model's size,
// all-port full-duplex, asked for by name, one sweep case.
Algorithm generic_tree_search(const std::string& name, const std::string& summary, SweepCase sweep_case) {
  Algorithm a = broadcast_tree_algorithm(name, summary);
  a.unsupported = [](const Problem& p) -> std::string {
    if (!promised_torus(p.topology) || p.topology.num_nodes() > kMaxGenericTreeExactNodes)
      return fmt::format("it searches generic trees of 2D and 3D tori of at most {} nodes", kMaxGenericTreeExactNodes);
    return all_port_full_refusal(p.port_model);
  };
  a.is_default = [](const Problem&) { return false; };
  a.formula = [](const Problem& p) -> std::optional<int64_t> {
    return formulas::tadbt_rounds(p.topology.num_nodes(), p.topology.num_ports());
  };
  a.paper_buffers = promised_tree_buffers;
  a.takes_budget = true;
  a.by_name_only = true;
  a.sweep = [sweep_case](int) { return std::vector<SweepCase>{sweep_case}; };
  return a;
}

const AlgorithmRegistrar generic_tree_exact_registrar([] {
  Algorithm a = generic_tree_search(
      "generic-tree-exact",
      "gossip without combining on 2D and 3D tori: a generic time-arc-disjoint tree of ceil((N-1)/2d) rounds with "
      "at most the paper's 3 (2D) or 60 (3D) buffers, found by a SAT solver (AAB paper section 3; "
      "docs/broadcast-trees.md)",
      {"torus:7x8", {}, ""});
  a.build = [](const Problem& p) {
    const int promised = static_cast<int>(*promised_tree_buffers(p));  // 3 on a 2D torus, 60 on a 3D one
    return generic_tree_within(p, promised, "generic-tree-exact",
                               fmt::format("at most {} buffers (the paper's promise)", promised));
  };
  return a;
}());

// The same search with no buffers at all: what the paper claims of its snakes and pyramids
// ("memory-optimal"), where the pyramids need Z-3 on odd cubes from 5x5x5 on.
const AlgorithmRegistrar bufferless_tree_exact_registrar([] {
  Algorithm a = generic_tree_search(
      "bufferless-tree-exact",
      "gossip without combining on 2D and 3D tori: a generic time-arc-disjoint tree of ceil((N-1)/2d) rounds in "
      "which no router holds a packet beyond the next round (0 buffers), found by a SAT solver (AAB paper section "
      "3; docs/broadcast-trees.md)",
      {"torus:3x4x5", {}, ""});
  a.build = [](const Problem& p) { return generic_tree_within(p, 0, "bufferless-tree-exact", "no buffers"); };
  return a;
}());

}  // namespace
}  // namespace fixroute
