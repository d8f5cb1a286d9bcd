#include "circuits.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "sw/core/collectives.h"
#include "sw/core/errors.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {

// The schedulers behind the circuit algorithms' `build`, by (collective, name).
std::map<std::pair<std::string, std::string>, CircuitScheduler>& schedulers() {
  static std::map<std::pair<std::string, std::string>, CircuitScheduler> all;
  return all;
}

CircuitSchedule checked_schedule(const std::string& name, const CircuitScheduler& schedule, const Topology& mesh,
                                 const CircuitDemand& demand) {
  CircuitSchedule s = schedule(mesh, demand);
  if (s.phase_starts.empty() || s.phase_starts.front() != 1) s.phase_starts.insert(s.phase_starts.begin(), 1);
  std::vector<std::string> conflicts = schedule_conflicts(mesh, s);
  if (!conflicts.empty())
    throw std::logic_error(fmt::format("{} produced a conflicting schedule: {}", name, conflicts.front()));
  return s;
}

XbarTables tables_of(const std::string& name, const CircuitScheduler& schedule, const Topology& mesh,
                     const CircuitDemand& demand) {
  XbarTables t = make_xbar_tables(mesh, checked_schedule(name, schedule, mesh, demand));
  t.collective = demand.collective;
  t.algorithm = name;
  t.permutation = demand.permutation.dest;
  t.root = demand.root;
  return t;
}

}  // namespace

CircuitDemand circuit_demand(const Problem& problem) {
  require_mesh(problem.topology, problem.collective);
  CircuitDemand demand;
  demand.collective = problem.collective;
  demand.root = problem.root;
  if (!problem.permutation.empty()) demand.permutation = parse_permutation(problem.permutation, problem.topology);
  return demand;
}

void schedule_circuits(Algorithm& algorithm, CircuitScheduler schedule) {
  if (algorithm.name.empty() || algorithm.collective.empty())
    throw std::logic_error("schedule_circuits needs the algorithm's name and collective first");
  schedulers()[{algorithm.collective, algorithm.name}] = schedule;
  algorithm.build = [name = algorithm.name, schedule](const Problem& p) -> std::shared_ptr<const Tables> {
    return std::make_shared<XbarTables>(tables_of(name, schedule, p.topology, circuit_demand(p)));
  };
}

std::function<std::string(const Problem&)> on_mesh(std::function<std::string(const Topology&, const CircuitDemand&)> rule) {
  return [rule = std::move(rule)](const Problem& p) -> std::string {
    if (p.topology.kind() != TopologyKind::Mesh || p.topology.dims().size() != 2)
      return fmt::format("{} runs on a circuit-switched mesh:RxC, not {}", p.collective, p.topology.spec());
    return rule(p.topology, circuit_demand(p));
  };
}

std::function<std::vector<SweepCase>(int)> mesh_sweep(
    std::function<std::vector<std::pair<std::string, std::string>>(int max_side)> cases) {
  return [cases = std::move(cases)](int max_size) {
    std::vector<SweepCase> out;
    for (const auto& [mesh, permutation] : cases(std::min(max_size, 16))) out.push_back({mesh, {}, permutation});
    return out;
  };
}

std::function<std::optional<int64_t>(const Problem&)> on_mesh_count(
    std::function<std::optional<int64_t>(const Topology&)> count) {
  return [count = std::move(count)](const Problem& p) { return count(p.topology); };
}

CircuitSchedule build_schedule(const Algorithm& algorithm, const Topology& mesh, const CircuitDemand& demand) {
  auto it = schedulers().find({algorithm.collective, algorithm.name});
  if (it == schedulers().end()) throw std::logic_error(fmt::format("'{}' schedules no circuits", algorithm.name));
  return checked_schedule(algorithm.name, it->second, mesh, demand);
}

CircuitDemand make_circuit_demand(const Topology& mesh, const std::string& collective, const std::string& permutation,
                                  int root) {
  const Problem problem{mesh, collective, {}, permutation, root};
  find_collective(collective).check_options(problem);
  return circuit_demand(problem);
}

const Algorithm& find_circuit_algorithm(const std::string& name, const Topology& mesh, const CircuitDemand& demand) {
  require_mesh(mesh, demand.collective);
  std::string permutation;
  if (demand.collective == "permutation") permutation = demand.permutation.text;
  return find_algorithm(Problem{mesh, demand.collective, {}, permutation, demand.root}, name);
}

XbarTables circuit_tables(const Algorithm& algorithm, const Topology& mesh, const CircuitDemand& demand) {
  auto it = schedulers().find({algorithm.collective, algorithm.name});
  if (it == schedulers().end()) throw std::logic_error(fmt::format("'{}' schedules no circuits", algorithm.name));
  return tables_of(algorithm.name, it->second, mesh, demand);
}

}  // namespace fixroute
