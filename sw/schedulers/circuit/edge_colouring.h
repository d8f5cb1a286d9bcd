// Shared by edge-colouring and optimal-search: the schedule of any permutation that
// edge-colours the bipartite multigraph source rows x destination columns.
#pragma once
#include <vector>

#include "sw/kinds/crossbar/circuit.h"

namespace fixroute {

class Topology;

// Routing steps for `dest` on `mesh`: the messages that leave their node, coloured with
// as many steps as the busiest row or column needs (Koenig's theorem), so each step has at
// most one source per row and one destination per column (1R-1C, hence link-disjoint);
// the messages addressed to their own node ride local->local circuits in step 1.
std::vector<std::vector<Circuit>> colour_rows_by_columns(const Topology& mesh, const std::vector<int>& dest);

}  // namespace fixroute
