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
  // Each slot's rows go to the sink as the slot ends (a streaming run keeps no trace).
  StepRecorder<TdmEvent> recorder(options);
  run.streamed = recorder.streamed();
  std::vector<TdmEvent> rows;
  // Each router's outputs in the order its rows sort (docs/trace-format.md: by node, then
  // `to`): the ejection (to -1) first, then the ports by the neighbour they lead to -- a
  // slot's rows then come out sorted.
  std::vector<int> output_order(static_cast<size_t>(nodes) * static_cast<size_t>(t.outputs()));
  for (int n = 0; n < nodes; ++n) {
    int* order = &output_order[static_cast<size_t>(n) * static_cast<size_t>(t.outputs())];
    order[0] = t.eject_output();
    for (int o = 0; o < ports; ++o) order[o + 1] = o;
    std::stable_sort(order + 1, order + t.outputs(),
                     [&](int a, int b) { return topology.neighbour(n, a) < topology.neighbour(n, b); });
  }
  for (int64_t s = 0; s < slots; ++s) {
    const int slot = static_cast<int>(s % t.period);
    const int32_t period_index = static_cast<int32_t>(s / t.period);
    std::fill(next.begin(), next.end(), Phit{});
    rows.clear();
    for (int n = 0; n < nodes; ++n) {
      // Slots count from 1 as the trace's (and a fault's step) do; a stuck router connects nothing.
      if (faults && faults->stuck(n, s + 1)) continue;
      Phit local;
      if (s < injecting) {
        local.chain = t.inject[t.inject_at(n, slot)];
        local.period = period_index;
      }
      const uint8_t* select = &t.select[t.at(n, slot, 0)];
      const int* order = &output_order[static_cast<size_t>(n) * static_cast<size_t>(t.outputs())];
      for (int k = 0; k < t.outputs(); ++k) {
        const int o = order[k];
        const uint8_t code = select[o];
        if (code == kTdmNone) continue;
        const Phit p = code == t.local_code() ? local : in[static_cast<size_t>(n) * ports + (code - 1)];
        if (p.chain < 0) continue;
        const int to = o == t.eject_output() ? kTdmEjected : topology.neighbour(n, o);
        if (to != kTdmEjected) {
          if (faults && !tdm_phit_arrives(*faults, t, s + 1, n, to, p.chain, p.period)) continue;  // lost: no crossing
          next[static_cast<size_t>(to) * ports + static_cast<size_t>(topology.reverse_port(n, o))] = p;
        }
        // Filled in place: a row built as a temporary and copied costs a store-forwarding stall.
        TdmEvent& row = rows.emplace_back();
        row.slot = s + 1;
        row.node = n;
        row.to = to;
        row.chain = p.chain;
        row.period = p.period;
      }
    }
    recorder.record(s + 1, rows);
    in.swap(next);
  }
  run.trace = recorder.take_trace();
  run.steps_simulated = slots;
  return run;
}

void TdmClockMonitor::finish(TdmRun& run) {
  std::sort(trace_.begin(), trace_.end());
  run.trace = std::move(trace_);
  run.steps_simulated = slot_;
}


}  // namespace fixroute
