// Co-simulation of the summing routers (one round per clock): after every rising edge every
// link's valid and sum compared (tb/round_cosim.h).
#pragma once
#include <vector>

#include "sw/core/faults.h"
#include "sw/kinds/combining_sum/tables.h"
#include "sw/verify/cosim.h"

namespace fixroute {

class Topology;

// InputError where no verilated build holds the tables. `faults`: as run takes them
// (docs/faults.md), an injector each side. One per process.
CosimReport run_sum_cosim(const Topology& topology, const CombiningSumTables& systemc_tables,
                          const CombiningSumTables& rtl_tables, const std::vector<Fault>& faults = {});

}  // namespace fixroute
