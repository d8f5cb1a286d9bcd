// Co-simulation of the combining routers (one round per clock): after every rising edge each
// router's `full` and `learnt` and every link's set of origins compared (tb/round_cosim.h).
#pragma once
#include <vector>

#include "sw/core/faults.h"
#include "sw/kinds/combining/tables.h"
#include "sw/verify/cosim.h"

namespace fixroute {

class Topology;

// InputError where no verilated build holds the tables. `faults`: as run takes them
// (docs/faults.md), an injector each side. One per process.
CosimReport run_combining_cosim(const Topology& topology, const CombiningTables& systemc_tables,
                                const CombiningTables& rtl_tables, const std::vector<Fault>& faults = {});

}  // namespace fixroute
