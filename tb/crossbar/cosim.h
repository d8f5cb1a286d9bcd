// Co-simulation of the circuit-switched crossbar meshes: rtl/crossbar/fr_mesh_xbar_top.v and
// systemc/crossbar/fr_xbar_router_sc.h, every mesh link and local output compared each cycle.
#pragma once
#include <vector>

#include "sw/core/faults.h"
#include "sw/kinds/crossbar/tables.h"
#include "sw/verify/cosim.h"

namespace fixroute {

class Topology;

// Every mesh link and every local output compared at each cycle, then the routers' latched
// faults. `crossings` counts link transfers, `steps` routing steps, `arrived` the messages
// both delivered. `faults`: both meshes take them as run does (docs/faults.md), an injector
// each, the RTL as a router array. Throws InputError for a mesh with no verilated model.
// One per process.
CosimReport run_xbar_cosim(const Topology& mesh, const XbarTables& systemc_tables, const XbarTables& rtl_tables,
                           const std::vector<Fault>& faults = {});

}  // namespace fixroute
