#include <algorithm>

#include "sw/core/errors.h"
#include "sw/core/faults.h"
#include "sw/kinds/tdm/engine.h"
#include "sw/kinds/tdm/tables.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {

// A phit on an input: its chain and period, chain -1 for none.
struct Phit {
  int32_t chain = -1;
  int32_t period = 0;
};

}  // namespace

void check_tdm_faults(const EngineOptions& options) {
  refuse_flips(options.faults, "TDM routers", "their slot tables name an input per output");
}

bool tdm_phit_arrives(FaultInjector& faults, const TdmTables& tables, int64_t step, int from, int to, int chain,
                      int period) {
  const TdmFlow& f = tables.flow_of(chain);
  return faults.arrives_phit(step, from, to, f.src, f.dst, chain, period);
}

int64_t tdm_run_slots(const TdmTables& t) {
  int64_t longest = 0;
  for (const TdmChain& c : t.chains) longest = std::max(longest, c.latency());
  return int64_t{kTdmPeriodsRun} * t.period + longest + 1;
}

TdmRun run_tdm_ref(const Topology& topology, const TdmTables& t, const EngineOptions& options) {
  check_tdm_faults(options);
  TdmRun run;
  const int nodes = t.nodes, ports = t.ports;
  const size_t inputs = static_cast<size_t>(nodes) * static_cast<size_t>(ports);
  std::vector<Phit> in(inputs), next(inputs);
  const int64_t slots = tdm_run_slots(t), injecting = int64_t{kTdmPeriodsRun} * t.period;
  FaultInjector* const faults = options.faults && options.faults->any() ? options.faults : nullptr;
  for (int64_t s = 0; s < slots; ++s) {
    const int slot = static_cast<int>(s % t.period);
    std::fill(next.begin(), next.end(), Phit{});
    for (int n = 0; n < nodes; ++n) {
      // Slots count from 1 as the trace's (and a fault's step) do; a stuck router connects nothing.
      if (faults && faults->stuck(n, s + 1)) continue;
      Phit local;
      if (s < injecting) {
        local.chain = t.inject[t.inject_at(n, slot)];
        local.period = static_cast<int32_t>(s / t.period);
      }
      for (int o = 0; o < t.outputs(); ++o) {
        const uint8_t code = t.select[t.at(n, slot, o)];
        if (code == kTdmNone) continue;
        const Phit p = code == t.local_code() ? local : in[static_cast<size_t>(n) * ports + (code - 1)];
        if (p.chain < 0) continue;
        if (o == t.eject_output()) {
          run.trace.push_back({s + 1, n, kTdmEjected, p.chain, p.period});
          continue;
        }
        const int to = topology.neighbour(n, o);
        if (faults && !tdm_phit_arrives(*faults, t, s + 1, n, to, p.chain, p.period)) continue;  // lost: no crossing
        next[static_cast<size_t>(to) * ports + static_cast<size_t>(topology.reverse_port(n, o))] = p;
        run.trace.push_back({s + 1, n, to, p.chain, p.period});
      }
    }
    in.swap(next);
  }
  std::sort(run.trace.begin(), run.trace.end());
  run.steps_simulated = slots;
  return run;
}

void TdmClockMonitor::finish(TdmRun& run) {
  std::sort(trace_.begin(), trace_.end());
  run.trace = std::move(trace_);
  run.steps_simulated = slot_;
}


}  // namespace fixroute
