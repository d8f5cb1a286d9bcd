// What every engine of the summing routers (combining-sum tables) returns, the trace of
// docs/trace-format.md ("Combining-sum routers": `step,node,port,to,value`, one row per
// packet sent, `value` the 64-bit sum it carried), and the routers' input values.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "sw/core/event_trace.h"
#include "sw/core/router_kind.h"
#include "sw/topology/topology.h"

namespace fixroute {

class Topology;
struct CombiningSumTables;

// Node i's input value: splitmix64 of i (docs/swapped-networks.md), the same on every
// engine and in the scoreboard, which checks the routers' answers against sums of these.
uint64_t sum_input_value(int node);

struct SumEvent {
  int64_t step = 0;
  int node = 0;
  int port = 0;
  int to = 0;
  uint64_t value = 0;
  static constexpr const char* kCsvHeader = "step,node,port,to,value";
  auto fields() const { return std::tie(step, node, port, to, value); }
  bool operator==(const SumEvent& o) const { return same_fields(*this, o); }
  bool operator<(const SumEvent& o) const {
    return step != o.step ? step < o.step : node != o.node ? node < o.node : port < o.port;
  }
};

struct CombiningSumRun : RunStats {
  std::vector<SumEvent> trace;   // sorted
  std::vector<uint64_t> answers;  // per node: the sum of its result registers when the run ended
};

// Injected faults (docs/faults.md) on summing routers, one rule on every engine: a sum sent
// in round R from A to B arrives unless FaultInjector::arrives_sum(R, A, B) says a fault
// takes it -- then it is no row of the trace and B adds nothing; a stuck router sends
// nothing and what is sent to it is taken. Flips have nothing to flip here: InputError.
void check_sum_faults(const EngineOptions& options);

// The reference engine: per round, every router sends the sums its entries name; then
// every arrival is added into the registers the receiver's entry names.
CombiningSumRun run_combining_sum_ref(const Topology& topology, const CombiningSumTables& tables,
                                      const EngineOptions& options = {});

// What the hardware harnesses do after every round of a summing network (a clock of the
// SystemC routers, `registers` clocks of the Verilog ones): rounds 1..rounds put their
// packets on the links (recorded); round rounds + 1 adds the last round's, after which the
// routers' answers are read. `Network` answers link_valid(node, port), link_value(node,
// port), answer(node) and clocks_of_round() (the clocks the round took).
class SumClockMonitor {
 public:
  SumClockMonitor(const Topology& topology, int rounds) : topology_(topology), rounds_(rounds) {}
  bool finished() const { return round_ > rounds_; }
  template <class Network>
  void clock_edge(const Network& network);
  void finish(CombiningSumRun& run);

 private:
  const Topology& topology_;
  int64_t rounds_;
  int64_t round_ = 0;
  int64_t clocks_ = 0;
  std::optional<int64_t> clocks_per_round_;  // none once two rounds took different clocks
  std::vector<SumEvent> trace_;
  std::vector<uint64_t> answers_;
};

struct CombiningSumTrace : EventTrace<SumEvent> {
  std::vector<uint64_t> answers;  // what each router reported as its answer
  CombiningSumTrace(std::vector<SumEvent> e, std::vector<uint64_t> a) : EventTrace(std::move(e)), answers(std::move(a)) {}
};
EngineOutput combining_sum_output(CombiningSumRun run);

template <class Network>
void SumClockMonitor::clock_edge(const Network& network) {
  const int64_t clocks = network.clocks_of_round();
  if (round_ == 0) clocks_per_round_ = clocks;
  else if (clocks_per_round_ != clocks) clocks_per_round_.reset();
  clocks_ += clocks;
  ++round_;
  const int nodes = topology_.num_nodes();
  if (round_ > rounds_) {
    for (int i = 0; i < nodes; ++i) answers_.push_back(network.answer(i));
    return;
  }
  for (int i = 0; i < nodes; ++i)
    for (int q = 0; q < topology_.num_ports(); ++q)
      if (network.link_valid(i, q)) trace_.push_back({round_, i, q, topology_.neighbour(i, q), network.link_value(i, q)});
}

}  // namespace fixroute
