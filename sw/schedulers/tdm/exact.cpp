// The least period of a small TDM schedule, proven (docs/tdm.md, "tdm-exact"): a schedule
// from the default heuristic gives the first period; then, one slot shorter at a time, a
// SAT solver (CaDiCaL) is asked whether every phit can take one of its flow's shortest
// paths at one slot with no router output, injection or ejection used twice in a slot
// modulo the period (a variable per phit, path and slot; exactly one per phit; at most one
// per cell). Unsatisfiable: the period before is the minimum among shortest-path
// schedules, and the tables say so (exact_lower_bound). Out of time: the gap stays, said.
//
// On square 2D meshes and tori a schedule that turns with the network is asked for first:
// a quarter turn of every phit (source, destination, path) is the phit injected a quarter
// period later (periods that are multiples of 4).
// Only one flow of each orbit is modelled, a quarter of the variables; where that model
// has no schedule or is not settled in three quarters of the time, the whole model is asked.
#include <fmt/format.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "sw/core/algorithm.h"
#include "sw/core/collectives.h"
#include "sw/core/errors.h"
#include "sw/kinds/tdm/bounds.h"
#include "sw/schedulers/exact_descent.h"
#include "sw/schedulers/sat_model.h"
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

// A turn of the network that maps the traffic onto itself, used `order` times over one
// period: turn j takes node v to node[j][v], a port p to port[j][p], the rep flow r to
// flow[j][r] and a slot to slot + j * period / order. The identity (order 1) models every
// phit.
struct Turning {
  int order = 1;
  std::vector<std::vector<int>> node, port;
  std::vector<std::vector<size_t>> flow;
  std::vector<size_t> reps;  // one flow of each orbit
};

// The quarter turn of a square 2D mesh or torus, node (r, c) -> (c, n-1-r): a move +r
// becomes -c, -r becomes +c, +c becomes +r, -c becomes -r (ports 0..3 = +r, -r, +c, -c).
// Empty for every other network.
std::vector<int> quarter_turn(const Topology& t, std::vector<int>& port) {
  const std::vector<int>& dims = t.dims();
  if ((t.kind() != TopologyKind::Mesh && t.kind() != TopologyKind::Torus) || dims.size() != 2 || dims[0] != dims[1] ||
      dims[0] < 3)
    return {};
  const int n = dims[0];
  std::vector<int> node(static_cast<size_t>(t.num_nodes()));
  for (int v = 0; v < t.num_nodes(); ++v) node[static_cast<size_t>(v)] = (v % n) * n + (n - 1 - v / n);
  port = {3, 2, 0, 1};
  for (int v = 0; v < t.num_nodes(); ++v)  // a turn keeps every link a link
    for (int p = 0; p < t.num_ports(); ++p) {
      const int u = t.neighbour(v, p);
      const int turned = t.neighbour(node[static_cast<size_t>(v)], port[static_cast<size_t>(p)]);
      if ((u < 0) != (turned < 0) || (u >= 0 && turned != node[static_cast<size_t>(u)]))
        throw std::logic_error("a quarter turn that is not a symmetry of " + t.spec());
    }
  return node;
}

Turning identity(const Topology& t, size_t flows) {
  Turning none;
  none.node.emplace_back(static_cast<size_t>(t.num_nodes()));
  for (int v = 0; v < t.num_nodes(); ++v) none.node[0][static_cast<size_t>(v)] = v;
  none.port.emplace_back(static_cast<size_t>(t.num_ports()));
  for (int p = 0; p < t.num_ports(); ++p) none.port[0][static_cast<size_t>(p)] = p;
  none.flow.emplace_back(flows);
  for (size_t f = 0; f < flows; ++f) none.flow[0][f] = none.reps.emplace_back(f);
  return none;
}

// The turning of the network and traffic for `period`: the quarter turn four times, a
// quarter period apart; nullopt where the period is not a multiple of 4, the network has no
// quarter turn, or a flow's turns are not four other flows of its phits.
std::optional<Turning> turning_for(const Topology& t, const std::vector<TdmFlow>& flows, int period) {
  std::vector<int> port;
  const std::vector<int> quarter = quarter_turn(t, port);
  if (quarter.empty() || period % 4 != 0) return std::nullopt;
  Turning turning;
  turning.order = 4;
  turning.node.assign(1, std::vector<int>(quarter.size()));
  for (size_t v = 0; v < quarter.size(); ++v) turning.node[0][v] = static_cast<int>(v);
  turning.port.assign(1, {0, 1, 2, 3});
  for (int j = 1; j < turning.order; ++j) {
    std::vector<int> node = turning.node.back(), ports = turning.port.back();
    for (int& v : node) v = quarter[static_cast<size_t>(v)];
    for (int& p : ports) p = port[static_cast<size_t>(p)];
    turning.node.push_back(std::move(node));
    turning.port.push_back(std::move(ports));
  }
  std::map<std::pair<int, int>, size_t> flow_of;
  for (size_t f = 0; f < flows.size(); ++f)
    if (!flow_of.emplace(std::make_pair(flows[f].src, flows[f].dst), f).second) return std::nullopt;
  turning.flow.assign(static_cast<size_t>(turning.order), {});
  std::vector<bool> seen(flows.size(), false);
  for (size_t f = 0; f < flows.size(); ++f) {
    if (seen[f]) continue;
    for (int j = 0; j < turning.order; ++j) {
      const std::vector<int>& node = turning.node[static_cast<size_t>(j)];
      const auto image = flow_of.find({node[static_cast<size_t>(flows[f].src)], node[static_cast<size_t>(flows[f].dst)]});
      if (image == flow_of.end() || seen[image->second] || flows[image->second].phits != flows[f].phits)
        return std::nullopt;
      seen[image->second] = true;
      turning.flow[static_cast<size_t>(j)].push_back(image->second);
    }
    turning.reps.push_back(f);
  }
  return turning;
}

struct Choice {
  size_t rep;  // index into the turning's reps
  size_t path;
  int slot;
};

// A schedule of every phit of the turning's reps at `period`, or nullopt: unsatisfiable
// (`proven` true) or out of time (`proven` false).
std::optional<std::vector<Choice>> solve_at(const Topology& t, const std::vector<TdmFlow>& flows,
                                            const std::vector<std::vector<std::vector<int>>>& paths,
                                            const Turning& turning, int period, unsigned milliseconds,
                                            bool& proven) {
  SatModel model;
  const int ports = t.num_ports();
  std::map<std::tuple<int, int, int>, std::vector<int>> cells;  // (node, slot, resource) -> its users
  std::vector<Choice> choices;
  std::vector<int> vars;
  auto use = [&](int node, int64_t slot, int resource, int x) {
    cells[std::make_tuple(node, static_cast<int>(slot % period), resource)].push_back(x);
  };
  const int64_t per_turn = period / turning.order;
  bool first = true;
  for (size_t r = 0; r < turning.reps.size(); ++r) {
    const TdmFlow& f = flows[turning.reps[r]];
    const std::vector<std::vector<int>>& options = paths[turning.reps[r]];
    for (int phit = 0; phit < f.phits; ++phit) {
      std::vector<int> mine;
      for (size_t k = 0; k < options.size(); ++k)
        for (int s = 0; s < (first ? 1 : period); ++s) {  // the first phit at slot 0: a schedule shifted is one too
          const int x = model.variable();
          mine.push_back(x);
          choices.push_back({r, k, s});
          vars.push_back(x);
          for (int j = 0; j < turning.order; ++j) {  // the phit and its turns
            const std::vector<int>& port = turning.port[static_cast<size_t>(j)];
            int v = turning.node[static_cast<size_t>(j)][static_cast<size_t>(f.src)];
            int64_t at = s + j * per_turn;
            use(v, at, ports + 1, x);
            for (int p : options[k]) {
              const int turned = port[static_cast<size_t>(p)];
              use(v, at, turned, x);
              v = t.neighbour(v, turned);
              ++at;
            }
            use(v, at, ports, x);
          }
        }
      model.exactly_one(mine);
      first = false;
    }
  }
  // Implied, said outright (the solver then sees early that a cell left idle costs one it
  // cannot make up; docs/tdm.md): a node injects and ejects its flows' phits in `period`
  // slots, and on meshes and tori the arcs of port p out of the nodes at coordinate c of
  // p's dimension -- a slice every shortest path of a flow crosses the same number of times
  // (say once, or never) -- carry exactly the phits that cross them; so at most the rest
  // of each group's (cell, slot) pairs stay idle.
  std::map<std::pair<int, int>, std::vector<std::tuple<int, int>>> groups;  // (resource, key) -> (node, resource) cells
  std::map<std::pair<int, int>, int64_t> load;
  std::set<std::pair<int, int>> mixed;  // slices some flow crosses a varying number of times
  const bool sliced = t.kind() == TopologyKind::Mesh || t.kind() == TopologyKind::Torus;
  auto slice = [&](int node, int port) { return std::make_pair(port, t.coords(node)[static_cast<size_t>(port / 2)]); };
  for (int v = 0; v < t.num_nodes(); ++v) {
    groups[{ports + 1, v}].push_back({v, ports + 1});
    groups[{ports, v}].push_back({v, ports});
    if (sliced)
      for (int p = 0; p < ports; ++p)
        if (t.neighbour(v, p) >= 0) groups[slice(v, p)].push_back({v, p});
  }
  for (size_t f = 0; f < flows.size(); ++f) {
    load[{ports + 1, flows[f].src}] += flows[f].phits;
    load[{ports, flows[f].dst}] += flows[f].phits;
    if (!sliced) continue;
    std::map<std::pair<int, int>, int> first_crossings;
    for (size_t k = 0; k < paths[f].size(); ++k) {
      std::map<std::pair<int, int>, int> crossings;
      int v = flows[f].src;
      for (int p : paths[f][k]) {
        ++crossings[slice(v, p)];
        v = t.neighbour(v, p);
      }
      if (k == 0) first_crossings = crossings;
      else if (crossings != first_crossings)
        for (const auto& c : {crossings, first_crossings})
          for (const auto& [key, n] : c) mixed.insert(key);
    }
    for (const auto& [key, n] : first_crossings) load[key] += static_cast<int64_t>(n) * flows[f].phits;
  }
  for (const auto& [key, members] : groups) {
    if (mixed.count(key)) continue;
    const int64_t idle_at_most = static_cast<int64_t>(members.size()) * period - load[key];
    if (idle_at_most >= static_cast<int64_t>(members.size()) * period) continue;  // nothing crosses: says nothing
    std::vector<int> idle;
    for (const auto& [node, resource] : members)
      for (int slot = 0; slot < period; ++slot) {
        const int cell_idle = model.variable();
        std::vector<int> users;
        if (const auto it = cells.find(std::make_tuple(node, slot, resource)); it != cells.end()) users = it->second;
        for (int x : users) model.clause({-cell_idle, -x});
        users.push_back(cell_idle);
        model.clause(users);
        idle.push_back(cell_idle);
      }
    model.at_most(idle, static_cast<int>(std::max<int64_t>(0, idle_at_most)));
  }
  for (auto& [key, users] : cells) model.at_most_one(std::move(users));
  return chosen_by_sat(model, milliseconds, vars, choices, proven);
}

struct Found {
  std::vector<Choice> choices;
  Turning turning;
};

// A period's schedule: the turning model first (three quarters of the time: a quarter of the
// variables, and where it finds no schedule the whole model seldom settles; its "none" proves
// nothing),
// then the whole model with the time left.
std::optional<Found> solve_period(const Topology& t, const std::vector<TdmFlow>& flows,
                                  const std::vector<std::vector<std::vector<int>>>& paths, int period,
                                  unsigned milliseconds, bool& proven) {
  const SearchDeadline deadline(milliseconds / 1000.0);
  if (std::optional<Turning> turning = turning_for(t, flows, period)) {
    bool none = false;
    if (auto found = solve_at(t, flows, paths, *turning, period, milliseconds / 4 * 3, none))
      return Found{std::move(*found), std::move(*turning)};
  }
  Turning whole = identity(t, flows.size());
  const unsigned left = deadline.milliseconds_left();
  if (left == 0) return std::nullopt;
  if (auto found = solve_at(t, flows, paths, whole, period, left, proven)) return Found{std::move(*found), std::move(whole)};
  return std::nullopt;
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
  int64_t phits = 0, variables = 0;
  for (size_t f = 0; f < flows.size(); ++f) {
    const std::vector<int> to_dst = t.distances_from(flows[f].dst);
    std::vector<int> ports;
    shortest_paths(t, flows[f].src, flows[f].dst, to_dst, ports, paths[f]);
    phits += flows[f].phits;
    variables += static_cast<int64_t>(paths[f].size()) * flows[f].phits * first.period;
  }
  if (variables > kMaxVariables)
    throw InputError(fmt::format("the exact model of {} would have {} variables, more than {}: too large to prove",
                                 t.spec(), variables, kMaxVariables));
  const double seconds = problem.budget_seconds > 0 ? problem.budget_seconds : kSecondsInAll;
  const ExactDescent<Found> d = descend_exactly<Found>(
      first.period, bound, seconds, "the heuristic's period is the bound",
      [&](int64_t period, unsigned milliseconds, bool& proven) {
        return solve_period(t, flows, paths, static_cast<int>(period), milliseconds, proven);
      },
      [](int64_t period) { return fmt::format("period {}", period); }, [](int64_t) { return std::string(); });
  const int period = static_cast<int>(d.count);
  const std::optional<Found>& best = d.best;
  const std::string& verdict = d.verdict;
  // Proven least: below it impossible, or the bound.
  const int proven_bound = d.proven_impossible || period <= bound ? period : 0;
  const std::string turned =
      best && best->turning.order > 1
          ? fmt::format(" (a schedule that turns with the network: {} turns a period)", best->turning.order)
          : "";
  const std::string construction =
      fmt::format("{} phits on shortest paths (SAT, CaDiCaL): period {}{} (from {}'s {}), bound {}; {}", phits, period,
                  turned, heuristic.name, first.period, bound, verdict);
  if (!best) {  // the heuristic's tables stand
    TdmTables t2 = first;
    t2.algorithm = "tdm-exact";
    t2.construction = construction;
    t2.exact_lower_bound = proven_bound;
    return std::make_shared<TdmTables>(std::move(t2));
  }
  SlotSchedule schedule(t, period);
  const Turning& turning = best->turning;
  for (const Choice& c : best->choices)
    for (int j = 0; j < turning.order; ++j) {  // the phit and its turns
      const size_t f = turning.flow[static_cast<size_t>(j)][c.rep];
      std::vector<int> ports = paths[turning.reps[c.rep]][c.path];
      for (int& p : ports) p = turning.port[static_cast<size_t>(j)][static_cast<size_t>(p)];
      schedule.place(static_cast<int>(f), flows[f].src, ports, (c.slot + j * (period / turning.order)) % period);
    }
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
  a.summary = "TDM slot tables of the least period among shortest-path schedules, proven by a SAT solver (CaDiCaL) where it "
              "finishes in 60 s (networks up to 64 nodes; docs/tdm.md)";
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
