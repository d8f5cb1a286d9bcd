#include "sw/kinds/crossbar/scoreboard.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>

#include "sw/schedulers/circuit/fft.h"
#include "sw/kinds/crossbar/tables.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {

struct Report {
  ScoreboardReport r;
  void error(const std::string& e) {
    ++r.error_count;
    if (r.errors.size() < kMaxListedErrors) r.errors.push_back(e);
  }
};

using Values = std::vector<int>;  // per origin: how many times its value is combined in

void add_into(Values& into, const Values& v) {
  for (size_t i = 0; i < v.size(); ++i) into[i] += v[i];
}

// The trace's circuits grouped by step, each step checked for link conflicts.
std::map<int64_t, std::vector<CircuitEvent>> by_step(const Topology& mesh, const std::vector<CircuitEvent>& trace,
                                                     Report& rep) {
  std::map<int64_t, std::vector<CircuitEvent>> steps;
  for (const CircuitEvent& e : trace) {
    if (e.source < 0 || e.source >= mesh.num_nodes() || e.dest < 0 || e.dest >= mesh.num_nodes() || e.step < 1) {
      rep.error(fmt::format("step {}: circuit {}->{} is not between two nodes", e.step, e.source, e.dest));
      continue;
    }
    steps[e.step].push_back(e);
  }
  for (const auto& [step, events] : steps) {
    std::vector<Circuit> circuits;
    for (const CircuitEvent& e : events) circuits.push_back({e.source, e.dest});
    for (const std::string& c : link_conflicts(mesh, circuits)) rep.error(fmt::format("step {}: {}", step, c));
  }
  return steps;
}

void score_permutation(const Topology& mesh, const std::vector<int>& dest,
                       const std::map<int64_t, std::vector<CircuitEvent>>& steps, Report& rep) {
  // Each node's messages in arrival order, oldest first: a list threaded through the
  // messages (every message is held by exactly one node), so memory stays O(nodes).
  const int n = mesh.num_nodes();
  constexpr int kNone = -1;
  std::vector<int> first(static_cast<size_t>(n)), last(static_cast<size_t>(n)), next(static_cast<size_t>(n), kNone);
  std::vector<int64_t> arrival(static_cast<size_t>(n), 0);
  for (int x = 0; x < n; ++x) first[static_cast<size_t>(x)] = last[static_cast<size_t>(x)] = x;
  auto append = [&](int node, int message) {
    next[static_cast<size_t>(message)] = kNone;
    if (first[static_cast<size_t>(node)] == kNone) first[static_cast<size_t>(node)] = message;
    else next[static_cast<size_t>(last[static_cast<size_t>(node)])] = message;
    last[static_cast<size_t>(node)] = message;
  };
  std::vector<std::pair<int, int>> moves;  // (message, to)
  for (const auto& [step, events] : steps) {
    moves.clear();
    for (const CircuitEvent& e : events) {
      const int m = first[static_cast<size_t>(e.source)];
      if (m == kNone || arrival[static_cast<size_t>(m)] >= step) {
        rep.error(fmt::format("step {}: node {} sends to {} but holds no message from an earlier step", step, e.source, e.dest));
        continue;
      }
      moves.push_back({m, e.dest});
      first[static_cast<size_t>(e.source)] = next[static_cast<size_t>(m)];
    }
    for (auto [message, to] : moves) {
      arrival[static_cast<size_t>(message)] = step;
      append(to, message);
    }
  }
  rep.r.needed = n;
  for (int x = 0; x < n; ++x)
    for (int message = first[static_cast<size_t>(x)]; message != kNone; message = next[static_cast<size_t>(message)]) {
      const int64_t at = arrival[static_cast<size_t>(message)];
      if (dest[static_cast<size_t>(message)] == x && at == 0) {
        rep.error(fmt::format("node {}'s message never goes through a circuit (a fixed point takes a local one)", x));
      } else if (dest[static_cast<size_t>(message)] == x) {
        ++rep.r.deliveries;
        rep.r.steps = std::max(rep.r.steps, at);
      } else {
        // Where the trace leaves it: a fault's `injected` line says where it was lost.
        const int want = dest[static_cast<size_t>(message)];
        if (at == 0)
          rep.error(fmt::format("node {}'s message never reaches node {}: no circuit delivered it (it stays at node {})",
                                message, want, x));
        else
          rep.error(fmt::format("node {}'s message never reaches node {}: its last circuit, in step {}, delivered it to node {}",
                                message, want, at, x));
      }
    }
}

void score_broadcast(const Topology& mesh, int root, const std::map<int64_t, std::vector<CircuitEvent>>& steps, Report& rep) {
  std::vector<int64_t> since(static_cast<size_t>(mesh.num_nodes()), -1);
  since[static_cast<size_t>(root)] = 0;
  for (const auto& [step, events] : steps) {
    for (const CircuitEvent& e : events)
      if (since[static_cast<size_t>(e.source)] < 0 || since[static_cast<size_t>(e.source)] >= step)
        rep.error(fmt::format("step {}: node {} sends to {} before it holds the message", step, e.source, e.dest));
    for (const CircuitEvent& e : events) {
      if (since[static_cast<size_t>(e.dest)] >= 0) {
        rep.error(fmt::format("step {}: node {} receives the message again", step, e.dest));
        continue;
      }
      since[static_cast<size_t>(e.dest)] = step;
      ++rep.r.deliveries;
      rep.r.steps = step;
    }
  }
  rep.r.needed = mesh.num_nodes() - 1;
  for (int x = 0; x < mesh.num_nodes(); ++x)
    if (since[static_cast<size_t>(x)] < 0) rep.error(fmt::format("node {} never receives the message", x));
}

// Fan-in and prefix: values combine. `relay` (prefix) makes a node forward the value it
// received last in the current phase instead of its combination, and keep what it sends.
void score_combining(const Topology& mesh, const XbarTables& t, const std::map<int64_t, std::vector<CircuitEvent>>& steps,
                     bool prefix, Report& rep) {
  const size_t n = static_cast<size_t>(mesh.num_nodes());
  std::vector<Values> acc(n, Values(n, 0));
  for (size_t x = 0; x < n; ++x) acc[x][x] = 1;
  std::vector<std::optional<Values>> relay(n);
  for (const auto& [step, events] : steps) {
    if (std::find(t.phase_starts.begin(), t.phase_starts.end(), step) != t.phase_starts.end())
      for (auto& r : relay) r.reset();
    std::vector<std::pair<size_t, Values>> arrivals;
    for (const CircuitEvent& e : events) {
      const size_t s = static_cast<size_t>(e.source);
      Values message = prefix && relay[s] ? *relay[s] : acc[s];
      if (std::all_of(message.begin(), message.end(), [](int v) { return v == 0; }))
        rep.error(fmt::format("step {}: node {} sends to {} with nothing to send", step, e.source, e.dest));
      arrivals.push_back({static_cast<size_t>(e.dest), message});
    }
    if (!prefix)
      for (const CircuitEvent& e : events) std::fill(acc[static_cast<size_t>(e.source)].begin(), acc[static_cast<size_t>(e.source)].end(), 0);
    for (auto& [to, message] : arrivals) {
      add_into(acc[to], message);
      if (prefix) relay[to] = message;
      rep.r.steps = step;
    }
  }
  if (prefix) {
    rep.r.needed = static_cast<int64_t>(n);
    for (size_t x = 0; x < n; ++x) {
      bool right = true;
      for (size_t o = 0; o < n; ++o) right = right && acc[x][o] == (o <= x ? 1 : 0);
      if (right) ++rep.r.deliveries;
      else rep.error(fmt::format("node {} does not end with the prefix of nodes 0..{} exactly once", x, x));
    }
    return;
  }
  const size_t root = static_cast<size_t>(t.root);
  rep.r.needed = static_cast<int64_t>(n) - 1;
  for (size_t o = 0; o < n; ++o) {
    if (o == root) continue;
    if (acc[root][o] == 1) ++rep.r.deliveries;
    else rep.error(fmt::format("the root holds node {}'s value {} times", o, acc[root][o]));
  }
}

// FFT: every phase of fft_phases moves each node's point once (a fixed point by a local
// circuit) to its image; a node sends the point it held when the phase began.
void score_fft(const Topology& mesh, const XbarTables& t, const std::map<int64_t, std::vector<CircuitEvent>>& steps,
               Report& rep) {
  const std::vector<FftPhase> phases = fft_phases(mesh, t.algorithm);
  const size_t n = static_cast<size_t>(mesh.num_nodes());
  rep.r.needed = static_cast<int64_t>(n * phases.size());
  if (t.phase_starts.size() != phases.size()) {
    rep.error(fmt::format("the tables have {} phases, the FFT {}", t.phase_starts.size(), phases.size()));
    return;
  }
  std::vector<int> at(n);  // the point each node holds
  for (size_t x = 0; x < n; ++x) at[x] = static_cast<int>(x);
  for (size_t p = 0; p < phases.size(); ++p) {
    const int64_t first = t.phase_starts[p];
    const int64_t end = p + 1 < phases.size() ? t.phase_starts[p + 1] : INT64_MAX;
    std::vector<int> next(n, -1);
    std::vector<bool> sent(n, false);
    for (auto it = steps.lower_bound(first); it != steps.end() && it->first < end; ++it)
      for (const CircuitEvent& e : it->second) {
        const size_t s = static_cast<size_t>(e.source), d = static_cast<size_t>(e.dest);
        if (sent[s]) {
          rep.error(fmt::format("step {}: node {} sends a second time in {}", e.step, e.source, phases[p].name));
          continue;
        }
        sent[s] = true;
        rep.r.steps = std::max(rep.r.steps, e.step);
        if (e.dest != phases[p].dest[s]) {
          rep.error(fmt::format("step {}: node {}'s point goes to {}, not {} ({})", e.step, e.source, e.dest,
                                phases[p].dest[s], phases[p].name));
          continue;
        }
        next[d] = at[s];
        ++rep.r.deliveries;
      }
    for (size_t x = 0; x < n; ++x)
      if (!sent[x]) rep.error(fmt::format("node {} never sends its point in {}", x, phases[p].name));
    for (size_t x = 0; x < n; ++x) at[x] = next[x];
  }
}

}  // namespace

ScoreboardReport score_circuits(const Topology& mesh, const XbarTables& t, const std::vector<CircuitEvent>& trace) {
  Report rep;
  rep.r.crossings = static_cast<int64_t>(trace.size());
  const auto steps = by_step(mesh, trace, rep);
  if (t.collective == "permutation") score_permutation(mesh, t.permutation, steps, rep);
  else if (t.collective == "broadcast") score_broadcast(mesh, t.root, steps, rep);
  else if (t.collective == "fan-in" || t.collective == "prefix") score_combining(mesh, t, steps, t.collective == "prefix", rep);
  else if (t.collective == "fft") score_fft(mesh, t, steps, rep);
  else rep.error(fmt::format("no scoreboard rule for collective '{}'", t.collective));
  return rep.r;
}

}  // namespace fixroute
