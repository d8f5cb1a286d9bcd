// Pair exchange on lines and rings (the all-to-all broadcast paper, 1-port full-duplex
// combining lemma): odd rounds exchange between odd-even pairs of neighbours, even rounds
// between even-odd pairs; an odd ring pairs the path left by one idle node that moves on
// by one each round. z-1 / z rounds on line:z (z even / odd), z/2 / (z+3)/2 on ring:z.
#include "sw/core/formulas.h"
#include "sw/schedulers/combining.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {

// Row r of a one-axis exchange schedule: each node's port towards its partner.
CombiningTables pair_exchange_tables(const Topology& topology) {
  const Axis axis = combining_axes(topology).front();
  // An odd ring's idle node comes round again after z rounds; the others alternate.
  const int rows = axis.wrap && axis.size % 2 == 1 ? axis.size : 2;
  CombiningTables t = empty_combining_tables(topology, rows);
  for (int n = 0; n < topology.num_nodes(); ++n)
    for (int r = 0; r < rows; ++r)
      if (const int d = pair_exchange_direction(axis, n, r + 1); d != 0)
        t.send[static_cast<size_t>(n) * static_cast<size_t>(rows) + static_cast<size_t>(r)] =
            static_cast<uint16_t>(1u << axis_port(topology, n, 0, d));
  return t;
}

const AlgorithmRegistrar pair_exchange([] {
  Algorithm a = combining_algorithm("pair-exchange",
                                    "combining gossip, 1-port full-duplex lines and rings: odd-even / even-odd pair "
                                    "exchanges (AAB paper, SF combining, 1-port full-duplex lemma)");
  a.unsupported = [](const Problem& p) -> std::string {
    if (p.topology.kind() != TopologyKind::Line && p.topology.kind() != TopologyKind::Ring)
      return "pair exchange runs on lines and rings (products and hypercubes: dimension-order)";
    return combining_model_refusal(p.port_model, "1-port", "full");
  };
  a.is_default = [](const Problem&) { return true; };
  a.formula = [](const Problem& p) -> std::optional<int64_t> {
    const int z = p.topology.num_nodes();
    return p.topology.kind() == TopologyKind::Line ? formulas::combining_line_exchange(z)
                                                   : formulas::combining_ring_exchange(z);
  };
  a.build = [](const Problem& p) { return finish_combining_tables(pair_exchange_tables(p.topology), p, "pair-exchange"); };
  a.sweep = [](int max_size) {
    return combining_cases(joined({combining_lines(max_size), combining_rings(max_size)}), PortModel{true, false});
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
