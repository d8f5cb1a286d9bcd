// Rarest-first gossip: all-to-all broadcast without combining on any network, all-port
// (the all-to-all broadcast paper's models, "All-port full-duplex model" and "All-port
// half-duplex model"). The paper solves 2D meshes M(z1,z2) full-duplex in
// ceil((z1 z2 - 1)/2) rounds by time-arc-disjoint trees it cites but does not give, and has
// no construction for meshes of more sizes or for networks without translations; this is a
// greedy schedule of the N broadcast trees, round by round, for all of them:
// - in round r every link direction u -> v carries at most one packet, one that u held
//   before the round and v has not (so each packet's arcs form a tree rooted at its origin,
//   and trees sharing a link do so in different rounds: time-arc-disjoint);
// - each node v fills its in-links one by one, the link with the fewest packets to offer
//   first, each with the packet fewest nodes hold -- among those, the one from the origin
//   furthest from v, then the lowest origin -- no packet taken twice in a round: rare
//   packets spread first, so every neighbour soon has something v lacks, and far ones
//   before near ones, which have more rounds left to arrive;
// - half-duplex: first each link is turned, for the round, towards the end whose best
//   packet from the other is the rarer (ties: the end missing more).
// A node's in-links bound the count from below: ceil((N-1)/degree) at the node of least
// degree (the corners of a mesh); the run reports the rounds, the bound and the buffers.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "sw/core/formulas.h"
#include "sw/schedulers/broadcast_trees.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {

// Each round touches every in-link with a bit set of N origins: N^2 x degree bits a round
// (and the distances take N^2 ints).
constexpr int kMaxRarestFirstNodes = 1024;

struct InLink {
  int from = 0;       // the neighbour that sends
  int from_port = 0;  // its port towards the receiver
  size_t back = 0;    // the index of the receiver among the neighbour's in-links
};

std::shared_ptr<const Tables> rarest_first_build(const Problem& p) {
  const Topology& topology = p.topology;
  const int n = topology.num_nodes(), ports = topology.num_ports();
  const size_t words = (static_cast<size_t>(n) + 63) / 64;
  std::vector<std::vector<InLink>> in_links(static_cast<size_t>(n));
  for (int u = 0; u < n; ++u)
    for (int q = 0; q < ports; ++q) {
      const int v = topology.neighbour(u, q);
      if (v >= 0 && v != u) in_links[static_cast<size_t>(v)].push_back({u, q, 0});
    }
  for (int v = 0; v < n; ++v)
    for (InLink& link : in_links[static_cast<size_t>(v)]) {
      const std::vector<InLink>& theirs = in_links[static_cast<size_t>(link.from)];
      while (theirs[link.back].from != v) ++link.back;
    }
  // held[v * words + w]: the origins node v holds; holders[o]: how many nodes hold o.
  std::vector<uint64_t> held(static_cast<size_t>(n) * words, 0), arriving(held.size(), 0);
  auto holds = [&](std::vector<uint64_t>& bits, int v) { return bits.data() + static_cast<size_t>(v) * words; };
  std::vector<int64_t> holders(static_cast<size_t>(n), 1);
  for (int v = 0; v < n; ++v) holds(held, v)[static_cast<size_t>(v) / 64] |= uint64_t{1} << (v % 64);
  int64_t missing = static_cast<int64_t>(n) * (n - 1);

  struct Send {
    int round, node, port, origin;
  };
  std::vector<Send> sends;
  std::vector<uint64_t> offer;  // per in-link of the node at hand: what its neighbour can give
  std::vector<int> offered;     // how many
  std::vector<size_t> order;
  std::vector<std::vector<int>> distance(static_cast<size_t>(n));
  for (int v = 0; v < n; ++v) distance[static_cast<size_t>(v)] = topology.distances_from(v);
  // The packet node v takes first among those in `from` and not in `without`: the fewest
  // holders, then the origin furthest from v, then the lowest; -1 where there is none.
  auto rarest = [&](const uint64_t* from, const uint64_t* without, int v) {
    const std::vector<int>& from_v = distance[static_cast<size_t>(v)];
    int best = -1;
    for (size_t w = 0; w < words; ++w)
      for (uint64_t bits = from[w] & ~without[w]; bits; bits &= bits - 1) {
        const int o = static_cast<int>(w * 64) + __builtin_ctzll(bits);
        if (best < 0) {
          best = o;
          continue;
        }
        const int64_t held_o = holders[static_cast<size_t>(o)], held_best = holders[static_cast<size_t>(best)];
        if (held_o < held_best || (held_o == held_best && from_v[static_cast<size_t>(o)] > from_v[static_cast<size_t>(best)]))
          best = o;
      }
    return best;
  };
  // Half-duplex: open[v][l], whether v's in-link l carries towards v this round.
  std::vector<std::vector<char>> open(static_cast<size_t>(n));
  for (int v = 0; v < n; ++v) open[static_cast<size_t>(v)].assign(in_links[static_cast<size_t>(v)].size(), 1);
  auto turn_links = [&] {
    std::vector<int64_t> lacking(static_cast<size_t>(n), n);
    for (int v = 0; v < n; ++v)
      for (size_t w = 0; w < words; ++w) lacking[static_cast<size_t>(v)] -= __builtin_popcountll(holds(held, v)[w]);
    for (int v = 0; v < n; ++v)
      for (size_t l = 0; l < in_links[static_cast<size_t>(v)].size(); ++l) {
        const InLink& link = in_links[static_cast<size_t>(v)][l];
        const int u = link.from;
        if (u > v) continue;  // each link once
        const int to_v = rarest(holds(held, u), holds(held, v), v), to_u = rarest(holds(held, v), holds(held, u), u);
        bool towards_v = to_v >= 0;
        if (to_v >= 0 && to_u >= 0) {
          const int64_t a = holders[static_cast<size_t>(to_v)], b = holders[static_cast<size_t>(to_u)];
          towards_v = a != b ? a < b : lacking[static_cast<size_t>(v)] >= lacking[static_cast<size_t>(u)];
        }
        open[static_cast<size_t>(v)][l] = towards_v;
        open[static_cast<size_t>(u)][link.back] = !towards_v;
      }
  };
  int round = 0;
  while (missing > 0) {
    if (++round > kMaxBroadcastTreeRounds)
      throw std::logic_error(fmt::format("rarest-first on {}: not done in {} rounds", topology.spec(), kMaxBroadcastTreeRounds));
    std::fill(arriving.begin(), arriving.end(), 0);
    int64_t arrived = 0;
    if (p.port_model.half_duplex) turn_links();
    for (int v = 0; v < n; ++v) {
      const std::vector<InLink>& links = in_links[static_cast<size_t>(v)];
      offer.resize(links.size() * words);
      offered.assign(links.size(), 0);
      const uint64_t* mine = holds(held, v);
      for (size_t l = 0; l < links.size(); ++l) {
        const uint64_t* theirs = holds(held, links[l].from);
        for (size_t w = 0; w < words; ++w) {
          offer[l * words + w] = theirs[w] & ~mine[w];
          offered[l] += __builtin_popcountll(offer[l * words + w]);
        }
      }
      order.resize(links.size());
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return offered[a] < offered[b]; });
      uint64_t* taken = holds(arriving, v);
      for (size_t l : order) {
        if (!open[static_cast<size_t>(v)][l]) continue;
        const int best = rarest(&offer[l * words], taken, v);
        if (best < 0) continue;
        taken[static_cast<size_t>(best) / 64] |= uint64_t{1} << (best % 64);
        sends.push_back({round, links[l].from, links[l].from_port, best});
        ++arrived;
      }
    }
    for (size_t i = 0; i < held.size(); ++i) {
      for (uint64_t bits = arriving[i]; bits; bits &= bits - 1)
        ++holders[(i % words) * 64 + static_cast<size_t>(__builtin_ctzll(bits))];
      held[i] |= arriving[i];
    }
    if (arrived == 0)
      throw std::logic_error(fmt::format("rarest-first on {}: round {} moved nothing (a network in parts?)",
                                         topology.spec(), round));
    missing -= arrived;
  }
  BroadcastTreeTables tables = empty_broadcast_tree_tables(topology, std::max(round, 1));
  for (const Send& s : sends) tables.at(s.node, s.round, s.port) = s.origin;
  int min_degree = ports;
  for (const std::vector<InLink>& links : in_links) min_degree = std::min(min_degree, static_cast<int>(links.size()));
  tables.construction = fmt::format("greedy trees, rarest packet first (then the furthest): {} rounds (in-links bound {})", round,
                                    formulas::tadbt_rounds(n, std::max(min_degree, 1)));
  return finish_broadcast_tree_tables(std::move(tables), p, "rarest-first");
}

const AlgorithmRegistrar rarest_first_registrar([] {
  Algorithm a = broadcast_tree_algorithm(
      "rarest-first", "gossip without combining on any network, all-port (full- or half-duplex): greedy "
                      "time-arc-disjoint trees, each node taking on every in-link the packet fewest nodes hold (the AAB "
                      "paper's models; its full-duplex mesh trees are cited, not given)");
  a.unsupported = [](const Problem& p) -> std::string {
    if (p.port_model.one_port) return fmt::format("its greedy runs all-port routers, not {}", p.port_model.label());
    if (p.topology.num_nodes() > kMaxRarestFirstNodes)
      return fmt::format("its greedy takes networks of at most {} nodes", kMaxRarestFirstNodes);
    return "";
  };
  // A default on meshes: full-duplex (the paper gives no construction), and half-duplex
  // where two-phase has no count either (not a square of even side: the tie goes to the
  // registry's order, this name first); elsewhere where nothing else runs.
  a.is_default = [](const Problem& p) { return p.topology.kind() == TopologyKind::Mesh; };
  a.formula = [](const Problem&) { return std::optional<int64_t>{}; };
  a.paper_formula = mesh_gossip_paper_rounds;
  a.above_paper_reason = [](const Problem&) {
    return std::string("a greedy schedule (trees-exact reaches the paper's count on thin meshes of up to 64 nodes); "
                       "the paper's full-duplex mesh trees are cited, not given");
  };
  a.build = rarest_first_build;
  a.sweep = [](int max_size) {
    std::vector<SweepCase> out;
    for (int z = 2; z <= std::min(max_size, 8); ++z) out.push_back({fmt::format("mesh:{}x{}", z, z), {}, ""});
    for (const char* spec : {"mesh:4x6", "mesh:5x7", "mesh:2x2x2", "mesh:3x3x3", "mesh:2x3x4", "mesh:4x4x4"})
      out.push_back({spec, {}, ""});
    for (const char* spec : {"mesh:4x4", "mesh:4x6", "mesh:5x5", "mesh:3x3x3"}) out.push_back({spec, PortModel{false, true}, ""});
    return out;
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
