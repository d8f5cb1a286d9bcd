// The store-and-forward router's rules, written once for the C++ engines (ref and
// SystemC); rtl/ implements the same rules in Verilog and the traces prove they agree.
// docs/timing-model.md states them in prose.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tables.h"

namespace fixroute::router_rules {

// A port may send in step t (t = 1, 2, ...) only in its time slot.
inline bool may_send(const PortRule& rule, int64_t step) { return step % rule.send_period == rule.send_phase; }

// The queue entry that leaves next. FIFO: the head. Furthest-first: the packet with the
// most hops to go; among equals the one queued first (queues are kept in arrival order).
inline size_t pick_next(const std::vector<Packet>& queue, Discipline discipline) {
  if (discipline == Discipline::Fifo) return 0;
  size_t best = 0;
  for (size_t i = 1; i < queue.size(); ++i)
    if (queue[i].hops > queue[best].hops) best = i;
  return best;
}

// Within a step: (1) packets released in this step join their queues in table order;
// (2) every port in its slot sends the packet pick_next chooses; (3) arrivals, taken in
// in-port order, are handled by on_arrival.
enum class Arrival {
  Consumed,  // dest is this node
  Ends,      // a broadcast copy with nowhere (or no hops) left to go: received, not forwarded
  Forward,   // loses one hop and joins the queues of the in-port's forward_mask, in port order
  Stranded,  // a unicast packet this router cannot forward: a table error
};
// A packet's `hops` counts the arcs it still has to cross, the one it is crossing
// included: it arrives with one more to go than it has, so it may go on only if hops > 1.
inline Arrival on_arrival(const Packet& p, int node, uint32_t forward_mask) {
  if (p.dest == node) return Arrival::Consumed;
  const bool can_forward = forward_mask != 0 && p.hops > 1;
  if (p.dest == kBroadcastDest) return can_forward ? Arrival::Forward : Arrival::Ends;
  return can_forward ? Arrival::Forward : Arrival::Stranded;
}

}  // namespace fixroute::router_rules
