// What every engine of the TDM routers returns: the trace of docs/trace-format.md ("TDM
// routers": `slot,node,to,chain,period`, one row per phit on a link in a slot -- `to` the
// router it arrives at -- and one per phit ejected, `to` -1), over kTdmPeriodsRun periods.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sw/core/router_kind.h"

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
  bool operator==(const TdmEvent& o) const {
    return slot == o.slot && node == o.node && to == o.to && chain == o.chain && period == o.period;
  }
  bool operator<(const TdmEvent& o) const {
    return slot != o.slot ? slot < o.slot : node != o.node ? node < o.node : to < o.to;
  }
};

struct TdmRun : RunStats {
  std::vector<TdmEvent> trace;  // sorted
};

// Slots a run lasts: kTdmPeriodsRun periods of injections and the longest chain's latency.
int64_t tdm_run_slots(const TdmTables& tables);

// The reference engine: slot by slot, each router connects the inputs its table names to
// its outputs; what a link carries is on the next router's input in the next slot.
TdmRun run_tdm_ref(const Topology& topology, const TdmTables& tables, const EngineOptions& options = {});

std::string tdm_trace_to_csv(const std::vector<TdmEvent>& trace);

struct TdmTrace : Trace {
  std::vector<TdmEvent> events;  // sorted
  explicit TdmTrace(std::vector<TdmEvent> e) : events(std::move(e)) {}
  std::string csv() const override { return tdm_trace_to_csv(events); }
  int64_t rows() const override { return static_cast<int64_t>(events.size()); }
};

}  // namespace fixroute
