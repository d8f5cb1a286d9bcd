// Lower bounds on a TDM schedule's period (docs/tdm.md, "Bounds"): per period every node
// injects and ejects one phit a slot, every directed link carries one phit a slot, and every
// phit crosses at least its shortest distance of links, and at least once each cut it spans.
#pragma once
#include <vector>

#include "sw/kinds/tdm/tables.h"
#include "sw/verify/bounds.h"

namespace fixroute {

class Topology;

// `flows`: the traffic, phits per period each.
Bounds tdm_period_bounds(const Topology& topology, const std::vector<TdmFlow>& flows);

// The flows of total exchange: one phit per period from every node to every other.
std::vector<TdmFlow> total_exchange_flows(const Topology& topology);
// The flows of a collective's demand (sw/core/collectives.h): a phit a period for each of
// its packets, the packets of one pair merged into one flow. InputError for a collective
// whose demand is not a set of unicast packets.
std::vector<TdmFlow> tdm_demand_flows(const Topology& topology, const std::string& collective);

}  // namespace fixroute
