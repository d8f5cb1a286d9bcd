// Switch schedules for the two taps that feed a node off a cycle (gossip paper, section
// 2 "Changing Direction", used by section 3's partial cycles).
//
// A cycle of m nodes carries the packets of its `sources`; each goes m/2 hops forwards
// and (m-1)/2 backwards, so it passes every other node of the cycle once. Node C, off
// the cycle, is fed by two suppliers on it: in every step each supplier's tap copies to
// C the packet arriving from one of its two cycle neighbours -- which one is the tap's
// direction, switched at the steps of its switch list -- and, if allowed, its own packet
// in step 1. C must get every packet of the cycle exactly once, each by `deadline`.
//
// Each packet passes each supplier once, so "exactly once" is, per packet, an
// exclusive-or of at most two choices: the whole problem is a system of parities over
// the tap directions (solved exactly with a union-find), and what is left free is chosen
// for few switches (greedily in step order, then improved by flipping free classes).
#pragma once
#include <array>
#include <optional>
#include <vector>

namespace fixroute::partial_cycles {

struct TapDemand {
  int cycle_length = 0;                 // m
  std::vector<int> sources;             // positions on the cycle of the nodes whose packets travel it
  std::array<int, 2> suppliers{};       // positions of the two suppliers
  std::array<bool, 2> own_allowed{};    // may supplier s tap its own packet in step 1
  int deadline = 0;                     // C must have every packet by the end of this step
};

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
