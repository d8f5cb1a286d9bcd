// The algorithm registry: every scheduler registers itself here, by name, from its own
// file, its fields set by name (docs/architecture.md "How to add an algorithm"). One
// registry for every router kind: an algorithm says which kind its tables are for.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sw/topology/port_model.h"
#include "sw/topology/topology.h"
#include "router_kind.h"

namespace fixroute {

// What a run asks for before an algorithm is chosen: the topology, the collective and the
// options that shape its demand.
struct Problem {
  Topology topology;
  std::string collective;
  PortModel port_model;     // store-and-forward port models (--ports, --duplex)
  std::string permutation;  // the permutation collective: the --permutation value
  int root = 0;             // broadcast and fan-in on the circuit-switched mesh: --root
  double budget_seconds = 0;  // --budget: the time a search may take (0: its own default)
  uint64_t seed = 0;          // --seed: a heuristic's random choices (0: its own, seeded by the period)
};

// A heuristic's seed for one attempt at `period`: the period alone without --seed (the
// schedules of earlier versions), mixed with the seed where one is given.
inline uint64_t attempt_seed(const Problem& problem, int64_t period) {
  return static_cast<uint64_t>(period) ^ (problem.seed * 0x9E3779B97F4A7C15ull);
}

// One case of the regression sweep (`fixroute sweep`).
struct SweepCase {
  SweepCase() = default;
  SweepCase(std::string topology_spec, PortModel ports = {}, std::string permutation_value = "",
            std::string collective_name = "")
      : topology(std::move(topology_spec)),
        port_model(ports),
        permutation(std::move(permutation_value)),
        collective(std::move(collective_name)) {}
  std::string topology;
  PortModel port_model;
  std::string permutation;  // the permutation collective's --permutation value
  std::string collective;   // the collective to run where not the algorithm's own (flows:FILE)
};

// The path of one of the project's example files (tests/graphs: graph and flows files) in
// the source tree this binary was built from, or "" where that tree is not at hand (an
// installed library): the sweep's rows for graph files.
std::string example_file(const std::string& name);

// The 2D tori torus:AxB with A, B from 3 to min(max_size, 16); with `a_size_even`, only
// those with A or B even.
std::vector<SweepCase> torus_2d_cases(int max_size, bool a_size_even);

struct Algorithm {
  std::string name;         // as given to --algorithm
  std::vector<std::string> aliases;  // other names --algorithm accepts for it (as an issue or paper names it)
  std::string collective;   // the collective it performs
  std::string router_kind;  // the routers its tables are for (core/router_kind.h)
  std::string summary;      // one line, citing the paper's section
  int packets_per_node = 1;  // packets each node starts with (gossip)
  // Why it does not run here, or "" when it does. Cheap and stateless: no construction.
  std::function<std::string(const Problem&)> unsupported;
  // True where it is the paper's algorithm for the case, the default when none is named.
  std::function<bool(const Problem&)> is_default = [](const Problem&) { return false; };
  // The step count the run must hit exactly: the paper's theorem where the tables are the
  // paper's construction, else the count the construction proves; nullopt where none.
  std::function<std::optional<int64_t>(const Problem&)> formula;
  // The paper's theorem as written, where `formula` is not it (a construction beyond the
  // paper, or an exact recurrence beside the paper's statement); nullopt elsewhere.
  std::function<std::optional<int64_t>(const Problem&)> paper_formula = [](const Problem&) {
    return std::optional<int64_t>{};
  };
  // The paper's count as printed, where a misprint makes it differ from `paper_formula`
  // (docs/formulas.md, Theorem 3 against Theorem 4): reported beside it, never judged.
  std::function<std::optional<int64_t>(const Problem&)> paper_as_printed = [](const Problem&) {
    return std::optional<int64_t>{};
  };
  // The auxiliary buffers per router the paper promises for its construction on this case
  // (the all-to-all broadcast paper's beta), nullopt where it promises none; reported
  // beside the buffers measured.
  std::function<std::optional<int64_t>(const Problem&)> paper_buffers = [](const Problem&) {
    return std::optional<int64_t>{};
  };
  // Why the construction's count is above the paper's theorem on this case, where it is
  // and the reason is known ("the laps need ..."); "" elsewhere. The sweep lists it.
  std::function<std::string(const Problem&)> above_paper_reason = [](const Problem&) { return std::string(); };
  // The tables (validated). Throws InputError where the construction cannot be made.
  std::function<std::shared_ptr<const Tables>(const Problem&)> build;
  // Whether its build takes Problem::budget_seconds (a search that goes on while time is
  // left) and Problem::seed (random choices); the others refuse them.
  bool takes_budget = false;
  bool takes_seed = false;
  // An exact search, whose time is its budget: run only when asked for by name, never as a
  // default (a refusal names it where it accepts the case).
  bool by_name_only = false;
  // The cases the regression sweep runs, with sizes up to `max_size`.
  std::function<std::vector<SweepCase>(int max_size)> sweep;
};

std::vector<Algorithm>& algorithm_registry();

struct AlgorithmRegistrar {
  explicit AlgorithmRegistrar(Algorithm a);  // checks that every field is set
};

// The algorithm named `name` for the problem; with an empty name, the default one.
// Throws InputError naming the accepted algorithms, or why the named one does not run.
const Algorithm& find_algorithm(const Problem& problem, const std::string& name);

// The algorithm registered as `name` for `collective` (as loaded tables record it), or
// nullptr: tables may name a scheduler this build does not have.
const Algorithm* registered_algorithm(const std::string& name, const std::string& collective);

// Refuses (InputError) a --budget the algorithm would not use.
void check_search_options(const Problem& problem, const Algorithm& algorithm);

// The paper's count for a case: `paper_formula` where set, else `formula`.
std::optional<int64_t> papers_count(const Algorithm& algorithm, const Problem& problem);

}  // namespace fixroute
