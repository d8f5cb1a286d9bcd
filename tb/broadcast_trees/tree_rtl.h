// The verilated broadcast-tree network (rtl/broadcast_trees/fr_tree_router.v as a router array): what the
// rtl engine's runs and the co-simulation read of it (tb/broadcast_trees/tree_rtl_engine.cpp).
#pragma once
#include <memory>
#include <string>

#include "tb/rtl_config_port.h"
#include "sw/core/router_kind.h"

namespace fixroute {

class Topology;
class FaultInjector;
struct BroadcastTreeTables;

class TreeRtlDriver : public RtlConfigPort {
 public:
  virtual bool link_valid(int node, int port) const = 0;
  virtual int link_origin(int node, int port) const = 0;
  // Faults (docs/faults.md) applied from the next clock on: a packet a fault takes is sent
  // but neither stored by its receiver nor shown on link_valid (sw/kinds/broadcast_trees/engine.h).
  virtual void inject(FaultInjector* faults) = 0;
};

// The smallest broadcast-tree build that holds `tables`, every router's image loaded and
// checked (load_round_array, tb/round_array_rtl.h): nullptr with `run.failure` set where
// a router refused its table.
std::unique_ptr<TreeRtlDriver> load_tree_rtl(const Topology& topology, const BroadcastTreeTables& tables,
                                             const std::string& vcd_path, RunStats& run);

}  // namespace fixroute
