#include "sw/kinds/combining_sum/engine.h"
#include "sw/core/faults.h"
#include "sw/kinds/combining_sum/tables.h"
#include "sw/topology/topology.h"

namespace fixroute {

uint64_t sum_input_value(int node) {
  uint64_t z = static_cast<uint64_t>(node) + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

namespace {
uint64_t masked_sum(const uint64_t* regs, RegisterMask mask) {
  uint64_t s = 0;
  for (int r = 0; mask >> r; ++r)
    if ((mask >> r) & 1u) s += regs[r];
  return s;
}
}  // namespace

void check_sum_faults(const EngineOptions& options) {
  refuse_flips(options.faults, "summing routers", "their rows name registers to send and add");
}

CombiningSumRun run_combining_sum_ref(const Topology& topology, const CombiningSumTables& t, const EngineOptions& options) {
  check_sum_faults(options);
  FaultInjector* faults = options.faults && options.faults->any() ? options.faults : nullptr;
  CombiningSumRun run;
  const int nodes = topology.num_nodes();
  const size_t width = static_cast<size_t>(t.registers);
  std::vector<uint64_t> regs(static_cast<size_t>(nodes) * width, 0);
  for (int n = 0; n < nodes; ++n)
    for (int r = 0; r < t.registers; ++r)
      if ((t.init[static_cast<size_t>(n)] >> r) & 1u) regs[static_cast<size_t>(n) * width + static_cast<size_t>(r)] = sum_input_value(n);
  for (int64_t step = 1; step <= t.rounds; ++step) {
    const size_t first = run.trace.size();
    for (int n = 0; n < nodes; ++n)
      for (int p = 0; p < t.ports; ++p)
        if (const RegisterMask send = t.send(n, step, p)) {
          const int to = topology.neighbour(n, p);
          // what a fault takes is sent but never arrives: no row, nothing added
          if (faults && !faults->arrives_sum(step, n, to)) continue;
          run.trace.push_back({step, n, p, to, masked_sum(&regs[static_cast<size_t>(n) * width], send)});
        }
    // Every packet was summed from the registers as the round began; now the adds.
    for (size_t e = first; e < run.trace.size(); ++e) {
      const SumEvent& ev = run.trace[e];
      const RegisterMask add = t.add(ev.to, step, topology.reverse_port(ev.node, ev.port));
      for (int r = 0; add >> r; ++r)
        if ((add >> r) & 1u) regs[static_cast<size_t>(ev.to) * width + static_cast<size_t>(r)] += ev.value;
    }
  }
  run.steps_simulated = t.rounds;
  run.answers.resize(static_cast<size_t>(nodes));
  for (int n = 0; n < nodes; ++n)
    run.answers[static_cast<size_t>(n)] = masked_sum(&regs[static_cast<size_t>(n) * width], t.result[static_cast<size_t>(n)]);
  return run;
}

void SumClockMonitor::finish(CombiningSumRun& run) {
  run.clock_cycles = clocks_;
  run.cycles_per_step = clocks_per_round_;
  run.steps_simulated = rounds_;
  run.trace = std::move(trace_);
  run.answers = std::move(answers_);
}

EngineOutput combining_sum_output(CombiningSumRun run) {
  EngineOutput out;
  out.trace = std::make_shared<CombiningSumTrace>(std::move(run.trace), std::move(run.answers));
  out.stats = std::move(static_cast<RunStats&>(run));
  return out;
}

}  // namespace fixroute
