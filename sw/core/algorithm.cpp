#include "algorithm.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdexcept>

#include "collectives.h"
#include "errors.h"

namespace fixroute {

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
  algorithm_registry().push_back(std::move(a));
}

const Algorithm& find_algorithm(const Problem& problem, const std::string& name) {
  const Collective& collective = find_collective(problem.collective);  // an unknown one is reported as such
  collective.check_options(problem);
  std::vector<std::string> applicable;
  const Algorithm* by_default = nullptr;
  std::string default_refusal;
  for (const Algorithm& a : algorithm_registry()) {
    if (a.collective != collective.name) continue;
    // Combining routers (--combining) and the others run different algorithms.
    if (find_router_kind(a.router_kind).combines != problem.port_model.combining) continue;
    const std::string why = a.unsupported(problem);
    if (a.name == name || (!name.empty() && std::find(a.aliases.begin(), a.aliases.end(), name) != a.aliases.end())) {
      if (!why.empty())
        throw InputError(fmt::format("algorithm '{}' does not run on {}: {}", a.name, problem.topology.spec(), why));
      return a;
    }
    const bool is_default = a.is_default(problem);
    if (why.empty()) {
      applicable.push_back(a.name);
      if (!by_default && is_default) by_default = &a;
    } else if (is_default && default_refusal.empty()) {
      default_refusal = fmt::format("algorithm '{}' does not run on {}: {}", a.name, problem.topology.spec(), why);
    }
  }
  const std::string accepted = applicable.empty() ? "none" : fmt::format("{}", fmt::join(applicable, ", "));
  if (name.empty()) {
    if (by_default) return *by_default;
    if (!default_refusal.empty()) throw InputError(default_refusal);
    throw InputError(fmt::format("no algorithm for {} on {} ({}); accepted: {}", collective.name,
                                 problem.topology.spec(), problem.port_model.label(), accepted));
  }
  throw InputError(fmt::format("unknown algorithm '{}' for {} on {}; accepted: {}", name, collective.name,
                               problem.topology.spec(), accepted));
}

const Algorithm* registered_algorithm(const std::string& name, const std::string& collective) {
  for (const Algorithm& a : algorithm_registry())
    if (a.name == name && a.collective == collective) return &a;
  return nullptr;
}

std::optional<int64_t> papers_count(const Algorithm& algorithm, const Problem& problem) {
  if (std::optional<int64_t> paper = algorithm.paper_formula(problem)) return paper;
  return algorithm.formula(problem);
}

}  // namespace fixroute
