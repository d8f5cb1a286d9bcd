// The reference engine (`--engine ref`): a C++ step model of the store-and-forward
// routers, executing their tables under DESIGN.md's timing model. The golden model the
// SystemC and RTL engines are compared with, and the fast one for large sweeps.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tables.h"
#include "trace.h"

namespace fixroute {

class Topology;

struct EngineOptions {
  std::string vcd_path;  // waveform, where the engine can write one
};

// What an engine reports; the scoreboard then checks the trace.
struct EngineResult {
  std::vector<TraceEvent> trace;      // sorted
  int64_t steps_simulated = 0;        // steps until every queue drained (or the run stopped)
  int64_t max_queue = 0;              // largest output-queue occupancy seen
  std::string failure;                // why the run stopped early or went wrong, "" if it did not
  std::optional<int64_t> clock_cycles;     // hardware engines: clock cycles of the run proper
  std::optional<int64_t> overhead_cycles;  // hardware engines: reset and table load
};

EngineResult run_ref_engine(const Topology& topology, const NetworkTables& tables, const EngineOptions& options);

}  // namespace fixroute
