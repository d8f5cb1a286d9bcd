#include "cosim.h"

#include "sw/topology/topology.h"

namespace fixroute {

CosimFaults::CosimFaults(const std::vector<Fault>& faults, const Topology& topology, void (*check)(const EngineOptions&)) {
  if (faults.empty()) return;
  systemc_.emplace(faults, topology);
  rtl_.emplace(faults, topology);
  if (check) {
    EngineOptions options;
    options.faults = &*systemc_;
    check(options);
  }
}

void CosimFaults::record(CosimReport& report) const {
  if (!systemc_) return;
  report.injected = systemc_->injected();
  if (report.divergence.empty() && report.injected != rtl_->injected()) {
    report.agree = false;
    report.divergence = "the faults took different packets in SystemC and RTL";
  }
}

}  // namespace fixroute
