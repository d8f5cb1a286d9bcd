// The circuit-switched collectives and the registry of their schedulers, by name, each
// registering from its own file in sw/circuit/ (the circuit-switched counterpart of
// sw/algorithms/registry.h: a scheduler here produces per-step circuits, not port rules).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "circuit.h"
#include "permutation.h"
#include "xbar_tables.h"

namespace fixroute {

class Topology;

// What a circuit-switched run must achieve (tb/circuit_scoreboard.h checks it).
struct CircuitDemand {
  std::string collective;   // permutation, broadcast, fan-in, prefix
  Permutation permutation;  // for `permutation`
  int root = 0;             // for broadcast and fan-in
};

// The circuit-switched collectives, "name: one line" each.
const std::vector<std::pair<std::string, std::string>>& circuit_collectives();
bool is_circuit_collective(const std::string& name);

struct CircuitAlgorithm {
  std::string name;
  std::string collective;
  std::string summary;  // one line, citing the paper's section
  // Why it cannot schedule this demand on this mesh, or "".
  std::function<std::string(const Topology&, const CircuitDemand&)> unsupported;
  // The paper's routing-step count for the case, or nullopt where it states none.
  std::function<std::optional<int64_t>(const Topology&)> formula;
  std::function<CircuitSchedule(const Topology&, const CircuitDemand&)> schedule;
  // The sizes the regression sweep runs: "mesh:RxC" specs with their --permutation
  // values ("" for collectives without one).
  std::function<std::vector<std::pair<std::string, std::string>>(int max_side)> sweep;
  // Optional: the paper's own statement where `formula` is the exact count of its
  // recurrence (reported beside it).
  std::function<std::optional<int64_t>(const Topology&)> paper_formula;
};

std::vector<CircuitAlgorithm>& circuit_algorithm_registry();

struct CircuitAlgorithmRegistrar {
  explicit CircuitAlgorithmRegistrar(CircuitAlgorithm a) { circuit_algorithm_registry().push_back(std::move(a)); }
};

// The algorithm `name` for the demand; with an empty name the default: the paper's
// self-scheduling for its permutation class (BPC -> bpc-self-schedule, omega: ->
// omega-two-phase), edge-colouring for any other permutation, the paper's algorithm for
// the other collectives. Throws InputError naming the accepted ones.
const CircuitAlgorithm& find_circuit_algorithm(const std::string& name, const Topology& mesh,
                                               const CircuitDemand& demand);

// The algorithm registered as `name` for `collective` (as recorded in loaded tables), or
// nullptr: tables may name a scheduler this build does not have.
const CircuitAlgorithm* registered_circuit_algorithm(const std::string& name, const std::string& collective);

// Runs the scheduler and checks its result: every step link-disjoint, the demand's
// circuits all present (a scheduler bug is an internal error, not a result).
CircuitSchedule build_schedule(const CircuitAlgorithm& algorithm, const Topology& mesh, const CircuitDemand& demand);

// The demand of a run from its command-line values; throws InputError for a missing,
// misplaced or bad --permutation and for a root that is not a node.
CircuitDemand make_circuit_demand(const Topology& mesh, const std::string& collective, const std::string& permutation,
                                  int root);

// The crossbar tables of `algorithm`'s schedule, recording the demand they meet.
XbarTables circuit_tables(const CircuitAlgorithm& algorithm, const Topology& mesh, const CircuitDemand& demand);

}  // namespace fixroute
