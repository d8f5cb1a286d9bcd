#include "cosim.h"

#include <fmt/format.h>

#include "sw/core/algorithm.h"
#include "sw/core/errors.h"
#include "sw/core/find_named.h"

namespace fixroute {

std::vector<KindCosim>& kind_cosim_registry() {
  static std::vector<KindCosim> registry;
  return registry;
}

KindCosimRegistrar::KindCosimRegistrar(KindCosim c) {
  register_in_order(kind_cosim_registry(), std::move(c), [](const KindCosim& x) { return x.kind; });
}

CosimReport run_cosim_of_kind(const Topology& topology, const Tables& tables, const std::vector<Fault>& faults) {
  for (const KindCosim& c : kind_cosim_registry())
    if (c.kind == tables.kind()) return c.run(topology, tables, faults);
  throw InputError(fmt::format("cosim has no SystemC and RTL pair for {} routers", tables.kind()));
}

CosimVerdict run_cosim_case(const Problem& problem, const Algorithm& algorithm, const Tables& tables,
                            const std::vector<Fault>& faults) {
  CosimVerdict v;
  v.report = run_cosim_of_kind(problem.topology, tables, faults);
  // With faults the scoreboard judges what arrived (the two networks' common trace).
  if (!faults.empty() && v.report.agree && v.report.arrived)
    v.score = find_router_kind(tables.kind()).score(tables, problem.topology, algorithm.packets_per_node, *v.report.arrived);
  v.passed = v.report.agree && v.report.stuck.empty() && (!v.score || v.score->clean());
  return v;
}

}  // namespace fixroute
