// broadcast and fan-in by recursive halving, rows then columns: log2(N) routing steps on
// an n x n mesh, n = 2^k (circuit-switched mesh paper, sections 5.1 and 5.2; fan-in is
// the mirror image: the broadcast's steps in reverse order, each circuit reversed).
#include "recursive_halving.h"

#include <fmt/format.h>

#include <algorithm>

#include "sw/core/formulas.h"
#include "sw/topology/topology.h"
#include "sw/schedulers/circuits.h"

namespace fixroute {

namespace {

// Line [lo, lo + size) held at `holder`: sends to x' in the other half (section 5.1: the
// last node if the holder is in the first half, else the first), then both halves
// recurse at once. `node(i)` maps a line position to a node id.
template <class Node>
int halve(int lo, int size, int holder, size_t step, std::vector<std::vector<Circuit>>& steps, const Node& node) {
  if (size <= 1) return 0;
  const int mid = lo + size / 2;
  const int partner = holder < mid ? lo + size - 1 : lo;
  if (steps.size() <= step) steps.resize(step + 1);
  steps[step].push_back({node(holder), node(partner)});
  const bool holder_first = holder < mid;
  const int a = halve(lo, mid - lo, holder_first ? holder : partner, step + 1, steps, node);
  const int b = halve(mid, lo + size - mid, holder_first ? partner : holder, step + 1, steps, node);
  return 1 + std::max(a, b);
}

}  // namespace

int broadcast_by_halving(const Topology& mesh, int holder, const Rectangle& area, size_t first,
                         std::vector<std::vector<Circuit>>& steps) {
  const int cols = mesh.dims()[1];
  const int row = holder / cols;
  const int along_row = halve(area.col0, area.cols, holder % cols, first, steps, [&](int c) { return row * cols + c; });
  int down_columns = 0;
  for (int c = area.col0; c < area.col0 + area.cols; ++c)
    down_columns = std::max(down_columns, halve(area.row0, area.rows, row, first + static_cast<size_t>(along_row), steps,
                                                [&](int r) { return r * cols + c; }));
  return along_row + down_columns;
}

namespace {

CircuitSchedule broadcast(const Topology& mesh, const CircuitDemand& d) {
  CircuitSchedule s;
  broadcast_by_halving(mesh, d.root, Rectangle{0, mesh.dims()[0], 0, mesh.dims()[1]}, 0, s.steps);
  return s;
}

CircuitSchedule fan_in(const Topology& mesh, const CircuitDemand& d) {
  CircuitSchedule s = broadcast(mesh, d);
  std::reverse(s.steps.begin(), s.steps.end());
  for (auto& step : s.steps)
    for (Circuit& c : step) std::swap(c.source, c.dest);
  return s;
}

std::vector<std::pair<std::string, std::string>> recursive_halving_sweep(int max_side) {
  std::vector<std::pair<std::string, std::string>> out;
  for (int n = 2; n <= max_side; n *= 2) out.emplace_back(fmt::format("mesh:{}x{}", n, n), "");
  out.emplace_back("mesh:3x5", "");
  return out;
}

std::optional<int64_t> halving_steps(const Topology& t) { return formulas::circuit_broadcast(t.dims()[0], t.dims()[1]); }

std::string any_root(const Topology& t, const CircuitDemand& d) {
  return d.root >= 0 && d.root < t.num_nodes() ? "" : fmt::format("the root must be a node 0..{}", t.num_nodes() - 1);
}

Algorithm halving(const char* name, const char* collective, const char* summary, CircuitScheduler schedule) {
  Algorithm a;
  a.name = name;
  a.collective = collective;
  a.router_kind = kCrossbarKind;
  a.summary = summary;
  a.unsupported = on_mesh(any_root);
  a.is_default = [](const Problem&) { return true; };
  a.formula = on_mesh_count(halving_steps);
  schedule_circuits(a, std::move(schedule));
  a.sweep = mesh_sweep(recursive_halving_sweep);
  return a;
}

const AlgorithmRegistrar kBroadcast(halving(
    "recursive-halving", "broadcast",
    "broadcast along the root's row, then every column, halving each line: log2(N) routing steps (section 5.1)",
    broadcast));

const AlgorithmRegistrar kFanIn(halving("recursive-doubling", "fan-in",
                                        "fan-in as the mirror image of the halving broadcast: log2(N) routing steps "
                                        "(section 5.2)",
                                        fan_in));

}  // namespace

}  // namespace fixroute
