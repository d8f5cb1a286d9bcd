// Alternation on half-duplex lines (the all-to-all broadcast paper, 1-port half-duplex
// combining: "simulate full-duplex channels by alternating the direction of communication
// on half-duplex channels, the number of rounds just doubles"): each round of the
// pair exchange (pair_exchange.cpp) becomes two, the left node of every pair sending
// first, then the right one.
#include "sw/core/formulas.h"
#include "sw/schedulers/combining.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {

const AlgorithmRegistrar alternation([] {
  Algorithm a = combining_algorithm("alternation",
                                    "combining gossip, 1-port half-duplex lines: each pair exchange split into two "
                                    "one-way rounds, twice the full-duplex count (AAB paper, SF combining, 1-port half-duplex)");
  a.unsupported = [](const Problem& p) -> std::string {
    if (p.topology.kind() != TopologyKind::Line) return "alternation runs on lines (rings and tori: pipeline)";
    return combining_model_refusal(p.port_model, "1-port", "half");
  };
  a.is_default = [](const Problem&) { return true; };
  a.formula = [](const Problem& p) -> std::optional<int64_t> {
    return 2 * formulas::combining_line_exchange(p.topology.num_nodes());
  };
  a.build = [](const Problem& p) {
    const Axis axis = combining_axes(p.topology).front();
    CombiningTables t = empty_combining_tables(p.topology, 4);
    for (int n = 0; n < p.topology.num_nodes(); ++n)
      for (int r = 0; r < 4; ++r) {
        const int d = pair_exchange_direction(axis, n, r / 2 + 1);
        const bool sends = (r % 2 == 0) ? d > 0 : d < 0;  // first the left of each pair, then the right
        if (sends) t.send[static_cast<size_t>(n) * 4 + static_cast<size_t>(r)] = static_cast<uint16_t>(1u << axis_port(p.topology, n, 0, d));
      }
    return finish_combining_tables(std::move(t), p, "alternation");
  };
  a.sweep = [](int max_size) { return combining_cases(combining_lines(max_size), PortModel{true, true}); };
  return a;
}());

}  // namespace
}  // namespace fixroute
