// Dimension-order pair exchange on meshes, tori and hypercubes (the all-to-all broadcast
// paper, 1-port full-duplex combining lemma, by the cartesian-product property): the pair
// exchange of pair_exchange.cpp along dimension 0 until every line of it is informed,
// then along dimension 1, and so on; a hypercube exchanges across dimension i in round
// i+1. The rounds add up over the dimensions.
#include "sw/core/formulas.h"
#include "sw/schedulers/combining.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {

CombiningTables dimension_order_tables(const Topology& topology) {
  const std::vector<Axis> axes = combining_axes(topology);
  int rows = 0;
  for (const Axis& axis : axes) rows += pair_exchange_rounds(axis);
  CombiningTables t = empty_combining_tables(topology, rows);
  for (int n = 0; n < topology.num_nodes(); ++n) {
    int row = 0;
    for (int k = 0; k < static_cast<int>(axes.size()); ++k) {
      const Axis& axis = axes[static_cast<size_t>(k)];
      for (int r = 1; r <= pair_exchange_rounds(axis); ++r, ++row)
        if (const int d = pair_exchange_direction(axis, axis_coord(topology, n, k), r); d != 0)
          t.send[static_cast<size_t>(n) * static_cast<size_t>(rows) + static_cast<size_t>(row)] =
              static_cast<uint16_t>(1u << axis_port(topology, n, k, d));
    }
  }
  return t;
}

const AlgorithmRegistrar dimension_order([] {
  Algorithm a = combining_algorithm("dimension-order",
                                    "combining gossip, 1-port full-duplex meshes, tori and hypercubes: pair exchanges "
                                    "one dimension after another (AAB paper, SF combining, 1-port full-duplex lemma)");
  a.unsupported = [](const Problem& p) -> std::string {
    if (p.topology.kind() == TopologyKind::Line || p.topology.kind() == TopologyKind::Ring)
      return "a line or ring has one dimension: pair-exchange";
    if (!has_axes(p.topology)) return "it exchanges along dimensions: meshes, tori and hypercubes";
    return combining_model_refusal(p.port_model, "1-port", "full");
  };
  a.is_default = [](const Problem&) { return true; };
  a.formula = [](const Problem& p) -> std::optional<int64_t> {
    if (p.topology.kind() == TopologyKind::Hypercube) return p.topology.dims()[0];
    int64_t sum = 0;
    for (int z : p.topology.dims())
      sum += p.topology.kind() == TopologyKind::Mesh ? formulas::combining_line_exchange(z)
                                                     : formulas::combining_ring_exchange(z);
    return sum;
  };
  a.build = [](const Problem& p) {
    return finish_combining_tables(dimension_order_tables(p.topology), p, "dimension-order");
  };
  a.sweep = [](int) {
    return combining_cases(joined({combining_meshes(), combining_tori(), combining_hypercubes()}), PortModel{true, false});
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
