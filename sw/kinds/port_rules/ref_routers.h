// The reference engine (`--engine ref`): a C++ step model of the store-and-forward
// routers, executing their tables under the timing model of docs/timing-model.md. The golden model the
// SystemC and RTL engines are compared with, and the fast one for large sweeps. Given a
// PacketSink in its options it hands on each step's crossings as it goes -- as its links
// (LinkStep) where the sink also takes those, else as rows -- and keeps them only where
// `keep_trace` asks.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sw/kinds/port_rules/tables.h"
#include "sw/engines/trace.h"
#include "sw/kinds/port_rules/link_step.h"

namespace fixroute {

class Topology;

// What an engine's port-rule routers report (core/router_kind.h RunStats) and their trace.
struct EngineResult : RunStats {
  std::vector<TraceEvent> trace;  // sorted; empty where the run streamed and kept nothing
  bool streamed = false;          // every step went to the EngineOptions' PacketSink
};

// The kind-neutral form of a port-rule run, for the engines' registrations.
EngineOutput port_rules_output(EngineResult result);

EngineResult run_ref_engine(const Topology& topology, const NetworkTables& tables, const EngineOptions& options);

}  // namespace fixroute
