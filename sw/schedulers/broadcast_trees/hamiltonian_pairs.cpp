// Pair exchanges along a Hamiltonian cycle (the all-to-all broadcast paper, "1-port model":
// "Any hamiltonian graph can achieve this lower bound [N-1] by alternating even-odd and
// odd-even pair exchanges between nodes along its hamiltonian cycle"). On a cycle
// c_0 .. c_(N-1) of even N, round r pairs c_i with c_(i+1) for i = r-1 mod 2; each node
// sends its own packet first and then, every round, the packet it received in the round
// before. A packet so keeps going one way round the cycle (those that start at even
// positions one way, at odd ones the other), each node receiving one new packet every
// round: N-1 rounds, no buffers.
//
// Odd N leaves a node idle every round, so N rounds at least (the matching bound; the paper
// leaves odd N). Round t (from 0) leaves c_t idle and pairs c_(t+k) with c_(t+k+1) for odd
// k: the pairs move on one place a round with the idle node, so a node at an odd offset k
// from it sends forward (to c_(i+1)), one at an even offset back (to c_(i-1)). Forward, the
// packets of the nodes at odd offsets in round 0 ride along with their pairs: c_i sends the
// packet of c_(i - (t mod (N-1))). Back, a packet loses a round each time it meets the idle
// node: c_i at even offset k sends that of c_(i + t - s), s the rounds of (N+1)/2 - k/2 +
// j (N+1)/2 (j >= 0) up to t. Each node then receives, in each of its N-1 paired rounds, a
// packet it lacks: N rounds, one buffer (a packet going back waits out the round its next
// sender is idle); measured by the routers on every odd ring up to 301 and beyond (tests).
//
// 1-port half-duplex (the paper skips the model): each round's exchanges in two one-way
// rounds (one_way_rounds). The cycle: constructed on every family but graph files, searched
// for there (searched_cycle).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <mutex>
#include <numeric>
#include <random>

#include "sw/core/formulas.h"
#include "sw/schedulers/broadcast_trees.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {

// The node at place i of a cycle, i taken round it (any integer).
int cycle_at(const std::vector<int>& cycle, int i) {
  const int n = static_cast<int>(cycle.size());
  return cycle[static_cast<size_t>(((i % n) + n) % n)];
}

// OTIS of even n >= 4. Walking each group whole between neighbours on c, as for odd n,
// fails from n = 6: the groups two apart in the order would have to be neighbours on c, and
// every other group would close a walk of n/2 steps of +-1 round c. Node <c_a, c_b> is
// written (a, b). The groups' own cycles
// along c first (each (a, b) -- (a, b+1)), merged by exchanges: Q(g, p) is the 8-cycle
//   (g,p) -ring- (g,p+1) -swap- (p+1,g) -ring- (p+1,g+1) -swap- (g+1,p+1) -ring- (g+1,p)
//   -swap- (p,g+1) -ring- (p,g) -swap- (g,p),
// and an exchange trades its four ring arcs for its four swap links (p not g-1, g, g+1):
// the nodes keep two neighbours each. Q(0,2) merges the four groups 0..3 into one cycle;
// Q(2k, 2k+2) for k = 0 .. n/2 - 3 and then Q(n-5, n-2) (n = 4: Q(0, 2) alone) leave one
// cycle through every node -- checked on every even n from 4 to 100 (tests; the walk below
// refuses anything shorter than all the nodes).
std::vector<int> otis_even_cycle(const Topology& topology, const std::vector<int>& base) {
  const int n = static_cast<int>(base.size());
  if (n < 4) return {};
  auto id = [n](int a, int b) { return ((a % n + n) % n) * n + (b % n + n) % n; };
  std::vector<std::array<int, 2>> next(static_cast<size_t>(n) * static_cast<size_t>(n));
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) next[static_cast<size_t>(id(a, b))] = {id(a, b - 1), id(a, b + 1)};
  auto exchange = [&](int g, int p) {
    const std::array<int, 8> q = {id(g, p),     id(g, p + 1), id(p + 1, g), id(p + 1, g + 1),
                                  id(g + 1, p + 1), id(g + 1, p), id(p, g + 1), id(p, g)};
    for (int i = 0; i < 8; ++i) {  // q_i's ring neighbour in Q gives way to its swap neighbour
      const int ring = q[static_cast<size_t>(i % 2 == 0 ? i + 1 : i - 1)];
      const int swap = q[static_cast<size_t>(i % 2 == 0 ? (i + 7) % 8 : (i + 1) % 8)];
      std::array<int, 2>& nb = next[static_cast<size_t>(q[static_cast<size_t>(i)])];
      (nb[0] == ring ? nb[0] : nb[1]) = swap;
    }
  };
  if (n == 4) {
    exchange(0, 2);
  } else {
    for (int k = 0; k < n / 2 - 2; ++k) exchange(2 * k, 2 * k + 2);
    exchange(n - 5, n - 2);
  }
  std::vector<int> cycle;
  for (int at = 0, from = -1; cycle.empty() || at != 0;) {
    if (cycle.size() == next.size()) return {};  // not back at the start: no cycle (never so: tests)
    cycle.push_back(topology.node_at({base[static_cast<size_t>(at / n)], base[static_cast<size_t>(at % n)], 0}));
    const std::array<int, 2>& nb = next[static_cast<size_t>(at)];
    const int to = nb[0] != from ? nb[0] : nb[1];
    from = at;
    at = to;
  }
  if (cycle.size() != next.size()) return {};
  return cycle;
}

// Posa's rotations (randomized, seeded): the path from node 0 grows at its end to a random
// free neighbour; where the end has none, a random neighbour v_i of it on the path (not its
// predecessor) turns the path round after v_i, v_(i+1) becoming the end; a path through
// every node whose end is a neighbour of node 0 closes the cycle. Within kPosaWork node moves
// (a turn moves the nodes after v_i). It found the cycles depth-first search with
// Warnsdorff's rule ran out of steps on: random 3-regular graphs of 300 and 1000 nodes (not
// one of 3000 within its moves).
constexpr int64_t kPosaWork = int64_t{1} << 27;
constexpr uint32_t kCycleSearchSeed = 0x4a11;  // the searches' random orders: the same cycle each run
std::vector<int> posa_cycle(const std::vector<std::vector<int>>& adj, const Topology& topology) {
  const int n = static_cast<int>(adj.size());
  std::mt19937 random(kCycleSearchSeed);
  std::vector<int> path = {0}, place(static_cast<size_t>(n), -1);
  place[0] = 0;
  std::vector<int> picks;
  for (int64_t work = 0; work < kPosaWork;) {
    const int end = path.back();
    if (static_cast<int>(path.size()) == n && topology.adjacent(end, 0)) return path;
    picks.clear();
    for (int w : adj[static_cast<size_t>(end)])
      if (place[static_cast<size_t>(w)] < 0) picks.push_back(w);
    if (!picks.empty()) {  // grow
      const int w = picks[std::uniform_int_distribution<size_t>(0, picks.size() - 1)(random)];
      place[static_cast<size_t>(w)] = static_cast<int>(path.size());
      path.push_back(w);
      ++work;
      continue;
    }
    for (int w : adj[static_cast<size_t>(end)])  // turn round after a neighbour on the path
      if (place[static_cast<size_t>(w)] < static_cast<int>(path.size()) - 2) picks.push_back(w);
    if (picks.empty()) return {};
    const size_t i = static_cast<size_t>(place[static_cast<size_t>(
        picks[std::uniform_int_distribution<size_t>(0, picks.size() - 1)(random)])]);
    std::reverse(path.begin() + static_cast<std::ptrdiff_t>(i) + 1, path.end());
    for (size_t j = i + 1; j < path.size(); ++j) place[static_cast<size_t>(path[j])] = static_cast<int>(j);
    work += static_cast<int64_t>(path.size() - i);
  }
  return {};
}

// A graph read from a file (graph:FILE): a Hamiltonian cycle searched for. First depth
// first from node 0 -- the path extended first to the free neighbour with the fewest free
// neighbours (Warnsdorff's rule), a branch dropped as soon as node 0 or a free node the path
// passed by is left with fewer ways than it needs to close the cycle -- in up to
// kCycleAttempts attempts of kCycleAttemptSteps extensions, the first breaking ties by id and
// each later one in another (seeded) order: a search that goes wrong early seldom recovers
// by backtracking (tori of an odd number of rows by an even number of columns, as link
// lists, needed a second order). An attempt that runs out of branches proves there is none.
// Where none of them settles it, Posa's rotations (posa_cycle). Empty where no cycle is found.
constexpr int kCycleAttempts = 32;
constexpr int64_t kCycleAttemptSteps = int64_t{1} << 17;
// `adj`: each node's neighbours (a graph file is simple: no loop, no link twice), two or more.
// Inlined into searched_cycle: out of line, with `adj` by reference, its loops ran 15 %
// slower (a refused 2000-node graph: 0.23 s against 0.20 s).
[[gnu::always_inline]] inline std::vector<int> search_cycle(const Topology& topology, const std::vector<std::vector<int>>& adj) {
  const int n = topology.num_nodes();
  std::vector<char> on_path(static_cast<size_t>(n), 0);
  std::vector<int> free_neighbours(static_cast<size_t>(n));  // of each node, those not on the path
  auto enter = [&](int v, int delta) {  // v joins (delta -1) or leaves (+1) the path
    on_path[static_cast<size_t>(v)] = delta < 0 ? 1 : 0;
    for (int w : adj[static_cast<size_t>(v)]) free_neighbours[static_cast<size_t>(w)] += delta;
  };
  // A free node needs two ways: free neighbours, or the path's two ends.
  auto stranded = [&](int passed, int end) {
    for (int w : adj[static_cast<size_t>(passed)]) {
      if (on_path[static_cast<size_t>(w)]) continue;
      const int ways = free_neighbours[static_cast<size_t>(w)] + (topology.adjacent(w, 0) ? 1 : 0) +
                       (topology.adjacent(w, end) ? 1 : 0);
      if (ways < 2) return true;
    }
    return false;
  };
  std::vector<int> rank(static_cast<size_t>(n));  // ties broken by it: the lower rank first
  std::iota(rank.begin(), rank.end(), 0);
  std::mt19937 random(kCycleSearchSeed);
  for (int attempt = 0; attempt < kCycleAttempts; ++attempt) {
    if (attempt > 0) std::shuffle(rank.begin(), rank.end(), random);
    std::fill(on_path.begin(), on_path.end(), 0);
    for (int v = 0; v < n; ++v)
      free_neighbours[static_cast<size_t>(v)] = static_cast<int>(adj[static_cast<size_t>(v)].size());
    auto next_choices = [&](int v) {  // v's free neighbours, the one to try first last
      std::vector<int> c;
      for (int w : adj[static_cast<size_t>(v)])
        if (!on_path[static_cast<size_t>(w)]) c.push_back(w);
      std::sort(c.begin(), c.end(), [&](int x, int y) {
        const int fx = free_neighbours[static_cast<size_t>(x)], fy = free_neighbours[static_cast<size_t>(y)];
        return fx != fy ? fx > fy : rank[static_cast<size_t>(x)] > rank[static_cast<size_t>(y)];
      });
      return c;
    };
    std::vector<int> path = {0};
    std::vector<std::vector<int>> choices;  // per node of the path: its neighbours still to try
    enter(0, -1);
    choices.push_back(next_choices(0));
    for (int64_t steps = 0; !choices.empty() && steps < kCycleAttemptSteps;) {
      std::vector<int>& left = choices.back();
      if (left.empty()) {  // back: the path's end leaves it
        choices.pop_back();
        if (path.size() > 1) {
          enter(path.back(), +1);
          path.pop_back();
        }
        continue;
      }
      const int v = left.back();
      left.pop_back();
      ++steps;
      const int from = path.back();
      enter(v, -1);
      path.push_back(v);
      if (static_cast<int>(path.size()) == n) {
        if (topology.adjacent(v, 0)) return path;
      } else if (free_neighbours[0] > 0 && !stranded(from, v)) {  // node 0 keeps a way to close the cycle
        choices.push_back(next_choices(v));
        continue;
      }
      enter(v, +1);
      path.pop_back();
    }
    if (choices.empty()) return {};  // every branch tried: there is none
  }
  return posa_cycle(adj, topology);
}

// search_cycle's answer for the graph asked about last, kept: a run asks twice (whether
// hamiltonian-pairs applies, then its tables), and the search is most of a run's time on a
// large graph (a random 3-regular one of 1000 nodes: a run 0.28 s searching once, 0.44 s
// twice). Keyed by the links themselves, not the file's name: a file read again may have
// changed. Degree < 2 somewhere: none.
std::vector<int> searched_cycle(const Topology& topology) {
  const int n = topology.num_nodes();
  std::vector<std::vector<int>> adj(static_cast<size_t>(n));
  for (int v = 0; v < n; ++v) {
    for (int p = 0; p < topology.num_ports(); ++p)
      if (const int u = topology.neighbour(v, p); u >= 0) adj[static_cast<size_t>(v)].push_back(u);
    if (adj[static_cast<size_t>(v)].size() < 2) return {};
  }
  if (n < 3) return {};
  static std::mutex last_mutex;  // the library may be called from several threads
  static std::vector<std::vector<int>> last_links;
  static std::vector<int> last_cycle;
  {
    const std::lock_guard<std::mutex> lock(last_mutex);
    if (last_links == adj) return last_cycle;
  }
  std::vector<int> cycle = search_cycle(topology, adj);
  const std::lock_guard<std::mutex> lock(last_mutex);
  last_links = std::move(adj);
  last_cycle = cycle;
  return cycle;
}

// A swapped network's Hamiltonian cycle from its base's, c_0 .. c_(n-1) (docs/topologies.md:
// <g,p,0> -- <p,g,1> biswapped, <g,p> -- <p,g> for g != p OTIS). Biswapped: part 0's group
// c_g walked from processor c_g the long way round c to c_(g+1), across to part 1's group
// c_(g+1) at processor c_g, the same way round, across to part 0's group c_(g+1) at c_(g+1).
// OTIS of odd n: the groups in the order c_0, c_s, c_2s, ... with s = (n+1)/2, so 2s = 1
// mod n: group c_ks is entered at processor c_(k-1)s and left at c_(k+1)s, neighbours on c,
// joined the long way round. OTIS of even n: otis_even_cycle (above).
std::vector<int> swapped_cycle(const Topology& topology) {
  const std::vector<int> base = hamiltonian_cycle(topology.base());
  const int n = static_cast<int>(base.size());
  std::vector<int> cycle;
  auto c = [&](int i) { return cycle_at(base, i); };
  if (topology.kind() == TopologyKind::Biswapped) {
    if (n < 2) return cycle;
    for (int g = 0; g < n; ++g)
      for (int part = 0; part < 2; ++part)
        for (int i = 0; i < n; ++i) cycle.push_back(topology.node_at({part == 0 ? c(g) : c(g + 1), c(g - i), part}));
    return cycle;
  }
  if (n % 2 == 0) return otis_even_cycle(topology, base);
  if (n < 3) return cycle;
  const int s = (n + 1) / 2;
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i) cycle.push_back(topology.node_at({c(k * s), c((k - 1) * s - i), 0}));
  return cycle;
}

}  // namespace

// A Hamiltonian cycle of the topology as a node sequence, or empty where this does not know
// one: rings; complete graphs; hypercubes (the reflected Gray code); meshes and tori of even N, as the grid
// of dimension 0 against a boustrophedon path through the other dimensions; tori of odd N the
// same way, closed through dimension 0's wrap-around; biswapped and OTIS networks over a
// base with one (OTIS of n >= 3); graphs read from files, where the search finds one.
std::vector<int> hamiltonian_cycle(const Topology& topology) {
  const int nodes = topology.num_nodes();
  std::vector<int> cycle;
  switch (topology.kind()) {
    case TopologyKind::Ring:
      for (int v = 0; v < nodes; ++v) cycle.push_back(v);
      return cycle;
    case TopologyKind::Hypercube:
      if (nodes < 4) return cycle;
      for (int i = 0; i < nodes; ++i) cycle.push_back(i ^ (i >> 1));
      return cycle;
    case TopologyKind::Line:
      if (nodes == 2) cycle = {0, 1};
      return cycle;
    case TopologyKind::Complete:  // every order is a cycle
      for (int v = 0; v < nodes; ++v) cycle.push_back(v);
      return cycle;
    case TopologyKind::Mesh:
    case TopologyKind::Torus: break;
    case TopologyKind::Biswapped:
    case TopologyKind::Swapped: return swapped_cycle(topology);
    case TopologyKind::Graph: return searched_cycle(topology);
  }
  if (nodes % 2 == 1 && topology.kind() == TopologyKind::Mesh) return cycle;  // bipartite: no odd cycle
  const std::vector<int>& dims = topology.dims();
  // The path through dimensions 1.. in boustrophedon order: the offsets of its nodes.
  std::vector<int> path = {0};
  int stride = 1;
  for (int k = static_cast<int>(dims.size()) - 1; k >= 1; --k) {
    std::vector<int> longer;
    for (int x = 0; x < dims[static_cast<size_t>(k)]; ++x)
      for (size_t i = 0; i < path.size(); ++i)
        longer.push_back(x * stride + path[x % 2 == 0 ? i : path.size() - 1 - i]);
    path = longer;
    stride *= dims[static_cast<size_t>(k)];
  }
  // Grid of R rows (dimension 0) by C columns (the path); a cycle needs R or C even, or (a
  // torus of odd sizes, transposed) the step from the last row's end back to column 0
  // along dimension 0's wrap-around.
  int rows = dims[0], cols = static_cast<int>(path.size());
  const bool transposed = rows % 2 == 1;
  if (transposed) std::swap(rows, cols);
  auto node = [&](int r, int c) { return transposed ? c * stride + path[static_cast<size_t>(r)] : r * stride + path[static_cast<size_t>(c)]; };
  if (cols < 2) return cycle;
  // Along row 0, down the rows 1 .. R-1 over columns 1 .. C-1 in turn, back up column 0.
  for (int c = 0; c < cols; ++c) cycle.push_back(node(0, c));
  for (int r = 1; r < rows; ++r)
    for (int i = 1; i < cols; ++i) cycle.push_back(node(r, r % 2 == 1 ? cols - i : i));
  for (int r = rows - 1; r >= 1; --r) cycle.push_back(node(r, 0));
  return cycle;
}

namespace {

// Odd N: the idle node moves on one place a round, the pairs with it (above).
BroadcastTreeTables odd_cycle_tables(const Problem& p, const std::vector<int>& cycle) {
  const int nodes = static_cast<int>(cycle.size());
  BroadcastTreeTables t = empty_broadcast_tree_tables(p.topology, nodes);
  auto at = [&](int i) { return cycle_at(cycle, i); };
  const int half = (nodes + 1) / 2;
  for (int round = 0; round < nodes; ++round)
    for (int k = 1; k < nodes; ++k) {
      const int i = round + k;  // the sender's place on the cycle
      int to = 0, from = 0;     // the receiver's place, the packet's origin's
      if (k % 2 == 1) {
        to = i + 1;
        from = i - round % (nodes - 1);
      } else {
        const int first_meeting = half - k / 2;
        const int meetings = round < first_meeting ? 0 : (round - first_meeting) / half + 1;
        to = i - 1;
        from = i + round - meetings;
      }
      t.at(at(i), round + 1, p.topology.port_towards(at(i), at(to))) = at(from);
    }
  t.construction = "pair exchanges round a Hamiltonian cycle, one node idle a round";
  return t;
}

// Even N (above).
BroadcastTreeTables even_cycle_tables(const Problem& p, const std::vector<int>& cycle) {
  const int nodes = static_cast<int>(cycle.size());
  BroadcastTreeTables t = empty_broadcast_tree_tables(p.topology, nodes - 1);
  std::vector<int> carry(static_cast<size_t>(p.topology.num_nodes()));  // what each node sends next
  for (int v = 0; v < p.topology.num_nodes(); ++v) carry[static_cast<size_t>(v)] = v;
  for (int round = 1; round < nodes; ++round) {
    std::vector<int> next = carry;
    for (int i = (round - 1) % 2; i < nodes; i += 2) {
      const int u = cycle[static_cast<size_t>(i)], v = cycle[static_cast<size_t>((i + 1) % nodes)];
      t.at(u, round, p.topology.port_towards(u, v)) = carry[static_cast<size_t>(u)];
      t.at(v, round, p.topology.port_towards(v, u)) = carry[static_cast<size_t>(v)];
      next[static_cast<size_t>(u)] = carry[static_cast<size_t>(v)];
      next[static_cast<size_t>(v)] = carry[static_cast<size_t>(u)];
    }
    carry = next;
  }
  t.construction = "pair exchanges round a Hamiltonian cycle";
  return t;
}

// 1-port half-duplex (the paper skips this model): each round's exchanges in two one-way
// rounds, the lower node of each pair sending first -- so a node sends or receives one packet
// a round, each link carries one way, and a packet still moves on only after the round it
// arrived in. Twice the rounds: 2(N-1) on even N, 2N on odd N -- the matching bound with
// one-way links, floor(N/2) transfers a round for N(N-1) receptions.
BroadcastTreeTables one_way_rounds(const BroadcastTreeTables& exchanges, const Topology& topology) {
  BroadcastTreeTables t = empty_broadcast_tree_tables(topology, 2 * exchanges.rounds);
  for (int u = 0; u < exchanges.nodes; ++u)
    for (int round = 1; round <= exchanges.rounds; ++round)
      for (int port = 0; port < exchanges.ports; ++port) {
        const int32_t origin = exchanges.at(u, round, port);
        if (origin != kNoSend) t.at(u, 2 * round - (u < topology.neighbour(u, port) ? 1 : 0), port) = origin;
      }
  t.construction = exchanges.construction + ", each exchange in two one-way rounds";
  return t;
}

const AlgorithmRegistrar hamiltonian_pairs_registrar([] {
  Algorithm a = broadcast_tree_algorithm(
      "hamiltonian-pairs", "gossip without combining, 1-port: alternating pair exchanges along a Hamiltonian "
                           "cycle, N-1 rounds on even N (AAB paper, 1-port model), N on odd N; half-duplex each "
                           "exchange in two one-way rounds, twice as many");
  a.aliases = {"hamiltonian-exchange"};  // the name the all-to-all broadcast issue gives it
  a.unsupported = [](const Problem& p) -> std::string {
    if (!p.port_model.one_port) return fmt::format("it runs 1-port routers, not {}", p.port_model.label());
    if (p.topology.num_nodes() > kMaxBroadcastTreeNodes)
      return fmt::format("broadcast-tree routers take at most {} nodes", kMaxBroadcastTreeNodes);
    if (hamiltonian_cycle(p.topology).empty()) return "no Hamiltonian cycle known for this topology";
    return "";
  };
  a.is_default = [](const Problem& p) { return p.port_model.one_port; };
  a.formula = [](const Problem& p) -> std::optional<int64_t> {
    return (p.port_model.half_duplex ? 2 : 1) * formulas::hamiltonian_pair_exchange(p.topology.num_nodes());
  };
  a.build = [](const Problem& p) {
    const std::vector<int> cycle = hamiltonian_cycle(p.topology);
    BroadcastTreeTables t = cycle.size() % 2 == 1 ? odd_cycle_tables(p, cycle) : even_cycle_tables(p, cycle);
    if (p.port_model.half_duplex) t = one_way_rounds(t, p.topology);
    return finish_broadcast_tree_tables(std::move(t), p, "hamiltonian-pairs");
  };
  a.sweep = [](int max_size) {
    std::vector<SweepCase> out;
    const PortModel one_port{true, false};
    for (int z = 3; z <= std::min(max_size, 32); ++z) out.push_back({fmt::format("ring:{}", z), one_port, ""});
    for (int z = 2; z <= 9; ++z) out.push_back({fmt::format("complete:{}", z), one_port, ""});
    for (int r = 2; r <= 8; ++r)
      for (int c = r; c <= 8; ++c)
        if ((r * c) % 2 == 0) out.push_back({fmt::format("mesh:{}x{}", r, c), one_port, ""});
    for (int z = 4; z <= 8; z += 2) out.push_back({fmt::format("torus:{}x{}", z, z), one_port, ""});
    for (const char* odd : {"torus:3x3", "torus:5x7", "torus:3x3x5"}) out.push_back({odd, one_port, ""});
    for (const char* swapped :
         {"bsn:ring:3", "bsn:hypercube:2", "otis:ring:5", "otis:complete:3", "otis:ring:4", "otis:mesh:2x3"})
      out.push_back({swapped, one_port, ""});
    for (int n = 2; n <= 8; ++n) out.push_back({fmt::format("hypercube:{}", n), one_port, ""});
    out.push_back({"line:2", one_port, ""});
    const PortModel one_port_half{true, true};  // each exchange in two one-way rounds
    for (int z = 3; z <= std::min(max_size, 16); ++z) out.push_back({fmt::format("ring:{}", z), one_port_half, ""});
    for (const char* spec : {"mesh:4x4", "mesh:3x4", "torus:3x3", "torus:5x7", "hypercube:4", "complete:5", "otis:ring:4",
                             "otis:ring:5", "bsn:ring:3"})
      out.push_back({spec, one_port_half, ""});
    return out;
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
