#include "scoreboard.h"

#include <fmt/format.h>

#include <unordered_map>
#include <unordered_set>

#include "../topology.h"

namespace fixroute {

namespace {

uint64_t packet_key(int origin, int dest, int seq) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(origin)) << 42) |
         (static_cast<uint64_t>(static_cast<uint32_t>(dest + 1)) << 21) | static_cast<uint64_t>(static_cast<uint32_t>(seq));
}

class Checker {
 public:
  Checker(const Topology& t, const PortModel& m, const std::vector<Packet>& demand) : topo_(t), model_(m), demand_(demand) {
    const size_t n = static_cast<size_t>(t.num_nodes());
    index_.reserve(demand.size());
    state_.resize(demand.size());
    for (size_t i = 0; i < demand.size(); ++i) {
      const Packet& p = demand[i];
      index_[packet_key(p.origin, p.dest, p.seq)] = i;
      state_[i].holder = p.origin;
      if (p.dest == kBroadcastDest) {
        state_[i].arrival.assign(n, -1);
        state_[i].arrival[static_cast<size_t>(p.origin)] = 0;
      }
      report_.needed += p.dest == kBroadcastDest ? static_cast<int64_t>(n) - 1 : 1;
    }
  }

  void event(const TraceEvent& e) {
    ++report_.crossings;
    if (e.step != step_) new_step(e.step);
    const int n = topo_.num_nodes();
    if (e.from < 0 || e.from >= n || e.to < 0 || e.to >= n || !topo_.adjacent(e.from, e.to)) {
      error(fmt::format("step {}: arc {}->{} does not exist in {}", e.step, e.from, e.to, topo_.spec()));
      return;
    }
    if (!arcs_.insert(static_cast<uint64_t>(e.from) * n + e.to).second)
      error(fmt::format("step {}: arc {}->{} carries more than one packet", e.step, e.from, e.to));
    if (model_.half_duplex && arcs_.count(static_cast<uint64_t>(e.to) * n + e.from))
      error(fmt::format("step {}: half-duplex link {}-{} used in both directions", e.step, e.from, e.to));
    if (model_.one_port) {
      if (++sends_[e.from] > 1) error(fmt::format("step {}: 1-port node {} sends more than one packet", e.step, e.from));
      if (++receives_[e.to] > 1) error(fmt::format("step {}: 1-port node {} receives more than one packet", e.step, e.to));
    }
    auto it = index_.find(packet_key(e.origin, e.dest, e.seq));
    const std::string name = fmt::format("packet {}->{} seq {}", e.origin, e.dest, e.seq);
    if (it == index_.end()) {
      error(fmt::format("step {}: {} is not a packet of this collective", e.step, name));
      return;
    }
    State& s = state_[it->second];
    const bool unicast = e.dest != kBroadcastDest;
    int64_t held_since = unicast ? (s.holder == e.from ? s.since : -1) : s.arrival[static_cast<size_t>(e.from)];
    if (held_since < 0 || held_since >= e.step) {
      error(fmt::format("step {}: {} leaves node {}, which does not hold it{}", e.step, name, e.from,
                        held_since == e.step ? " before the next step" : ""));
      return;
    }
    if (unicast) {
      if (e.from == e.dest) error(fmt::format("step {}: {} leaves its destination", e.step, name));
      s.holder = e.to;  // a unicast packet moves on
      s.since = e.step;
      if (e.to != e.dest) return;
      if (s.delivered) {
        error(fmt::format("step {}: node {} receives {} a second time", e.step, e.to, name));
        return;
      }
      s.delivered = true;
    } else {
      int64_t& at = s.arrival[static_cast<size_t>(e.to)];
      if (at >= 0) {
        error(fmt::format("step {}: node {} receives {} a second time", e.step, e.to, name));
        return;
      }
      at = e.step;
    }
    ++report_.deliveries;
    report_.steps = std::max(report_.steps, e.step);
  }

  ScoreboardReport finish() {
    int64_t missing = 0;
    std::string first;
    auto missed = [&](const Packet& p, int node) {
      if (missing++ == 0) first = fmt::format("packet {}->{} seq {} never reached node {}", p.origin, p.dest, p.seq, node);
    };
    for (size_t i = 0; i < demand_.size(); ++i) {
      const Packet& p = demand_[i];
      if (p.dest != kBroadcastDest) {
        if (!state_[i].delivered) missed(p, p.dest);
        continue;
      }
      for (int node = 0; node < topo_.num_nodes(); ++node)
        if (state_[i].arrival[static_cast<size_t>(node)] < 0) missed(p, node);
    }
    if (missing > 0) error(fmt::format("{} needed receptions never happened (first: {})", missing, first));
    return report_;
  }

 private:
  void new_step(int64_t step) {
    if (step < step_ || step < 1) error(fmt::format("trace is not sorted by step: step {} after step {}", step, step_));
    step_ = step;
    arcs_.clear();
    sends_.clear();
    receives_.clear();
  }
  void error(std::string message) {
    if (report_.errors.size() < kMaxListedErrors) report_.errors.push_back(std::move(message));
    ++report_.error_count;
  }

  const Topology& topo_;
  PortModel model_;
  const std::vector<Packet>& demand_;
  std::unordered_map<uint64_t, size_t> index_;
  struct State {
    int holder = 0;              // unicast: the node that holds the packet
    int64_t since = 0;           // unicast: the step it arrived there
    bool delivered = false;      // unicast: it reached its destination
    std::vector<int64_t> arrival;  // broadcast: step each node received it (origin 0, never -1)
  };
  std::vector<State> state_;
  int64_t step_ = 0;
  std::unordered_set<uint64_t> arcs_;
  std::unordered_map<int, int> sends_, receives_;
  ScoreboardReport report_;
};

}  // namespace

ScoreboardReport score_trace(const Topology& topology, const PortModel& model, const std::vector<Packet>& demand,
                             const std::vector<TraceEvent>& trace) {
  Checker checker(topology, model, demand);
  for (const TraceEvent& e : trace) checker.event(e);
  return checker.finish();
}

}  // namespace fixroute
