// The `rtl` engine: the verilated Verilog routers of rtl/, driven through RtlDriver
// (rtl_driver.h) by the loop in rtl_engine.cpp (docs/rtl.md).
#pragma once
#include <cstdint>
#include <vector>

#include "sw/kinds/port_rules/ref_routers.h"
#include "tb/port_rules/rtl_driver.h"

namespace fixroute {

EngineResult run_rtl_engine(const Topology& topology, const NetworkTables& tables, const EngineOptions& options);
// Steps a network that rtl_reset_and_load loaded (and one tick started) to its end,
// handing each step's link crossings, sorted, to the options' PacketSink (if any) and
// keeping them as the ref engine does (EngineOptions::keep_trace).
EngineResult rtl_run_loaded(RtlDriver& rtl, const RtlModelInfo& model, const Topology& topology,
                            const EngineOptions& options = {});
// Loads these memory images as they are (one per router) into the curated top of the
// topology's size, for tests of the hardware's own table checks.
EngineResult run_rtl_images(const Topology& topology, const std::vector<std::vector<uint32_t>>& images,
                            const EngineOptions& options);
// The same on the hardware `model` (a curated top or a router array, rtl_driver.h).
EngineResult run_rtl_model(const RtlModelInfo& model, const Topology& topology,
                           const std::vector<std::vector<uint32_t>>& images, const EngineOptions& options);

}  // namespace fixroute
