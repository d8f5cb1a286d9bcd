// The scoreboard: checks any engine's trace against the topology, the port model and
// the collective's demand (DESIGN.md "Three engines, one trace"). It sees only the
// trace, so every engine is judged by the same rules.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "../sw/port_model.h"
#include "../sw/tables.h"
#include "../sw/trace.h"

namespace fixroute {

class Topology;

struct ScoreboardReport {
  int64_t steps = 0;         // last step in which a packet reached a node that still needed it
  int64_t needed = 0;        // (packet, node) receptions the collective demands
  int64_t deliveries = 0;    // of those, how many happened
  int64_t crossings = 0;     // trace rows
  int64_t error_count = 0;
  std::vector<std::string> errors;  // the first kMaxListedErrors, one line each
  bool clean() const { return error_count == 0; }
};

constexpr size_t kMaxListedErrors = 20;

// `demand`: the collective's packets (collectives.h). Checks, step by step: every arc
// exists and carries at most one packet; half-duplex links carry one direction; 1-port
// nodes send and receive at most one packet; a packet leaves only a node that holds it
// since an earlier step; a unicast packet is not moved on from its destination; no node
// receives a packet twice; and, at the end, every needed reception happened.
ScoreboardReport score_trace(const Topology& topology, const PortModel& model, const std::vector<Packet>& demand,
                             const std::vector<TraceEvent>& trace);

}  // namespace fixroute
