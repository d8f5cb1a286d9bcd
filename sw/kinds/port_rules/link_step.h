// A step of the ref engine's port-rule routers as its links hold it (LinkStep), and the
// sinks that take a step so (the scoreboard): docs/trace-format.md's rows are made from
// the links only where a trace is written or kept.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sw/engines/trace.h"
#include "sw/kinds/port_rules/tables.h"

namespace fixroute {

class Topology;

// One crossing appended to a step's rows, written field by field where it lies: a row built
// beside the vector and copied in with 16-byte moves reads back fields just stored one by
// one, a store-forwarding stall a crossing (bench/results.md, "The crossings written where
// they lie").
inline void append_crossing(std::vector<TraceEvent>& rows, int64_t step, int from, int to, const Packet& p) {
  TraceEvent& row = rows.emplace_back();
  row.step = step;
  row.from = from;
  row.to = to;
  row.origin = p.origin;
  row.dest = p.dest;
  row.seq = p.seq;
}

// One step's crossings as the ref engine's links hold them: node i's out-port p is link
// i x ports + p, and where used[link] the packet packets[link] crossed it in the step. A
// sink that takes a step so (LinkStepSink: the scoreboard) reads the arc as the link -- no
// row written and read back per crossing, no arc looked up from (from, to) -- and rows are
// made from the links only where a trace is written or kept (append_link_rows).
struct LinkStep {
  const Packet* packets = nullptr;
  const uint8_t* used = nullptr;
  size_t links = 0;
};
// A sink that checks a step's links in parts on the engine's own threads, in place of
// LinkStepSink::links (the scoreboard on all-port full-duplex routers): begin() before
// the sends; senders(part, ...) on every part's thread after its sends, for its links and
// with its nodes; middle() once all are done; receivers(part, ...) on every part's thread
// before its arrivals clear the wires, for its nodes (the same as its senders were given),
// which start at a multiple of 64; end(). Only begin(), middle() and end() touch what the
// parts share.
struct RangedLinkCheck {
  virtual ~RangedLinkCheck() = default;
  virtual void begin(int64_t step, const LinkStep& crossings, int parts) = 0;
  virtual void senders(int part, size_t first_link, size_t last_link, int first_node, int last_node) = 0;
  virtual void middle() = 0;
  virtual void receivers(int part, int first_node, int last_node) = 0;
  virtual void end() = 0;
};
// Where the ref engine hands each step as links rather than rows: a PacketSink that is also
// one (the online scoreboard, or the pipeline that feeds it on a second thread). Steps in
// increasing order; the step's arrays are the engine's, valid only during the call.
struct LinkStepSink {
  virtual ~LinkStepSink() = default;
  virtual void links(int64_t step, const LinkStep& crossings) = 0;
  // Whether this sink takes links now (a pipeline does where the sink it feeds does).
  virtual bool takes_links() const { return true; }
  // Where the step can be checked in parts on the engine's threads: the check (else null).
  virtual RangedLinkCheck* ranged() { return nullptr; }
};
// The rows of a step given as links, in trace order (by from, then to): node by node, each
// node's ports in `order` (Topology::ports_by_neighbour()).
void append_link_rows(const Topology& topology, const std::vector<uint32_t>& order, int64_t step,
                      const LinkStep& crossings, std::vector<TraceEvent>& rows);

}  // namespace fixroute
