#include "ref_engine.h"

#include <fmt/format.h>

#include <algorithm>

#include "router_rules.h"
#include "topology.h"

namespace fixroute {

namespace {

// A run that has not drained after this many steps is reported as stuck.
constexpr int64_t kMaxSteps = int64_t{1} << 26;

struct RouterState {
  std::vector<std::vector<Packet>> queues;      // one per out-port, in arrival order
  size_t next_release = 0;                      // initial packets are in release order
};

}  // namespace

EngineResult run_ref_engine(const Topology& topology, const NetworkTables& tables, const EngineOptions&) {
  const int n = topology.num_nodes();
  const int ports = topology.num_ports();
  EngineResult result;
  std::vector<RouterState> routers(static_cast<size_t>(n));
  int64_t queued = 0;  // packets in all queues, plus those not yet released
  for (int i = 0; i < n; ++i) {
    RouterState& r = routers[static_cast<size_t>(i)];
    r.queues.resize(static_cast<size_t>(ports));
    queued += static_cast<int64_t>(tables.routers[static_cast<size_t>(i)].initial.size());
  }

  // wire[node * ports + port]: the packet the port sends in this step, if any.
  std::vector<std::optional<Packet>> wire(static_cast<size_t>(n) * static_cast<size_t>(ports));
  int64_t step = 0;
  while (queued > 0) {
    ++step;
    if (step > kMaxSteps) {
      result.failure = fmt::format("still {} packets queued after {} steps", queued, kMaxSteps);
      break;
    }
    // (1) releases
    for (int i = 0; i < n; ++i) {
      const std::vector<InitialPacket>& initial = tables.routers[static_cast<size_t>(i)].initial;
      RouterState& r = routers[static_cast<size_t>(i)];
      while (r.next_release < initial.size() && initial[r.next_release].release == step) {
        const InitialPacket& ip = initial[r.next_release++];
        std::vector<Packet>& q = r.queues[static_cast<size_t>(ip.out_port)];
        q.push_back(ip.packet);
        result.max_queue = std::max<int64_t>(result.max_queue, static_cast<int64_t>(q.size()));
      }
    }
    // (2) sends
    for (int i = 0; i < n; ++i) {
      const RouterTable& table = tables.routers[static_cast<size_t>(i)];
      RouterState& r = routers[static_cast<size_t>(i)];
      for (int p = 0; p < ports; ++p) {
        std::vector<Packet>& q = r.queues[static_cast<size_t>(p)];
        const PortRule& rule = table.ports[static_cast<size_t>(p)];
        if (q.empty() || !router_rules::may_send(rule, step)) continue;
        size_t pick = router_rules::pick_next(q, rule.discipline);
        const Packet pkt = q[pick];
        q.erase(q.begin() + static_cast<std::ptrdiff_t>(pick));
        --queued;
        wire[static_cast<size_t>(i) * ports + p] = pkt;
        result.trace.push_back({step, i, topology.neighbour(i, p), pkt.origin, pkt.dest, pkt.seq});
      }
    }
    // (3) arrivals, in in-port order
    for (int i = 0; i < n && result.failure.empty(); ++i) {
      const RouterTable& table = tables.routers[static_cast<size_t>(i)];
      RouterState& r = routers[static_cast<size_t>(i)];
      for (int q = 0; q < ports; ++q) {
        int from = topology.neighbour(i, q);
        if (from < 0) continue;
        std::optional<Packet>& w = wire[static_cast<size_t>(from) * ports + topology.reverse_port(i, q)];
        if (!w) continue;
        Packet pkt = *w;
        w.reset();
        auto push = [&](int out, const Packet& copy) {
          std::vector<Packet>& queue = r.queues[static_cast<size_t>(out)];
          queue.push_back(copy);
          ++queued;
          result.max_queue = std::max<int64_t>(result.max_queue, static_cast<int64_t>(queue.size()));
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
  sort_trace(result.trace);
  return result;
}

}  // namespace fixroute
