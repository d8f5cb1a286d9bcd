// optimal-search (beyond the paper): the fewest routing steps any schedule can have for a
// permutation under the row-column rule, by exhaustive search -- an exact colouring of the
// conflict graph (two circuits conflict when their row-column paths share a link), by
// DSATUR-ordered backtracking from the link-load lower bound up to the edge-colouring
// count. Small meshes only: it exists to measure how far edge-colouring's 1R-1C steps are
// from the best possible.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "sw/core/errors.h"
#include "sw/topology/topology.h"
#include "edge_colouring.h"
#include "sw/schedulers/circuits.h"

namespace fixroute {

namespace {

constexpr int kMaxNodes = 36;               // up to mesh:6x6
constexpr int64_t kSearchBudget = 20000000; // backtracking nodes before giving up

struct Colouring {
  const std::vector<std::vector<bool>>& conflict;
  int colours;
  std::vector<int> colour;
  int64_t visited = 0;

  // DSATUR: colour next the uncoloured vertex with the most distinct neighbour colours.
  bool solve(int coloured) {
    if (coloured == static_cast<int>(colour.size())) return true;
    if (++visited > kSearchBudget) throw std::runtime_error("budget");
    int best = -1, best_sat = -1;
    for (size_t v = 0; v < colour.size(); ++v) {
      if (colour[v] >= 0) continue;
      std::vector<bool> seen(static_cast<size_t>(colours), false);
      int sat = 0;
      for (size_t u = 0; u < colour.size(); ++u)
        if (conflict[v][u] && colour[u] >= 0 && !seen[static_cast<size_t>(colour[u])]) {
          seen[static_cast<size_t>(colour[u])] = true;
          ++sat;
        }
      if (sat > best_sat) best = static_cast<int>(v), best_sat = sat;
    }
    const size_t v = static_cast<size_t>(best);
    int used = 0;  // symmetry: try at most one colour never used before
    for (int c : colour) used = std::max(used, c + 1);
    for (int c = 0; c < std::min(colours, used + 1); ++c) {
      bool clash = false;
      for (size_t u = 0; u < colour.size() && !clash; ++u) clash = conflict[v][u] && colour[u] == c;
      if (clash) continue;
      colour[v] = c;
      if (solve(coloured + 1)) return true;
    }
    colour[v] = -1;
    return false;
  }
};

CircuitSchedule optimal_search_schedule(const Topology& mesh, const CircuitDemand& d) {
  std::vector<Circuit> moving, staying;
  for (int x = 0; x < mesh.num_nodes(); ++x)
    (d.permutation.dest[static_cast<size_t>(x)] == x ? staying : moving).push_back({x, d.permutation.dest[static_cast<size_t>(x)]});
  const size_t m = moving.size();
  std::vector<std::vector<bool>> conflict(m, std::vector<bool>(m, false));
  for (size_t a = 0; a < m; ++a)
    for (size_t b = a + 1; b < m; ++b)
      conflict[a][b] = conflict[b][a] = !link_conflicts(mesh, {moving[a], moving[b]}).empty();
  const int upper = static_cast<int>(colour_rows_by_columns(mesh, d.permutation.dest).size());
  const int lower = static_cast<int>(std::max<int64_t>(max_link_load(mesh, moving), m ? 1 : 0));
  CircuitSchedule s;
  for (int k = lower; k <= upper; ++k) {
    Colouring search{conflict, k, std::vector<int>(m, -1)};
    bool found = false;
    try {
      found = search.solve(0);
    } catch (const std::runtime_error&) {
      throw InputError(fmt::format("optimal-search gave up on {} after {} search nodes at {} steps", mesh.spec(),
                                   kSearchBudget, k));
    }
    if (!found) continue;
    s.steps.resize(static_cast<size_t>(std::max(k, staying.empty() ? 0 : 1)));
    for (size_t v = 0; v < m; ++v) s.steps[static_cast<size_t>(search.colour[v])].push_back(moving[v]);
    for (const Circuit& c : staying) s.steps.front().push_back(c);
    s.construction = fmt::format("optimum {} steps (link-load bound {}, edge-colouring {})", k, lower, upper);
    return s;
  }
  throw std::logic_error("optimal-search: the edge-colouring schedule is a colouring, so one is found");
}

std::vector<std::pair<std::string, std::string>> optimal_search_sweep(int max_side) {
  std::vector<std::pair<std::string, std::string>> out;
  for (int n = 2; n <= std::min(max_side, 5); ++n) out.emplace_back(fmt::format("mesh:{}x{}", n, n), "random:1");
  return out;
}

const AlgorithmRegistrar optimal_search_registrar([] {
  Algorithm a;
  a.name = "optimal-search";
  a.collective = "permutation";
  a.router_kind = kCrossbarKind;
  a.summary = "any permutation on a small mesh (<= 36 nodes): the fewest routing steps, by exhaustive colouring search";
  a.unsupported = on_mesh([](const Topology& t, const CircuitDemand&) -> std::string {
    return t.num_nodes() <= kMaxNodes ? "" : fmt::format("searches meshes of at most {} nodes", kMaxNodes);
  });
  a.formula = [](const Problem&) { return std::optional<int64_t>{}; };
  schedule_circuits(a, optimal_search_schedule);
  a.sweep = mesh_sweep(optimal_search_sweep);
  return a;
}());

}  // namespace

}  // namespace fixroute
