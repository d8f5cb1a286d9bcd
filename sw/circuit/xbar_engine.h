// What every engine of the circuit-switched routers returns (ref here; SystemC and RTL
// in systemc/ and tb/), and the circuit trace of DESIGN.md: `step,source,destination`,
// one row per message delivered, `source` being the node id the message carried.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fixroute {

class Topology;
struct XbarTables;

struct CircuitEvent {
  int64_t step = 0;
  int source = 0;
  int dest = 0;
  bool operator==(const CircuitEvent& o) const { return step == o.step && source == o.source && dest == o.dest; }
  bool operator<(const CircuitEvent& o) const {
    return step != o.step ? step < o.step : source != o.source ? source < o.source : dest < o.dest;
  }
};

struct XbarRun {
  std::vector<CircuitEvent> trace;  // sorted
  // What the routers detected: two inputs claiming one output (a link conflict), a
  // message on an unconnected input. One line each, in xbar_fault_text's words.
  std::vector<std::string> faults;
  std::string failure;  // the engine could not run the tables at all (watchdog, load)
  int64_t steps_simulated = 0;
  std::optional<int64_t> clock_cycles;     // hardware engines: cycles of the routing steps
  std::optional<int64_t> overhead_cycles;  // reset and table load
  std::optional<int64_t> cycles_per_step;
};

enum class XbarFault { Conflict, Stray };
// The one wording of a fault, shared by the engines so their reports compare.
// Conflict: inputs `a` and `b` claim output `port`; Stray: a message arrived on input `port`.
std::string xbar_fault_text(XbarFault kind, int64_t step, int node, int port, int a = 0, int b = 0);

// The reference engine: per routing step, every router's crossbar as its table sets it;
// each message injected at a source follows the connections to the output it reaches.
XbarRun run_xbar_ref(const Topology& mesh, const XbarTables& tables);

std::string circuit_trace_to_csv(const std::vector<CircuitEvent>& trace);
void write_circuit_trace(const std::vector<CircuitEvent>& trace, const std::string& path);  // throws InputError

}  // namespace fixroute
