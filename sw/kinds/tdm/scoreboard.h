// The TDM scoreboard (docs/tdm.md): every phit the demand needs arrives at its destination
// in the slot its chain was scheduled for, in each of the kTdmPeriodsRun periods, and the
// period is measured from those arrivals.
#pragma once
#include <cstdint>
#include <vector>

#include "sw/core/collectives.h"
#include "sw/core/event_trace.h"
#include "sw/core/router_kind.h"
#include "sw/kinds/tdm/engine.h"

namespace fixroute {

class Topology;
struct TdmTables;

// Where a streaming engine hands each slot's rows.
using TdmSink = StepSink<TdmEvent>;

// The rules applied slot by slot, as a run goes (or a whole trace replayed): it keeps a slot
// per chain and period, never the trace.
class TdmScoreboard {
 public:
  // `demand`: one entry per phit a period (origin, dest), checked against the tables' chains.
  TdmScoreboard(const Topology& topology, const TdmTables& tables, const std::vector<DemandPacket>& demand);
  void step(int64_t slot, const std::vector<TdmEvent>& rows);
  // `steps` of the report is the period measured: the interval between successive arrivals
  // of every chain's phits, the same for all.
  ScoreboardReport finish();

 private:
  void error(std::string line);
  const Topology& topology_;
  const TdmTables& t_;
  ScoreboardReport r_;
  // Per chain, what an ejection is checked against and when each period's phit arrived:
  // one record, so a row costs one cache line however the chains are numbered.
  struct Expected {
    int32_t dst = 0;
    int32_t due = 0;                  // the slot period 0's phit is due (injection + latency)
    int32_t arrived[kTdmPeriodsRun];  // per period: its slot, -1 none
  };
  std::vector<Expected> expected_;
};

// A whole trace, scored.
ScoreboardReport score_tdm(const Topology& topology, const TdmTables& tables, const std::vector<DemandPacket>& demand,
                           const std::vector<TdmEvent>& trace);

}  // namespace fixroute
