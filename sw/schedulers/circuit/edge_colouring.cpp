// edge-colouring (beyond the paper): ANY permutation on ANY mesh:RxC in at most
// max(R, C) routing steps -- exactly the largest number of moving messages that one row
// sends or one column receives. The bipartite multigraph rows x destination columns has
// that maximum degree, and Koenig's edge-colouring theorem gives it a proper colouring
// with as many colours, found here by alternating-path recolouring.
#include "edge_colouring.h"

#include <fmt/format.h>

#include <algorithm>

#include "sw/topology/topology.h"
#include "sw/schedulers/circuits.h"

namespace fixroute {

std::vector<std::vector<Circuit>> colour_rows_by_columns(const Topology& mesh, const std::vector<int>& dest) {
  const int rows = mesh.dims()[0], cols = mesh.dims()[1];
  std::vector<Circuit> moving, staying;
  for (int x = 0; x < mesh.num_nodes(); ++x)
    (dest[static_cast<size_t>(x)] == x ? staying : moving).push_back({x, dest[static_cast<size_t>(x)]});
  std::vector<int> row_degree(static_cast<size_t>(rows), 0), col_degree(static_cast<size_t>(cols), 0);
  for (const Circuit& c : moving) {
    ++row_degree[static_cast<size_t>(c.source / cols)];
    ++col_degree[static_cast<size_t>(c.dest % cols)];
  }
  const int colours = std::max(*std::max_element(row_degree.begin(), row_degree.end()),
                               *std::max_element(col_degree.begin(), col_degree.end()));
  // at_row[r][c] / at_col[j][c]: the message of colour c at row r / column j, or -1.
  std::vector<std::vector<int>> at_row(static_cast<size_t>(rows), std::vector<int>(static_cast<size_t>(colours), -1));
  std::vector<std::vector<int>> at_col(static_cast<size_t>(cols), std::vector<int>(static_cast<size_t>(colours), -1));
  std::vector<int> colour(moving.size(), -1);
  auto free_colour = [](const std::vector<int>& slots) {
    return static_cast<int>(std::find(slots.begin(), slots.end(), -1) - slots.begin());
  };
  for (size_t e = 0; e < moving.size(); ++e) {
    const int r = moving[e].source / cols, j = moving[e].dest % cols;
    auto& row_slots = at_row[static_cast<size_t>(r)];
    auto& col_slots = at_col[static_cast<size_t>(j)];
    const int a = free_colour(row_slots), b = free_colour(col_slots);
    if (col_slots[static_cast<size_t>(a)] != -1) {
      // Colour a is taken at column j: swap a and b along the alternating path from j.
      // The path cannot reach row r (a is free there), so afterwards a is free at j.
      std::vector<size_t> path;
      bool at_column = true;
      int vertex = j, want = a;
      while (true) {
        const int m = at_column ? at_col[static_cast<size_t>(vertex)][static_cast<size_t>(want)]
                                : at_row[static_cast<size_t>(vertex)][static_cast<size_t>(want)];
        if (m < 0) break;
        path.push_back(static_cast<size_t>(m));
        vertex = at_column ? moving[static_cast<size_t>(m)].source / cols : moving[static_cast<size_t>(m)].dest % cols;
        at_column = !at_column;
        want = want == a ? b : a;
      }
      for (size_t m : path) {  // clear, then recolour, so no slot is overwritten early
        at_row[static_cast<size_t>(moving[m].source / cols)][static_cast<size_t>(colour[m])] = -1;
        at_col[static_cast<size_t>(moving[m].dest % cols)][static_cast<size_t>(colour[m])] = -1;
      }
      for (size_t m : path) {
        colour[m] = colour[m] == a ? b : a;
        at_row[static_cast<size_t>(moving[m].source / cols)][static_cast<size_t>(colour[m])] = static_cast<int>(m);
        at_col[static_cast<size_t>(moving[m].dest % cols)][static_cast<size_t>(colour[m])] = static_cast<int>(m);
      }
    }
    colour[e] = a;
    row_slots[static_cast<size_t>(a)] = static_cast<int>(e);
    col_slots[static_cast<size_t>(a)] = static_cast<int>(e);
  }
  std::vector<std::vector<Circuit>> steps(static_cast<size_t>(std::max(colours, staying.empty() ? 0 : 1)));
  for (size_t e = 0; e < moving.size(); ++e) steps[static_cast<size_t>(colour[e])].push_back(moving[e]);
  for (const Circuit& c : staying) steps.front().push_back(c);
  return steps;
}

namespace {

std::vector<std::pair<std::string, std::string>> edge_colouring_sweep(int max_side) {
  std::vector<std::pair<std::string, std::string>> out;
  for (int n = 2; n <= max_side; ++n) out.emplace_back(fmt::format("mesh:{}x{}", n, n), "random:1");
  out.emplace_back("mesh:3x5", "random:2");
  return out;
}

const AlgorithmRegistrar edge_colouring_registrar([] {
  Algorithm a;
  a.name = "edge-colouring";
  a.collective = "permutation";
  a.router_kind = kCrossbarKind;
  a.summary = "any permutation, any mesh: edge-colour rows x destination columns, <= max(R, C) routing steps (beyond the paper)";
  a.unsupported = on_mesh([](const Topology&, const CircuitDemand&) { return std::string(); });
  a.is_default = [](const Problem& p) {  // for the permutations the paper does not self-schedule
    const std::string& kind = circuit_demand(p).permutation.kind;
    return kind != "bpc" && kind != "omega";
  };
  a.formula = [](const Problem&) { return std::optional<int64_t>{}; };
  schedule_circuits(a, [](const Topology& mesh, const CircuitDemand& d) {
    CircuitSchedule s;
    s.steps = colour_rows_by_columns(mesh, d.permutation.dest);
    return s;
  });
  a.sweep = mesh_sweep(edge_colouring_sweep);
  return a;
}());

}  // namespace

}  // namespace fixroute
