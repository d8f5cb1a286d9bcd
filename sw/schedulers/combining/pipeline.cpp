// Pipelining one way round the cycles (the all-to-all broadcast paper, 1-port half-duplex
// combining: on T(z) "pipeline all packets around the cycle in one direction", z-1 rounds;
// on T(z,z) rows then columns, 2(z-1)): every node sends on its + port of dimension 0 for
// z_0 - 1 rounds, then of dimension 1 for z_1 - 1 rounds, and so on.
#include "sw/core/formulas.h"
#include "sw/schedulers/combining.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {

const AlgorithmRegistrar pipeline([] {
  Algorithm a = combining_algorithm("pipeline",
                                    "combining gossip, 1-port half-duplex rings and tori: one way round each cycle, "
                                    "dimension by dimension, sum of z_i - 1 (AAB paper, SF combining, 1-port half-duplex)");
  a.unsupported = [](const Problem& p) -> std::string {
    if (p.topology.kind() != TopologyKind::Ring && p.topology.kind() != TopologyKind::Torus)
      return "pipelining needs the cycles of a ring or torus";
    return combining_model_refusal(p.port_model, "1-port", "half");
  };
  a.is_default = [](const Problem&) { return true; };
  a.formula = [](const Problem& p) -> std::optional<int64_t> {
    int64_t sum = 0;
    for (int z : p.topology.dims()) sum += formulas::combining_ring_pipeline(z);
    return sum;
  };
  a.build = [](const Problem& p) {
    const std::vector<Axis> axes = combining_axes(p.topology);
    int rows = 0;
    for (const Axis& axis : axes) rows += axis.size - 1;  // an origin goes round the cycle's other z-1 nodes
    CombiningTables t = empty_combining_tables(p.topology, rows);
    for (int n = 0; n < p.topology.num_nodes(); ++n) {
      int row = 0;
      for (int k = 0; k < static_cast<int>(axes.size()); ++k)
        for (int r = 0; r < axes[static_cast<size_t>(k)].size - 1; ++r, ++row)
          t.send[static_cast<size_t>(n) * static_cast<size_t>(rows) + static_cast<size_t>(row)] =
              static_cast<uint16_t>(1u << axis_port(p.topology, n, k, +1));
    }
    return finish_combining_tables(std::move(t), p, "pipeline");
  };
  a.sweep = [](int max_size) {
    return combining_cases(joined({combining_rings(max_size), combining_tori()}), PortModel{true, true});
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
