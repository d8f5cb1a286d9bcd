// Gossip of one packet per node along partial Hamiltonian cycles: the `partial-cycles`
// algorithm (gossip paper, section 3, Theorems 2, 3 and 4). See partial_cycles.h.
#include "partial_cycles.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <utility>

#include "../errors.h"
#include "../formulas.h"
#include "common.h"
#include "registry.h"

namespace fixroute::partial_cycles {

namespace {

// zigzag(d, j) of section 3 as the paper's axes of its moves across (each followed by a
// move along axis 1): zigzag(d, 1) = (2,1) d times; zigzag(j+1, j) = (2,1,2,1,3,1,...,
// j+1,1); zigzag(i, j) = (zigzag(i-1, j), 2, 1).
std::vector<int> zigzag(int d, int j) {
  std::vector<int> axes;
  if (j == 1) return std::vector<int>(static_cast<size_t>(d), 2);
  axes = {2, 2};
  for (int a = 3; a <= j + 1; ++a) axes.push_back(a);
  while (static_cast<int>(axes.size()) < d) axes.push_back(2);
  return axes;
}

int node_at(const std::vector<int>& dims, const std::vector<int>& x) {
  int id = 0;
  for (size_t k = 0; k < dims.size(); ++k) id = id * dims[k] + x[k];
  return id;
}

// Cycle c starts at the paper's (0, c, 0, ..., 0) and runs laps: a zigzag, then moves
// along axis 1 until it has crossed the wrap-around link. During lap i the highest j
// with i mod (n2/d * n3 * ... * nj) == 0 picks zigzag(d, j).
std::vector<int> lap_walk(const Topology& torus, int c) {
  const std::vector<int>& dims = torus.dims();
  const int d = static_cast<int>(dims.size());
  const int run = d - 1;  // the paper's axis 1
  auto our_dim = [d](int paper_axis) { return d - paper_axis; };
  std::vector<int64_t> period(static_cast<size_t>(d), 1);  // period[j], j = 1..d-1
  for (int j = 2; j < d; ++j)
    period[static_cast<size_t>(j)] =
        period[static_cast<size_t>(j - 1)] * (j == 2 ? dims[static_cast<size_t>(our_dim(2))] / d : dims[static_cast<size_t>(our_dim(j))]);
  const int64_t laps = period[static_cast<size_t>(d - 1)] *
                       (d == 2 ? dims[static_cast<size_t>(our_dim(2))] / d : dims[static_cast<size_t>(our_dim(d))]);
  std::vector<int> x(static_cast<size_t>(d), 0);
  x[static_cast<size_t>(our_dim(2))] = c;
  std::vector<int> walk{node_at(dims, x)};
  auto move = [&](int dim) {
    x[static_cast<size_t>(dim)] = (x[static_cast<size_t>(dim)] + 1) % dims[static_cast<size_t>(dim)];
    walk.push_back(node_at(dims, x));
  };
  for (int64_t lap = 1; lap <= laps; ++lap) {
    int j = 1;
    for (int k = 2; k < d; ++k)
      if (lap % period[static_cast<size_t>(k)] == 0) j = k;
    for (int axis : zigzag(d, j)) {
      move(our_dim(axis));
      move(run);
    }
    while (x[static_cast<size_t>(run)] != 0) move(run);
  }
  return walk;  // ends where it began when the construction closes
}

// Why the construction does not apply; build() reports it as an InputError,
// unsupported() returns it.
struct NotApplicable {
  std::string why;
};
[[noreturn]] void fail(const std::string& why) { throw NotApplicable{why}; }

// Each packet goes both ways round its cycle of m nodes: floor(m/2) hops forwards, the
// rest backwards, so it reaches every other node of the cycle once.
int reach_forwards(int m) { return m / 2; }
int reach_backwards(int m) { return (m - 1) / 2; }

std::string shape_problem(const Topology& t) {
  if (t.kind() != TopologyKind::Torus) return "needs a torus:AxB[xC...] topology";
  const std::vector<int>& dims = t.dims();
  const int d = static_cast<int>(dims.size());
  for (int k = 0; k + 1 < d; ++k)
    if (dims[static_cast<size_t>(k)] % d != 0)
      return fmt::format("needs every size but the last a multiple of {} (the number of dimensions); {} is not", d,
                         dims[static_cast<size_t>(k)]);
  if (dims.back() <= d) return fmt::format("needs the last size larger than {}", d);
  return "";
}

Construction construct(const Topology& torus, Taps taps);

std::pair<int, int> link(int a, int b) { return {std::min(a, b), std::max(a, b)}; }

// One supplier's tap plan: it passes the arrivals running `first` (forwards or
// backwards) in steps before `switch_step`, the others from then on.
struct TapPlan {
  bool forwards_first = true;
  int switch_step = 1;
  std::vector<uint64_t> covered;  // bit per source of the cycle
  int last_arrival = 0;
};

using Bits = std::vector<uint64_t>;

bool test_bit(const Bits& b, size_t i) { return (b[i / 64] >> (i % 64)) & 1u; }

// Every plan of the supplier at `pos` on a cycle of m nodes whose packets start at
// `sources` (positions) and go `fwd` hops forwards, `bwd` backwards.
std::vector<TapPlan> tap_plans(int pos, int m, int fwd, int bwd, const std::vector<int>& sources) {
  const size_t words = (sources.size() + 63) / 64;
  std::vector<TapPlan> plans;
  for (bool forwards_first : {true, false})
    for (int sw = 1; sw <= std::max(fwd, bwd) + 1; ++sw) {
      TapPlan p{forwards_first, sw, Bits(words, 0), 0};
      for (size_t i = 0; i < sources.size(); ++i) {
        const int f = ((pos - sources[i]) % m + m) % m;  // step it arrives running forwards
        const int b = ((sources[i] - pos) % m + m) % m;  // ... running backwards
        const bool by_f = f >= 1 && f <= fwd && (forwards_first ? f < sw : f >= sw);
        const bool by_b = b >= 1 && b <= bwd && (forwards_first ? b >= sw : b < sw);
        if (!by_f && !by_b) continue;
        p.covered[i / 64] |= uint64_t{1} << (i % 64);
        p.last_arrival = std::max(p.last_arrival, by_f ? f : b);
      }
      plans.push_back(std::move(p));
    }
  return plans;
}

// The taps of suppliers sup[0] and sup[1] (on cycle c, at `position` on it) that give
// node v each packet travelling cycle c exactly once, as early as they can: every switch
// step and first direction of both is tried. nullopt when none does.
std::optional<std::array<Feed, 2>> switched_feeds(const Topology& torus, const Construction& k,
                                                  const std::vector<int>& position, int c, int v,
                                                  const std::vector<int>& sup, Taps taps) {
  const std::vector<int>& cyc = k.cycles[static_cast<size_t>(c)];
  const int m = static_cast<int>(cyc.size());
  std::vector<int> sources;
  for (int i = 0; i < m; ++i)
    if (k.home_cycle[static_cast<size_t>(cyc[static_cast<size_t>(i)])] == c) sources.push_back(i);
  std::array<int, 2> pos{}, own{};
  std::array<std::vector<TapPlan>, 2> plans;
  for (size_t s = 0; s < 2; ++s) {
    pos[s] = position[static_cast<size_t>(sup[s])];
    plans[s] = tap_plans(pos[s], m, reach_forwards(m), reach_backwards(m), sources);
    // a supplier's own packet (ArrivalsAndOwn): sent at step 1 where the other does not pass it
    auto it = std::find(sources.begin(), sources.end(), pos[s]);
    own[s] = it == sources.end() || taps == Taps::Arrivals ? -1 : static_cast<int>(it - sources.begin());
  }
  int best = -1;
  std::array<size_t, 2> pick{};
  for (size_t ia = 0; ia < plans[0].size(); ++ia)
    for (size_t ib = 0; ib < plans[1].size(); ++ib) {
      const Bits& A = plans[0][ia].covered;
      const Bits& B = plans[1][ib].covered;
      bool ok = true;
      for (size_t w = 0; w < A.size() && ok; ++w) ok = (A[w] & B[w]) == 0;
      for (size_t i = 0; i < sources.size() && ok; ++i)
        ok = test_bit(A, i) || test_bit(B, i) || static_cast<int>(i) == own[0] || static_cast<int>(i) == own[1];
      if (!ok) continue;
      const int last = std::max(plans[0][ia].last_arrival, plans[1][ib].last_arrival);
      if (best < 0 || last < best) best = last, pick = {ia, ib};
    }
  if (best < 0) return std::nullopt;
  std::array<Feed, 2> feeds;
  for (size_t s = 0; s < 2; ++s) {
    const TapPlan& plan = plans[s][pick[s]];
    const Bits& other = plans[1 - s][pick[1 - s]].covered;
    const int x = sup[s];
    const int from_prev = torus.port_towards(x, cyc[static_cast<size_t>((pos[s] + m - 1) % m)]);
    const int from_next = torus.port_towards(x, cyc[static_cast<size_t>((pos[s] + 1) % m)]);
    Feed& f = feeds[s];
    f.cycle = c;
    f.node = v;
    f.supplier = x;
    f.out_port = torus.port_towards(x, v);
    f.first_in = plan.forwards_first ? from_prev : from_next;  // forwards-running packets come from prev
    f.second_in = plan.forwards_first ? from_next : from_prev;
    f.switch_step = plan.switch_step;
    f.sends_own = own[s] >= 0 && !test_bit(other, static_cast<size_t>(own[s]));
  }
  return feeds;
}

}  // namespace

std::string unsupported(const Topology& t, Taps taps) {
  try {
    construct(t, taps);
  } catch (const NotApplicable& e) {
    return e.why;
  }
  return "";
}

Construction build(const Topology& torus, Taps taps) {
  try {
    return construct(torus, taps);
  } catch (const NotApplicable& e) {
    throw InputError(fmt::format("partial-cycles on {}: {}", torus.spec(), e.why));
  }
}

namespace {

Construction construct(const Topology& torus, Taps taps) {
  if (std::string why = shape_problem(torus); !why.empty()) fail(why);
  const int d = static_cast<int>(torus.dims().size());
  const int n = torus.num_nodes();
  Construction out;
  out.home_cycle.assign(static_cast<size_t>(n), -1);
  std::vector<std::vector<int>> position(static_cast<size_t>(d), std::vector<int>(static_cast<size_t>(n), -1));
  std::set<std::pair<int, int>> used;
  for (int c = 0; c < d; ++c) {
    std::vector<int> walk = lap_walk(torus, c);
    if (walk.back() != walk.front()) fail(fmt::format("cycle {} does not close", c));
    walk.pop_back();
    for (size_t i = 0; i < walk.size(); ++i) {
      const int v = walk[i], next = walk[(i + 1) % walk.size()];
      if (position[static_cast<size_t>(c)][static_cast<size_t>(v)] >= 0)
        fail(fmt::format("cycle {} passes node {} twice", c, v));
      position[static_cast<size_t>(c)][static_cast<size_t>(v)] = static_cast<int>(i);
      if (!used.insert(link(v, next)).second) fail(fmt::format("link {}-{} is on two cycles", v, next));
      if (out.home_cycle[static_cast<size_t>(v)] < 0) out.home_cycle[static_cast<size_t>(v)] = c;
    }
    out.cycles.push_back(std::move(walk));
  }
  for (int v = 0; v < n; ++v)
    if (out.home_cycle[static_cast<size_t>(v)] < 0) fail(fmt::format("node {} is on no cycle", v));

  // Suppliers: for each node off a cycle, two neighbours on it across free links, each
  // free link used once (a small matching per node, by backtracking).
  for (int v = 0; v < n; ++v) {
    std::vector<int> missing;
    for (int c = 0; c < d; ++c)
      if (position[static_cast<size_t>(c)][static_cast<size_t>(v)] < 0) missing.push_back(c);
    std::vector<int> free_ports;
    for (int q = 0; q < torus.num_ports(); ++q)
      if (!used.count(link(v, torus.neighbour(v, q)))) free_ports.push_back(q);
    std::vector<int> owner(free_ports.size(), -1);  // cycle each free port feeds
    auto on = [&](int c, size_t k) {
      return position[static_cast<size_t>(c)][static_cast<size_t>(torus.neighbour(v, free_ports[k]))] >= 0;
    };
    auto assign = [&](auto&& self, size_t need) -> bool {
      if (need == 2 * missing.size()) return true;
      const int c = missing[need / 2];
      for (size_t k = 0; k < free_ports.size(); ++k) {
        if (owner[k] >= 0 || !on(c, k)) continue;
        if (need % 2 == 1) {  // the second supplier of c comes after the first: no repeats
          size_t first = 0;
          while (owner[first] != c) ++first;
          if (k < first) continue;
        }
        owner[k] = c;
        if (self(self, need + 1)) return true;
        owner[k] = -1;
      }
      return false;
    };
    if (!assign(assign, 0)) fail(fmt::format("node {} has no two free links to each cycle it is off", v));
    for (int c : missing) {
      std::vector<int> sup;
      for (size_t k = 0; k < free_ports.size(); ++k)
        if (owner[k] == c) sup.push_back(torus.neighbour(v, free_ports[k]));
      const std::optional<std::array<Feed, 2>> feeds =
          switched_feeds(torus, out, position[static_cast<size_t>(c)], c, v, sup, taps);
      if (!feeds)
        fail(fmt::format("no taps with one switch each feed node {} every packet of cycle {} exactly once "
                         "(on 2D tori they do for 4 and 8 rows)", v, c));
      out.feeds.insert(out.feeds.end(), feeds->begin(), feeds->end());
    }
  }
  return out;
}

NetworkTables partial_cycle_tables(const Topology& torus, Taps taps, const char* name) {
  const Construction k = build(torus, taps);
  NetworkTables t = scheduling::empty_tables(torus, "gossip", name, Discipline::Fifo);
  t.construction = fmt::format("paper-laps-{}d", torus.dims().size());
  for (size_t c = 0; c < k.cycles.size(); ++c) {
    const std::vector<int>& cyc = k.cycles[c];
    const int m = static_cast<int>(cyc.size());
    for (int i = 0; i < m; ++i) {
      const int v = cyc[static_cast<size_t>(i)];
      const int to_prev = torus.port_towards(v, cyc[static_cast<size_t>((i + m - 1) % m)]);
      const int to_next = torus.port_towards(v, cyc[static_cast<size_t>((i + 1) % m)]);
      RouterTable& r = t.routers[static_cast<size_t>(v)];
      r.ports[static_cast<size_t>(to_prev)].forward_mask |= 1u << to_next;
      r.ports[static_cast<size_t>(to_next)].forward_mask |= 1u << to_prev;
      if (k.home_cycle[static_cast<size_t>(v)] != static_cast<int>(c)) continue;
      r.initial.push_back({to_next, Packet{v, kBroadcastDest, 0, reach_forwards(m)}, 1});
      if (reach_backwards(m) > 0) r.initial.push_back({to_prev, Packet{v, kBroadcastDest, 0, reach_backwards(m)}, 1});
    }
  }
  for (const Feed& f : k.feeds) {
    RouterTable& r = t.routers[static_cast<size_t>(f.supplier)];
    PortRule& rule = r.ports[static_cast<size_t>(f.out_port)];
    rule.tap_before = f.first_in;
    rule.tap_after = f.second_in;
    rule.switch_step = f.switch_step;
    if (f.sends_own) r.initial.push_back({f.out_port, Packet{f.supplier, kBroadcastDest, 0, 1}, 1});
  }
  return t;
}

// The sizes the taps can feed with one switch each: n1 = 4 or 8 rows (build() refuses
// the others, naming the node it cannot feed).
std::vector<SweepCase> partial_cycle_cases(int max_size) {
  std::vector<SweepCase> out;
  const int top = std::min(max_size, 16);
  for (int a : {4, 8})
    for (int b = 3; b <= top && a <= top; ++b) out.push_back({fmt::format("torus:{}x{}", a, b), {}});
  return out;
}

std::array<int64_t, 3> shape(const Topology& t) {
  return {t.num_nodes(), static_cast<int64_t>(t.dims().size()), t.dims().back()};
}

// The paper's algorithm: taps forward what arrives, so a node off a cycle gets its last
// packet one step after the cycle's spread ends -- Theorems 2, 3 and 4 exactly.
AlgorithmRegistrar partial_cycles_registrar({
    "partial-cycles", "gossip",
    "1 packet per node round d edge-disjoint partial Hamiltonian cycles, off-cycle nodes fed by taps that "
    "switch direction once (gossip paper, section 3)",
    [](const Topology& t) { return unsupported(t, Taps::Arrivals); }, [](const Topology&) { return false; },
    [](const Topology& t, const PortModel& m) -> std::optional<int64_t> {
      if (!m.is_default()) return std::nullopt;
      const auto [nodes, dims, run] = shape(t);
      return formulas::gossip_partial_cycles(nodes, dims, run);
    },
    [](const Topology& t) { return partial_cycle_tables(t, Taps::Arrivals, "partial-cycles"); },
    partial_cycle_cases, 1, nullptr});

// Beyond the paper: a supplier also puts its own packet on the tap at step 1, which lets
// the feeds finish with the cycles' spread, one step under the theorems when m is even.
AlgorithmRegistrar partial_cycles_early_registrar({
    "partial-cycles-early", "gossip",
    "partial-cycles whose suppliers also tap their own packet at step 1: the feeds end with the cycles' spread "
    "(beyond the paper)",
    [](const Topology& t) { return unsupported(t, Taps::ArrivalsAndOwn); }, [](const Topology&) { return false; },
    [](const Topology& t, const PortModel& m) -> std::optional<int64_t> {
      if (!m.is_default()) return std::nullopt;
      const auto [nodes, dims, run] = shape(t);
      return formulas::gossip_partial_cycles_spread(nodes, dims, run);
    },
    [](const Topology& t) {
      return partial_cycle_tables(t, Taps::ArrivalsAndOwn, "partial-cycles-early");
    },
    partial_cycle_cases, 1,
    [](const Topology& t) -> std::optional<int64_t> {
      const auto [nodes, dims, run] = shape(t);
      return formulas::gossip_partial_cycles(nodes, dims, run);
    }});

}  // namespace
}  // namespace fixroute::partial_cycles
