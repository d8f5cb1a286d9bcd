// Helpers shared by the port-rule schedulers (sw/schedulers/gossip/, total_exchange/).
#pragma once
#include <string>

#include "sw/kinds/port_rules/tables.h"
#include "sw/topology/topology.h"

namespace fixroute::scheduling {

// Tables with every router's ports present and empty (FIFO, no forwarding, no packets).
NetworkTables empty_tables(const Topology& topology, const std::string& collective, const std::string& algorithm,
                           Discipline discipline);

// "Keep going straight": a packet that arrives on port p (from the neighbour in one
// direction of a dimension) leaves on port p^1 (the opposite direction), where connected.
void forward_straight(NetworkTables& tables, const Topology& topology);

// Queues packet `origin -> dest` at `origin` on `port`, with its total-exchange seq and
// `hops` remaining, joining the queue at step `release`.
void add_unicast(NetworkTables& tables, int origin, int dest, int port, int hops, int release = 1);

}  // namespace fixroute::scheduling
