// Co-simulation of the TDM routers (one slot per clock): after every rising edge every
// link's valid and phit and every router's ejection compared (tb/round_cosim.h).
#pragma once
#include <vector>

#include "sw/core/faults.h"
#include "sw/kinds/tdm/tables.h"
#include "sw/verify/cosim.h"

namespace fixroute {

class Topology;

// InputError where no verilated build holds the tables, or for faults (the TDM routers take
// none). One per process.
CosimReport run_tdm_cosim(const Topology& topology, const TdmTables& systemc_tables, const TdmTables& rtl_tables,
                          const std::vector<Fault>& faults = {});

}  // namespace fixroute
