#include "sw/kinds/tdm/scoreboard.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "sw/kinds/tdm/tables.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {

void add_error(ScoreboardReport& r, std::string line) {
  ++r.error_count;
  if (r.errors.size() < kMaxListedErrors) r.errors.push_back(std::move(line));
}

// Per flow: the measured latency (arrival slot less the slot its phit was injected in, the
// most over its chains and periods) and the worst case of data that waits for the flow's
// next slot: after gap slots without one, gap - 1 slots of waiting and then the latency.
std::vector<FlowLatency> flow_latencies(const TdmTables& t, const std::vector<std::vector<int64_t>>& arrived) {
  std::vector<std::vector<size_t>> chains_of(t.flows.size());
  for (size_t c = 0; c < t.chains.size(); ++c) chains_of[static_cast<size_t>(t.chains[c].flow)].push_back(c);
  std::vector<FlowLatency> out;
  out.reserve(t.flows.size());
  for (size_t f = 0; f < t.flows.size(); ++f) {
    std::vector<size_t>& chains = chains_of[f];
    if (chains.empty()) continue;
    std::sort(chains.begin(), chains.end(),
              [&](size_t a, size_t b) { return t.chains[a].inject_slot < t.chains[b].inject_slot; });
    FlowLatency l{t.flows[f].src, t.flows[f].dst, t.flows[f].phits, 0, 0};
    for (size_t i = 0; i < chains.size(); ++i) {
      const TdmChain& c = t.chains[chains[i]];
      int64_t latency = 0;
      for (int k = 0; k < kTdmPeriodsRun; ++k)
        if (const int64_t at = arrived[chains[i]][static_cast<size_t>(k)]; at >= 0)
          latency = std::max(latency, at - (c.inject_slot + int64_t{k} * t.period));
      const int previous = i ? t.chains[chains[i - 1]].inject_slot : t.chains[chains.back()].inject_slot - t.period;
      l.latency = std::max(l.latency, latency);
      l.worst_case = std::max(l.worst_case, c.inject_slot - previous - 1 + latency);
    }
    out.push_back(l);
  }
  return out;
}

}  // namespace

ScoreboardReport score_tdm(const Topology& topology, const TdmTables& t, const std::vector<DemandPacket>& demand,
                           const std::vector<TdmEvent>& trace) {
  ScoreboardReport r;
  r.crossings = static_cast<int64_t>(trace.size());
  // The demand against the flows the tables serve: phits a period per ordered pair.
  std::map<std::pair<int, int>, int64_t> needed, served;
  for (const DemandPacket& d : demand) ++needed[{d.origin, d.dest}];
  for (const TdmChain& c : t.chains) {
    const TdmFlow& f = t.flows[static_cast<size_t>(c.flow)];
    ++served[{f.src, f.dst}];
  }
  for (const auto& [pair, phits] : needed) {
    const auto s = served.find(pair);
    const int64_t have = s == served.end() ? 0 : s->second;
    if (have < phits)
      add_error(r, fmt::format("flow {} -> {} needs {} phit(s) a period; the tables schedule {}", pair.first,
                               pair.second, phits, have));
  }
  // Every chain's arrivals, period by period.
  const size_t chains = t.chains.size();
  std::vector<std::vector<int64_t>> arrived(chains, std::vector<int64_t>(kTdmPeriodsRun, -1));
  for (const TdmEvent& e : trace) {
    if (e.to != kTdmEjected) {
      if (e.to < 0 || e.to >= topology.num_nodes() || !topology.adjacent(e.node, e.to))
        add_error(r, fmt::format("slot {}: a phit crosses from {} to {}, which are not linked", e.slot, e.node, e.to));
      continue;
    }
    if (e.chain < 0 || static_cast<size_t>(e.chain) >= chains || e.period < 0 || e.period >= kTdmPeriodsRun) {
      add_error(r, fmt::format("slot {}: node {} ejects chain {} period {}, which was never injected", e.slot, e.node,
                               e.chain, e.period));
      continue;
    }
    const TdmChain& c = t.chains[static_cast<size_t>(e.chain)];
    const TdmFlow& f = t.flows[static_cast<size_t>(c.flow)];
    const int64_t due = c.inject_slot + int64_t{e.period} * t.period + c.latency();
    if (e.node != f.dst) {
      add_error(r, fmt::format("slot {}: chain {} ({} -> {}) period {} leaves the network at node {}", e.slot, e.chain,
                               f.src, f.dst, e.period, e.node));
    } else if (e.slot != due) {
      add_error(r, fmt::format("chain {} ({} -> {}) period {} arrives in slot {}, scheduled for slot {}", e.chain, f.src,
                               f.dst, e.period, e.slot, due));
    } else if (arrived[static_cast<size_t>(e.chain)][static_cast<size_t>(e.period)] >= 0) {
      add_error(r, fmt::format("chain {} period {} arrives twice", e.chain, e.period));
    } else {
      arrived[static_cast<size_t>(e.chain)][static_cast<size_t>(e.period)] = e.slot;
      ++r.deliveries;
    }
  }
  r.needed = static_cast<int64_t>(chains) * kTdmPeriodsRun;
  // The period, measured: successive arrivals of each chain, all the same interval.
  std::optional<int64_t> measured;
  for (size_t c = 0; c < chains; ++c)
    for (int k = 0; k < kTdmPeriodsRun; ++k) {
      if (arrived[c][static_cast<size_t>(k)] < 0) {
        const TdmFlow& f = t.flow_of(static_cast<int>(c));
        add_error(r, fmt::format("chain {} ({} -> {}) period {} never arrives", c, f.src, f.dst, k));
        continue;
      }
      if (k == 0 || arrived[c][static_cast<size_t>(k - 1)] < 0) continue;
      const int64_t interval = arrived[c][static_cast<size_t>(k)] - arrived[c][static_cast<size_t>(k - 1)];
      if (!measured) measured = interval;
      if (interval != *measured)
        add_error(r, fmt::format("chain {} repeats after {} slots, others after {}", c, interval, *measured));
    }
  r.steps = measured.value_or(0);
  r.flow_latency = flow_latencies(t, arrived);
  return r;
}

}  // namespace fixroute
