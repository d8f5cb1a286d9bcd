#include "sw/kinds/broadcast_trees/engine.h"
#include "sw/core/faults.h"
#include "sw/kinds/port_rules/tables.h"
#include "sw/kinds/broadcast_trees/tables.h"

namespace fixroute {

void check_tree_faults(const EngineOptions& options) {
  refuse_flips(options.faults, "broadcast-tree routers", "their rows name the origin each port sends");
}

TreeRun run_broadcast_trees_ref(const Topology& topology, const BroadcastTreeTables& tables, const EngineOptions& options) {
  check_tree_faults(options);
  FaultInjector* faults = options.faults && options.faults->any() ? options.faults : nullptr;
  TreeRun run;
  const int nodes = topology.num_nodes(), ports = topology.num_ports();
  const size_t words = (static_cast<size_t>(nodes) + 63) / 64;
  // held[node * words + origin / 64]: the packets the node's memory holds.
  std::vector<uint64_t> held(static_cast<size_t>(nodes) * words, 0);
  auto holds = [&](int n, int o) {
    return (held[static_cast<size_t>(n) * words + static_cast<size_t>(o) / 64] >> (o % 64)) & 1u;
  };
  for (int n = 0; n < nodes; ++n) held[static_cast<size_t>(n) * words + static_cast<size_t>(n) / 64] |= 1ull << (n % 64);
  size_t round_begin = 0;
  for (int64_t step = 1; step <= tables.rounds; ++step) {
    round_begin = run.trace.size();
    for (int n = 0; n < nodes; ++n)
      for (int p = 0; p < ports; ++p) {
        const int32_t origin = tables.at(n, step, p);
        if (origin == kNoSend || !holds(n, origin)) continue;
        const int to = topology.neighbour(n, p);
        // what a fault takes is sent but never arrives: no row, not stored
        if (faults && !faults->arrives(step, n, to, origin, kBroadcastDest, 0)) continue;
        run.trace.push_back({step, n, p, to, origin});
      }
    // Stored after every router has sent: a packet moves one hop per round.
    for (size_t k = round_begin; k < run.trace.size(); ++k) {
      const TreeEvent& e = run.trace[k];
      held[static_cast<size_t>(e.to) * words + static_cast<size_t>(e.origin) / 64] |= 1ull << (e.origin % 64);
    }
  }
  run.steps_simulated = tables.rounds;
  return run;  // rows come out in (step, node, port) order
}

void TreeClockMonitor::finish(TreeRun& run) {
  run.clock_cycles = round_;
  run.cycles_per_step = 1;
  run.steps_simulated = round_;
  run.trace = std::move(trace_);
}

EngineOutput broadcast_tree_output(TreeRun run) { return engine_output<BroadcastTreeTrace>(std::move(run)); }

}  // namespace fixroute
