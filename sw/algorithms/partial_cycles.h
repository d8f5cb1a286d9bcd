// Partial Hamiltonian cycles on a d-dimensional torus (gossip paper, section 3): d
// edge-disjoint cycles, each through P/d + P/n1 nodes, such that a node off a cycle has
// two neighbours on it across links no cycle uses. Those two feed it the cycle's packets
// (out-port taps), one the packets running forwards, the other those running backwards,
// switching at a step the scheduler picks (section 2, "Changing Direction").
//
// Axes: the paper's axis 1, along which the cycles run, is our last dimension; its axis
// a >= 2 is our dimension d - a. So torus:n1xn2 runs its cycles along rows (Theorem 2 as
// written) and torus:n1xn2xn3 along the third size (Theorem 3 as written). Every size but
// the last must be a multiple of d, the last larger than d.
#pragma once
#include <string>
#include <vector>

#include "../topology.h"

namespace fixroute::partial_cycles {

// A supplier's tap: `supplier` sends `node` the packets of `cycle` that reach it on
// in-port `first_in` in steps before `switch_step`, and those on `second_in` from then on.
struct Feed {
  int cycle = 0;
  int node = 0;
  int supplier = 0;
  int out_port = 0;           // the supplier's port towards `node`
  int first_in = 0;
  int second_in = 0;
  int switch_step = 0;
  bool sends_own = false;     // the supplier's own packet travels `cycle`: it sends it too
};

struct Construction {
  std::vector<std::vector<int>> cycles;  // each in its forward order
  std::vector<int> home_cycle;           // per node: the cycle its packet travels
  std::vector<Feed> feeds;
};

// What a supplier's tap may send: `Arrivals` -- only packets arriving on the cycle, a
// pure port rule (the paper); `ArrivalsAndOwn` -- also its own packet, once, at step 1
// (beyond the paper: it can save the feeds' extra step).
enum class Taps { Arrivals, ArrivalsAndOwn };

// "" when the construction applies to `torus`, else why not (one line). It runs the
// construction (milliseconds): whether the taps can feed every node is found, not assumed.
std::string unsupported(const Topology& torus, Taps taps = Taps::Arrivals);

// The lap construction of section 3 (zigzag(d, j) patterns), checked: each cycle closes
// and visits its nodes once, no link is on two cycles, every node off a cycle has two
// free links to it; and the switch steps that give every node each packet exactly once,
// as early as the two suppliers allow. Throws InputError where a check fails.
Construction build(const Topology& torus, Taps taps = Taps::Arrivals);

}  // namespace fixroute::partial_cycles
