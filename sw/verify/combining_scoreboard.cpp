#include "combining_scoreboard.h"

#include <fmt/format.h>

#include <algorithm>

#include "sw/tables/combining_tables.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {

class Sets {  // every node's set of origins, one bit each
 public:
  explicit Sets(int nodes) : nodes_(nodes), words_((static_cast<size_t>(nodes) + 63) / 64),
                             bits_(static_cast<size_t>(nodes) * words_, 0), count_(static_cast<size_t>(nodes), 1) {
    for (int n = 0; n < nodes; ++n) bits_[static_cast<size_t>(n) * words_ + static_cast<size_t>(n) / 64] |= 1ull << (n % 64);
  }
  int count(int n) const { return count_[static_cast<size_t>(n)]; }
  // Merges `from`'s set into `into`'s; returns the origins `into` learnt.
  int merge(const Sets& from_sets, int from, int into) {
    const uint64_t* src = &from_sets.bits_[static_cast<size_t>(from) * words_];
    uint64_t* dst = &bits_[static_cast<size_t>(into) * words_];
    int learnt = 0;
    for (size_t w = 0; w < words_; ++w) {
      learnt += __builtin_popcountll(src[w] & ~dst[w]);
      dst[w] |= src[w];
    }
    count_[static_cast<size_t>(into)] += learnt;
    return learnt;
  }
  int first_missing(int n) const {
    for (int o = 0; o < nodes_; ++o)
      if (!((bits_[static_cast<size_t>(n) * words_ + static_cast<size_t>(o) / 64] >> (o % 64)) & 1u)) return o;
    return -1;
  }

 private:
  int nodes_;
  size_t words_;
  std::vector<uint64_t> bits_;
  std::vector<int> count_;
};

}  // namespace

ScoreboardReport score_combining(const Topology& topology, const CombiningTables& tables,
                                 const std::vector<CombiningEvent>& trace) {
  check_combining_run_size(topology);
  ScoreboardReport r;
  auto error = [&](std::string e) {
    ++r.error_count;
    if (r.errors.size() < kMaxListedErrors) r.errors.push_back(std::move(e));
  };
  const int nodes = topology.num_nodes();
  const int ports = topology.num_ports();
  const PortModel& model = tables.port_model;
  r.needed = static_cast<int64_t>(nodes) * (nodes - 1);
  r.crossings = static_cast<int64_t>(trace.size());

  Sets sets(nodes);
  const int64_t last = trace.empty() ? 0 : trace.back().step;
  std::vector<int> sent(static_cast<size_t>(nodes)), received(static_cast<size_t>(nodes));
  std::vector<uint32_t> ports_used(static_cast<size_t>(nodes));
  size_t i = 0;
  for (int64_t step = 1; step <= last; ++step) {
    const size_t begin = i;
    std::fill(ports_used.begin(), ports_used.end(), 0u);
    std::fill(sent.begin(), sent.end(), 0);
    std::fill(received.begin(), received.end(), 0);
    for (; i < trace.size() && trace[i].step == step; ++i) {
      const CombiningEvent& e = trace[i];
      auto at = [&] { return fmt::format("round {}: router {} port {}", step, e.node, e.port); };
      if (i > begin && !(trace[i - 1] < e)) error(fmt::format("{}: rows out of order or repeated", at()));
      if (e.node < 0 || e.node >= nodes || e.port < 0 || e.port >= ports) {
        error(fmt::format("{}: no such router or port", at()));
        continue;
      }
      const int to = topology.neighbour(e.node, e.port);
      if (to < 0 || e.to != to) {
        error(fmt::format("{}: sent to {}, but the port leads to {}", at(), e.to, to));
        continue;
      }
      ports_used[static_cast<size_t>(e.node)] |= 1u << e.port;
      ++sent[static_cast<size_t>(e.node)];
      ++received[static_cast<size_t>(to)];
      if (e.carried != sets.count(e.node))
        error(fmt::format("{}: carried {} origins, but the router held {} when the round began", at(), e.carried,
                          sets.count(e.node)));
    }
    if (i < trace.size() && trace[i].step < step) {
      error(fmt::format("row {}: round {} out of order", i + 2, trace[i].step));
      break;
    }
    for (int n = 0; n < nodes; ++n) {
      const uint32_t wanted = tables.row(n, step), used = ports_used[static_cast<size_t>(n)];
      for (int p = 0; p < ports; ++p) {
        if (((used & ~wanted) >> p) & 1u) error(fmt::format("round {}: router {} sent on port {}, which its table does not name", step, n, p));
        if (((wanted & ~used) >> p) & 1u) error(fmt::format("round {}: router {} did not send on port {}, which its table names", step, n, p));
      }
      if (model.one_port && sent[static_cast<size_t>(n)] > 1)
        error(fmt::format("round {}: node {} sends {} packets (1-port)", step, n, sent[static_cast<size_t>(n)]));
      if (model.one_port && received[static_cast<size_t>(n)] > 1)
        error(fmt::format("round {}: node {} receives {} packets (1-port)", step, n, received[static_cast<size_t>(n)]));
    }
    if (model.half_duplex)
      for (size_t k = begin; k < i; ++k) {
        const CombiningEvent& e = trace[k];
        if (e.to < 0 || e.to >= nodes || e.to < e.node) continue;  // each link once, from its lower end
        const int back = topology.port_towards(e.to, e.node);
        if (back >= 0 && ((ports_used[static_cast<size_t>(e.to)] >> back) & 1u))
          error(fmt::format("round {}: the link between {} and {} is used in both directions (half-duplex)", step, e.node, e.to));
      }
    // The round's packets carry the sets as they stood when it began: merge into a copy.
    Sets before = sets;
    bool learnt = false;
    for (size_t k = begin; k < i; ++k) {
      const CombiningEvent& e = trace[k];
      if (e.node < 0 || e.node >= nodes || e.to < 0 || e.to >= nodes) continue;
      const int got = sets.merge(before, e.node, e.to);
      r.deliveries += got;
      learnt = learnt || got > 0;
    }
    if (learnt) r.steps = step;
  }
  for (int n = 0; n < nodes; ++n)
    if (sets.count(n) != nodes)
      error(fmt::format("node {} misses {} origin(s), the first {}", n, nodes - sets.count(n), sets.first_missing(n)));
  return r;
}

}  // namespace fixroute
