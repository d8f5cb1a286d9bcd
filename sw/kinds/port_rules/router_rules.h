// The store-and-forward router's rules, written once for the C++ engines (ref and
// SystemC); rtl/ implements the same rules in Verilog and the traces prove they agree.
// docs/timing-model.md states them in prose.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "sw/core/faults.h"
#include "sw/kinds/port_rules/tables.h"

namespace fixroute::router_rules {

// A run in which no packet crosses a link for this many steps while packets are still
// queued (and every release is done) ends as stuck: the same watchdog on every engine
// (docs/timing-model.md).
constexpr int64_t kWatchdogSteps = 64;
// Whether a run whose last crossing was in `last_crossing_step` is stuck at `step`, and the
// failure it then reports (`queues`: the queues that still hold packets).
inline bool watchdog_fires(int64_t step, int64_t last_crossing_step) { return step - last_crossing_step > kWatchdogSteps; }
std::string watchdog_failure(int64_t step, const std::string& queues);

// A port may send in step t (t = 1, 2, ...) only in its time slot (most ports have
// period 1: no division for them).
inline bool may_send(int send_period, int send_phase, int64_t step) {
  return send_period == 1 ? send_phase == 0 : step % send_period == send_phase;
}
inline bool may_send(const PortRule& rule, int64_t step) { return may_send(rule.send_period, rule.send_phase, step); }

// The queue entry that leaves next. FIFO: the head. Furthest-first: the packet with the
// most hops to go; among equals the one queued first (queues are kept in arrival order).
template <class Queue>
size_t pick_next(const Queue& queue, Discipline discipline) {
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

// The fault report of an Arrival::Stranded packet, the same from every C++ engine.
std::string stranded_message(int64_t step, int node, const Packet& pkt, int in_port);

// A copy of `p` with `hops` to go, made field by field: a copy of the whole packet changed
// in one field is assembled in memory, and the next 16-byte read of it waits for the two
// stores to land (a store-forwarding stall, most of an arrival's time in the ref engine).
inline Packet with_hops(const Packet& p, int hops) {
  Packet copy;
  copy.origin = p.origin;
  copy.dest = p.dest;
  copy.seq = p.seq;
  copy.hops = hops;
  return copy;
}

// `p` one hop on (`hops` one fewer), taken whole into a vector register and changed there:
// three instructions, and no copy assembled in memory (see with_hops).
inline Packet one_hop_on(const Packet& p) {
  typedef int Lanes __attribute__((vector_size(16)));
  static_assert(sizeof(Packet) == sizeof(Lanes) && offsetof(Packet, hops) == 12, "hops is the fourth lane");
  Lanes lanes;
  std::memcpy(&lanes, &p, sizeof lanes);
  lanes -= Lanes{0, 0, 0, 1};
  Packet onward;
  std::memcpy(static_cast<void*>(&onward), &lanes, sizeof onward);  // Packet is trivially copyable
  return onward;
}

// A packet arriving in `step` on `in_port`: push(out_port, packet) for every copy it
// leaves, in port order. Forwarded copies lose one hop; a broadcast copy also goes, with
// one hop left, to every out-port whose tap takes this in-port in this step, so the node
// across receives it and keeps it.
template <class Push>
Arrival handle_arrival(const Packet& pkt, int node, const std::vector<PortRule>& ports, int in_port, int64_t step,
                       Push&& push) {
  const uint32_t forward_mask = ports[static_cast<size_t>(in_port)].forward_mask;
  const Arrival what = on_arrival(pkt, node, forward_mask);
  if (what == Arrival::Consumed || what == Arrival::Stranded) return what;
  const uint32_t forward = what == Arrival::Forward ? forward_mask : 0;
  for (size_t out = 0; out < ports.size(); ++out) {
    if (forward & (1u << out)) {
      push(static_cast<int>(out), one_hop_on(pkt));
    } else if (pkt.dest == kBroadcastDest && ports[out].taps() && ports[out].tap_source(step) == in_port) {
      push(static_cast<int>(out), with_hops(pkt, 1));
    }
  }
  return what;
}

// handle_arrival at a router none of whose ports taps, from the in-port's forward mask
// alone (the ref engine's fast path: no per-port rules read, only the mask's set bits).
template <class Push>
Arrival handle_arrival_without_taps(const Packet& pkt, int node, uint32_t forward_mask, Push&& push) {
  const Arrival what = on_arrival(pkt, node, forward_mask);
  if (what != Arrival::Forward) return what;
  const Packet onward = one_hop_on(pkt);
  if ((forward_mask & (forward_mask - 1)) == 0) {  // one out-port (every unicast route): no loop
    push(__builtin_ctz(forward_mask), onward);
    return what;
  }
  for (uint32_t rest = forward_mask; rest != 0; rest &= rest - 1) push(__builtin_ctz(rest), onward);
  return what;
}

// An injected flip (docs/faults.md) in the tables the C++ routers read: in-port Q's
// forward-mask bit for out-port P of router N (the RTL flips the same bit by back-door).
inline void apply_flip(NetworkTables& tables, const Fault& flip) {
  tables.routers[static_cast<size_t>(flip.a)].ports[static_cast<size_t>(flip.in_port)].forward_mask ^= 1u << flip.out_port;
}

}  // namespace fixroute::router_rules
