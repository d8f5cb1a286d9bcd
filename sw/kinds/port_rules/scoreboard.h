// The scoreboard: checks any engine's trace against the topology, the port model and
// the collective's demand (docs/timing-model.md). It sees only the trace, so every engine
// is judged by the same rules, and it reads it a step at a time, so a run's trace need
// never be held in memory.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sw/core/router_kind.h"
#include "sw/topology/port_model.h"
#include "sw/kinds/port_rules/tables.h"
#include "sw/engines/trace.h"
#include "sw/kinds/port_rules/link_step.h"

namespace fixroute {

class Topology;

// `demand`: the collective's packets (collectives.h). Checks, step by step: every arc
// exists and carries at most one packet; half-duplex links carry one direction; 1-port
// nodes send and receive at most one packet; a packet leaves only a node that holds it
// since an earlier step; a unicast packet is not moved on from its destination; no node
// receives a packet twice; and, at the end, every needed reception happened.
ScoreboardReport score_trace(const Topology& topology, const PortModel& model, const std::vector<DemandPacket>& demand,
                             const std::vector<TraceEvent>& trace);

// Bytes the online scoreboard holds for `demand` on `nodes` nodes of `ports` ports: a bit
// per node per broadcast packet (its held sets, at most 4 GiB: more is refused), a record
// per packet, a few words per arc and node.
int64_t packet_scoreboard_held_bytes(int64_t nodes, const DemandSize& demand);
int64_t packet_scoreboard_bytes(int64_t nodes, int64_t ports, const DemandSize& demand);

// The same checks online, a step at a time (an engine streams into it, or replay_steps),
// from rows or from the ref engine's links (the same rules, compiled for each). Memory: a
// bit per node for each broadcast packet, a few words per unicast packet and per arc;
// nothing per crossing.
// On all-port full-duplex routers it also checks a step of links in ranges on the engine's
// threads (ranged(): the same verdict, the same errors in the same order).
class PacketScoreboard : public PacketSink, public LinkStepSink, public RangedLinkCheck {
 public:
  PacketScoreboard(const Topology& topology, const PortModel& model, std::vector<DemandPacket> demand);
  ~PacketScoreboard() override;
  void step(int64_t step, const std::vector<TraceEvent>& events) override;
  void links(int64_t step, const LinkStep& crossings) override;
  RangedLinkCheck* ranged() override;
  void begin(int64_t step, const LinkStep& crossings, int parts) override;
  void senders(int part, size_t first_link, size_t last_link, int first_node, int last_node) override;
  void middle() override;
  void receivers(int part, int first_node, int last_node) override;
  void end() override;
  ScoreboardReport finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace fixroute
