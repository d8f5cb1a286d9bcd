// Total exchange on a ring (total-exchange paper, section 4): every packet takes a
// shortest path; clockwise packets leave on port 0, counterclockwise ones on port 1, and
// transit packets keep their direction. Queues are FIFO ("message-shift") with the
// initial queue in furthest-first order.
#include "sw/core/formulas.h"
#include "sw/schedulers/common.h"
#include "sw/schedulers/port_rules.h"

namespace fixroute {
namespace {

// Queues node i's packets: `cw` of them clockwise (distances 1..cw) and `ccw`
// counterclockwise, each direction furthest first.
void queue_split(NetworkTables& t, int n, int i, int cw, int ccw) {
  for (int k = cw; k >= 1; --k) scheduling::add_unicast(t, i, (i + k) % n, 0, k);
  for (int k = ccw; k >= 1; --k) scheduling::add_unicast(t, i, (i - k + n) % n, 1, k);
}

NetworkTables ring_tables(const Topology& topo, const char* name) {
  NetworkTables t = scheduling::empty_tables(topo, "total-exchange", name, Discipline::Fifo);
  scheduling::forward_straight(t, topo);
  return t;
}

// Odd n: (n-1)/2 packets each way; any node-invariant discipline is optimal (Theorem 2).
// Even n: the modified message-shift of section 4.2: even nodes send n/2 packets
// clockwise and n/2-1 counterclockwise, odd nodes the reverse (Theorem 3).
NetworkTables message_shift(const Topology& topo) {
  NetworkTables t = ring_tables(topo, "message-shift");
  const int n = topo.num_nodes();
  for (int i = 0; i < n; ++i) {
    if (n % 2 == 1) {
      queue_split(t, n, i, (n - 1) / 2, (n - 1) / 2);
    } else if (i % 2 == 0) {
      queue_split(t, n, i, n / 2, n / 2 - 1);
    } else {
      queue_split(t, n, i, n / 2 - 1, n / 2);
    }
  }
  return t;
}

// The unmodified message-shift on an even ring: every node sends its antipodal packet
// clockwise, which section 4.2 shows is suboptimal by O(n) steps.
NetworkTables plain_shift(const Topology& topo) {
  NetworkTables t = ring_tables(topo, "plain-shift");
  const int n = topo.num_nodes();
  for (int i = 0; i < n; ++i) queue_split(t, n, i, n / 2, n / 2 - 1);
  return t;
}

std::string ring_only(const Topology& t) { return t.kind() == TopologyKind::Ring ? "" : "needs a ring:N topology"; }

const AlgorithmRegistrar message_shift_registrar([] {
  Algorithm a;
  a.name = "message-shift";
  a.collective = "total-exchange";
  a.router_kind = kPortRulesKind;
  a.summary = "FIFO rotation; on even rings the modified split of section 4.2 (total-exchange paper, section 4)";
  a.unsupported = on_topology(ring_only);
  a.is_default = [](const Problem&) { return true; };
  a.formula = [](const Problem& p) -> std::optional<int64_t> {
    const int64_t full = formulas::total_exchange_ring(p.topology.num_nodes());
    return p.port_model.is_default() ? full : formulas::time_sliced(full);
  };
  a.build = port_rules_build(message_shift);
  a.sweep = [](int max_size) {
    std::vector<SweepCase> out;
    for (int n = 3; n <= max_size; ++n) out.push_back({"ring:" + std::to_string(n), {}, ""});
    for (int n : {7, 8, 10, 33}) {
      if (n > max_size) continue;
      out.push_back({"ring:" + std::to_string(n), PortModel{false, true}, ""});
      out.push_back({"ring:" + std::to_string(n), PortModel{true, false}, ""});
    }
    return out;
  };
  return a;
}());

const AlgorithmRegistrar plain_shift_registrar([] {
  Algorithm a;
  a.name = "plain-shift";
  a.collective = "total-exchange";
  a.router_kind = kPortRulesKind;
  a.summary = "message-shift with every node sending n/2 packets clockwise, the O(n)-excess baseline of section 4.2";
  a.unsupported = on_topology([](const Topology& t) {
    std::string why = ring_only(t);
    if (why.empty() && t.num_nodes() % 2 == 1) why = "needs an even ring (on odd rings it is message-shift)";
    return why;
  });
  a.formula = [](const Problem&) { return std::optional<int64_t>{}; };
  a.build = port_rules_build(plain_shift);
  a.sweep = [](int max_size) {
    std::vector<SweepCase> out;
    for (int n = 4; n <= max_size; n += 2) out.push_back({"ring:" + std::to_string(n), {}, ""});
    return out;
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
