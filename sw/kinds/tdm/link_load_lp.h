// The link-load bound of shortest-path TDM schedules as a linear program (docs/tdm.md,
// "Bounds"): the least, over every way of splitting each flow's phits among its shortest
// paths (fractions allowed), of the busiest directed link's phits a period. A schedule of
// period P carries at most P phits a period on a link, so P is at least that least load.
// It sees what the average over the links does not: a bridge, a short dimension, flows
// that all cross one link.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "sw/kinds/tdm/tables.h"
#include "sw/verify/bounds.h"

namespace fixroute {

class Topology;

// The program's size limit: one variable per source and arc of its shortest-path graph.
constexpr int64_t kMaxLinkLoadLpVariables = 40000;
// And of the search for those arcs: flows x nodes x ports.
constexpr int64_t kMaxLinkLoadLpSearch = int64_t{20} * 1000 * 1000;

// The bound (GLPK's simplex), or nothing where the program would pass those sizes or the
// solver does not reach an optimum.
std::optional<LowerBound> shortest_path_link_load_lp(const Topology& topology, const std::vector<TdmFlow>& flows);

}  // namespace fixroute
