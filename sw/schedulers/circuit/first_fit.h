// Shared by first-fit and the FFT schedule: link-disjoint packing of a permutation's
// circuits into routing steps, longest path first.
#pragma once
#include <vector>

#include "sw/kinds/crossbar/circuit.h"

namespace fixroute {

class Topology;

// Each moving message, longest row-column path first (ties: lower source), goes into
// the earliest step where its source, its destination and every directed link of its
// path are still free; the messages addressed to their own node ride local->local
// circuits in step 1. Several sources of one row may share a step when their row
// segments do not overlap, which 1R-1C never allows.
std::vector<std::vector<Circuit>> pack_first_fit(const Topology& mesh, const std::vector<int>& dest);

}  // namespace fixroute
