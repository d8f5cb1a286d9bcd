#include "bounds.h"

#include "sw/core/formulas.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "sw/schedulers/combining.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {
int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
}  // namespace

int64_t Bounds::best() const {
  int64_t b = 0;
  for (const LowerBound& p : parts) b = std::max(b, p.steps);
  return b;
}

Bounds total_exchange_bounds(const Topology& topology, const PortModel& model) {
  Bounds b;
  Cut cut = topology.bisection_cut();
  // Every one of the |A||B| messages from side A to side B crosses one of `links` arcs
  // A->B; half-duplex links carry both directions' 2|A||B| messages in turn.
  int64_t crossings = cut.side_a * cut.side_b * (model.half_duplex ? 2 : 1);
  b.parts.push_back({"bisection", ceil_div(crossings, cut.links),
                     fmt::format("{} messages across a cut of {} link(s){}", crossings, cut.links,
                                 model.half_duplex ? ", half-duplex" : "")});
  b.parts.push_back({"diameter", topology.diameter(), "the two furthest nodes exchange a message"});
  if (model.one_port) {
    int64_t n = topology.num_nodes();
    b.parts.push_back({"one-port", n - 1, "every node receives N-1 messages, one per step"});
  }
  return b;
}

namespace {

// The sizes of the two sides of a bipartite network (two_colouring's colours), the larger
// first, or nullopt where the network has an odd cycle or a node no colour reached.
std::optional<std::pair<int64_t, int64_t>> bipartite_sides(const Topology& topology) {
  const std::vector<int> colour = two_colouring(topology);
  if (colour.empty() || std::count(colour.begin(), colour.end(), -1) > 0) return std::nullopt;
  const int64_t ones = std::count(colour.begin(), colour.end(), 1);
  const int64_t zeros = static_cast<int64_t>(colour.size()) - ones;
  return std::make_pair(std::max(zeros, ones), std::min(zeros, ones));
}

// The all-to-all broadcast paper's 1-port bounds ("1-port model"), for `per_node` packets
// of every node: the matching bound ceil(kN(N-1) / (2 mu(G))) -- ceil(kN(N-1) / mu(G))
// half-duplex, a link carrying one way a round -- and, on lines and meshes, the
// vertex-cutset lemma.
void add_one_port_gossip_bounds(const Topology& topology, int per_node, bool half_duplex, Bounds& b) {
  const int64_t n = topology.num_nodes(), k = per_node;
  // No matching has more than floor(N/2) edges (most topologies here have a Hamiltonian
  // path, and so one that large).
  const int64_t matching = n / 2;
  if (matching > 0)
    b.parts.push_back({"matching", ceil_div(k * n * (n - 1), (half_duplex ? 1 : 2) * matching),
                       fmt::format("{} receptions, at most {} per edge of a matching of {} per round", k * n * (n - 1),
                                   half_duplex ? "one (one way)" : "two (one each way)", matching)});
  // A bipartite network whose sides differ in size: every packet the larger side A
  // receives comes from the other side B, whose nodes send at most one packet a round
  // each, so A takes at most |B| packets a round and needs k(N-1) for each of its nodes
  // (above the matching bound: mesh:3x3 needs 10 rounds, not 9).
  if (const std::optional<std::pair<int64_t, int64_t>> sides = bipartite_sides(topology);
      sides && sides->first > sides->second && sides->second > 0)
    b.parts.push_back({"bipartite", ceil_div(k * sides->first * (n - 1), sides->second),
                       fmt::format("the larger side of the bipartite network ({} nodes) receives {} packets, at most "
                                   "{} a round (one from each node of the other side)",
                                   sides->first, k * sides->first * (n - 1), sides->second)});
  if (topology.kind() != TopologyKind::Line && topology.kind() != TopologyKind::Mesh) return;
  // The cutset lemma: removing the slice X at index x of dimension d leaves the slices
  // before it and after it; X, matched one to one with a neighbouring slice, relays
  // max(|V_i|, N - |V_i|) packets of every origin for each side, |X| per round.
  int64_t best = 0;
  std::string reason;
  const std::vector<int>& dims = topology.dims();
  for (size_t d = 0; d < dims.size(); ++d) {
    const int64_t slice = n / dims[d];
    for (int x = 1; x + 1 < dims[d]; ++x) {
      const int64_t before = x * slice, after = (dims[d] - 1 - x) * slice;
      const int64_t relayed = k * (std::max(before, n - before) + std::max(after, n - after));
      const int64_t steps = ceil_div(relayed, slice);
      if (steps > best) {
        best = steps;
        reason = fmt::format("the slice {} of dimension {} ({} nodes) relays {} packets, {} per round", x, d, slice,
                             relayed, slice);
      }
    }
  }
  if (best > 0) b.parts.push_back({"cutset", best, reason});
}

}  // namespace

Bounds gossip_bounds(const Topology& topology, const PortModel& model, int packets_per_node) {
  if (model.combining) return combining_gossip_bounds(topology, model);
  Bounds b;
  const int64_t n = topology.num_nodes();
  const int64_t needed = static_cast<int64_t>(packets_per_node) * (n - 1);
  const int64_t per_step = model.one_port ? 1 : topology.min_degree();
  b.parts.push_back({"degree", ceil_div(needed, per_step),
                     fmt::format("a node of degree {} receives {} packets, at most {} per step", topology.min_degree(),
                                 needed, per_step)});
  b.parts.push_back({"diameter", topology.diameter(), "a packet reaches the furthest node"});
  if (model.half_duplex) {
    const int64_t links = topology.num_arcs() / 2;
    b.parts.push_back({"links", ceil_div(n * needed, links),
                       fmt::format("{} receptions over {} half-duplex links", n * needed, links)});
  }
  if (model.one_port) add_one_port_gossip_bounds(topology, packets_per_node, model.half_duplex, b);
  return b;
}

Bounds combining_gossip_bounds(const Topology& topology, const PortModel& model) {
  Bounds b;
  b.parts.push_back({"diameter", topology.diameter(), "an origin reaches the furthest node one hop per round"});
  if (model.one_port) {
    int64_t rounds = 0;
    while ((int64_t{1} << rounds) < topology.num_nodes()) ++rounds;
    b.parts.push_back({"doubling", rounds, "1-port: one packet in per round, so a node's set at most doubles"});
  }
  return b;
}

Bounds all_to_all_bounds(const Topology& topology, const PortModel& model) {
  Bounds b = gossip_bounds(topology, model, 1);
  if (topology.kind() == TopologyKind::Torus && topology.dims().size() == 2 && !model.one_port && !model.half_duplex)
    b.other_classes.push_back({"time-independent-two-cycles", formulas::time_independent_two_cycles_bound(topology.num_nodes()),
                               "time-independent routing on two edge-disjoint Hamiltonian cycles, one packet per node"});
  return b;
}

}  // namespace fixroute
