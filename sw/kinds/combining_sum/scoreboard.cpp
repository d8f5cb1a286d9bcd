#include "sw/kinds/combining_sum/scoreboard.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "sw/kinds/combining_sum/tables.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {

void add_error(ScoreboardReport& rep, std::string message) {
  if (rep.errors.size() < kMaxListedErrors) rep.errors.push_back(std::move(message));
  ++rep.error_count;
}

uint64_t masked_sum(const std::vector<uint64_t>& regs, size_t base, RegisterMask mask) {
  uint64_t s = 0;
  for (int r = 0; r < kMaxSumRegisters; ++r)
    if ((mask >> r) & 1u) s += regs[base + static_cast<size_t>(r)];
  return s;
}

}  // namespace

std::vector<uint64_t> expected_sum_answers(const CombiningSumTables& t) {
  std::vector<uint64_t> out(static_cast<size_t>(t.nodes));
  uint64_t running = 0, total = 0;
  for (int n = 0; n < t.nodes; ++n) total += sum_input_value(n);
  for (int n = 0; n < t.nodes; ++n) {
    running += sum_input_value(n);
    if (t.collective == "broadcast") out[static_cast<size_t>(n)] = sum_input_value(t.root);
    else if (t.collective == "prefix") out[static_cast<size_t>(n)] = running;
    else if (t.collective == "data-sum") out[static_cast<size_t>(n)] = total;
    else throw std::logic_error("combining-sum tables for collective " + t.collective);
  }
  return out;
}

ScoreboardReport score_combining_sum(const Topology& topology, const CombiningSumTables& t,
                                     const std::vector<SumEvent>& trace, const std::vector<uint64_t>& answers) {
  ScoreboardReport rep;
  const size_t width = static_cast<size_t>(t.registers);
  std::vector<uint64_t> regs(static_cast<size_t>(t.nodes) * width, 0);
  for (int n = 0; n < t.nodes; ++n)
    for (int r = 0; r < t.registers; ++r)
      if ((t.init[static_cast<size_t>(n)] >> r) & 1u) regs[static_cast<size_t>(n) * width + static_cast<size_t>(r)] = sum_input_value(n);
  rep.crossings = static_cast<int64_t>(trace.size());
  std::vector<char> sent(static_cast<size_t>(t.nodes) * static_cast<size_t>(t.ports));
  size_t e = 0;
  for (int64_t step = 1; step <= t.rounds; ++step) {
    std::fill(sent.begin(), sent.end(), 0);
    const size_t first = e;
    for (; e < trace.size() && trace[e].step == step; ++e) {
      const SumEvent& ev = trace[e];
      if (ev.node < 0 || ev.node >= t.nodes || ev.port < 0 || ev.port >= t.ports) {
        add_error(rep, fmt::format("round {}: a packet from node {} on port {}, which does not exist", step, ev.node, ev.port));
        continue;
      }
      char& once = sent[static_cast<size_t>(ev.node) * static_cast<size_t>(t.ports) + static_cast<size_t>(ev.port)];
      if (once) add_error(rep, fmt::format("round {}: node {} sent twice on port {}", step, ev.node, ev.port));
      once = 1;
      const RegisterMask send = t.send(ev.node, step, ev.port);
      if (!send) {
        add_error(rep, fmt::format("round {}: node {} sent on port {}, where its program sends nothing", step, ev.node, ev.port));
        continue;
      }
      if (ev.to != topology.neighbour(ev.node, ev.port))
        add_error(rep, fmt::format("round {}: node {}'s packet on port {} reached {}, not the neighbour {}", step, ev.node,
                                   ev.port, ev.to, topology.neighbour(ev.node, ev.port)));
      const uint64_t due = masked_sum(regs, static_cast<size_t>(ev.node) * width, send);
      if (ev.value != due)
        add_error(rep, fmt::format("round {}: node {} sent {} on port {}; its registers {:#x} summed to {} as the round began",
                                   step, ev.node, ev.value, ev.port, send, due));
      rep.steps = step;
    }
    for (int n = 0; n < t.nodes; ++n)
      for (int p = 0; p < t.ports; ++p)
        if (t.send(n, step, p) && !sent[static_cast<size_t>(n) * static_cast<size_t>(t.ports) + static_cast<size_t>(p)])
          add_error(rep, fmt::format("round {}: node {} sent nothing on port {}, where its program sends", step, n, p));
    // The round's packets were summed as it began; now what arrived is added.
    for (size_t i = first; i < e; ++i) {
      const SumEvent& ev = trace[i];
      if (ev.node < 0 || ev.node >= t.nodes || ev.port < 0 || ev.port >= t.ports) continue;
      const int to = topology.neighbour(ev.node, ev.port);
      if (to < 0 || !t.send(ev.node, step, ev.port)) continue;
      const RegisterMask add = t.add(to, step, topology.reverse_port(ev.node, ev.port));
      for (int r = 0; r < t.registers; ++r)
        if ((add >> r) & 1u) regs[static_cast<size_t>(to) * width + static_cast<size_t>(r)] += ev.value;
    }
  }
  if (e < trace.size())
    add_error(rep, fmt::format("{} packet(s) out of order or after the programs' last round {} (first: round {})",
                               trace.size() - e, t.rounds, trace[e].step));
  const std::vector<uint64_t> expected = expected_sum_answers(t);
  rep.needed = t.nodes;
  if (answers.size() != static_cast<size_t>(t.nodes)) {
    add_error(rep, fmt::format("the engine reported {} answers for {} routers", answers.size(), t.nodes));
    return rep;
  }
  for (int n = 0; n < t.nodes; ++n) {
    const uint64_t want = expected[static_cast<size_t>(n)];
    const uint64_t traced = masked_sum(regs, static_cast<size_t>(n) * width, t.result[static_cast<size_t>(n)]);
    const uint64_t reported = answers[static_cast<size_t>(n)];
    if (reported == want && traced == want) {
      ++rep.deliveries;
    } else {
      add_error(rep, fmt::format("node {} answered {} (its packets imply {}); the {} of the input values is {}", n,
                                 reported, traced, t.collective == "broadcast" ? "root's value" : t.collective, want));
    }
  }
  return rep;
}

Bounds combining_sum_bounds(const CombiningSumTables& t, const Topology& topology) {
  Bounds b;
  if (t.collective == "broadcast") {
    b.parts.push_back({"eccentricity", topology.eccentricity(t.root), "the furthest node from the root"});
  } else if (t.collective == "data-sum") {
    b.parts.push_back({"diameter", topology.diameter(), "every node needs the value of every other"});
  } else {
    b.parts.push_back({"eccentricity", std::max(topology.eccentricity(0), topology.eccentricity(t.nodes - 1)),
                       "every answer needs node 0's value; the last node's needs every value"});
  }
  return b;
}

}  // namespace fixroute
