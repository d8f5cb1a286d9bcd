// Gossip of 2 packets per node on a 2D torus exactly as section 2 of the gossip paper
// builds it: the `hamiltonian-2-paper` algorithm.
//
// Both sizes even: the column-parity rule's two Hamiltonian cycles (torus_cycles.h), as
// `hamiltonian-2` uses them. One size odd ("Odd n_i"): the paper's n1 even, n2 odd --
// the rule everywhere but column n2-2, which performs L<->R only. That gives two partial
// cycles; the nodes of column n2-2 on alternate rows are off one of them (out-of-cycle,
// OOC) and are fed its packets by their two vertical neighbours, which lie on it, across
// the column's vertical links, which no cycle uses. Their taps switch direction at steps
// the scheduler picks ("Changing Direction"; tap_schedule.h). n1 odd, n2 even is the
// same with rows and columns exchanged.
//
// What the text leaves open, and how we close it: an OOC node's packet for the cycle it
// is off. Its only links to that cycle are the two feeding it, so it sends both its
// packets round the cycle it is on, one after the other. That node then forwards every
// packet one step late (a queue of two at step 1), and a packet passing k such nodes
// arrives k steps late: the cycles' spread grows from m/2 to about m/2 + n1/4, which is
// Theorem 1's ceil(n1*n2/2) -- measured, not assumed. The taps are scheduled on the
// arrival steps read off a run of the cycle traffic by the reference engine.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "../errors.h"
#include "../formulas.h"
#include "../ref_engine.h"
#include "common.h"
#include "registry.h"
#include "tap_schedule.h"
#include "torus_cycles.h"

namespace fixroute {
namespace {

[[noreturn]] void refuse(const Topology& t, const std::string& why) {
  throw InputError(fmt::format("hamiltonian-2-paper on {}: {}", t.spec(), why));
}

std::string shape_problem(const Topology& t) {
  if (t.kind() != TopologyKind::Torus || t.dims().size() != 2) return "needs a 2D torus:AxB topology";
  if (t.dims()[0] % 2 == 1 && t.dims()[1] % 2 == 1)
    return "needs a size even (section 2 builds n1 even and n2 odd, or both even)";
  return "";
}

// The paper's coordinates: n1 rows (even), n2 columns; on torus:AxB with A odd and B even
// the paper's rows are our columns.
struct PaperGrid {
  const Topology& torus;
  bool transposed;
  int n1, n2;
  explicit PaperGrid(const Topology& t)
      : torus(t), transposed(t.dims()[0] % 2 == 1), n1(t.dims()[transposed ? 1 : 0]), n2(t.dims()[transposed ? 0 : 1]) {}
  int node(int i, int j) const {
    i = ((i % n1) + n1) % n1;
    j = ((j % n2) + n2) % n2;
    return transposed ? j * n1 + i : i * n2 + j;
  }
  std::pair<int, int> at(int v) const {
    return transposed ? std::pair<int, int>{v % n1, v / n1} : std::pair<int, int>{v / n2, v % n2};
  }
};

// The rule of section 2 with its odd-n2 exception, as each node's pairs of neighbours.
std::vector<std::vector<std::array<int, 2>>> paper_pairs(const PaperGrid& g) {
  std::vector<std::vector<std::array<int, 2>>> pairs(static_cast<size_t>(g.torus.num_nodes()));
  for (int v = 0; v < g.torus.num_nodes(); ++v) {
    const auto [i, j] = g.at(v);
    const int top = g.node(i - 1, j), bottom = g.node(i + 1, j), left = g.node(i, j - 1), right = g.node(i, j + 1);
    auto& p = pairs[static_cast<size_t>(v)];
    if (g.n2 % 2 == 1 && j == g.n2 - 2) {
      p = {{left, right}};  // "In Column n2-2 we perform L<->R"
    } else if (torus_cycles::paper_top_with_right(j, g.n2)) {
      p = {{top, right}, {bottom, left}};
    } else {
      p = {{top, left}, {bottom, right}};
    }
  }
  return pairs;
}

// The trails of the pairs, checked: two, each passing a node at most once.
std::vector<std::vector<int>> trails(const Topology& t, const std::vector<std::vector<std::array<int, 2>>>& pairs) {
  auto partner = [&](int v, int from) {
    for (const auto& pr : pairs[static_cast<size_t>(v)]) {
      if (pr[0] == from) return pr[1];
      if (pr[1] == from) return pr[0];
    }
    return -1;
  };
  std::set<std::pair<int, int>> done;  // links, as (min, max)
  auto link = [](int a, int b) { return std::pair<int, int>{std::min(a, b), std::max(a, b)}; };
  std::vector<std::vector<int>> out;
  for (int v = 0; v < t.num_nodes(); ++v)
    for (const auto& pr : pairs[static_cast<size_t>(v)]) {
      if (done.count(link(v, pr[1]))) continue;
      std::vector<int> trail;
      int prev = pr[0], at = v;
      while (!done.count(link(at, partner(at, prev)))) {
        const int next = partner(at, prev);
        if (next < 0) refuse(t, fmt::format("node {} has no rule for what arrives from node {}", at, prev));
        done.insert(link(at, next));
        trail.push_back(at);
        prev = at;
        at = next;
      }
      out.push_back(std::move(trail));
    }
  if (out.size() != 2) refuse(t, fmt::format("the rule gives {} closed trails, not 2", out.size()));
  for (const auto& trail : out)
    if (std::set<int>(trail.begin(), trail.end()).size() != trail.size()) refuse(t, "a cycle passes a node twice");
  return out;
}

struct Feed {
  int supplier, node, out_port, first_in, second_in;
  std::vector<int> switch_steps;
  bool sends_own;
  int own_seq;
};

// The demand of a node fed by suppliers `sup` (cycle neighbours `around`, before and
// after each): per supplier and step, which packet (numbered by `id`) arrives from each
// side, as the run of the cycle traffic shows it.
partial_cycles::TapDemand read_arrivals(const std::vector<TraceEvent>& trace, const std::map<std::pair<int, int>, int>& id,
                                        const std::array<int, 2>& sup, const std::array<std::array<int, 2>, 2>& around,
                                        int deadline) {
  partial_cycles::TapDemand demand;
  demand.packets = static_cast<int>(id.size());
  demand.deadline = deadline;
  for (size_t s = 0; s < 2; ++s) demand.arrivals[s].assign(static_cast<size_t>(deadline + 1), {-1, -1});
  for (const TraceEvent& e : trace)
    for (size_t s = 0; s < 2; ++s) {
      if (e.to != sup[s] || (e.from != around[s][0] && e.from != around[s][1])) continue;
      if (e.step >= static_cast<int64_t>(demand.arrivals[s].size()))
        demand.arrivals[s].resize(static_cast<size_t>(e.step + 1), {-1, -1});
      demand.arrivals[s][static_cast<size_t>(e.step)][e.from == around[s][0] ? 0 : 1] = id.at({e.origin, e.seq});
    }
  return demand;
}

// The taps' schedules, the suppliers tapping one of their own packets only where the
// arrivals alone cannot feed the node: first neither, then one (either of its packets
// on the cycle), then both. `own_id` gets the own packets used.
std::optional<std::array<partial_cycles::TapSchedule, 2>> fewest_own_taps(partial_cycles::TapDemand& demand,
                                                                          const std::map<std::pair<int, int>, int>& id,
                                                                          const std::array<int, 2>& sup,
                                                                          std::array<int, 2>& own_id) {
  std::array<std::vector<int>, 2> own_choices;
  for (size_t s = 0; s < 2; ++s) {
    own_choices[s] = {-1};
    for (int seq = 0; seq < 2; ++seq)
      if (auto it = id.find({sup[s], seq}); it != id.end()) own_choices[s].push_back(it->second);
  }
  std::vector<std::array<int, 2>> owns;
  for (int a : own_choices[0])
    for (int b : own_choices[1]) owns.push_back({a, b});
  std::stable_sort(owns.begin(), owns.end(), [](const std::array<int, 2>& x, const std::array<int, 2>& y) {
    return (x[0] >= 0) + (x[1] >= 0) < (y[0] >= 0) + (y[1] >= 0);
  });
  for (const std::array<int, 2>& own : owns) {
    demand.own = own;
    if (auto taps = partial_cycles::schedule_taps(demand)) {
      own_id = own;
      return taps;
    }
  }
  return std::nullopt;
}

NetworkTables paper_tables(const Topology& topo) {
  if (std::string why = shape_problem(topo); !why.empty()) refuse(topo, why);
  NetworkTables t = scheduling::empty_tables(topo, "gossip", "hamiltonian-2-paper", Discipline::Fifo);
  const PaperGrid g(topo);
  const int n = topo.num_nodes();
  const auto pairs = paper_pairs(g);
  const std::vector<std::vector<int>> cycles = trails(topo, pairs);
  std::vector<std::array<int, 2>> position(static_cast<size_t>(n), {-1, -1});
  for (size_t c = 0; c < 2; ++c)
    for (size_t i = 0; i < cycles[c].size(); ++i) position[static_cast<size_t>(cycles[c][i])][c] = static_cast<int>(i);
  t.construction = g.n2 % 2 == 0 ? "paper-zigzag" : "paper-partial";

  // Forwarding (the pairs) and the packets: each goes m/2 hops forwards, (m-1)/2 back.
  for (int v = 0; v < n; ++v)
    for (const auto& pr : pairs[static_cast<size_t>(v)]) {
      const int a = topo.port_towards(v, pr[0]), b = topo.port_towards(v, pr[1]);
      t.routers[static_cast<size_t>(v)].ports[static_cast<size_t>(a)].forward_mask |= 1u << b;
      t.routers[static_cast<size_t>(v)].ports[static_cast<size_t>(b)].forward_mask |= 1u << a;
    }
  for (int v = 0; v < n; ++v) {
    const auto pos = position[static_cast<size_t>(v)];
    if (pos[0] < 0 && pos[1] < 0) refuse(topo, fmt::format("node {} is on no cycle", v));
    for (int seq = 0; seq < 2; ++seq) {
      // packet seq travels cycle seq; a node off that cycle sends it round its own, after the other
      const size_t c = pos[static_cast<size_t>(seq)] >= 0 ? static_cast<size_t>(seq) : static_cast<size_t>(1 - seq);
      const std::vector<int>& cyc = cycles[c];
      const int m = static_cast<int>(cyc.size()), i = pos[c];
      const int next = cyc[static_cast<size_t>((i + 1) % m)], prev = cyc[static_cast<size_t>((i + m - 1) % m)];
      RouterTable& r = t.routers[static_cast<size_t>(v)];
      r.initial.push_back({topo.port_towards(v, next), Packet{v, kBroadcastDest, seq, m / 2}, 1});
      if ((m - 1) / 2 > 0) r.initial.push_back({topo.port_towards(v, prev), Packet{v, kBroadcastDest, seq, (m - 1) / 2}, 1});
    }
  }
  if (g.n2 % 2 == 0) return t;

  // The cycle traffic alone, to read when each packet passes each node.
  const EngineResult traffic = run_ref_engine(topo, t, {});
  if (!traffic.failure.empty()) refuse(topo, traffic.failure);
  const int deadline = static_cast<int>(formulas::gossip_torus_two_packets(g.n1, g.n2));
  std::vector<Feed> feeds;
  for (int v = 0; v < n; ++v)
    for (size_t c = 0; c < 2; ++c) {
      if (position[static_cast<size_t>(v)][c] >= 0) continue;
      const std::vector<int>& cyc = cycles[c];
      const int m = static_cast<int>(cyc.size());
      const auto [i, j] = g.at(v);
      const std::array<int, 2> sup{g.node(i - 1, j), g.node(i + 1, j)};
      for (int x : sup)
        if (position[static_cast<size_t>(x)][c] < 0)
          refuse(topo, fmt::format("node {} is off cycle {} and so is its neighbour {}", v, c, x));
      // Packets of cycle c: numbered in order of (origin, seq).
      std::map<std::pair<int, int>, int> id;
      for (int u = 0; u < n; ++u)
        for (int seq = 0; seq < 2; ++seq) {
          const bool on_c = position[static_cast<size_t>(u)][c] >= 0;
          const bool travels_c = on_c && (seq == static_cast<int>(c) || position[static_cast<size_t>(u)][1 - c] < 0);
          if (travels_c) id.emplace(std::pair<int, int>{u, seq}, static_cast<int>(id.size()));
        }
      std::array<std::array<int, 2>, 2> around{};  // per supplier: its cycle neighbours before and after it
      for (size_t s = 0; s < 2; ++s) {
        const int at = position[static_cast<size_t>(sup[s])][c];
        around[s] = {cyc[static_cast<size_t>((at + m - 1) % m)], cyc[static_cast<size_t>((at + 1) % m)]};
      }
      partial_cycles::TapDemand demand = read_arrivals(traffic.trace, id, sup, around, deadline);
      std::array<int, 2> own_id{-1, -1};
      const std::optional<std::array<partial_cycles::TapSchedule, 2>> taps = fewest_own_taps(demand, id, sup, own_id);
      if (!taps)
        refuse(topo, fmt::format("no switching of its two suppliers' taps feeds node {} every packet of cycle {} "
                                 "exactly once by step {}", v, c, deadline));
      for (size_t s = 0; s < 2; ++s) {
        const partial_cycles::TapSchedule& plan = (*taps)[s];
        const int from_prev = topo.port_towards(sup[s], around[s][0]), from_next = topo.port_towards(sup[s], around[s][1]);
        int own_seq = -1;
        for (const auto& [key, k] : id)
          if (k == own_id[s]) own_seq = key.second;
        feeds.push_back({sup[s], v, topo.port_towards(sup[s], v), plan.forwards_first ? from_prev : from_next,
                         plan.forwards_first ? from_next : from_prev, plan.switch_steps, plan.sends_own, own_seq});
      }
    }
  for (const Feed& f : feeds) {
    RouterTable& r = t.routers[static_cast<size_t>(f.supplier)];
    PortRule& rule = r.ports[static_cast<size_t>(f.out_port)];
    if (rule.tap_first >= 0) refuse(topo, fmt::format("node {} would feed through port {} twice", f.supplier, f.out_port));
    rule.tap_first = f.first_in;
    rule.tap_second = f.second_in;
    rule.switch_steps = f.switch_steps;
    if (f.sends_own) r.initial.push_back({f.out_port, Packet{f.supplier, kBroadcastDest, f.own_seq, 1}, 1});
  }
  return t;
}

// Every size the section covers from 3 to 16: a size even.
std::vector<SweepCase> paper_cases(int max_size) {
  std::vector<SweepCase> out;
  const int top = std::min(max_size, 16);
  for (int a = 3; a <= top; ++a)
    for (int b = 3; b <= top; ++b)
      if (a % 2 == 0 || b % 2 == 0) out.push_back({fmt::format("torus:{}x{}", a, b), {}});
  return out;
}

AlgorithmRegistrar hamiltonian_two_paper_registrar({
    "hamiltonian-2-paper", "gossip",
    "2 packets per node as section 2 of the gossip paper builds it: the column-parity cycles, and on an odd size "
    "partial cycles whose off-cycle nodes are fed by switching taps (Theorem 1)",
    [](const Topology& t) { return shape_problem(t); }, [](const Topology&) { return false; },
    [](const Topology& t, const PortModel& m) -> std::optional<int64_t> {
      if (!m.is_default()) return std::nullopt;
      return formulas::gossip_torus_two_packets(t.dims()[0], t.dims()[1]);
    },
    paper_tables, paper_cases, 2, nullptr});

}  // namespace
}  // namespace fixroute
