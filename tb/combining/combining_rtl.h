// The verilated combining network (rtl/combining/fr_combining_router.v as a router array): what the
// rtl engine's runs and the co-simulation read of it (tb/combining/combining_rtl_engine.cpp).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "tb/rtl_config_port.h"
#include "sw/core/router_kind.h"

namespace fixroute {

class Topology;
class FaultInjector;
struct CombiningTables;

class CombiningRtlDriver : public RtlConfigPort {
 public:
  virtual bool full(int node) const = 0;
  virtual bool learnt(int node) const = 0;
  virtual bool link_valid(int node, int port) const = 0;
  virtual int link_count(int node, int port) const = 0;  // origins in the set on the link
  // Origins 64w .. 64w+63 of the set on the link, a bit each (bits past the build's origins are 0).
  virtual uint64_t link_word(int node, int port, int w) const = 0;
  // Faults (docs/faults.md) applied from the next clock on: a set a fault takes is sent but
  // neither reaches its receiver nor shows on link_valid (sw/kinds/combining/engine.h).
  virtual void inject(FaultInjector* faults) = 0;
};

// The smallest combining build that holds `tables`, every router's image loaded and checked
// (load_round_array, tb/round_array_rtl.h): nullptr with `run.failure` set where a router
// refused its table.
std::unique_ptr<CombiningRtlDriver> load_combining_rtl(const Topology& topology, const CombiningTables& tables,
                                                       const std::string& vcd_path, RunStats& run);

}  // namespace fixroute
