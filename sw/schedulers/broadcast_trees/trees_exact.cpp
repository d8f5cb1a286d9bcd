// The fewest rounds of gossip without combining on a small network, proven by a SAT solver
// (docs/broadcast-trees.md, "trees-exact"): a heuristic gives the first count (rarest-first
// all-port, hamiltonian-pairs 1-port); then, one round fewer at a time, CaDiCaL decides whether
// N broadcast trees fit -- every node receives every other node's packet exactly once, from
// a neighbour that held it before that round; every link direction carries at most one
// packet a round (half-duplex: every link); 1-port, the links a round uses form a matching.
// Unsatisfiable: the count before is the minimum for every schedule of these routers, not
// only the heuristic's, and the tables say so; out of time: the gap is said. Where no
// heuristic runs (1-port on an odd number of nodes) the search climbs from the lower bound.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "sw/core/errors.h"
#include "sw/schedulers/broadcast_trees.h"
#include "sw/schedulers/combining.h"
#include "sw/schedulers/exact_descent.h"
#include "sw/schedulers/sat_model.h"
#include "sw/topology/topology.h"
#include "sw/verify/bounds.h"

namespace fixroute {
namespace {

constexpr int kMaxTreesExactNodes = 64;
constexpr double kTreesExactSeconds = 60;  // unless --budget says
// Rounds x link directions x origins: beyond this the model itself grows large
// (torus:4x4x4 half-duplex, 11 rounds: 270 000; 7 s to build under z3, the solver before).
constexpr int64_t kMaxTreesExactVariables = 200000;

struct Arc {
  int from, port, to;
  size_t back;  // the arc the other way along the same link
};

struct TreeSend {
  int round, arc, origin;
};

// Every packet delivered in `rounds` rounds, as sends, or nullopt: unsatisfiable (`proven`)
// or out of time.
std::optional<std::vector<TreeSend>> trees_in_rounds(const Topology& t, const std::vector<Arc>& arcs,
                                                     const std::vector<std::vector<int>>& distance, const PortModel& model,
                                                     int rounds, unsigned milliseconds, bool& proven) {
  const int n = t.num_nodes();
  SatModel sat;
  // send[(round * arcs + arc) * n + origin], a variable (0: none) only where the origin's
  // packet can be at the arc's tail before the round (its distance at most r - 1) and is not
  // the head's own.
  std::vector<int> send(static_cast<size_t>(rounds + 1) * arcs.size() * static_cast<size_t>(n), 0);
  auto at = [&](int r, size_t a, int o) -> int& {
    return send[(static_cast<size_t>(r) * arcs.size() + a) * static_cast<size_t>(n) + static_cast<size_t>(o)];
  };
  std::vector<TreeSend> meaning;
  std::vector<int> all;
  for (int r = 1; r <= rounds; ++r)
    for (size_t a = 0; a < arcs.size(); ++a)
      for (int o = 0; o < n; ++o) {
        const std::vector<int>& from_o = distance[static_cast<size_t>(o)];
        if (arcs[a].to == o || from_o[static_cast<size_t>(arcs[a].from)] > r - 1) continue;
        at(r, a, o) = sat.variable();
        meaning.push_back({r, static_cast<int>(a), o});
        all.push_back(at(r, a, o));
      }
  // Into each node, each other packet exactly once; by the time it is sent on, received.
  std::vector<std::vector<size_t>> arcs_into(static_cast<size_t>(n)), arcs_out_of(static_cast<size_t>(n));
  for (size_t a = 0; a < arcs.size(); ++a) {
    arcs_into[static_cast<size_t>(arcs[a].to)].push_back(a);
    arcs_out_of[static_cast<size_t>(arcs[a].from)].push_back(a);
  }
  for (int v = 0; v < n; ++v)
    for (int o = 0; o < n; ++o) {
      if (o == v) continue;
      std::vector<int> receipts;
      for (int r = 1; r <= rounds; ++r)
        for (size_t a : arcs_into[static_cast<size_t>(v)])
          if (at(r, a, o)) receipts.push_back(at(r, a, o));
      if (receipts.empty()) {  // too far for these rounds
        proven = true;
        return std::nullopt;
      }
      sat.exactly_one(receipts);
    }
  // held(v, o, r): v holds o after round r -- only if it did before or received it in r.
  // A send of o in round r needs its tail to hold o after round r - 1.
  std::vector<int> held(static_cast<size_t>(rounds + 1) * static_cast<size_t>(n) * static_cast<size_t>(n), 0);
  auto holds = [&](int v, int o, int r) -> int& {
    return held[(static_cast<size_t>(r) * static_cast<size_t>(n) + static_cast<size_t>(v)) * static_cast<size_t>(n) +
                static_cast<size_t>(o)];
  };
  for (int r = 1; r < rounds; ++r)
    for (int v = 0; v < n; ++v)
      for (int o = 0; o < n; ++o) {
        if (v == o) continue;
        std::vector<int> how;
        if (holds(v, o, r - 1)) how.push_back(holds(v, o, r - 1));
        for (size_t b : arcs_into[static_cast<size_t>(v)])
          if (at(r, b, o)) how.push_back(at(r, b, o));
        if (how.empty()) continue;  // cannot hold it yet
        holds(v, o, r) = sat.variable();
        how.push_back(-holds(v, o, r));  // held implies one of the ways
        sat.clause(how);
      }
  for (int r = 1; r <= rounds; ++r)
    for (size_t a = 0; a < arcs.size(); ++a)
      for (int o = 0; o < n; ++o) {
        if (!at(r, a, o) || arcs[a].from == o) continue;
        sat.only_if(at(r, a, o), holds(arcs[a].from, o, r - 1));
      }
  // One packet a round on each link direction (half-duplex: on each link).
  for (int r = 1; r <= rounds; ++r)
    for (size_t a = 0; a < arcs.size(); ++a) {
      std::vector<int> users;
      for (int o = 0; o < n; ++o)
        if (at(r, a, o)) users.push_back(at(r, a, o));
      if (model.half_duplex) {
        if (arcs[a].back < a) continue;  // each link once, with its other direction
        for (int o = 0; o < n; ++o)
          if (at(r, arcs[a].back, o)) users.push_back(at(r, arcs[a].back, o));
      }
      sat.at_most_one(std::move(users));
    }
  // 1-port: the links a round uses form a matching -- a node talks to one neighbour at most,
  // both ways full-duplex (the matching bound's model).
  if (model.one_port)
    for (int r = 1; r <= rounds; ++r) {
      std::vector<std::vector<int>> links_at(static_cast<size_t>(n));
      for (size_t a = 0; a < arcs.size(); ++a) {
        if (arcs[a].back < a) continue;  // each link once
        const int used = sat.variable();
        for (const size_t way : {a, arcs[a].back})
          for (int o = 0; o < n; ++o)
            if (at(r, way, o)) sat.clause({-at(r, way, o), used});
        links_at[static_cast<size_t>(arcs[a].from)].push_back(used);
        links_at[static_cast<size_t>(arcs[a].to)].push_back(used);
      }
      for (std::vector<int>& links : links_at) sat.at_most_one(std::move(links));
    }
  // Implied by the above, said outright (the solver then sees early that a round left idle
  // costs a reception it cannot make up later; generic-tree-exact's free slots likewise):
  // every node receives its n - 1 packets over `rounds` rounds on its in-arcs (1-port: one a
  // round), so at most rounds x capacity - (n - 1) of its (round, in-arc) slots stay idle.
  for (int v = 0; v < n; ++v) {
    const std::vector<size_t>& into = arcs_into[static_cast<size_t>(v)];
    std::vector<int> idle;
    for (int r = 1; r <= rounds; ++r) {
      // one slot a round (1-port), or one per in-arc
      for (size_t k = 0; k < (model.one_port ? 1 : into.size()); ++k) {
        std::vector<int> receipts;
        for (size_t j = 0; j < into.size(); ++j)
          if (model.one_port || j == k)
            for (int o = 0; o < n; ++o)
              if (at(r, into[j], o)) receipts.push_back(at(r, into[j], o));
        const int slot_idle = sat.variable();
        for (int x : receipts) sat.clause({-slot_idle, -x});
        receipts.push_back(slot_idle);
        sat.clause(receipts);
        idle.push_back(slot_idle);
      }
    }
    const int capacity = rounds * (model.one_port ? 1 : static_cast<int>(into.size()));
    sat.at_most(idle, std::max(0, capacity - (n - 1)));
  }
  // 1-port on a bipartite network with sides a > b: the larger side receives only from the
  // smaller, one packet a round from each of its nodes (the bipartite bound), so at most
  // rounds x b - a (n - 1) of the smaller side's (node, round) sends stay idle.
  if (model.one_port)
    if (const std::vector<int> colour = two_colouring(t); !colour.empty()) {
      const int ones = static_cast<int>(std::count(colour.begin(), colour.end(), 1));
      const int smaller = ones * 2 < n ? 1 : 0;
      const int b = smaller == 1 ? ones : n - ones, a = n - b;
      if (a > b) {
        std::vector<int> idle;
        for (int r = 1; r <= rounds; ++r)
          for (int v = 0; v < n; ++v) {
            if (colour[static_cast<size_t>(v)] != smaller) continue;
            std::vector<int> sends;
            for (size_t x : arcs_out_of[static_cast<size_t>(v)])
              for (int o = 0; o < n; ++o)
                if (at(r, x, o)) sends.push_back(at(r, x, o));
            const int send_idle = sat.variable();
            for (int x : sends) sat.clause({-send_idle, -x});
            sends.push_back(send_idle);
            sat.clause(sends);
            idle.push_back(send_idle);
          }
        sat.at_most(idle, std::max(0, rounds * b - a * (n - 1)));
      }
    }
  return chosen_by_sat(sat, milliseconds, all, meaning, proven);
}

// The heuristic whose count the descent starts from: rarest-first all-port, hamiltonian-pairs
// 1-port where it runs; none (nullptr): the search climbs from the bound instead.
const Algorithm* first_heuristic(const Problem& p) {
  const Algorithm* a = registered_algorithm(p.port_model.one_port ? "hamiltonian-pairs" : "rarest-first", "gossip");
  return a && a->unsupported(p).empty() ? a : nullptr;
}

std::shared_ptr<const Tables> trees_exact_build(const Problem& problem) {
  const Topology& t = problem.topology;
  const int n = t.num_nodes();
  std::vector<Arc> arcs;
  std::vector<size_t> arc_at(static_cast<size_t>(n) * static_cast<size_t>(t.num_ports()), SIZE_MAX);
  for (int u = 0; u < n; ++u)
    for (int q = 0; q < t.num_ports(); ++q)
      if (const int v = t.neighbour(u, q); v >= 0 && v != u) {
        arc_at[static_cast<size_t>(u) * static_cast<size_t>(t.num_ports()) + static_cast<size_t>(q)] = arcs.size();
        arcs.push_back({u, q, v, 0});
      }
  for (Arc& arc : arcs)
    arc.back = arc_at[static_cast<size_t>(arc.to) * static_cast<size_t>(t.num_ports()) +
                      static_cast<size_t>(t.reverse_port(arc.from, arc.port))];
  std::vector<std::vector<int>> distance(static_cast<size_t>(n));
  for (int v = 0; v < n; ++v) distance[static_cast<size_t>(v)] = t.distances_from(v);
  // Fewer rounds than the run's own lower bound (in-links, diameter, half-duplex links,
  // 1-port matchings) need no search.
  const int bound = static_cast<int>(all_to_all_bounds(t, problem.port_model).best());
  const double seconds = problem.budget_seconds > 0 ? problem.budget_seconds : kTreesExactSeconds;
  auto solve = [&](int64_t rounds, unsigned milliseconds, bool& proven) {
    return trees_in_rounds(t, arcs, distance, problem.port_model, static_cast<int>(rounds), milliseconds, proven);
  };
  auto name = [](int64_t rounds) { return fmt::format("{} rounds", rounds); };
  auto too_large = [&](int64_t rounds) {
    const int64_t variables = rounds * static_cast<int64_t>(arcs.size()) * n;
    return variables > kMaxTreesExactVariables
               ? fmt::format("a model of {} variables, more than {}", variables, kMaxTreesExactVariables)
               : std::string();
  };
  auto tables_of = [&](int rounds, const std::vector<TreeSend>& sends) {
    BroadcastTreeTables tables = empty_broadcast_tree_tables(t, rounds);
    for (const TreeSend& s : sends)
      tables.at(arcs[static_cast<size_t>(s.arc)].from, s.round, arcs[static_cast<size_t>(s.arc)].port) = s.origin;
    return tables;
  };
  const Algorithm* heuristic = first_heuristic(problem);
  if (!heuristic) {  // no count to start from: up from the bound, each count refused proving the next bound
    const SearchDeadline deadline(seconds);
    for (int rounds = std::max(bound, 1);; ++rounds) {
      if (const std::string why = too_large(rounds); !why.empty())
        throw InputError(fmt::format("trees-exact on {}: no schedule of fewer than {} rounds, and {} not searched: {}",
                                     t.spec(), rounds, name(rounds), why));
      bool proven = false;
      std::optional<std::vector<TreeSend>> found;
      if (const unsigned left = deadline.milliseconds_left()) found = solve(rounds, left, proven);
      if (found) {
        BroadcastTreeTables tables = tables_of(rounds, *found);
        tables.construction = fmt::format("{} broadcast trees (SAT, CaDiCaL): {} rounds, bound {}; {}", n, rounds, bound,
                                          rounds == std::max(bound, 1) ? "the bound reached"
                                                                       : fmt::format("{} proven impossible", name(rounds - 1)));
        tables.exact_lower_bound = rounds > bound ? rounds : 0;
        return finish_broadcast_tree_tables(std::move(tables), problem, "trees-exact");
      }
      if (!proven)
        throw InputError(fmt::format("trees-exact on {}: {} not settled in {} s{} (--budget gives it more)", t.spec(),
                                     name(rounds), seconds,
                                     rounds > bound ? ", fewer proven impossible" : ""));
    }
  }
  const BroadcastTreeTables first = as_kind<BroadcastTreeTables>(*heuristic->build(problem));
  const ExactDescent<std::vector<TreeSend>> d = descend_exactly<std::vector<TreeSend>>(
      first.rounds, bound, seconds, fmt::format("{}'s count is the bound", heuristic->name), solve, name, too_large);
  const int rounds = static_cast<int>(d.count);
  const std::string construction = fmt::format("{} broadcast trees (SAT, CaDiCaL): {} rounds ({} {}), bound {}; {}", n, rounds,
                                               heuristic->name, first.rounds, bound, d.verdict);
  BroadcastTreeTables tables = d.best ? tables_of(rounds, *d.best) : first;
  tables.construction = construction;
  // The least count, where the search proved it above every bound.
  tables.exact_lower_bound = d.proven_impossible ? rounds : 0;
  return finish_broadcast_tree_tables(std::move(tables), problem, "trees-exact");
}

const AlgorithmRegistrar trees_exact_registrar([] {
  Algorithm a = broadcast_tree_algorithm(
      "trees-exact", "the fewest rounds of gossip without combining on a small network, all-port or 1-port, full- "
                     "or half-duplex, proven by a SAT solver (CaDiCaL) where it finishes in 60 s (docs/broadcast-trees.md)");
  a.unsupported = [](const Problem& p) -> std::string {
    if (p.topology.num_nodes() > kMaxTreesExactNodes)
      return fmt::format("it proves counts on networks of at most {} nodes", kMaxTreesExactNodes);
    return "";
  };
  a.is_default = [](const Problem&) { return false; };
  a.formula = [](const Problem&) { return std::optional<int64_t>{}; };
  a.paper_formula = mesh_gossip_paper_rounds;
  a.above_paper_reason = [](const Problem&) {
    return std::string("the search was not settled in its time (--budget gives it more)");
  };
  a.build = trees_exact_build;
  a.takes_budget = true;
  a.by_name_only = true;
  a.aliases = {"exact"};  // --exact
  // Thin meshes where rarest-first misses the paper's count, a half-duplex minimum proven
  // above every bound, 1-port on an odd ring; each settles in well under a second.
  a.sweep = [](int) {
    return std::vector<SweepCase>{
        {"mesh:2x8", {}, ""}, {"mesh:7x2", {}, ""}, {"line:5", PortModel{false, true}, ""}, {"ring:7", PortModel{true, false}, ""}};
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
