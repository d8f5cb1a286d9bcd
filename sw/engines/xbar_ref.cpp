#include <fmt/format.h>

#include <algorithm>
#include "sw/core/errors.h"
#include "sw/core/partial_output.h"
#include "sw/tables/xbar_tables.h"
#include "sw/topology/topology.h"
#include "xbar_engine.h"

namespace fixroute {

std::string xbar_fault_text(XbarFault kind, int64_t step, int node, int port, int a, int b) {
  if (kind == XbarFault::Conflict)
    return fmt::format("step {}: router {}: inputs {} and {} both claim output {} (link conflict)", step, node, a, b, port);
  return fmt::format("step {}: router {}: a message arrived on input {}, which is not connected", step, node, port);
}

XbarRun run_xbar_ref(const Topology& mesh, const XbarTables& tables) {
  XbarRun run;
  const int nodes = mesh.num_nodes();
  // Like the hardware, each router reports its first fault only.
  std::vector<bool> faulted(static_cast<size_t>(nodes), false);
  auto fault = [&](int node, std::string text) {
    if (!faulted[static_cast<size_t>(node)]) run.faults.push_back(std::move(text));
    faulted[static_cast<size_t>(node)] = true;
  };
  for (int s = 0; s < tables.steps(); ++s) {
    const int64_t step = s + 1;
    for (int n = 0; n < nodes; ++n) {  // claims: every output at most once
      const XbarSetting& set = tables.routers[static_cast<size_t>(n)].settings[static_cast<size_t>(s)];
      // The lowest output claimed twice, and its two lowest claimants (as fr_xbar_router).
      for (int out = 0; out < kCrossbarPorts; ++out) {
        std::vector<int> claimants;
        for (int in = 0; in < kCrossbarPorts; ++in)
          if (set[static_cast<size_t>(in)] == out) claimants.push_back(in);
        if (claimants.size() >= 2) {
          fault(n, xbar_fault_text(XbarFault::Conflict, step, n, out, claimants[0], claimants[1]));
          break;
        }
      }
    }
    for (int source = 0; source < nodes; ++source) {
      int node = source, in = kLocalPort;
      for (int hops = 0; hops <= nodes; ++hops) {  // a looped setting ends at the bound
        const int out = tables.routers[static_cast<size_t>(node)].settings[static_cast<size_t>(s)][static_cast<size_t>(in)];
        if (out == kNoPort) {
          if (in != kLocalPort) fault(node, xbar_fault_text(XbarFault::Stray, step, node, in));
          break;
        }
        if (out == kLocalPort) {
          run.trace.push_back({step, source, node});
          break;
        }
        in = mesh.reverse_port(node, out);
        node = mesh.neighbour(node, out);
      }
    }
  }
  run.steps_simulated = tables.steps();
  std::sort(run.trace.begin(), run.trace.end());
  std::sort(run.faults.begin(), run.faults.end());
  return run;
}

std::string circuit_trace_to_csv(const std::vector<CircuitEvent>& trace) {
  std::string out = "step,source,destination\n";
  for (const CircuitEvent& e : trace) out += fmt::format("{},{},{}\n", e.step, e.source, e.dest);
  return out;
}

void write_circuit_trace(const std::vector<CircuitEvent>& trace, const std::string& path) {
  write_output_file(path, circuit_trace_to_csv(trace), "trace");
}

}  // namespace fixroute
