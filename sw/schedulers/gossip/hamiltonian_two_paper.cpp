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
// same with rows and columns exchanged. Both sizes odd ("the remaining cases can be
// treated similarly", not shown): the rule with one special row and column gives no two
// cycles that feed every node, so the cycles come from a searched pattern
// (odd_torus_patterns.h: each misses two nodes, 3x3 included), and the scheme below runs
// on them unchanged (`construction` `searched-pattern-2d`).
//
// What the text leaves open, and how we close it: an OOC node's packet for the cycle it
// is off. Its only links to that cycle are the two feeding it, so it sends both its
// packets round the cycle it is on, one after the other. That node then forwards every
// packet one step late (a queue of two at step 1), and a packet passing k such nodes
// arrives k steps late: the cycles' spread grows from m/2 to about m/2 + n1/4, which is
// Theorem 1's ceil(n1*n2/2) -- measured by the engines, not assumed here. The taps are
// scheduled on the arrival steps of the cycle traffic, which the scheduler works out
// itself: each cycle direction is a ring of FIFO queues (cycle_arrivals below), and the
// deadline is the earliest step by which every off-cycle node can be fed.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>

#include "sw/core/errors.h"
#include "sw/core/formulas.h"
#include "sw/schedulers/common.h"
#include "hamiltonian_two_paper.h"
#include "partial_cycles.h"
#include "sw/schedulers/port_rules.h"
#include "tap_schedule.h"
#include "torus_cycles.h"

namespace fixroute {
namespace {

[[noreturn]] void refuse(const Topology& t, const std::string& why) {
  throw InputError(fmt::format("hamiltonian-2-paper on {}: {}", t.spec(), why));
}

std::string shape_problem(const Topology& t) {
  if (t.kind() != TopologyKind::Torus || t.dims().size() != 2) return "needs a 2D torus:AxB topology";
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

// The rule of section 2 with its odd-n2 exception, as a port pairing; the ports of
// column n2-2's vertical links stay unpaired (-1): no cycle uses those links.
torus_cycles::Pairing paper_pairing(const PaperGrid& g) {
  const Topology& t = g.torus;
  torus_cycles::Pairing p(static_cast<size_t>(t.num_nodes()), {-1, -1, -1, -1});
  for (int v = 0; v < t.num_nodes(); ++v) {
    const auto [i, j] = g.at(v);
    const int top = g.node(i - 1, j), bottom = g.node(i + 1, j), left = g.node(i, j - 1), right = g.node(i, j + 1);
    auto pair = [&](int a, int b) {
      const int pa = t.port_towards(v, a), pb = t.port_towards(v, b);
      p[static_cast<size_t>(v)][static_cast<size_t>(pa)] = pb;
      p[static_cast<size_t>(v)][static_cast<size_t>(pb)] = pa;
    };
    if (g.n2 % 2 == 1 && j == g.n2 - 2) {
      pair(left, right);  // "In Column n2-2 we perform L<->R"
    } else if (torus_cycles::paper_top_with_right(j, g.n2)) {
      pair(top, right);
      pair(bottom, left);
    } else {
      pair(top, left);
      pair(bottom, right);
    }
  }
  return p;
}

// The pairing's trails as node sequences, checked: two closed cycles, each passing a
// node at most once. Node 0, in column 0, is on both: cycle 0 leaves it to the right,
// cycle 1 to the left (the rule's order there: T<->R, then B<->L).
std::vector<std::vector<int>> cycles_of(const PaperGrid& g, const torus_cycles::Pairing& pairing) {
  const Topology& t = g.torus;
  const auto trails = torus_cycles::trails(t, pairing);
  if (trails.size() != 2) refuse(t, fmt::format("the rule gives {} trails, not 2", trails.size()));
  std::vector<std::vector<int>> out(2);
  for (const auto& trail : trails) {
    const std::array<int, 2> last = trail.back();
    if (t.neighbour(last[0], last[1]) != trail.front()[0]) refuse(t, "a trail of the rule does not close");
    std::vector<int> nodes;
    for (const auto& hop : trail) nodes.push_back(hop[0]);
    if (std::set<int>(nodes.begin(), nodes.end()).size() != nodes.size()) refuse(t, "a cycle passes a node twice");
    const auto zero = std::find(nodes.begin(), nodes.end(), 0);
    if (zero == nodes.end()) refuse(t, "a cycle misses node 0");
    std::rotate(nodes.begin(), zero, nodes.end());
    const size_t k = nodes[1] == g.node(0, 1) || nodes.back() == g.node(0, 1) ? 0 : 1;
    if (nodes[1] != g.node(0, k == 0 ? 1 : -1)) std::reverse(nodes.begin() + 1, nodes.end());
    if (!out[k].empty()) refuse(t, "both cycles leave node 0 the same way");
    out[k] = std::move(nodes);
  }
  return out;
}

// A pair of cycles for the scheme: each in its forward order, and the port pairing that
// makes the routers forward along them (-1: a port no cycle uses, a free link).
struct TwoCycles {
  std::vector<std::vector<int>> cycles;
  torus_cycles::Pairing pairing;
  std::string construction;
};

TwoCycles paper_cycles(const Topology& t) {
  const PaperGrid g(t);
  TwoCycles out;
  out.pairing = paper_pairing(g);
  out.cycles = cycles_of(g, out.pairing);
  out.construction = g.n2 % 2 == 0 ? "paper-zigzag" : "paper-partial";
  return out;
}

// Both sizes odd: a searched pattern's cycles (odd_torus_patterns.h).
TwoCycles pattern_pair(const Topology& t, const partial_cycles::LinkCycles& links) {
  TwoCycles out;
  out.cycles = partial_cycles::pattern_cycles(t, links);
  out.pairing = torus_cycles::pairing_along(t, out.cycles);
  out.construction = "searched-pattern-2d";
  return out;
}

// The two neighbours that feed node v the packets of cycle c: those across v's free links
// (ports no cycle uses), which lie on c; per dimension the one at -1 first (the paper's
// "above" before "below").
std::array<int, 2> suppliers(const Topology& t, const torus_cycles::Pairing& pairing,
                             const std::vector<std::array<int, 2>>& position, int v, size_t c) {
  std::vector<int> sup;
  for (int dim = 0; dim < 2; ++dim)
    for (int port : {2 * dim + 1, 2 * dim}) {
      const int w = t.neighbour(v, port);
      if (pairing[static_cast<size_t>(v)][static_cast<size_t>(port)] < 0 && position[static_cast<size_t>(w)][c] >= 0)
        sup.push_back(w);
    }
  if (sup.size() != 2)
    refuse(t, fmt::format("node {} is off cycle {} and has {} free-link neighbours on it, not 2", v, c, sup.size()));
  return {sup[0], sup[1]};
}

// A packet of the cycle traffic reaching a node: in which step, across the link from
// which neighbour, and which packet (origin, seq).
struct CycleArrival {
  int step, from, origin, seq;
};

// When every packet of the cycle traffic reaches every node, by the timing model
// (docs/timing-model.md): per cycle and direction the forwarding makes a ring of FIFO
// out-queues, one link crossing per queue per step. In a step the released packets join
// first, then every non-empty queue sends its head, then each arrival with hops left joins
// the next queue. The directed rings share no link and no queue, so each runs alone.
// `initial[v]` lists v's packets per cycle and direction in table order: (seq, hops).
using RingInitial = std::array<std::array<std::vector<std::pair<int, int>>, 2>, 2>;  // [cycle][forwards?0:1]
std::vector<std::vector<CycleArrival>> cycle_arrivals(const std::vector<std::vector<int>>& cycles,
                                                      const std::vector<RingInitial>& initial) {
  struct Held {
    int origin, seq, hops;
  };
  std::vector<std::vector<CycleArrival>> arriving(initial.size());
  for (size_t c = 0; c < 2; ++c)
    for (size_t dir = 0; dir < 2; ++dir) {
      std::vector<int> ring = cycles[c];
      if (dir == 1) std::reverse(ring.begin() + 1, ring.end());  // backwards, still from node 0
      const size_t m = ring.size();
      std::vector<std::deque<Held>> queue(m);
      size_t queued = 0;
      for (size_t i = 0; i < m; ++i)
        for (const auto& [seq, hops] : initial[static_cast<size_t>(ring[i])][c][dir]) {
          queue[i].push_back({ring[i], seq, hops});
          ++queued;
        }
      std::vector<std::optional<Held>> wire(m);
      for (int step = 1; queued > 0; ++step) {
        for (size_t i = 0; i < m; ++i)
          if (!queue[i].empty()) {
            wire[i] = queue[i].front();
            queue[i].pop_front();
            --queued;
          }
        for (size_t i = 0; i < m; ++i) {
          if (!wire[i]) continue;
          const Held h = *wire[i];
          wire[i].reset();
          const size_t next = (i + 1) % m;
          arriving[static_cast<size_t>(ring[next])].push_back({step, ring[i], h.origin, h.seq});
          if (h.hops > 1) {
            queue[next].push_back({h.origin, h.seq, h.hops - 1});
            ++queued;
          }
        }
      }
    }
  return arriving;
}

// The demand of a node fed by suppliers `sup` (cycle neighbours `around`, before and
// after each): per supplier and step, which packet (numbered by `id`) arrives from each
// side (`arriving`: the cycle traffic's arrivals by the node they reach).
partial_cycles::TapDemand read_arrivals(const std::vector<std::vector<CycleArrival>>& arriving,
                                        const std::map<std::pair<int, int>, int>& id, const std::array<int, 2>& sup,
                                        const std::array<std::array<int, 2>, 2>& around, int deadline) {
  partial_cycles::TapDemand demand;
  demand.packets = static_cast<int>(id.size());
  demand.deadline = deadline;
  for (size_t s = 0; s < 2; ++s) {
    demand.arrivals[s].assign(static_cast<size_t>(deadline + 1), {-1, -1});
    for (const CycleArrival& e : arriving[static_cast<size_t>(sup[s])]) {
      if (e.from != around[s][0] && e.from != around[s][1]) continue;
      if (e.step >= static_cast<int64_t>(demand.arrivals[s].size()))
        demand.arrivals[s].resize(static_cast<size_t>(e.step + 1), {-1, -1});
      demand.arrivals[s][static_cast<size_t>(e.step)][e.from == around[s][0] ? 0 : 1] = id.at({e.origin, e.seq});
    }
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

// The scheme on two cycles: forwarding, own packets, and the taps feeding the nodes off a
// cycle (none when both cycles are Hamiltonian).
NetworkTables tables_on(const Topology& topo, const TwoCycles& two) {
  NetworkTables t = scheduling::empty_tables(topo, "gossip", "hamiltonian-2-paper", Discipline::Fifo);
  const int n = topo.num_nodes();
  const torus_cycles::Pairing& pairing = two.pairing;
  const std::vector<std::vector<int>>& cycles = two.cycles;
  std::vector<std::array<int, 2>> position(static_cast<size_t>(n), {-1, -1});
  for (size_t c = 0; c < 2; ++c)
    for (size_t i = 0; i < cycles[c].size(); ++i) position[static_cast<size_t>(cycles[c][i])][c] = static_cast<int>(i);
  t.construction = two.construction;

  // Forwarding (the pairs) and the packets: each goes m/2 hops forwards, (m-1)/2 back.
  for (int v = 0; v < n; ++v)
    for (int port = 0; port < 4; ++port)
      if (const int out = pairing[static_cast<size_t>(v)][static_cast<size_t>(port)]; out >= 0)
        t.routers[static_cast<size_t>(v)].ports[static_cast<size_t>(port)].forward_mask = 1u << out;
  std::vector<RingInitial> ring_initial(static_cast<size_t>(n));
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
      ring_initial[static_cast<size_t>(v)][c][0].push_back({seq, m / 2});
      if ((m - 1) / 2 > 0) {
        r.initial.push_back({topo.port_towards(v, prev), Packet{v, kBroadcastDest, seq, (m - 1) / 2}, 1});
        ring_initial[static_cast<size_t>(v)][c][1].push_back({seq, (m - 1) / 2});
      }
    }
  }
  if (static_cast<int>(cycles[0].size()) == n && static_cast<int>(cycles[1].size()) == n) return t;  // Hamiltonian

  const std::vector<std::vector<CycleArrival>> arriving = cycle_arrivals(cycles, ring_initial);
  int cycles_done = 0;  // the step the cycle traffic's last packet arrives
  for (const std::vector<CycleArrival>& at : arriving)
    for (const CycleArrival& e : at) cycles_done = std::max(cycles_done, e.step);
  // The packets each cycle carries, numbered in order of (origin, seq): a node's packet
  // seq travels cycle seq, both of a node off the other cycle travel its own.
  std::array<std::map<std::pair<int, int>, int>, 2> ids;
  for (size_t c = 0; c < 2; ++c)
    for (int u = 0; u < n; ++u)
      for (int seq = 0; seq < 2; ++seq) {
        const bool on_c = position[static_cast<size_t>(u)][c] >= 0;
        if (on_c && (seq == static_cast<int>(c) || position[static_cast<size_t>(u)][1 - c] < 0))
          ids[c].emplace(std::pair<int, int>{u, seq}, static_cast<int>(ids[c].size()));
      }
  // The feeds of every off-cycle node by `deadline`, or nothing if one cannot be fed by then.
  auto feeds_by = [&](int deadline, std::string& unfed) -> std::optional<std::vector<partial_cycles::Feed>> {
    std::vector<partial_cycles::Feed> feeds;
    for (int v = 0; v < n; ++v)
      for (size_t c = 0; c < 2; ++c) {
        if (position[static_cast<size_t>(v)][c] >= 0) continue;
        const std::vector<int>& cyc = cycles[c];
        const int m = static_cast<int>(cyc.size());
        const std::array<int, 2> sup = suppliers(topo, pairing, position, v, c);
        const std::map<std::pair<int, int>, int>& id = ids[c];
        std::array<std::array<int, 2>, 2> around{};  // per supplier: its cycle neighbours before and after it
        for (size_t s = 0; s < 2; ++s) {
          const int at = position[static_cast<size_t>(sup[s])][c];
          around[s] = {cyc[static_cast<size_t>((at + m - 1) % m)], cyc[static_cast<size_t>((at + 1) % m)]};
        }
        partial_cycles::TapDemand demand = read_arrivals(arriving, id, sup, around, deadline);
        std::array<int, 2> own_id{-1, -1};
        const std::optional<std::array<partial_cycles::TapSchedule, 2>> taps = fewest_own_taps(demand, id, sup, own_id);
        if (!taps) {
          unfed = fmt::format("no switching of its two suppliers' taps feeds node {} every packet of cycle {} "
                              "exactly once by step {}", v, c, deadline);
          return std::nullopt;
        }
        for (size_t s = 0; s < 2; ++s) {
          const partial_cycles::TapSchedule& plan = (*taps)[s];
          partial_cycles::Feed f;
          f.cycle = static_cast<int>(c);
          f.node = v;
          f.supplier = sup[s];
          f.first_from = plan.forwards_first ? around[s][0] : around[s][1];  // forwards-running packets come from before
          f.second_from = plan.forwards_first ? around[s][1] : around[s][0];
          f.switch_steps = plan.switch_steps;
          f.sends_own = plan.sends_own;
          for (const auto& [key, k] : id)
            if (k == own_id[s]) f.own_seq = key.second;
          feeds.push_back(std::move(f));
        }
      }
    return feeds;
  };
  // The earliest deadline the taps can meet: a tap hands a packet on one step after its
  // supplier has it, so no later than one step after the cycle traffic ends.
  std::string unfed;
  std::optional<std::vector<partial_cycles::Feed>> feeds;
  for (int deadline = cycles_done; !feeds && deadline <= cycles_done + 1; ++deadline) feeds = feeds_by(deadline, unfed);
  if (!feeds) refuse(topo, unfed);
  for (const partial_cycles::Feed& f : *feeds) partial_cycles::add_feed(t, topo, f);
  return t;
}

NetworkTables paper_tables(const Topology& topo) {
  if (std::string why = shape_problem(topo); !why.empty()) refuse(topo, why);
  if (!partial_cycles::both_sizes_odd_2d(topo.dims())) return tables_on(topo, paper_cycles(topo));
  const std::optional<partial_cycles::LinkCycles> links = partial_cycles::two_packet_links(topo.dims()[0], topo.dims()[1]);
  if (!links) throw std::logic_error("two_packet_links has no pattern for " + topo.spec());  // sizes >= 3 all have one
  return tables_on(topo, pattern_pair(topo, *links));
}

const AlgorithmRegistrar hamiltonian_two_paper_registrar([] {
  Algorithm a;
  a.name = "hamiltonian-2-paper";
  a.collective = "gossip";
  a.router_kind = kPortRulesKind;
  a.summary =
      "2 packets per node as section 2 of the gossip paper builds it: the column-parity cycles, and on an odd size "
      "partial cycles whose off-cycle nodes are fed by switching taps (both sizes odd: searched cycles; Theorem 1)";
  a.packets_per_node = 2;
  a.unsupported = on_topology(shape_problem);
  a.formula = all_port_only(
      [](const Topology& t) { return formulas::gossip_torus_two_packets(t.dims()[0], t.dims()[1]); });
  a.build = port_rules_build(paper_tables);
  a.sweep = [](int max_size) { return torus_2d_cases(max_size, false); };
  return a;
}());

}  // namespace

NetworkTables hamiltonian_two_paper_tables(const Topology& torus, const partial_cycles::LinkCycles& links) {
  if (std::string why = shape_problem(torus); !why.empty()) refuse(torus, why);
  return tables_on(torus, pattern_pair(torus, links));
}

}  // namespace fixroute
