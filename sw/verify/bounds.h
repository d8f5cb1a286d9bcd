// Lower bounds on step counts (docs/formulas.md: bisection and diameter for total exchange,
// ceil((N-1)/degree) and diameter for gossip, the per-node bound for 1-port). One
// function per collective.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sw/topology/port_model.h"

namespace fixroute {

class Topology;

struct LowerBound {
  std::string name;  // "bisection", "diameter", ...
  int64_t steps = 0;
  std::string reason;
};

struct Bounds {
  std::vector<LowerBound> parts;
  int64_t best() const;  // the largest, i.e. the tightest
  // Lower bounds of other classes of routing for the same problem, reported beside the
  // run for comparison (a bound on those algorithms, not on this run).
  std::vector<LowerBound> other_classes;
};

Bounds total_exchange_bounds(const Topology& topology, const PortModel& model);
// Non-combining gossip with k packets per node: ceil(k(N-1)/min degree) (on a
// d-dimensional torus ceil(k(P-1)/(2d))), the diameter, and the model's link limits.
// (With model.combining: combining_gossip_bounds.)
Bounds gossip_bounds(const Topology& topology, const PortModel& model, int packets_per_node);
// Gossip by combining routers (the all-to-all broadcast paper's lemma max(diam(G),
// ceil(log2 N)) <= t_OAB <= t_AAB): the diameter, and for 1-port ceil(log2 N).
Bounds combining_gossip_bounds(const Topology& topology, const PortModel& model);
// All-to-all broadcast without combining, one packet per node (the all-to-all broadcast
// paper's lower-bound lemmas): gossip_bounds, and for 1-port the matching bound
// ceil(N(N-1) / (2 mu(G))) and, on lines and meshes, the vertex-cutset bound with X a
// slice across one dimension (the best slice).
// On a 2D torus (degree 4), all-port full-duplex, other_classes holds the paper's bound
// on time-independent routing over two edge-disjoint Hamiltonian cycles.
Bounds all_to_all_bounds(const Topology& topology, const PortModel& model);

}  // namespace fixroute
