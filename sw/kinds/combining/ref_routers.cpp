#include <fmt/format.h>

#include <algorithm>

#include "sw/kinds/combining/engine.h"
#include "sw/core/errors.h"
#include "sw/core/faults.h"
#include "sw/kinds/combining/tables.h"
#include "sw/topology/topology.h"

namespace fixroute {

std::string CombiningStopRule::failure(int64_t step) const {
  if (!stuck_) return "";
  return fmt::format("stuck at round {}: no router learnt anything in the last {} rounds (a whole table period) "
                     "and some still miss origins",
                     step, period_);
}

CombiningClockMonitor::CombiningClockMonitor(const Topology& topology, int rounds_per_period, const EngineOptions& options)
    : topology_(topology), stop_(rounds_per_period), recorder_(options) {
  stop_.round_ended(0, topology.num_nodes() == 1, false);
}

void CombiningClockMonitor::finish(CombiningRun& run) {
  run.clock_cycles = cycles_;
  run.cycles_per_step = 1;
  run.steps_simulated = round_;
  run.failure = stop_.failure(round_);
  run.trace = recorder_.take_trace();
}

int64_t combining_sets_bytes(const Topology& topology) {
  const int64_t nodes = topology.num_nodes();
  return 2 * nodes * ((nodes + 63) / 64) * 8;
}

void check_combining_run_size(const Topology& topology) {
  const int64_t bytes = combining_sets_bytes(topology);
  if (bytes > kMaxCombiningSetBytes)
    throw InputError(fmt::format("a combining run on {} needs {:.1f} GiB for its routers' sets of origins (a bit per "
                                 "origin per node, twice); refused above {} GiB",
                                 topology.spec(), static_cast<double>(bytes) / (1 << 30), kMaxCombiningSetBytes >> 30));
}

void check_combining_faults(const EngineOptions& options) {
  refuse_flips(options.faults, "combining routers", "their rows name ports to send on");
}

CombiningRun run_combining_ref(const Topology& topology, const CombiningTables& tables, const EngineOptions& options) {
  check_combining_run_size(topology);
  check_combining_faults(options);
  FaultInjector* faults = options.faults && options.faults->any() ? options.faults : nullptr;
  CombiningRun run;
  StepRecorder<CombiningEvent> recorder(options);
  const int nodes = topology.num_nodes();
  const size_t words = (static_cast<size_t>(nodes) + 63) / 64;
  std::vector<uint64_t> known(static_cast<size_t>(nodes) * words, 0), next;
  std::vector<int> count(static_cast<size_t>(nodes), 1);
  for (int n = 0; n < nodes; ++n) known[static_cast<size_t>(n) * words + static_cast<size_t>(n) / 64] |= 1ull << (n % 64);
  CombiningStopRule stop(tables.rounds);
  int64_t step = 0;
  int full = nodes == 1 ? 1 : 0;
  stop.round_ended(0, full == nodes, false);
  while (!stop.finished()) {
    ++step;
    next = known;
    for (int n = 0; n < nodes; ++n) {
      const unsigned mask = tables.row(n, step);
      for (int p = 0; mask >> p; ++p) {
        if (!((mask >> p) & 1u)) continue;
        const int to = topology.neighbour(n, p);
        // what a fault takes is sent but never arrives: no row, nothing merged
        if (faults && !faults->arrives_set(step, n, to, count[static_cast<size_t>(n)])) continue;
        recorder.add({step, n, p, to, count[static_cast<size_t>(n)]});
        const uint64_t* from = &known[static_cast<size_t>(n) * words];
        uint64_t* into = &next[static_cast<size_t>(to) * words];
        for (size_t w = 0; w < words; ++w) into[w] |= from[w];
      }
    }
    bool learnt = false;
    for (int n = 0; n < nodes; ++n) {
      int c = 0;
      for (size_t w = 0; w < words; ++w) c += __builtin_popcountll(next[static_cast<size_t>(n) * words + w]);
      if (c != count[static_cast<size_t>(n)]) {
        learnt = true;
        full += c == nodes;
        count[static_cast<size_t>(n)] = c;
      }
    }
    recorder.end_step(step);
    known.swap(next);
    stop.round_ended(step, full == nodes, learnt);
  }
  run.steps_simulated = step;
  run.failure = stop.failure(step);
  run.trace = recorder.take_trace();
  return run;  // rows come out in (step, node, port) order
}

EngineOutput combining_output(CombiningRun run, bool streamed) {
  EngineOutput out = engine_output<CombiningTrace>(std::move(run));
  out.streamed = streamed;
  return out;
}

}  // namespace fixroute
