#include "ref_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "port_queue.h"
#include "router_rules.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {

// A run that has not drained after this many steps is reported as stuck.
constexpr int64_t kMaxSteps = int64_t{1} << 26;

// Buckets while their count (furthest-first ports x hop counts) stays under this.
constexpr int64_t kMaxBuckets = int64_t{1} << 24;

}  // namespace

EngineResult run_ref_engine(const Topology& topology, const NetworkTables& tables, const EngineOptions& options) {
  const int n = topology.num_nodes();
  const int ports = topology.num_ports();
  EngineResult result;
  // queues[node * ports + port]; next_release[node]: initial packets are in release order
  std::vector<PortQueue> queues;
  queues.reserve(static_cast<size_t>(n) * static_cast<size_t>(ports));
  std::vector<size_t> next_release(static_cast<size_t>(n), 0);
  int64_t queued = 0;  // packets in all queues, plus those not yet released
  int max_hops = 0;
  int64_t last_release = 0;  // no router releases anything after this step
  int64_t furthest_first_ports = 0;
  for (const RouterTable& r : tables.routers) {
    for (const InitialPacket& ip : r.initial) {
      max_hops = std::max(max_hops, ip.packet.hops);
      last_release = std::max<int64_t>(last_release, ip.release);
    }
    for (const PortRule& rule : r.ports) furthest_first_ports += rule.discipline == Discipline::FurthestFirst ? 1 : 0;
  }
  const PortQueue::Kind furthest_first = furthest_first_ports * (max_hops + 1) <= kMaxBuckets ? PortQueue::Kind::Buckets
                                                                                             : PortQueue::Kind::Heap;
  for (int i = 0; i < n; ++i) {
    for (int p = 0; p < ports; ++p) {
      const bool fifo = tables.routers[static_cast<size_t>(i)].ports[static_cast<size_t>(p)].discipline == Discipline::Fifo;
      queues.emplace_back(fifo ? PortQueue::Kind::Fifo : furthest_first, max_hops);
    }
    queued += static_cast<int64_t>(tables.routers[static_cast<size_t>(i)].initial.size());
  }
  std::vector<int> send_order;  // per router its ports by neighbour id (unconnected first)
  send_order.reserve(static_cast<size_t>(n) * static_cast<size_t>(ports));
  for (int i = 0; i < n; ++i) {
    const size_t from = send_order.size();
    for (int p = 0; p < ports; ++p) send_order.push_back(p);
    std::stable_sort(send_order.begin() + static_cast<std::ptrdiff_t>(from), send_order.end(),
                     [&](int a, int b) { return topology.neighbour(i, a) < topology.neighbour(i, b); });
  }
  auto queue = [&](int node, int port) -> PortQueue& {
    return queues[static_cast<size_t>(node) * static_cast<size_t>(ports) + static_cast<size_t>(port)];
  };

  // wire[node * ports + port]: the packet the port sends in this step, if any.
  std::vector<std::optional<Packet>> wire(static_cast<size_t>(n) * static_cast<size_t>(ports));
  PacketSink* sink = dynamic_cast<PacketSink*>(options.sink);
  const bool keep = options.keep_trace || !sink;
  result.streamed = sink != nullptr;
  std::vector<TraceEvent> crossings;  // this step's
  int64_t step = 0;
  while (queued > 0) {
    ++step;
    if (step > kMaxSteps) {
      result.failure = fmt::format("still {} packets queued after {} steps", queued, kMaxSteps);
      break;
    }
    // (1) releases
    for (int i = 0; i < n && step <= last_release; ++i) {
      const std::vector<InitialPacket>& initial = tables.routers[static_cast<size_t>(i)].initial;
      size_t& next = next_release[static_cast<size_t>(i)];
      while (next < initial.size() && initial[next].release == step) {
        const InitialPacket& ip = initial[next++];
        PortQueue& q = queue(i, ip.out_port);
        q.push(ip.packet);
        result.max_queue = std::max<int64_t>(result.max_queue, static_cast<int64_t>(q.size()));
      }
    }
    // (2) sends, each router's ports taken in the order of the neighbours they lead to, so
    // the step's crossings come out in trace order (by from, then to)
    crossings.clear();
    for (int i = 0; i < n; ++i) {
      const RouterTable& table = tables.routers[static_cast<size_t>(i)];
      for (size_t k = 0; k < static_cast<size_t>(ports); ++k) {
        const int p = send_order[static_cast<size_t>(i) * static_cast<size_t>(ports) + k];
        PortQueue& q = queue(i, p);
        if (q.empty() || !router_rules::may_send(table.ports[static_cast<size_t>(p)], step)) continue;
        const Packet pkt = q.pop();
        --queued;
        wire[static_cast<size_t>(i) * ports + p] = pkt;
        TraceEvent& crossing = crossings.emplace_back();  // filled in place: a temporary costs a store-forwarding stall
        crossing.step = step;
        crossing.from = i;
        crossing.to = topology.neighbour(i, p);
        crossing.origin = pkt.origin;
        crossing.dest = pkt.dest;
        crossing.seq = pkt.seq;
      }
    }
    if (sink) sink->step(step, crossings);
    if (keep) result.trace.insert(result.trace.end(), crossings.begin(), crossings.end());
    // (3) arrivals, in in-port order
    for (int i = 0; i < n && result.failure.empty(); ++i) {
      const RouterTable& table = tables.routers[static_cast<size_t>(i)];
      for (int q = 0; q < ports; ++q) {
        int from = topology.neighbour(i, q);
        if (from < 0) continue;
        std::optional<Packet>& w = wire[static_cast<size_t>(from) * ports + topology.reverse_port(i, q)];
        if (!w) continue;
        Packet pkt = *w;
        w.reset();
        auto push = [&](int out, const Packet& copy) {
          PortQueue& to = queue(i, out);
          to.push(copy);
          ++queued;
          result.max_queue = std::max<int64_t>(result.max_queue, static_cast<int64_t>(to.size()));
        };
        if (router_rules::handle_arrival(pkt, i, table.ports, q, step, push) ==
            router_rules::Arrival::Stranded) {
          result.failure = router_rules::stranded_message(step, i, pkt, q);
          break;
        }
      }
    }
    if (!result.failure.empty()) break;
  }
  result.steps_simulated = step;
  return result;  // sorted: steps in order, each sorted
}

}  // namespace fixroute
