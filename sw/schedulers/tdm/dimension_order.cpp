// All-to-all on meshes (docs/tdm.md, "tdm-dimension-order"): every phit on its
// dimension-ordered path, the slots placed and repaired as tdm-paths places them. A mesh's
// dimension-ordered routes load the links of the cut through its longest dimension with
// exactly the bisection bound, and no link more (any dimension's link between coordinates c
// and c+1 carries (c+1)(n-1-c) N/n phits, whichever dimension goes first); what is left is
// the slots, and a fixed path per phit makes each repair move a walk along one path.
#include <fmt/format.h>

#include "sw/core/algorithm.h"
#include "sw/core/collectives.h"
#include "sw/kinds/tdm/tables.h"
#include "sw/schedulers/tdm/slot_schedule.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {

constexpr int kMaxMeshNodes = 1024;

std::string dimension_order_unsupported(const Problem& p) {
  if (p.topology.kind() != TopologyKind::Mesh)
    return "it takes meshes (their dimension-ordered paths load no link above the bisection bound); tdm-paths takes "
           "any network";
  return tdm_unsupported(p, kMaxMeshNodes);
}

const AlgorithmRegistrar tdm_dimension_order([] {
  Algorithm a;
  a.name = "tdm-dimension-order";
  a.collective = "total-exchange";
  a.router_kind = kTdmKind;
  a.summary = "TDM slot tables for all-to-all on meshes: every phit on its dimension-ordered path, which loads no link "
              "above the bisection bound (docs/tdm.md)";
  a.unsupported = dimension_order_unsupported;
  // The default on 2D meshes; on meshes of three or more dimensions tdm-paths, free to choose
  // among the shortest paths, does a little better (mesh 4x4x4: 71 against 72).
  a.is_default = [](const Problem& p) {
    return p.topology.kind() == TopologyKind::Mesh && p.topology.dims().size() == 2;
  };
  a.formula = [](const Problem&) { return std::optional<int64_t>{}; };
  a.build = [](const Problem& p) { return chain_repair_build(p, /*dimension_ordered=*/true, "tdm-dimension-order"); };
  a.takes_budget = true;
  a.takes_seed = true;
  a.sweep = [](int max_size) {
    std::vector<SweepCase> cases;
    for (int k = 2; k <= std::min(max_size, 8); ++k) cases.push_back({fmt::format("mesh:{}x{}", k, k), {}, ""});
    cases.push_back({"mesh:3x5", {}, ""});
    cases.push_back({"mesh:2x3x4", {}, ""});
    return cases;
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
