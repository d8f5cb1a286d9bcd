// The rtl engine's summing routers (tb/combining_sum/sum_rtl_engine.cpp), for tests of the hardware's own
// table checks: memory images loaded as they are, one per router.
#pragma once
#include <cstdint>
#include <vector>

#include "sw/core/router_kind.h"
#include "sw/kinds/combining_sum/engine.h"

namespace fixroute {

// Runs `images` on the smallest fr_sum_router build with the topology's ports, `rounds`
// rows and `registers` registers; a router that refuses its image ends the run with
// `failure` naming it and the reason.
CombiningSumRun run_sum_rtl_images(const Topology& topology, int rounds, int registers,
                                   const std::vector<std::vector<uint32_t>>& images, const EngineOptions& options);

}  // namespace fixroute
