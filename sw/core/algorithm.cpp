#include "algorithm.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <tuple>
#include <limits>
#include <system_error>
#include <stdexcept>

#include "collectives.h"
#include "errors.h"
#include "find_named.h"

namespace fixroute {

std::string example_file(const std::string& name) {
  const std::string path = std::string(FIXROUTE_EXAMPLES_DIR) + "/" + name;
  std::error_code error;
  return std::filesystem::is_regular_file(path, error) ? path : std::string();
}

std::vector<SweepCase> torus_2d_cases(int max_size, bool a_size_even) {
  std::vector<SweepCase> out;
  const int top = std::min(max_size, 16);
  for (int a = 3; a <= top; ++a)
    for (int b = 3; b <= top; ++b)
      if (!a_size_even || a % 2 == 0 || b % 2 == 0) out.push_back({fmt::format("torus:{}x{}", a, b), {}, ""});
  return out;
}

std::vector<Algorithm>& algorithm_registry() {
  static std::vector<Algorithm> registry;
  return registry;
}

AlgorithmRegistrar::AlgorithmRegistrar(Algorithm a) {
  if (a.name.empty() || a.collective.empty() || a.router_kind.empty() || a.summary.empty() || !a.unsupported ||
      !a.is_default || !a.formula || !a.paper_formula || !a.build || !a.sweep)
    throw std::logic_error(fmt::format("algorithm '{}' is registered with a field unset", a.name));
  // By router kind, then name and collective (find_named.h).
  register_in_order(algorithm_registry(), std::move(a),
                    [](const Algorithm& x) { return std::tie(x.router_kind, x.name, x.collective); });
}

namespace {

// The count a default is ranked by: the construction's formula, else the paper's; none
// known (or a formula that cannot be had for the case) ranks last.
int64_t ranking_count(const Algorithm& a, const Problem& problem) {
  try {
    if (std::optional<int64_t> count = a.formula(problem)) return *count;
    if (std::optional<int64_t> count = a.paper_formula(problem)) return *count;
  } catch (const InputError&) {
  }
  return std::numeric_limits<int64_t>::max();
}

}  // namespace

const Algorithm& find_algorithm(const Problem& problem, const std::string& name) {
  const Collective& collective = find_collective(problem.collective);  // an unknown one is reported as such
  collective.check_options(problem);
  std::vector<const Algorithm*> applicable;
  std::vector<std::string> applicable_names, refused, searches;
  for (const Algorithm& a : algorithm_registry()) {
    if (a.collective != collective_family(collective.name)) continue;
    // Combining routers (--combining) and the others run different algorithms.
    if (find_router_kind(a.router_kind).combines != problem.port_model.combining) continue;
    const std::string why = a.unsupported(problem);
    if (a.name == name || (!name.empty() && std::find(a.aliases.begin(), a.aliases.end(), name) != a.aliases.end())) {
      if (!why.empty())
        throw InputError(fmt::format("algorithm '{}' does not run on {}: {}", a.name, problem.topology.spec(), why));
      return a;
    }
    if (why.empty() && a.by_name_only) {
      searches.push_back(a.name);
    } else if (why.empty()) {
      applicable.push_back(&a);
      applicable_names.push_back(a.name);
    } else if (a.is_default(problem)) {
      refused.push_back(fmt::format("the paper's algorithm {} does not run there: {}", a.name, why));
    }
  }
  std::vector<std::string> accepted_names = applicable_names;
  accepted_names.insert(accepted_names.end(), searches.begin(), searches.end());
  const std::string accepted = accepted_names.empty() ? "none" : fmt::format("{}", fmt::join(accepted_names, ", "));
  if (name == "exact")  // --exact, where no exact search is registered for the collective and routers
    throw InputError(fmt::format("--exact: no exact search for {} ({}); accepted: {}", collective.name,
                                 problem.port_model.label(), accepted));
  if (!name.empty())
    throw InputError(fmt::format("unknown algorithm '{}' for {} on {}; accepted: {}", name, collective.name,
                                 problem.topology.spec(), accepted));
  if (applicable.empty()) {
    std::vector<std::string> all;
    for (const Algorithm& a : algorithm_registry())
      if (a.collective == collective_family(collective.name) &&
          find_router_kind(a.router_kind).combines == problem.port_model.combining)
        all.push_back(a.name);
    if (!searches.empty())
      throw InputError(fmt::format("no construction runs {} on {} ({}); the exact search {} may find one "
                                   "(--algorithm {}, in its --budget)",
                                   collective.name, problem.topology.spec(), problem.port_model.label(),
                                   searches.front(), searches.front()));
    throw InputError(fmt::format("no algorithm runs {} on {} ({}){}{}; the algorithms for it ({}) each refuse it "
                                 "(--algorithm NAME says why)",
                                 collective.name, problem.topology.spec(), problem.port_model.label(),
                                 refused.empty() ? "" : ": ", refused.empty() ? "" : refused.front(),
                                 all.empty() ? "none" : fmt::format("{}", fmt::join(all, ", "))));
  }
  // The default: the fewest steps among those that run, the paper's algorithm first among
  // equals, then the registry's order (router kind, name). Only algorithms whose nodes start
  // with as many packets as the paper's (else the fewest) compete: more packets a node is
  // another demand.
  if (applicable.size() == 1) return *applicable.front();
  int packets_per_node = std::numeric_limits<int>::max();
  for (const Algorithm* a : applicable) packets_per_node = std::min(packets_per_node, a->packets_per_node);
  for (const Algorithm* a : applicable)
    if (a->is_default(problem)) {
      packets_per_node = a->packets_per_node;
      break;
    }
  const Algorithm* best = nullptr;
  int64_t best_count = 0;
  bool best_is_default = false;
  for (const Algorithm* a : applicable) {
    if (a->packets_per_node != packets_per_node) continue;
    const int64_t count = ranking_count(*a, problem);
    const bool is_default = a->is_default(problem);
    if (!best || count < best_count || (count == best_count && is_default && !best_is_default)) {
      best = a;
      best_count = count;
      best_is_default = is_default;
    }
  }
  return *best;
}

void check_search_options(const Problem& problem, const Algorithm& algorithm) {
  if (problem.budget_seconds > 0 && !algorithm.takes_budget)
    throw InputError(fmt::format("--budget is for the searching schedulers (the TDM heuristics and the exact searches); {} takes no time budget",
                                 algorithm.name));
  if (problem.seed != 0 && !algorithm.takes_seed)
    throw InputError(fmt::format("--seed is for the schedulers with random choices (the TDM ones); {} makes none",
                                 algorithm.name));
}

const Algorithm* registered_algorithm(const std::string& name, const std::string& collective) {
  for (const Algorithm& a : algorithm_registry())
    if (a.name == name && a.collective == collective_family(collective)) return &a;
  return nullptr;
}

std::optional<int64_t> papers_count(const Algorithm& algorithm, const Problem& problem) {
  if (std::optional<int64_t> paper = algorithm.paper_formula(problem)) return paper;
  return algorithm.formula(problem);
}

}  // namespace fixroute
