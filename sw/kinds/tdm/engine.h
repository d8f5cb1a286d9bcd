// What every engine of the TDM routers returns: the trace of docs/trace-format.md ("TDM
// routers": `slot,node,to,chain,period`, one row per phit on a link in a slot -- `to` the
// router it arrives at -- and one per phit ejected, `to` -1), over kTdmPeriodsRun periods.
#pragma once
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "sw/core/event_trace.h"
#include "sw/core/router_kind.h"
#include "sw/topology/topology.h"

namespace fixroute {

class Topology;
struct TdmTables;

// Periods a run injects: every chain's phit is checked in each (the scoreboard measures the
// period from their arrivals, so at least two).
constexpr int kTdmPeriodsRun = 3;
constexpr int kTdmEjected = -1;  // a row's `to` for a phit leaving the network at its node

struct TdmEvent {
  int64_t slot = 0;  // the slot the phit is on the link (on `to`'s input), or leaves the network
  int node = 0;      // the router that sent it
  int to = 0;        // the router it reaches, kTdmEjected at its destination
  int chain = 0;
  int period = 0;    // which period's phit of the chain (0 .. kTdmPeriodsRun-1)
  static constexpr const char* kCsvHeader = "slot,node,to,chain,period";
  auto fields() const { return std::tie(slot, node, to, chain, period); }
  bool operator==(const TdmEvent& o) const { return same_fields(*this, o); }
  bool operator<(const TdmEvent& o) const {
    return slot != o.slot ? slot < o.slot : node != o.node ? node < o.node : to < o.to;
  }
};

// A TDM row's step is its slot.
inline int64_t step_of(const TdmEvent& e) { return e.slot; }

struct TdmRun : RunStats {
  std::vector<TdmEvent> trace;  // sorted; empty where the run streamed and kept nothing
  bool streamed = false;        // every slot's rows went to EngineOptions::sink (a TdmSink)
};

// The TDM routers take link:, drop: and router: faults (docs/faults.md): InputError for a
// flip (their tables have no forward mask).
void check_tdm_faults(const EngineOptions& options);
// Whether chain `chain`'s phit of `period`, sent from -> to in slot `step`, arrives; a loss
// is recorded named by its flow (every engine asks this one question).
bool tdm_phit_arrives(FaultInjector& faults, const TdmTables& tables, int64_t step, int from, int to, int chain,
                      int period);

// Slots a run lasts: kTdmPeriodsRun periods of injections and the longest chain's latency.
int64_t tdm_run_slots(const TdmTables& tables);

// The reference engine: slot by slot, each router connects the inputs its table names to
// its outputs; what a link carries is on the next router's input in the next slot.
TdmRun run_tdm_ref(const Topology& topology, const TdmTables& tables, const EngineOptions& options = {});

// What the hardware harnesses do after every clock edge of a TDM network, one slot per
// clock: edge e put slot e's phits on the links and out of the network, all recorded, until
// the run's slots (tdm_run_slots) are done. `Network` answers link_valid(node, port),
// link_phit(node, port), eject_valid(node) and eject_phit(node), a phit as {chain, period}.
struct TdmPhit {
  int chain = 0;
  int period = 0;
};
class TdmClockMonitor {
 public:
  TdmClockMonitor(const Topology& topology, int slots) : topology_(topology), slots_(slots) {}
  bool finished() const { return slot_ >= slots_; }
  template <class Network>
  void clock_edge(const Network& network);
  void finish(TdmRun& run);

 private:
  const Topology& topology_;
  int64_t slots_;
  int64_t slot_ = 0;
  std::vector<TdmEvent> trace_;
};

using TdmTrace = EventTrace<TdmEvent>;

template <class Network>
void TdmClockMonitor::clock_edge(const Network& network) {
  ++slot_;
  const int nodes = topology_.num_nodes(), ports = topology_.num_ports();
  for (int i = 0; i < nodes; ++i) {
    for (int q = 0; q < ports; ++q)
      if (network.link_valid(i, q)) {
        const TdmPhit p = network.link_phit(i, q);
        trace_.push_back({slot_, i, topology_.neighbour(i, q), p.chain, p.period});
      }
    if (network.eject_valid(i)) {
      const TdmPhit p = network.eject_phit(i);
      trace_.push_back({slot_, i, kTdmEjected, p.chain, p.period});
    }
  }
}

}  // namespace fixroute
