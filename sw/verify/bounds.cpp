#include "bounds.h"

#include <fmt/format.h>

#include <algorithm>

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

}  // namespace fixroute
