#include "sw/kinds/tdm/scoreboard.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "sw/kinds/tdm/tables.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {

// Per flow: the measured latency (arrival slot less the slot its phit was injected in, the
// most over its chains and periods) and the worst case of data that waits for the flow's
// next slot: after gap slots without one, gap - 1 slots of waiting and then the latency.
template <class Arrived>
std::vector<FlowLatency> flow_latencies(const TdmTables& t, Arrived arrived) {
  // The chains grouped by flow (a counting sort), each flow's by injection slot.
  std::vector<size_t> first(t.flows.size() + 1, 0);
  for (const TdmChain& c : t.chains) ++first[static_cast<size_t>(c.flow) + 1];
  for (size_t f = 0; f < t.flows.size(); ++f) first[f + 1] += first[f];
  std::vector<size_t> grouped(t.chains.size()), fill(first.begin(), first.end() - 1);
  for (size_t c = 0; c < t.chains.size(); ++c) grouped[fill[static_cast<size_t>(t.chains[c].flow)]++] = c;
  std::vector<FlowLatency> out;
  out.reserve(t.flows.size());
  for (size_t f = 0; f < t.flows.size(); ++f) {
    const auto begin = grouped.begin() + static_cast<std::ptrdiff_t>(first[f]),
               end = grouped.begin() + static_cast<std::ptrdiff_t>(first[f + 1]);
    if (begin == end) continue;
    std::sort(begin, end, [&](size_t a, size_t b) { return t.chains[a].inject_slot < t.chains[b].inject_slot; });
    FlowLatency l{t.flows[f].src, t.flows[f].dst, t.flows[f].phits, 0, 0};
    for (auto i = begin; i != end; ++i) {
      const TdmChain& c = t.chains[*i];
      int64_t latency = 0;
      for (int k = 0; k < kTdmPeriodsRun; ++k)
        if (const int64_t at = arrived(*i, k); at >= 0)
          latency = std::max(latency, at - (c.inject_slot + int64_t{k} * t.period));
      const int previous = i != begin ? t.chains[*(i - 1)].inject_slot : t.chains[*(end - 1)].inject_slot - t.period;
      l.latency = std::max(l.latency, latency);
      l.worst_case = std::max(l.worst_case, c.inject_slot - previous - 1 + latency);
    }
    out.push_back(l);
  }
  return out;
}

// Ordered pairs (src * nodes + dst), sorted: one per phit a period.
std::vector<uint64_t> sorted_pairs(std::vector<uint64_t> pairs) {
  if (!std::is_sorted(pairs.begin(), pairs.end())) std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace

TdmScoreboard::TdmScoreboard(const Topology& topology, const TdmTables& t, const std::vector<DemandPacket>& demand)
    : topology_(topology), t_(t), expected_(t.chains.size()) {
  for (size_t c = 0; c < t.chains.size(); ++c) {
    Expected& x = expected_[c];
    x.dst = t.flow_of(static_cast<int>(c)).dst;
    x.due = static_cast<int32_t>(t.chains[c].inject_slot + t.chains[c].latency());
    std::fill(std::begin(x.arrived), std::end(x.arrived), -1);
  }
  // The demand against the flows the tables serve: phits a period per ordered pair.
  const uint64_t nodes = static_cast<uint64_t>(topology.num_nodes());
  std::vector<uint64_t> needed, served;
  needed.reserve(demand.size());
  for (const DemandPacket& d : demand) needed.push_back(static_cast<uint64_t>(d.origin) * nodes + static_cast<uint64_t>(d.dest));
  served.reserve(t.chains.size());
  for (const TdmChain& c : t.chains) {
    const TdmFlow& f = t.flows[static_cast<size_t>(c.flow)];
    served.push_back(static_cast<uint64_t>(f.src) * nodes + static_cast<uint64_t>(f.dst));
  }
  needed = sorted_pairs(std::move(needed));
  served = sorted_pairs(std::move(served));
  auto s = served.begin();
  for (auto n = needed.begin(); n != needed.end();) {
    const uint64_t pair = *n;
    const auto n_end = std::upper_bound(n, needed.end(), pair);
    s = std::lower_bound(s, served.end(), pair);
    const auto s_end = std::upper_bound(s, served.end(), pair);
    if (s_end - s < n_end - n)
      error(fmt::format("flow {} -> {} needs {} phit(s) a period; the tables schedule {}", pair / nodes, pair % nodes,
                        n_end - n, s_end - s));
    n = n_end;
    s = s_end;
  }
}

void TdmScoreboard::error(std::string line) {
  ++r_.error_count;
  if (r_.errors.size() < kMaxListedErrors) r_.errors.push_back(std::move(line));
}

void TdmScoreboard::step(int64_t, const std::vector<TdmEvent>& rows) {
  r_.crossings += static_cast<int64_t>(rows.size());
  const size_t chains = t_.chains.size();
  for (const TdmEvent& e : rows) {
    if (e.to != kTdmEjected) {
      if (e.to < 0 || e.to >= topology_.num_nodes() || !topology_.adjacent(e.node, e.to))
        error(fmt::format("slot {}: a phit crosses from {} to {}, which are not linked", e.slot, e.node, e.to));
      continue;
    }
    if (e.chain < 0 || static_cast<size_t>(e.chain) >= chains || e.period < 0 || e.period >= kTdmPeriodsRun) {
      error(fmt::format("slot {}: node {} ejects chain {} period {}, which was never injected", e.slot, e.node, e.chain,
                        e.period));
      continue;
    }
    Expected& x = expected_[static_cast<size_t>(e.chain)];
    const int64_t due = x.due + int64_t{e.period} * t_.period;
    int32_t& arrival = x.arrived[e.period];
    if (e.node != x.dst) {
      const TdmFlow& f = t_.flow_of(e.chain);
      error(fmt::format("slot {}: chain {} ({} -> {}) period {} leaves the network at node {}", e.slot, e.chain, f.src,
                        f.dst, e.period, e.node));
    } else if (e.slot != due) {
      const TdmFlow& f = t_.flow_of(e.chain);
      error(fmt::format("chain {} ({} -> {}) period {} arrives in slot {}, scheduled for slot {}", e.chain, f.src, f.dst,
                        e.period, e.slot, due));
    } else if (arrival >= 0) {
      error(fmt::format("chain {} period {} arrives twice", e.chain, e.period));
    } else {
      arrival = static_cast<int32_t>(e.slot);
      ++r_.deliveries;
    }
  }
}

ScoreboardReport TdmScoreboard::finish() {
  const size_t chains = t_.chains.size();
  r_.needed = static_cast<int64_t>(chains) * kTdmPeriodsRun;
  // The period, measured: successive arrivals of each chain, all the same interval.
  std::optional<int64_t> measured;
  for (size_t c = 0; c < chains; ++c)
    for (size_t k = 0; k < kTdmPeriodsRun; ++k) {
      const int64_t at = expected_[c].arrived[k];
      if (at < 0) {
        const TdmFlow& f = t_.flow_of(static_cast<int>(c));
        error(fmt::format("chain {} ({} -> {}) period {} never arrives", c, f.src, f.dst, k));
        continue;
      }
      if (k == 0 || expected_[c].arrived[k - 1] < 0) continue;
      const int64_t interval = at - expected_[c].arrived[k - 1];
      if (!measured) measured = interval;
      if (interval != *measured) error(fmt::format("chain {} repeats after {} slots, others after {}", c, interval, *measured));
    }
  r_.steps = measured.value_or(0);
  r_.flow_latency = flow_latencies(t_, [&](size_t c, int k) { return expected_[c].arrived[k]; });
  return std::move(r_);
}

ScoreboardReport score_tdm(const Topology& topology, const TdmTables& t, const std::vector<DemandPacket>& demand,
                           const std::vector<TdmEvent>& trace) {
  TdmScoreboard board(topology, t, demand);
  std::vector<TdmEvent> rows;
  for_each_step(trace, rows, [&](int64_t slot, const std::vector<TdmEvent>& r) { board.step(slot, r); });
  return board.finish();
}

}  // namespace fixroute
