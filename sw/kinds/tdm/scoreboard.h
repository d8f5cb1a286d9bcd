// The TDM scoreboard (docs/tdm.md): every phit the demand needs arrives at its destination
// in the slot its chain was scheduled for, in each of the kTdmPeriodsRun periods, and the
// period is measured from those arrivals.
#pragma once
#include <vector>

#include "sw/core/collectives.h"
#include "sw/core/router_kind.h"
#include "sw/kinds/tdm/engine.h"

namespace fixroute {

class Topology;
struct TdmTables;

// `demand`: one entry per phit a period (origin, dest). `steps` of the report is the period
// measured: the interval between successive arrivals of every chain's phits, the same for all.
ScoreboardReport score_tdm(const Topology& topology, const TdmTables& tables, const std::vector<DemandPacket>& demand,
                           const std::vector<TdmEvent>& trace);

}  // namespace fixroute
