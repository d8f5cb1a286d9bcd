// What every engine of the combining routers returns (ref here; SystemC and RTL in
// systemc/, rtl/ and tb/), the combining trace of docs/trace-format.md
// (`step,node,port,to,carried`: one row per packet sent, `carried` the number of origins it
// held), and the one rule every engine stops by.
#pragma once
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "sw/core/event_trace.h"
#include "sw/core/router_kind.h"
#include "sw/topology/topology.h"

namespace fixroute {

struct CombiningTables;

struct CombiningEvent {
  int64_t step = 0;
  int node = 0;
  int port = 0;
  int to = 0;
  int carried = 0;
  static constexpr const char* kCsvHeader = "step,node,port,to,carried";
  auto fields() const { return std::tie(step, node, port, to, carried); }
  bool operator==(const CombiningEvent& o) const { return same_fields(*this, o); }
  bool operator<(const CombiningEvent& o) const {
    return step != o.step ? step < o.step : node != o.node ? node < o.node : port < o.port;
  }
};

struct CombiningRun : RunStats {
  std::vector<CombiningEvent> trace;  // sorted; empty where the rounds were streamed and not kept
};

// Where an engine hands each round's packets as the round ends (EngineOptions::sink of a
// combining run), rows sorted by (node, port).
using CombiningSink = StepSink<CombiningEvent>;

// When a run of combining routers ends (docs/timing-model.md, "Combining routers"): once
// every router's set holds every origin (done), or once a whole table period has passed in
// which no router learnt anything: the sets are then a fixed point of the period and no
// later round can change them (stuck, a failure). Each router reports only its own `full`
// and whether it learnt this round; the engine calls round_ended after every round.
class CombiningStopRule {
 public:
  explicit CombiningStopRule(int rounds_per_period) : period_(rounds_per_period) {}
  void round_ended(int64_t step, bool all_full, bool any_learnt) {
    if (any_learnt) last_learnt_ = step;
    done_ = all_full;
    stuck_ = !all_full && step - last_learnt_ >= period_;
  }
  bool finished() const { return done_ || stuck_; }
  // Why the run stopped short of done ("" when it did not).
  std::string failure(int64_t step) const;

 private:
  int64_t period_;
  int64_t last_learnt_ = 0;
  bool done_ = false, stuck_ = false;
};

// What the hardware harnesses (SystemC, RTL) do after every clock edge of a combining
// network, one round per clock: the edge merged the round whose packets were recorded last
// (the routers' `full` and `learnt` tell of it) and put the next round's on the links. The
// stop rule decides on the former; unless the run is over the latter are recorded.
// `Network` answers full(node), learnt(node), link_valid(node, port), link_count(node, port).
class CombiningClockMonitor {
 public:
  CombiningClockMonitor(const Topology& topology, int rounds_per_period, const EngineOptions& options);
  bool finished() const { return stop_.finished(); }
  template <class Network>
  void clock_edge(const Network& network);
  // The run's counts and failure, and the trace recorded.
  void finish(CombiningRun& run);

 private:
  const Topology& topology_;
  CombiningStopRule stop_;
  int64_t round_ = 0;  // the round whose packets were recorded last
  int64_t cycles_ = 0;
  StepRecorder<CombiningEvent> recorder_;
};

// A router's set is a bit per origin: a network of N routers holds N^2 bits, twice while a
// round's sets are merged (engines and scoreboard alike). Runs needing more than 4 GiB for
// that (beyond about 131 000 nodes) are refused before they start (InputError).
constexpr int64_t kMaxCombiningSetBytes = int64_t{1} << 32;
int64_t combining_sets_bytes(const Topology& topology);
void check_combining_run_size(const Topology& topology);

// Injected faults (docs/faults.md) on combining routers, one rule on every engine: a set
// sent in round R from A to B crosses unless FaultInjector::arrives_set(R, A, B, carried)
// says a fault takes it; a stuck router's sends and what is sent to it are taken, so it
// keeps its set. Flips have nothing to flip here: InputError.
void check_combining_faults(const EngineOptions& options);

// The reference engine: per round, every router sends its set on the ports its row names;
// then every router merges what reached it.
CombiningRun run_combining_ref(const Topology& topology, const CombiningTables& tables,
                               const EngineOptions& options = {});


using CombiningTrace = EventTrace<CombiningEvent>;
// `streamed`: the run handed its rounds to a CombiningSink.
EngineOutput combining_output(CombiningRun run, bool streamed = false);

template <class Network>
void CombiningClockMonitor::clock_edge(const Network& network) {
  ++cycles_;
  const int nodes = topology_.num_nodes();
  if (round_ > 0) {
    bool all_full = true, any_learnt = false;
    for (int i = 0; i < nodes; ++i) {
      all_full = all_full && network.full(i);
      any_learnt = any_learnt || network.learnt(i);
    }
    stop_.round_ended(round_, all_full, any_learnt);
    if (stop_.finished()) return;
  }
  ++round_;
  for (int i = 0; i < nodes; ++i)
    for (int q = 0; q < topology_.num_ports(); ++q)
      if (network.link_valid(i, q)) recorder_.add({round_, i, q, topology_.neighbour(i, q), network.link_count(i, q)});
  recorder_.end_step(round_);
}

}  // namespace fixroute
