// omega-two-phase: an Omega-realizable permutation in a column-wise phase then a
// row-wise phase, an inverse-Omega-realizable one in the opposite order, n routing steps
// each: 2n (circuit-switched mesh paper, section 4, SELF-ROUTE-Omega). In step i of a
// phase the i-th node of every column (row) sends, so each linear array carries one
// circuit per step.
#include <fmt/format.h>

#include <stdexcept>

#include "sw/core/formulas.h"
#include "sw/topology/topology.h"
#include "sw/schedulers/circuits.h"

namespace fixroute {

namespace {

CircuitSchedule omega_two_phase_schedule(const Topology& mesh, const CircuitDemand& demand) {
  const std::vector<int>& f = demand.permutation.dest;
  const int n = mesh.dims()[0];
  const bool columns_first = omega_realizable(f);
  CircuitSchedule s;
  s.construction = columns_first ? "Omega: column phase, then row phase" : "inverse Omega: row phase, then column phase";
  s.steps.resize(static_cast<size_t>(2 * n));
  s.phase_starts = {1, n + 1};
  // The intermediate node of x: in x's column and f(x)'s row (Omega), or in x's row and
  // f(x)'s column (inverse Omega). Lawrie's characterisation makes each phase a
  // permutation of every column (row); checked here rather than assumed.
  std::vector<int> holder_of(f.size(), -1);
  for (int x = 0; x < mesh.num_nodes(); ++x) {
    const int fx = f[static_cast<size_t>(x)];
    const int mid = columns_first ? (fx / n) * n + x % n : (x / n) * n + fx % n;
    if (holder_of[static_cast<size_t>(mid)] >= 0)
      throw std::logic_error(fmt::format("omega-two-phase: {} and {} meet at {} in the first phase",
                                         holder_of[static_cast<size_t>(mid)], x, mid));
    holder_of[static_cast<size_t>(mid)] = x;
    const int first_step = columns_first ? x / n : x % n;  // the i-th node of its column (row)
    const int second_step = columns_first ? mid % n : mid / n;
    s.steps[static_cast<size_t>(first_step)].push_back({x, mid});
    s.steps[static_cast<size_t>(n + second_step)].push_back({mid, fx});
  }
  return s;
}

std::vector<std::pair<std::string, std::string>> omega_two_phase_sweep(int max_side) {
  std::vector<std::pair<std::string, std::string>> out;
  for (int n = 2; n <= max_side; n *= 2)  // of the named ones, Omega realizes bit-complement
    out.emplace_back(fmt::format("mesh:{}x{}", n, n), "bit-complement");
  return out;
}

const AlgorithmRegistrar omega_two_phase_registrar([] {
  Algorithm a;
  a.name = "omega-two-phase";
  a.collective = "permutation";
  a.router_kind = kCrossbarKind;
  a.summary = "Omega (inverse Omega) permutation: column then row phase (row then column), 2n routing steps (section 4)";
  a.unsupported = on_mesh([](const Topology& t, const CircuitDemand& d) -> std::string {
    if (t.dims()[0] != t.dims()[1] || log2_exact(t.dims()[0]) < 1) return "needs an n x n mesh with n a power of two";
    if (!omega_realizable(d.permutation.dest) && !inverse_omega_realizable(d.permutation.dest))
      return "the permutation is neither Omega- nor inverse-Omega-realizable";
    return "";
  });
  a.is_default = [](const Problem& p) { return circuit_demand(p).permutation.kind == "omega"; };
  a.formula = on_mesh_count([](const Topology& t) -> std::optional<int64_t> { return formulas::circuit_omega(t.dims()[0]); });
  schedule_circuits(a, omega_two_phase_schedule);
  a.sweep = mesh_sweep(omega_two_phase_sweep);
  return a;
}());

}  // namespace

}  // namespace fixroute
