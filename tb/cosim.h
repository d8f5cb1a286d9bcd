// Lockstep co-simulation (`fixroute cosim`, docs/cosim.md): a kind's SystemC network and its
// verilated RTL on one clock, fed the same tables, compared every cycle. What every kind's
// co-simulation shares lives here; each kind's bench is in its own folder
// (tb/<kind>/cosim.*), registered with KindCosimRegistrar (sw/verify/cosim.h).
#pragma once
#include <memory>
#include <optional>
#include <systemc>
#include <vector>

#include "sw/core/faults.h"
#include "sw/verify/cosim.h"

namespace fixroute {

class Topology;

// A verilated network as an sc_module: one model clock cycle per rising edge on which
// `hold` is low (the SystemC side's reset edge is not a cycle of the loaded RTL).
template <class Driver>
class RtlModule : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> hold;
  RtlModule(sc_core::sc_module_name name, std::unique_ptr<Driver> rtl) : sc_core::sc_module(name), rtl_(std::move(rtl)) {
    SC_HAS_PROCESS(RtlModule);
    SC_METHOD(on_clock);
    sensitive << clk.pos();
    dont_initialize();
  }
  const Driver& rtl() const { return *rtl_; }

 private:
  void on_clock() {
    if (!hold.read()) rtl_->tick();
  }
  std::unique_ptr<Driver> rtl_;
};

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
