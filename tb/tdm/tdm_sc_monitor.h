// The TDM clock monitor fed a SystemC network (systemc/tdm/fr_tdm_router_sc.h): the run's
// bench and the co-simulation read the routers through it.
#pragma once
#include "sw/kinds/tdm/engine.h"
#include "systemc/tdm/fr_tdm_router_sc.h"

namespace fixroute {

inline TdmPhit tdm_phit_of_word(uint64_t word) {  // chain | period << 32
  return {static_cast<int>(static_cast<uint32_t>(word)), static_cast<int>(word >> 32)};
}

// What the monitor reads of the SystemC network.
class TdmScView {
 public:
  explicit TdmScView(const TdmNetworkSc& network) : network_(network) {}
  bool link_valid(int node, int port) const { return network_.link_valid(node, port); }
  TdmPhit link_phit(int node, int port) const { return tdm_phit_of_word(network_.link_word(node, port)); }
  bool eject_valid(int node) const { return network_.eject_valid(node); }
  TdmPhit eject_phit(int node) const { return tdm_phit_of_word(network_.eject_word(node)); }

 private:
  const TdmNetworkSc& network_;
};

class TdmScMonitor : public TdmClockMonitor {
 public:
  using TdmClockMonitor::TdmClockMonitor;
  void clock_edge(const TdmNetworkSc& network) { TdmClockMonitor::clock_edge(TdmScView(network)); }
};

}  // namespace fixroute
