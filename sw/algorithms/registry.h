// The algorithm registry: every scheduling algorithm registers itself here, by name, from
// its own file in sw/algorithms/ (as BookSim2 registers routing functions). Adding one
// touches that file and its test; the CLI, the runner and the sweep find it by name.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "../port_model.h"
#include "../tables.h"

namespace fixroute {

class Topology;

struct SweepCase {
  std::string topology;
  PortModel port_model;
};

// The 2D tori torus:AxB with A, B from 3 to min(max_size, 16); with `a_size_even`, only
// those with A or B even.
std::vector<SweepCase> torus_2d_cases(int max_size, bool a_size_even);

struct Algorithm {
  std::string name;        // as given to --algorithm
  std::string collective;  // the collective it performs
  std::string summary;     // one line, citing the paper's section
  // Why it does not run on this topology, or "" when it does.
  std::function<std::string(const Topology&)> unsupported;
  // True where it is the paper's optimal algorithm, the default for the pair.
  std::function<bool(const Topology&)> is_default;
  // The paper's step count for this case, or nullopt where the paper states none.
  std::function<std::optional<int64_t>(const Topology&, const PortModel&)> formula;
  // The tables for all-port full-duplex routers; runners adapt them with apply_port_model.
  std::function<NetworkTables(const Topology&)> build;
  // The cases the regression sweep (`fixroute sweep`) runs, with sizes up to `max_size`.
  std::function<std::vector<SweepCase>(int max_size)> sweep;
  // Packets each node starts with (gossip algorithms; total exchange: unused).
  int packets_per_node = 1;
  // Optional: the paper's own count where `formula` is that of a construction beyond the
  // paper (reported beside it).
  std::function<std::optional<int64_t>(const Topology&)> paper_formula;
};

std::vector<Algorithm>& algorithm_registry();

struct AlgorithmRegistrar {
  explicit AlgorithmRegistrar(Algorithm a) { algorithm_registry().push_back(std::move(a)); }
};

// The algorithm named `name` for `collective` on `topology`; with an empty name, the
// default one. Throws InputError naming the accepted algorithms.
const Algorithm& find_algorithm(const std::string& collective, const std::string& name, const Topology& topology);

// Builds the tables of `algorithm` for `topology` under `model` (validated).
NetworkTables build_tables(const Algorithm& algorithm, const Topology& topology, const PortModel& model);

}  // namespace fixroute
