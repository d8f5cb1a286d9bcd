#include "port_model.h"

#include <fmt/format.h>

#include "sw/core/errors.h"
#include "sw/kinds/port_rules/tables.h"
#include "topology.h"

namespace fixroute {

PortModel PortModel::parse(const std::string& ports, const std::string& duplex, bool combining) {
  PortModel m;
  m.combining = combining;
  if (ports == "1-port") {
    m.one_port = true;
  } else if (ports != "all-port") {
    throw InputError(fmt::format("bad port model '{}'; accepted: all-port, 1-port", ports));
  }
  if (duplex == "half") {
    m.half_duplex = true;
  } else if (duplex != "full") {
    throw InputError(fmt::format("bad duplex '{}'; accepted: full, half", duplex));
  }
  return m;
}

void apply_port_model(NetworkTables& tables, const Topology& topology, const PortModel& model) {
  tables.port_model = model;
  if (model.is_default()) return;
  if (topology.kind() != TopologyKind::Line && topology.kind() != TopologyKind::Ring)
    throw InputError(fmt::format("port model {} is implemented for line and ring tables, not {}", model.label(),
                                 topology.kind_name()));
  for (RouterTable& r : tables.routers) {
    for (size_t p = 0; p < r.ports.size(); ++p) {
      r.ports[p].send_period = 2;
      r.ports[p].send_phase = p == 0 ? 1 : 0;  // + direction in odd steps, - direction in even steps
    }
    for (InitialPacket& ip : r.initial) ip.release = ip.out_port == 0 ? 2 * ip.release - 1 : 2 * ip.release;
  }
}

}  // namespace fixroute
