// Lockstep co-simulation: the SystemC network and the verilated RTL network on one clock,
// fed the same tables, their link activity compared every cycle (`fixroute cosim`).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sw/core/faults.h"
#include "sw/verify/cosim.h"
#include "sw/engines/trace.h"
#include "sw/kinds/crossbar/tables.h"
#include "sw/kinds/port_rules/tables.h"

namespace fixroute {

class Topology;
struct CombiningTables;
struct BroadcastTreeTables;
struct CombiningSumTables;


// Loads `rtl_tables` into the RTL network and `systemc_tables` into the SystemC one (the
// same tables, except in tests of the comparison itself), runs both from their first
// step, and stops at the first cycle whose link activity differs. One per process.
// `faults` (docs/faults.md): injected into both networks alike (the RTL as a router array).
CosimReport run_cosim(const Topology& topology, const NetworkTables& systemc_tables, const NetworkTables& rtl_tables,
                      const std::vector<Fault>& faults = {});

// The same for the circuit-switched crossbar meshes (rtl/crossbar/fr_mesh_xbar_top.v and
// systemc/crossbar/fr_xbar_router_sc.h): every mesh link and every local output compared at each
// cycle, then the routers' latched faults. `crossings` counts link transfers, `steps`
// routing steps, `arrived` the messages both delivered. `faults`: both meshes take them as
// run does (docs/faults.md), an injector each, the RTL as a router array. Throws InputError
// for a mesh with no verilated model. One per process.
CosimReport run_xbar_cosim(const Topology& mesh, const XbarTables& systemc_tables, const XbarTables& rtl_tables,
                           const std::vector<Fault>& faults = {});

// The same for the routers that take one round per clock (tb/round_cosim.cpp): after every
// rising edge each router's outputs (combining: `full`, `learnt`) and every link (valid,
// and the set of origins or the origin carried) compared; `steps` the rounds run, until
// the kind's stop rule ends the run. InputError where no verilated build holds the tables.
// `faults`: combining and broadcast-tree networks take them as run does (docs/faults.md),
// an injector each.
CosimReport run_combining_cosim(const Topology& topology, const CombiningTables& systemc_tables,
                                const CombiningTables& rtl_tables, const std::vector<Fault>& faults = {});
CosimReport run_tree_cosim(const Topology& topology, const BroadcastTreeTables& systemc_tables,
                           const BroadcastTreeTables& rtl_tables, const std::vector<Fault>& faults = {});
CosimReport run_sum_cosim(const Topology& topology, const CombiningSumTables& systemc_tables,
                          const CombiningSumTables& rtl_tables, const std::vector<Fault>& faults = {});

// A co-simulation's faults: an injector per network (none without faults), each recording
// what its faults took; the two must take the same.
class CosimFaults {
 public:
  // `check` (a kind's check_*_faults) refuses the forms the kind does not take: InputError.
  CosimFaults(const std::vector<Fault>& faults, const Topology& topology, void (*check)(const EngineOptions&) = nullptr);
  bool any() const { return systemc_.has_value(); }
  FaultInjector* systemc() { return systemc_ ? &*systemc_ : nullptr; }
  FaultInjector* rtl() { return rtl_ ? &*rtl_ : nullptr; }
  // What the SystemC side's injector took, and a divergence where the RTL side's took
  // something else; nothing without faults.
  void record(CosimReport& report) const;

 private:
  std::optional<FaultInjector> systemc_, rtl_;
};


}  // namespace fixroute
