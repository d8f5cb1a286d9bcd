#include "sw/kinds/combining/scoreboard.h"

#include <fmt/format.h>

#include <algorithm>

#include "sw/kinds/combining/tables.h"
#include "sw/topology/topology.h"

namespace fixroute {


CombiningScoreboard::CombiningScoreboard(const Topology& topology, const CombiningTables& tables)
    : topology_(topology), tables_(tables), sets_((check_combining_run_size(topology), topology.num_nodes())),
      sent_(static_cast<size_t>(topology.num_nodes())), received_(static_cast<size_t>(topology.num_nodes())),
      ports_used_(static_cast<size_t>(topology.num_nodes())) {
  const int64_t nodes = topology.num_nodes();
  report_.needed = nodes * (nodes - 1);
}

CombiningScoreboard::~CombiningScoreboard() = default;

void CombiningScoreboard::error(std::string e) {
  ++report_.error_count;
  if (report_.errors.size() < kMaxListedErrors) report_.errors.push_back(std::move(e));
}

void CombiningScoreboard::step(int64_t step, const std::vector<CombiningEvent>& rows) {
  if (step <= last_) {
    error(fmt::format("round {} out of order (after round {})", step, last_));
    return;
  }
  while (last_ + 1 < step) check_round(last_ + 1, {});  // rounds with no packets: nobody's table named one
  check_round(step, rows);
}

void CombiningScoreboard::check_round(int64_t step, const std::vector<CombiningEvent>& rows) {
  last_ = step;
  const int nodes = topology_.num_nodes(), ports = topology_.num_ports();
  const PortModel& model = tables_.port_model;
  report_.crossings += static_cast<int64_t>(rows.size());
  std::fill(ports_used_.begin(), ports_used_.end(), 0u);
  std::fill(sent_.begin(), sent_.end(), 0);
  std::fill(received_.begin(), received_.end(), 0);
  for (size_t i = 0; i < rows.size(); ++i) {
    const CombiningEvent& e = rows[i];
    auto at = [&] { return fmt::format("round {}: router {} port {}", step, e.node, e.port); };
    if (e.step != step) error(fmt::format("{}: a row of round {} among round {}'s", at(), e.step, step));
    if (i > 0 && !(rows[i - 1] < e)) error(fmt::format("{}: rows out of order or repeated", at()));
    if (e.node < 0 || e.node >= nodes || e.port < 0 || e.port >= ports) {
      error(fmt::format("{}: no such router or port", at()));
      continue;
    }
    const int to = topology_.neighbour(e.node, e.port);
    if (to < 0 || e.to != to) {
      error(fmt::format("{}: sent to {}, but the port leads to {}", at(), e.to, to));
      continue;
    }
    ports_used_[static_cast<size_t>(e.node)] |= 1u << e.port;
    ++sent_[static_cast<size_t>(e.node)];
    ++received_[static_cast<size_t>(to)];
    if (e.carried != sets_.count(e.node))
      error(fmt::format("{}: carried {} origins, but the router held {} when the round began", at(), e.carried,
                        sets_.count(e.node)));
  }
  for (int n = 0; n < nodes; ++n) {
    const uint32_t wanted = tables_.row(n, step), used = ports_used_[static_cast<size_t>(n)];
    for (int p = 0; p < ports; ++p) {
      if (((used & ~wanted) >> p) & 1u) error(fmt::format("round {}: router {} sent on port {}, which its table does not name", step, n, p));
      if (((wanted & ~used) >> p) & 1u) error(fmt::format("round {}: router {} did not send on port {}, which its table names", step, n, p));
    }
    if (model.one_port && sent_[static_cast<size_t>(n)] > 1)
      error(fmt::format("round {}: node {} sends {} packets (1-port)", step, n, sent_[static_cast<size_t>(n)]));
    if (model.one_port && received_[static_cast<size_t>(n)] > 1)
      error(fmt::format("round {}: node {} receives {} packets (1-port)", step, n, received_[static_cast<size_t>(n)]));
  }
  if (model.half_duplex)
    for (const CombiningEvent& e : rows) {
      if (e.to < 0 || e.to >= nodes || e.to < e.node) continue;  // each link once, from its lower end
      const int back = topology_.port_towards(e.to, e.node);
      if (back >= 0 && ((ports_used_[static_cast<size_t>(e.to)] >> back) & 1u))
        error(fmt::format("round {}: the link between {} and {} is used in both directions (half-duplex)", step, e.node, e.to));
    }
  // The round's packets carry the sets as they stood when it began: merge from a copy.
  before_ = sets_;
  bool learnt = false;
  for (const CombiningEvent& e : rows) {
    if (e.node < 0 || e.node >= nodes || e.to < 0 || e.to >= nodes) continue;
    const int got = sets_.merge(before_, e.node, e.to);
    report_.deliveries += got;
    learnt = learnt || got > 0;
  }
  if (learnt) report_.steps = step;
}

ScoreboardReport CombiningScoreboard::finish() {
  const int nodes = topology_.num_nodes();
  for (int n = 0; n < nodes; ++n)
    if (sets_.count(n) != nodes)
      error(fmt::format("node {} misses {} origin(s), the first {}", n, nodes - sets_.count(n), sets_.first_missing(n)));
  return report_;
}

ScoreboardReport score_combining(const Topology& topology, const CombiningTables& tables,
                                 const std::vector<CombiningEvent>& trace) {
  CombiningScoreboard board(topology, tables);
  replay_steps(trace, board);
  return board.finish();
}

}  // namespace fixroute
