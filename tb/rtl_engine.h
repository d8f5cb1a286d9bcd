// The `rtl` engine: the verilated Verilog routers of rtl/ (see rtl_engine.cpp).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "../sw/ref_engine.h"

namespace fixroute {

// One verilated network top (rtl/CMakeLists.txt decides which exist).
struct RtlModelInfo {
  std::string spec;  // canonical topology spec
  int ports;
  int nodes;
  int depth;       // packets per output queue
  int mem_words;   // table memory per router
  int field_w;     // bits of origin, dest, seq and hops in a packet
  std::function<EngineResult(const RtlModelInfo&, const Topology&, const std::vector<std::vector<uint32_t>>&,
                             const EngineOptions&)>
      run;
};

const std::vector<RtlModelInfo>& rtl_models();
// Throws InputError listing the built sizes when `topology` has none.
const RtlModelInfo& find_rtl_model(const Topology& topology);

EngineResult run_rtl_engine(const Topology& topology, const NetworkTables& tables, const EngineOptions& options);
// Loads these memory images as they are (one per router), for tests of the hardware's own
// table checks; run_rtl_engine encodes valid tables and calls it.
EngineResult run_rtl_images(const Topology& topology, const std::vector<std::vector<uint32_t>>& images,
                            const EngineOptions& options);

}  // namespace fixroute
