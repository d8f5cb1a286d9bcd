// The scoreboard: checks any engine's trace against the topology, the port model and
// the collective's demand (docs/timing-model.md). It sees only the
// trace, so every engine is judged by the same rules.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "../core/router_kind.h"
#include "../port_model.h"
#include "../tables.h"
#include "../trace.h"

namespace fixroute {

class Topology;

// `demand`: the collective's packets (collectives.h). Checks, step by step: every arc
// exists and carries at most one packet; half-duplex links carry one direction; 1-port
// nodes send and receive at most one packet; a packet leaves only a node that holds it
// since an earlier step; a unicast packet is not moved on from its destination; no node
// receives a packet twice; and, at the end, every needed reception happened.
ScoreboardReport score_trace(const Topology& topology, const PortModel& model, const std::vector<Packet>& demand,
                             const std::vector<TraceEvent>& trace);

}  // namespace fixroute
