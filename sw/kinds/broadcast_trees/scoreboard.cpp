#include "sw/kinds/broadcast_trees/scoreboard.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "sw/kinds/broadcast_trees/tables.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {
constexpr int32_t kNever = -1;
}

int64_t broadcast_tree_scoreboard_bytes(int64_t nodes) { return 2 * nodes * nodes * static_cast<int64_t>(sizeof(int32_t)); }

ScoreboardReport score_broadcast_trees(const Topology& topology, const BroadcastTreeTables& tables,
                                       const std::vector<TreeEvent>& trace) {
  ScoreboardReport r;
  auto error = [&](std::string e) {
    ++r.error_count;
    if (r.errors.size() < kMaxListedErrors) r.errors.push_back(std::move(e));
  };
  const int nodes = topology.num_nodes(), ports = topology.num_ports();
  const PortModel& model = tables.port_model;
  r.needed = static_cast<int64_t>(nodes) * (nodes - 1);
  r.crossings = static_cast<int64_t>(trace.size());

  // arrived[node * nodes + origin]: the round the node received the origin (0: its own).
  std::vector<int32_t> arrived(static_cast<size_t>(nodes) * static_cast<size_t>(nodes), kNever);
  for (int n = 0; n < nodes; ++n) arrived[static_cast<size_t>(n) * static_cast<size_t>(nodes) + static_cast<size_t>(n)] = 0;
  auto arrival = [&](int n, int o) -> int32_t& {
    return arrived[static_cast<size_t>(n) * static_cast<size_t>(nodes) + static_cast<size_t>(o)];
  };
  // last_send[node * nodes + origin]: the last round the node sent the origin.
  std::vector<int32_t> last_send(arrived.size(), kNever);
  std::vector<int> sent(static_cast<size_t>(nodes)), received(static_cast<size_t>(nodes));
  std::vector<int> partner_of(static_cast<size_t>(nodes), -1);  // 1-port: the neighbour of the round
  std::vector<const TreeEvent*> on_port(static_cast<size_t>(nodes) * static_cast<size_t>(ports));
  size_t i = 0;
  for (int64_t step = 1; step <= tables.rounds; ++step) {
    const size_t begin = i;
    std::fill(on_port.begin(), on_port.end(), nullptr);
    std::fill(sent.begin(), sent.end(), 0);
    std::fill(received.begin(), received.end(), 0);
    std::fill(partner_of.begin(), partner_of.end(), -1);
    for (; i < trace.size() && trace[i].step == step; ++i) {
      const TreeEvent& e = trace[i];
      auto at = [&] { return fmt::format("round {}: router {} port {}", step, e.node, e.port); };
      if (i > begin && !(trace[i - 1] < e)) error(fmt::format("{}: rows out of order or repeated", at()));
      if (e.node < 0 || e.node >= nodes || e.port < 0 || e.port >= ports || e.origin < 0 || e.origin >= nodes) {
        error(fmt::format("{}: no such router, port or origin", at()));
        continue;
      }
      const int to = topology.neighbour(e.node, e.port);
      if (to < 0 || e.to != to) {
        error(fmt::format("{}: sent to {}, but the port leads to {}", at(), e.to, to));
        continue;
      }
      on_port[static_cast<size_t>(e.node) * static_cast<size_t>(ports) + static_cast<size_t>(e.port)] = &e;
      ++sent[static_cast<size_t>(e.node)];
      ++received[static_cast<size_t>(to)];
      // 1-port: a node talks to one neighbour a round (both ways full-duplex) -- the rounds'
      // links a matching, the model of the matching bound the run reports.
      if (model.one_port)
        for (const auto& [node, other] : {std::pair<int, int>{e.node, to}, std::pair<int, int>{to, e.node}}) {
          int& partner = partner_of[static_cast<size_t>(node)];
          if (partner < 0) partner = other;
          else if (partner != other)
            error(fmt::format("round {}: node {} talks to {} and {}, one neighbour a round at most (1-port)", step, node,
                              partner, other));
        }
    }
    if (i < trace.size() && trace[i].step <= step) {
      error(fmt::format("row {}: round {} out of order", i + 2, trace[i].step));
      break;
    }
    for (int n = 0; n < nodes; ++n) {
      for (int p = 0; p < ports; ++p) {
        const TreeEvent* e = on_port[static_cast<size_t>(n) * static_cast<size_t>(ports) + static_cast<size_t>(p)];
        const int32_t wanted = tables.at(n, step, p);
        const bool held = wanted != kNoSend && arrival(n, wanted) != kNever && arrival(n, wanted) < step;
        if (wanted != kNoSend && !held)
          error(fmt::format("round {}: router {} is to send origin {} on port {}, but does not hold it (the tables' error)",
                            step, n, wanted, p));
        if (e && (!held || e->origin != wanted))
          error(fmt::format("round {}: router {} sent origin {} on port {}; its table says {}", step, n, e->origin, p,
                            wanted == kNoSend ? std::string("nothing") : std::to_string(wanted)));
        if (!e && held) error(fmt::format("round {}: router {} did not send origin {} on port {}", step, n, wanted, p));
      }
      if (model.one_port && sent[static_cast<size_t>(n)] > 1)
        error(fmt::format("round {}: node {} sends {} packets (1-port)", step, n, sent[static_cast<size_t>(n)]));
      if (model.one_port && received[static_cast<size_t>(n)] > 1)
        error(fmt::format("round {}: node {} receives {} packets (1-port)", step, n, received[static_cast<size_t>(n)]));
    }
    if (model.half_duplex)
      for (size_t k = begin; k < i; ++k) {
        const TreeEvent& e = trace[k];
        if (e.to < e.node) continue;  // each link once, from its lower end
        const int back = topology.port_towards(e.to, e.node);
        if (back >= 0 && on_port[static_cast<size_t>(e.to) * static_cast<size_t>(ports) + static_cast<size_t>(back)])
          error(fmt::format("round {}: the link between {} and {} is used in both directions (half-duplex)", step, e.node, e.to));
      }
    // Stored once every router has sent: what arrives now is sent on from the next round.
    for (size_t k = begin; k < i; ++k) {
      const TreeEvent& e = trace[k];
      if (e.node < 0 || e.node >= nodes || e.to < 0 || e.to >= nodes || e.origin < 0 || e.origin >= nodes) continue;
      last_send[static_cast<size_t>(e.node) * static_cast<size_t>(nodes) + static_cast<size_t>(e.origin)] = static_cast<int32_t>(step);
      int32_t& when = arrival(e.to, e.origin);
      if (when == kNever) {
        when = static_cast<int32_t>(step);
        ++r.deliveries;
        r.steps = step;
      }
    }
  }
  if (i < trace.size()) error(fmt::format("row {}: round {} is beyond the tables' {} rounds", i + 2, trace[i].step, tables.rounds));
  // Buffers: a packet that arrived in round a and leaves last in round s > a + 1 waits in
  // rounds a + 1 .. s - 1.
  std::vector<int> waiting(static_cast<size_t>(tables.rounds) + 2);
  int64_t buffers = 0;
  for (int n = 0; n < nodes; ++n) {
    std::fill(waiting.begin(), waiting.end(), 0);
    for (int o = 0; o < nodes; ++o) {
      const int64_t a = arrival(n, o), s = last_send[static_cast<size_t>(n) * static_cast<size_t>(nodes) + static_cast<size_t>(o)];
      if (o == n || a == kNever || s <= a + 1) continue;
      ++waiting[static_cast<size_t>(a + 1)];
      --waiting[static_cast<size_t>(s)];
    }
    int64_t now = 0;
    for (int v : waiting) buffers = std::max(buffers, now += v);
  }
  r.buffers = buffers;
  for (int n = 0; n < nodes; ++n) {
    int missing = 0, first = -1;
    for (int o = 0; o < nodes; ++o)
      if (arrival(n, o) == kNever) {
        if (first < 0) first = o;
        ++missing;
      }
    if (missing) error(fmt::format("node {} misses {} origin(s), the first {}", n, missing, first));
  }
  return r;
}

}  // namespace fixroute
