#include "common.h"

#include "sw/core/collectives.h"

namespace fixroute::scheduling {

NetworkTables empty_tables(const Topology& topology, const std::string& collective, const std::string& algorithm,
                           Discipline discipline) {
  NetworkTables t;
  t.topology = topology.spec();
  t.collective = collective;
  t.algorithm = algorithm;
  t.routers.resize(static_cast<size_t>(topology.num_nodes()));
  for (int n = 0; n < topology.num_nodes(); ++n) {
    RouterTable& r = t.routers[static_cast<size_t>(n)];
    r.node = n;
    r.ports.assign(static_cast<size_t>(topology.num_ports()), PortRule{});
    for (PortRule& p : r.ports) p.discipline = discipline;
  }
  return t;
}

void forward_straight(NetworkTables& tables, const Topology& topology) {
  for (RouterTable& r : tables.routers)
    for (int p = 0; p < topology.num_ports(); ++p)
      if (topology.neighbour(r.node, p ^ 1) >= 0) r.ports[static_cast<size_t>(p)].forward_mask = 1u << (p ^ 1);
}

void add_unicast(NetworkTables& tables, int origin, int dest, int port, int hops, int release) {
  tables.routers[static_cast<size_t>(origin)].initial.push_back(
      {port, Packet{origin, dest, total_exchange_seq(origin, dest), hops}, release});
}

}  // namespace fixroute::scheduling
