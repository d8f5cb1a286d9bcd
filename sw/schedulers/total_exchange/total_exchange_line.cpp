// Total exchange on a linear array (total-exchange paper, sections 2 and 3).
//
// Papers' node i is our id i-1. Rightward packets leave on port 0, leftward on port 1;
// transit packets keep their direction (forward_straight), and both directions run
// independently on their own arcs, which is why the paper treats one direction only.
#include <algorithm>

#include "sw/core/formulas.h"
#include "sw/schedulers/common.h"
#include "sw/schedulers/port_rules.h"

namespace fixroute {
namespace {

std::string line_only(const Topology& t) { return t.kind() == TopologyKind::Line ? "" : "needs a line:N topology"; }

std::optional<int64_t> sliced(int64_t full_duplex, const PortModel& m) {
  return m.is_default() ? full_duplex : formulas::time_sliced(full_duplex);
}

std::vector<SweepCase> line_cases(int max_size) {
  std::vector<SweepCase> out;
  for (int n = 2; n <= max_size; ++n) out.push_back({"line:" + std::to_string(n), {}, ""});
  for (int n : {7, 12, 32}) {
    if (n > max_size) continue;
    out.push_back({"line:" + std::to_string(n), PortModel{false, true}, ""});
    out.push_back({"line:" + std::to_string(n), PortModel{true, false}, ""});
  }
  return out;
}

// Every node queues its n-1 packets, the furthest first in each direction, from step 1.
// The furthest-first queues then do the scheduling of section 3 (Theorem 1).
NetworkTables furthest_first(const Topology& topo) {
  NetworkTables t = scheduling::empty_tables(topo, "total-exchange", "furthest-first", Discipline::FurthestFirst);
  scheduling::forward_straight(t, topo);
  const int n = topo.num_nodes();
  for (int i = 0; i < n; ++i)
    for (int dist = n - 1; dist >= 1; --dist) {
      if (i + dist < n) scheduling::add_unicast(t, i, i + dist, 0, dist);
      if (i - dist >= 0) scheduling::add_unicast(t, i, i - dist, 1, dist);
    }
  return t;
}

// The baseline of section 2: n optimal scatterings one after the other. Scattering from
// node i sends its packets furthest first in both directions and takes max(i, n-1-i)
// steps; node i's packets are released when scattering i-1 has finished. A
// time-dependent table: the release steps grow with the network.
NetworkTables scatter_sequence(const Topology& topo) {
  NetworkTables t = scheduling::empty_tables(topo, "total-exchange", "scatter-sequence", Discipline::FurthestFirst);
  scheduling::forward_straight(t, topo);
  const int n = topo.num_nodes();
  int start = 1;
  for (int i = 0; i < n; ++i) {
    for (int dist = n - 1; dist >= 1; --dist) {
      if (i + dist < n) scheduling::add_unicast(t, i, i + dist, 0, dist, start);
      if (i - dist >= 0) scheduling::add_unicast(t, i, i - dist, 1, dist, start);
    }
    start += std::max(i, n - 1 - i);
  }
  return t;
}

Algorithm line_algorithm(const char* name, const char* summary, bool is_default,
                         int64_t (*formula)(int64_t), NetworkTables (*builder)(const Topology&)) {
  Algorithm a;
  a.name = name;
  a.collective = "total-exchange";
  a.router_kind = kPortRulesKind;
  a.summary = summary;
  a.unsupported = on_topology(line_only);
  a.is_default = [is_default](const Problem&) { return is_default; };
  a.formula = [formula](const Problem& p) { return sliced(formula(p.topology.num_nodes()), p.port_model); };
  a.build = port_rules_build(builder);
  a.sweep = line_cases;
  return a;
}

const AlgorithmRegistrar furthest_first_registrar(line_algorithm(
    "furthest-first", "each node sends the packet with the furthest to go first (total-exchange paper, section 3)",
    true, formulas::total_exchange_line, furthest_first));

const AlgorithmRegistrar scatter_sequence_registrar(line_algorithm(
    "scatter-sequence", "n consecutive optimal scatterings, the baseline (total-exchange paper, section 2)", false,
    formulas::total_exchange_line_scatterings, scatter_sequence));

}  // namespace
}  // namespace fixroute
