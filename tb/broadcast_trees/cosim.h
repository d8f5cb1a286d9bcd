// Co-simulation of the broadcast-tree routers (one round per clock): after every rising edge
// every link's valid and origin compared (tb/round_cosim.h).
#pragma once
#include <vector>

#include "sw/core/faults.h"
#include "sw/kinds/broadcast_trees/tables.h"
#include "sw/verify/cosim.h"

namespace fixroute {

class Topology;

// InputError where no verilated build holds the tables. `faults`: as run takes them
// (docs/faults.md), an injector each side. One per process.
CosimReport run_tree_cosim(const Topology& topology, const BroadcastTreeTables& systemc_tables,
                           const BroadcastTreeTables& rtl_tables, const std::vector<Fault>& faults = {});

}  // namespace fixroute
