#include "sw/kinds/port_rules/link_step.h"

#include "sw/topology/topology.h"

namespace fixroute {

void append_link_rows(const Topology& topology, const std::vector<uint32_t>& order, int64_t step,
                      const LinkStep& crossings, std::vector<TraceEvent>& rows) {
  const size_t ports = static_cast<size_t>(topology.num_ports());
  for (size_t link0 = 0; link0 < crossings.links; link0 += ports)
    for (size_t k = 0; k < ports; ++k) {
      const size_t link = link0 + order[link0 + k];
      if (!crossings.used[link]) continue;
      const Packet& p = crossings.packets[link];
      const int from = static_cast<int>(link0 / ports);
      append_crossing(rows, step, from, topology.neighbour(from, static_cast<int>(order[link0 + k])), p);
    }
}

}  // namespace fixroute
