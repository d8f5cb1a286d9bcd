#include "registry.h"

#include <fmt/format.h>

#include <stdexcept>

#include "../errors.h"
#include "../topology.h"

namespace fixroute {

const std::vector<std::pair<std::string, std::string>>& circuit_collectives() {
  static const std::vector<std::pair<std::string, std::string>> all = {
      {"permutation", "circuit-switched mesh: every node's message to its image under --permutation"},
      {"broadcast", "circuit-switched mesh: the root's message (--root, default 0) to every node"},
      {"fan-in", "circuit-switched mesh: every node's value combined into the root (--root)"},
      {"prefix", "circuit-switched mesh: node i ends with the combination of the values of nodes 0..i"},
      {"fft", "circuit-switched mesh: the recursive FFT's splitting and perfect-shuffle permutations, level by level"},
  };
  return all;
}

bool is_circuit_collective(const std::string& name) {
  for (const auto& c : circuit_collectives())
    if (c.first == name) return true;
  return false;
}

std::vector<CircuitAlgorithm>& circuit_algorithm_registry() {
  static std::vector<CircuitAlgorithm> registry;
  return registry;
}

namespace {
std::string default_name(const CircuitDemand& demand) {
  if (demand.collective != "permutation") return "";
  if (demand.permutation.kind == "bpc") return "bpc-self-schedule";
  if (demand.permutation.kind == "omega") return "omega-two-phase";
  return "edge-colouring";
}
}  // namespace

const CircuitAlgorithm& find_circuit_algorithm(const std::string& name, const Topology& mesh,
                                               const CircuitDemand& demand) {
  require_mesh(mesh, demand.collective);
  const std::string wanted = name.empty() ? default_name(demand) : name;
  std::vector<std::string> applicable, refusals;
  for (const CircuitAlgorithm& a : circuit_algorithm_registry()) {
    if (a.collective != demand.collective) continue;
    std::string why = a.unsupported(mesh, demand);
    if (a.name == wanted || (wanted.empty() && why.empty())) {
      if (!why.empty())
        throw InputError(fmt::format("algorithm '{}' does not run on {}: {}", a.name, mesh.spec(), why));
      return a;
    }
    if (why.empty()) applicable.push_back(a.name);
    else refusals.push_back(fmt::format("{} {}", a.name, why));
  }
  if (wanted.empty())
    throw InputError(fmt::format("no algorithm for {} on {}: {}", demand.collective, mesh.spec(), fmt::join(refusals, "; ")));
  throw InputError(fmt::format("unknown algorithm '{}' for {} on {}; accepted: {}", wanted, demand.collective,
                               mesh.spec(), applicable.empty() ? "none" : fmt::format("{}", fmt::join(applicable, ", "))));
}

const CircuitAlgorithm* registered_circuit_algorithm(const std::string& name, const std::string& collective) {
  for (const CircuitAlgorithm& a : circuit_algorithm_registry())
    if (a.name == name && a.collective == collective) return &a;
  return nullptr;
}

CircuitSchedule build_schedule(const CircuitAlgorithm& algorithm, const Topology& mesh, const CircuitDemand& demand) {
  CircuitSchedule s = algorithm.schedule(mesh, demand);
  if (s.phase_starts.empty() || s.phase_starts.front() != 1) s.phase_starts.insert(s.phase_starts.begin(), 1);
  std::vector<std::string> conflicts = schedule_conflicts(mesh, s);
  if (!conflicts.empty())
    throw std::logic_error(fmt::format("{} produced a conflicting schedule: {}", algorithm.name, conflicts.front()));
  return s;
}

CircuitDemand make_circuit_demand(const Topology& mesh, const std::string& collective, const std::string& permutation,
                                  int root) {
  if (!is_circuit_collective(collective))
    throw InputError(fmt::format("'{}' is not a circuit-switched collective", collective));
  require_mesh(mesh, collective);
  CircuitDemand demand;
  demand.collective = collective;
  demand.root = root;
  if (collective == "permutation") {
    if (permutation.empty())
      throw InputError("the permutation collective needs --permutation (bpc:PI:A, transpose, bit-reversal, "
                       "perfect-shuffle, bit-complement, omega:FILE, file:FILE, random:SEED)");
    demand.permutation = parse_permutation(permutation, mesh);
  } else if (!permutation.empty()) {
    throw InputError(fmt::format("--permutation is for the permutation collective, not {}", collective));
  }
  if (root < 0 || root >= mesh.num_nodes())
    throw InputError(fmt::format("--root {} is not a node of {} (0..{})", root, mesh.spec(), mesh.num_nodes() - 1));
  return demand;
}

XbarTables circuit_tables(const CircuitAlgorithm& algorithm, const Topology& mesh, const CircuitDemand& demand) {
  XbarTables t = make_xbar_tables(mesh, build_schedule(algorithm, mesh, demand));
  t.collective = demand.collective;
  t.algorithm = algorithm.name;
  t.permutation = demand.permutation.dest;
  t.root = demand.root;
  return t;
}

}  // namespace fixroute
