// The circuit-switched schedulers' side of the algorithm registry (core/algorithm.h): the
// demand a problem makes on the mesh, how a scheduler of per-step circuits becomes an
// Algorithm's `build` (crossbar tables), and typed access for the tests and the tools.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sw/core/algorithm.h"
#include "sw/kinds/crossbar/circuit.h"
#include "sw/schedulers/circuit/permutation.h"
#include "sw/kinds/crossbar/tables.h"

namespace fixroute {

class Topology;

// What a circuit-switched run must achieve (verify/circuit_scoreboard.h checks it).
struct CircuitDemand {
  std::string collective;   // permutation, broadcast, fan-in, prefix, fft
  Permutation permutation;  // for `permutation`
  int root = 0;             // for broadcast and fan-in
};

// The demand of a problem on a 2D mesh (the permutation parsed); throws InputError for a
// bad --permutation or a topology that is not a mesh.
CircuitDemand circuit_demand(const Problem& problem);

using CircuitScheduler = std::function<CircuitSchedule(const Topology&, const CircuitDemand&)>;

// Sets `algorithm.build` (name and collective set first) for a circuit scheduler: its
// schedule checked (every step link-disjoint: a scheduler bug is an internal error) and
// set up as crossbar tables that record the demand. build_schedule finds it again.
void schedule_circuits(Algorithm& algorithm, CircuitScheduler schedule);
// An Algorithm's `unsupported` for a circuit scheduler: a mesh, then `rule` on the demand.
std::function<std::string(const Problem&)> on_mesh(std::function<std::string(const Topology&, const CircuitDemand&)> rule);
// An Algorithm's `sweep` from mesh specs with their --permutation values, sides up to 16.
std::function<std::vector<SweepCase>(int)> mesh_sweep(
    std::function<std::vector<std::pair<std::string, std::string>>(int max_side)> cases);
// A count that depends on the mesh only.
std::function<std::optional<int64_t>(const Problem&)> on_mesh_count(std::function<std::optional<int64_t>(const Topology&)> count);

// The checked schedule of a circuit algorithm (as its `build` makes it).
CircuitSchedule build_schedule(const Algorithm& algorithm, const Topology& mesh, const CircuitDemand& demand);

// Typed access for the tests and tools: the demand from command-line values, the
// algorithm `name` (empty: the default) and its crossbar tables.
CircuitDemand make_circuit_demand(const Topology& mesh, const std::string& collective, const std::string& permutation,
                                  int root);
const Algorithm& find_circuit_algorithm(const std::string& name, const Topology& mesh, const CircuitDemand& demand);
XbarTables circuit_tables(const Algorithm& algorithm, const Topology& mesh, const CircuitDemand& demand);

}  // namespace fixroute
