// The least period of a small TDM schedule, proven (docs/tdm.md, "tdm-exact"): a schedule
// from the default heuristic gives the first period; then, one slot shorter at a time,
// z3 is asked whether every phit can take one of its flow's shortest paths at one slot with
// no router output, injection or ejection used twice in a slot modulo the period (a
// pseudo-Boolean model: a variable per phit, path and slot; exactly one per phit; at most
// one per cell). Unsatisfiable: the period before is the minimum among shortest-path
// schedules, and the tables say so (exact_lower_bound). Out of time: the gap stays, said.
#include <fmt/format.h>
#include <z3++.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

#include "sw/core/algorithm.h"
#include "sw/core/collectives.h"
#include "sw/core/errors.h"
#include "sw/kinds/tdm/bounds.h"
#include "sw/schedulers/exact_descent.h"
#include "sw/schedulers/tdm/slot_schedule.h"

namespace fixroute {
namespace {

constexpr int kMaxExactNodes = 64;
constexpr int kMaxPathsPerFlow = 64;
constexpr int64_t kMaxVariables = 400000;
constexpr double kSecondsInAll = 60;  // unless --budget says

// Every shortest path from src to dst as ports (at most kMaxPathsPerFlow).
void shortest_paths(const Topology& t, int v, int dst, const std::vector<int>& to_dst, std::vector<int>& ports,
                    std::vector<std::vector<int>>& out) {
  if (out.size() >= static_cast<size_t>(kMaxPathsPerFlow)) return;
  if (v == dst) {
    out.push_back(ports);
    return;
  }
  for (int p = 0; p < t.num_ports(); ++p) {
    const int u = t.neighbour(v, p);
    if (u < 0 || to_dst[static_cast<size_t>(u)] != to_dst[static_cast<size_t>(v)] - 1) continue;
    ports.push_back(p);
    shortest_paths(t, u, dst, to_dst, ports, out);
    ports.pop_back();
  }
}

struct Choice {
  size_t chain, path;
  int slot;
};

// A schedule of every chain at `period`, or nullopt: unsatisfiable (`proven` true) or out
// of time (`proven` false).
std::optional<std::vector<Choice>> solve_at(const Topology& t, const std::vector<TdmFlow>& flows,
                                            const std::vector<size_t>& chain_flow,
                                            const std::vector<std::vector<std::vector<int>>>& paths, int period,
                                            unsigned milliseconds, bool& proven) {
  z3::context ctx;
  z3::solver solver(ctx);
  z3::params params(ctx);
  params.set("timeout", milliseconds);
  solver.set(params);
  const int ports = t.num_ports();
  std::map<std::tuple<int, int, int>, z3::expr_vector> cells;  // (node, slot, resource) -> its users
  std::vector<Choice> choices;
  std::vector<z3::expr> vars;
  auto use = [&](int node, int64_t slot, int resource, const z3::expr& x) {
    const auto key = std::make_tuple(node, static_cast<int>(slot % period), resource);
    auto at = cells.find(key);
    if (at == cells.end()) at = cells.emplace(key, z3::expr_vector(ctx)).first;
    at->second.push_back(x);
  };
  for (size_t c = 0; c < chain_flow.size(); ++c) {
    const TdmFlow& f = flows[chain_flow[c]];
    z3::expr_vector mine(ctx);
    const std::vector<std::vector<int>>& options = paths[chain_flow[c]];
    for (size_t k = 0; k < options.size(); ++k)
      for (int s = 0; s < (c == 0 ? 1 : period); ++s) {  // chain 0 at slot 0: a schedule shifted is one too
        const z3::expr x = ctx.bool_const(fmt::format("x_{}_{}_{}", c, k, s).c_str());
        mine.push_back(x);
        choices.push_back({c, k, s});
        vars.push_back(x);
        use(f.src, s, ports + 1, x);
        int v = f.src;
        int64_t at = s;
        for (int p : options[k]) {
          use(v, at, p, x);
          v = t.neighbour(v, p);
          ++at;
        }
        use(v, at, ports, x);
      }
    solver.add(z3::atleast(mine, 1));
    solver.add(z3::atmost(mine, 1));
  }
  for (auto& [key, users] : cells)
    if (users.size() > 1) solver.add(z3::atmost(users, 1));
  return chosen_by_z3(solver, vars, choices, proven);
}

std::string exact_unsupported(const Problem& p) {
  if (p.topology.num_nodes() > kMaxExactNodes)
    return fmt::format("it proves periods of networks up to {} nodes", kMaxExactNodes);
  return tdm_unsupported(p, kMaxExactNodes);
}

std::shared_ptr<const Tables> exact_build(const Problem& problem) {
  const Topology& t = problem.topology;
  // The first period: the heuristic schedule of the default algorithm that is not this one.
  const Algorithm& heuristic = find_algorithm(problem, tdm_default_heuristic(problem));
  Problem for_heuristic = problem;  // the budget is this search's; the seed is the heuristic's
  for_heuristic.budget_seconds = 0;
  const TdmTables first = as_kind<TdmTables>(*heuristic.build(for_heuristic));
  const std::vector<TdmFlow>& flows = first.flows;
  const int64_t bound = tdm_period_bounds(t, flows).best();
  std::vector<std::vector<std::vector<int>>> paths(flows.size());
  std::vector<size_t> chain_flow;
  int64_t variables = 0;
  for (size_t f = 0; f < flows.size(); ++f) {
    const std::vector<int> to_dst = t.distances_from(flows[f].dst);
    std::vector<int> ports;
    shortest_paths(t, flows[f].src, flows[f].dst, to_dst, ports, paths[f]);
    chain_flow.insert(chain_flow.end(), static_cast<size_t>(flows[f].phits), f);
    variables += static_cast<int64_t>(paths[f].size()) * flows[f].phits * first.period;
  }
  if (variables > kMaxVariables)
    throw InputError(fmt::format("the exact model of {} would have {} variables, more than {}: too large to prove",
                                 t.spec(), variables, kMaxVariables));
  const double seconds = problem.budget_seconds > 0 ? problem.budget_seconds : kSecondsInAll;
  const ExactDescent<std::vector<Choice>> d = descend_exactly<std::vector<Choice>>(
      first.period, bound, seconds, "the heuristic's period is the bound",
      [&](int64_t period, unsigned milliseconds, bool& proven) {
        return solve_at(t, flows, chain_flow, paths, static_cast<int>(period), milliseconds, proven);
      },
      [](int64_t period) { return fmt::format("period {}", period); }, [](int64_t) { return std::string(); });
  const int period = static_cast<int>(d.count);
  const std::optional<std::vector<Choice>>& best = d.best;
  const std::string& verdict = d.verdict;
  // Proven least: below it impossible, or the bound.
  const int proven_bound = d.proven_impossible || period <= bound ? period : 0;
  const std::string construction =
      fmt::format("{} phits on shortest paths (z3): period {} (from {}'s {}), bound {}; {}", chain_flow.size(), period,
                  heuristic.name, first.period, bound, verdict);
  if (!best) {  // the heuristic's tables stand
    TdmTables t2 = first;
    t2.algorithm = "tdm-exact";
    t2.construction = construction;
    t2.exact_lower_bound = proven_bound;
    return std::make_shared<TdmTables>(std::move(t2));
  }
  SlotSchedule schedule(t, period);
  for (const Choice& c : *best)
    schedule.place(static_cast<int>(chain_flow[c.chain]), flows[chain_flow[c.chain]].src,
                   paths[chain_flow[c.chain]][c.path], c.slot);
  TdmTables tables = schedule.tables(problem, flows, "tdm-exact", construction);
  tables.collective = first.collective;
  tables.exact_lower_bound = proven_bound;
  return std::make_shared<TdmTables>(std::move(tables));
}

Algorithm exact_for(const char* collective) {
  Algorithm a;
  a.name = "tdm-exact";
  a.collective = collective;
  a.router_kind = kTdmKind;
  a.summary = "TDM slot tables of the least period among shortest-path schedules, proven by z3 where it finishes "
              "in 60 s (networks up to 64 nodes; docs/tdm.md)";
  a.unsupported = exact_unsupported;
  a.takes_budget = true;
  a.by_name_only = true;
  a.aliases = {"exact"};  // --exact
  a.takes_seed = true;
  a.formula = [](const Problem&) { return std::optional<int64_t>{}; };
  a.build = exact_build;
  a.sweep = [](int) { return std::vector<SweepCase>{}; };
  return a;
}

const AlgorithmRegistrar exact_total_exchange(exact_for("total-exchange"));
const AlgorithmRegistrar exact_flows(exact_for("flows"));

}  // namespace
}  // namespace fixroute
