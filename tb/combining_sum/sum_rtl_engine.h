// The rtl engine's summing routers (tb/combining_sum/sum_rtl_engine.cpp): what the
// harness reads of them (co-simulation), and runs of memory images loaded as they are, one
// per router (tests of the hardware's own table checks).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sw/core/router_kind.h"
#include "sw/kinds/combining_sum/engine.h"
#include "tb/rtl_config_port.h"

namespace fixroute {

struct CombiningSumTables;

// What the harness reads of a network of summing routers. Its tick() is one clock while
// the routers are not running (reset, load), else one round: as many clocks as the table
// has registers (docs/rtl.md, "Summing router").
class SumRtlDriver : public RtlConfigPort {
 public:
  virtual int clocks_of_round() const = 0;  // the clocks the last tick took
  virtual bool link_valid(int node, int port) const = 0;
  virtual uint64_t link_value(int node, int port) const = 0;
  virtual uint64_t answer(int node) const = 0;
  // Faults (docs/faults.md) applied from the next clock on: a sum a fault takes is sent but
  // neither reaches its receiver nor shows on link_valid (sw/kinds/combining_sum/engine.h).
  virtual void inject(FaultInjector* faults) = 0;
};

// The smallest summing build that holds `tables`, every router's image loaded and checked
// (load_round_array, tb/round_array_rtl.h): nullptr with `run.failure` set where a router
// refused its table.
std::unique_ptr<SumRtlDriver> load_sum_rtl(const Topology& topology, const CombiningSumTables& tables,
                                           const std::string& vcd_path, RunStats& run);

// Runs `images` on the smallest fr_sum_router build with the topology's ports, `rounds`
// rows and `registers` registers; a router that refuses its image ends the run with
// `failure` naming it and the reason.
CombiningSumRun run_sum_rtl_images(const Topology& topology, int rounds, int registers,
                                   const std::vector<std::vector<uint32_t>>& images, const EngineOptions& options);

}  // namespace fixroute
