// Partial Hamiltonian cycles on a d-dimensional torus (gossip paper, section 3): d
// edge-disjoint cycles, each through P/d + P/n1 nodes, such that a node off a cycle has
// two neighbours on it across links no cycle uses. Those two feed it the cycle's packets
// (out-port taps), each passing on the packets arriving from one direction of the cycle,
// switching direction at steps the scheduler picks (section 2, "Changing Direction").
// One switch per tap, as the paper has it, feeds the 2D tori with 4 and 8 rows; other
// sizes need more (tap_schedule.h), which the table's switch lists hold.
//
// Axes: the paper's axis 1, along which the cycles run, is our last dimension; its axis
// a >= 2 is our dimension d - a. So torus:n1xn2 runs its cycles along rows (Theorem 2 as
// written) and torus:n1xn2xn3 along the third size (Theorem 3 as written). Every size but
// the last must be a multiple of d, the last at least d - 1 (a lap's zigzag moves that
// often along it). Where the construction needs our sizes in another order it takes them
// so (axis_order): a 2D torus with an odd first and an even second size transposed
// (Theorem 2 on it seen as n2 x n1) unless a searched pattern fits it as it stands
// (odd_torus_patterns.h, `partial-cycles` only); on 3D to 5D tori, of the orders the laps
// close in (3D: the second size dividing the first; 4D: a 4 third; 5D: a 5 fourth and the
// third dividing the first), the one with the largest last size. A 2D torus with both
// sizes odd takes its two cycles from a searched pattern instead of laps
// (odd_torus_patterns.h), the larger size as rows unless the fewer-rows catalogue has one
// for it as it stands.
#pragma once
#include <string>
#include <vector>

#include "sw/kinds/port_rules/tables.h"
#include "sw/topology/topology.h"
#include "odd_torus_patterns.h"

namespace fixroute::partial_cycles {

// A supplier's tap: `supplier` sends `node` the packets of `cycle` that reach it from
// neighbour `first_from` until the first of `switch_steps`, then those from `second_from`,
// and so on alternately (tap_schedule.h).
struct Feed {
  int cycle = 0;
  int node = 0;
  int supplier = 0;
  int first_from = 0;            // the supplier's cycle neighbours, as nodes
  int second_from = 0;
  std::vector<int> switch_steps;
  bool sends_own = false;        // the supplier's own packet travels `cycle`: it taps it in step 1 too
  int own_seq = 0;               // which of its packets, when it has more than one
};

// Writes a feed into the supplier's table: the tap on its port towards the fed node, and
// its own packet on that port in step 1 if the feed sends it. Throws InputError if that
// port already taps.
void add_feed(NetworkTables& tables, const Topology& torus, const Feed& feed);

struct Construction {
  std::string name;                      // paper-laps-<d>d, or searched-pattern-2d (odd_torus_patterns.h)
  std::vector<std::vector<int>> cycles;  // each in its forward order
  std::vector<int> home_cycle;           // per node: the cycle its packet travels
  std::vector<Feed> feeds;
};

// By when the taps must have fed every node: `Theorem` -- by the step count of Theorems
// 2-4, m/2 + 1 (`partial-cycles`; suppliers tap their own packet only where the
// arrivals alone cannot feed the node); `Spread` -- by the end of the cycles' spread,
// ceil((m-1)/2), suppliers tapping their own packets (`partial-cycles-early`).
enum class Finish { Theorem, Spread };

// The order in which the construction takes our sizes: its dimension k is our dimension
// order[k]. Empty: ours.
std::vector<int> axis_order(const Topology& torus, Finish finish = Finish::Theorem);

// "" when the construction's shape applies to `torus`, else why not (one line). Cheap: it
// builds nothing. Whether the taps can feed every node by the deadline is found by
// build(), which refuses the torus where they cannot.
std::string unsupported(const Topology& torus, Finish finish = Finish::Theorem);

// The lap construction of section 3 (zigzag(d, j) patterns), checked: each cycle closes
// and visits its nodes once, no link is on two cycles, every node off a cycle has two
// free links to it; and the switch steps that give every node each packet exactly once
// by the deadline of `finish`. Throws InputError where a check fails.
Construction build(const Topology& torus, Finish finish = Finish::Theorem);

// The same checks and taps for the two cycles of a link pattern on a 2D torus
// (odd_torus_patterns.h), as tools/odd_torus_search tries them. Throws InputError where
// a check fails or no taps feed a node.
Construction build_from_links(const Topology& torus, const LinkCycles& links, Finish finish = Finish::Theorem);
// The same for the d cycles of a pattern on a d-dimensional torus (`links.dims` its sizes).
Construction build_from_links(const Topology& torus, const TorusLinkCycles& links, Finish finish = Finish::Theorem);

// The two cycles of a link pattern on a 2D torus, each in its order from its lowest node,
// checked (each link of a cycle on one closed walk through its nodes once), without taps:
// for `hamiltonian-2-paper`, which feeds 2 packets per node its own way. Throws
// InputError where a check fails.
std::vector<std::vector<int>> pattern_cycles(const Topology& torus, const LinkCycles& links);

}  // namespace fixroute::partial_cycles
