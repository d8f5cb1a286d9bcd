// Switch schedules for the two taps that feed a node off a cycle (gossip paper, section
// 2 "Changing Direction", used by section 3's partial cycles and section 2's odd sizes).
//
// A cycle carries packets both ways round; node C, off the cycle, is fed by two
// suppliers on it: in every step each supplier's tap copies to C the packet arriving from
// one of its two cycle neighbours -- which one is the tap's direction, switched at the
// steps of its switch list -- and, if allowed, its own packet in step 1. C must get every
// packet of the cycle exactly once, each by `deadline`. The demand lists, per supplier
// and step, which packet arrives from each side (ring_demand computes it for a cycle
// without queueing; with queues the scheduler reads it off a run of the cycle traffic).
//
// Each packet passes each supplier at most once, so "exactly once" is, per packet, an
// exclusive-or of at most two choices: the whole problem is a system of parities over
// the tap directions (solved exactly with a union-find), and what is left free is chosen
// for few switches (greedily in step order, then improved by flipping free classes).
#pragma once
#include <array>
#include <optional>
#include <vector>

namespace fixroute::partial_cycles {

struct TapDemand {
  int packets = 0;  // packets C must get, numbered 0..packets-1
  // arrivals[s][t] = {the packet reaching supplier s in step t running forwards, the one
  // running backwards}, -1 for none; t = 0 is unused.
  std::array<std::vector<std::array<int, 2>>, 2> arrivals;
  std::array<int, 2> own{-1, -1};  // the packet supplier s may tap in step 1 (its own), or -1
  int deadline = 0;                // C must have every packet by the end of this step
};

// The demand on a cycle of m nodes whose packets go m/2 hops forwards and (m-1)/2
// backwards, one hop a step: `sources` are the positions of the nodes whose packets
// travel it (packet i is sources[i]'s), `suppliers` the suppliers' positions.
TapDemand ring_demand(int m, const std::vector<int>& sources, std::array<int, 2> suppliers,
                      std::array<bool, 2> own_allowed, int deadline);

struct TapSchedule {
  bool forwards_first = true;     // the direction the tap starts with
  std::vector<int> switch_steps;  // arrival steps from which it takes the other direction, alternately
  bool sends_own = false;         // the supplier's own packet, in step 1
};

// The two taps' schedules, fewest switches first (the larger of the two counts, then
// their sum; the count is minimal over the free choices in most cases, not proven so),
// or nullopt when no choice of directions feeds C every packet exactly once by the deadline.
std::optional<std::array<TapSchedule, 2>> schedule_taps(const TapDemand& demand);

}  // namespace fixroute::partial_cycles
