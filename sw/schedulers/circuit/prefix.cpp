// prefix: parallel prefix by divide and conquer on row-major blocks (circuit-switched
// mesh paper, section 5.3). Level l = 1..log2 N merges blocks of 2^(l-1) nodes pairwise:
// the last node of each left block sends its block's total to the first node of the
// right block, which broadcasts it over that block by halving. l routing steps per
// level, so C(N) = C(N/2) + log2 N with C(2) = 1: log2(N)(log2(N) + 1)/2 steps, which
// the paper states as log2(N)^2. Blocks are rectangles (row segments, then whole rows),
// so all blocks of a level run at once without sharing a link.
#include <fmt/format.h>

#include "sw/core/formulas.h"
#include "sw/topology/topology.h"
#include "recursive_halving.h"
#include "sw/schedulers/circuits.h"

namespace fixroute {

namespace {

CircuitSchedule prefix_schedule(const Topology& mesh, const CircuitDemand&) {
  const int cols = mesh.dims()[1];
  const int nodes = mesh.num_nodes();
  CircuitSchedule s;
  for (int half = 1; half < nodes; half *= 2) {  // blocks of 2 * half nodes
    const size_t first = s.steps.size();
    s.phase_starts.push_back(static_cast<int>(first) + 1);
    s.steps.resize(first + 1);
    for (int start = 0; start < nodes; start += 2 * half) {
      const int right = start + half;
      s.steps[first].push_back({right - 1, right});
      const Rectangle block = half < cols ? Rectangle{right / cols, 1, right % cols, half}
                                          : Rectangle{right / cols, half / cols, 0, cols};
      broadcast_by_halving(mesh, right, block, first + 1, s.steps);
    }
  }
  return s;
}

std::vector<std::pair<std::string, std::string>> prefix_sweep(int max_side) {
  std::vector<std::pair<std::string, std::string>> out;
  for (int n = 2; n <= max_side; n *= 2) out.emplace_back(fmt::format("mesh:{}x{}", n, n), "");
  out.emplace_back("mesh:2x8", "");
  return out;
}

const AlgorithmRegistrar prefix_registrar([] {
  Algorithm a;
  a.name = "divide-and-conquer";
  a.collective = "prefix";
  a.router_kind = kCrossbarKind;
  a.summary = "parallel prefix, a halving broadcast per merge level: log2(N)(log2(N)+1)/2 routing steps (section 5.3)";
  a.unsupported = on_mesh([](const Topology& t, const CircuitDemand&) -> std::string {
    return log2_exact(t.dims()[0]) >= 1 && log2_exact(t.dims()[1]) >= 1 ? "" : "needs rows and columns powers of two";
  });
  a.is_default = [](const Problem&) { return true; };
  a.formula = on_mesh_count([](const Topology& t) -> std::optional<int64_t> { return formulas::circuit_prefix(t.num_nodes()); });
  a.paper_formula = on_mesh_count(
      [](const Topology& t) -> std::optional<int64_t> { return formulas::circuit_prefix_paper(t.num_nodes()); });
  schedule_circuits(a, prefix_schedule);
  a.sweep = mesh_sweep(prefix_sweep);
  return a;
}());

}  // namespace

}  // namespace fixroute
