// Co-simulation of the port-rule networks: the SystemC network (systemc/port_rules/) and the
// verilated one, every link compared each cycle.
#pragma once
#include <vector>

#include "sw/core/faults.h"
#include "sw/kinds/port_rules/tables.h"
#include "sw/verify/cosim.h"

namespace fixroute {

class Topology;

// Loads `rtl_tables` into the RTL network and `systemc_tables` into the SystemC one (the
// same tables, except in tests of the comparison itself), runs both from their first
// step, and stops at the first cycle whose link activity differs. One per process.
// `faults` (docs/faults.md): injected into both networks alike (the RTL as a router array).
CosimReport run_cosim(const Topology& topology, const NetworkTables& systemc_tables, const NetworkTables& rtl_tables,
                      const std::vector<Fault>& faults = {});

}  // namespace fixroute
