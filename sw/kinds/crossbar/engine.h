// What every engine of the circuit-switched routers returns (ref here; SystemC and RTL
// in systemc/ and tb/), and the circuit trace of docs/trace-format.md: `step,source,destination`,
// one row per message delivered, `source` being the node id the message carried.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "sw/core/event_trace.h"
#include "sw/core/router_kind.h"

namespace fixroute {

class Topology;
struct XbarTables;

struct CircuitEvent {
  int64_t step = 0;
  int source = 0;
  int dest = 0;
  static constexpr const char* kCsvHeader = "step,source,destination";
  auto fields() const { return std::tie(step, source, dest); }
  bool operator==(const CircuitEvent& o) const { return same_fields(*this, o); }
  bool operator<(const CircuitEvent& o) const {
    return step != o.step ? step < o.step : source != o.source ? source < o.source : dest < o.dest;
  }
};

// What an engine's crossbar routers report: `faults` are what the routers detected (two
// inputs claiming one output, a message on an unconnected input), one line each in
// xbar_fault_text's words; `failure`, that the engine could not run the tables at all.
struct XbarRun : RunStats {
  std::vector<CircuitEvent> trace;  // sorted
};

enum class XbarFault { Conflict, Stray };
// The one wording of a fault, shared by the engines so their reports compare.
// Conflict: inputs `a` and `b` claim output `port`; Stray: a message arrived on input `port`.
std::string xbar_fault_text(XbarFault kind, int64_t step, int node, int port, int a = 0, int b = 0);

// Injected faults (docs/faults.md) on crossbar routers, one rule on every engine: a message
// crossing from A to B in routing step S goes on unless FaultInjector::arrives_message(S, A,
// B, source) says a fault takes it (then it is lost there, recorded); a router stuck from
// step S on passes nothing: it injects and delivers nothing, and what reaches it is lost.
// Its table's own checks (a link conflict) stand. Flips have nothing to flip: InputError.
void check_xbar_faults(const EngineOptions& options);

// The reference engine: per routing step, every router's crossbar as its table sets it;
// each message injected at a source follows the connections to the output it reaches.
XbarRun run_xbar_ref(const Topology& mesh, const XbarTables& tables, const EngineOptions& options = {});

// The crossbar routers' trace behind the kind-neutral interface of core/router_kind.h.
using CircuitTrace = EventTrace<CircuitEvent>;
EngineOutput crossbar_output(XbarRun run);

}  // namespace fixroute
