// The two-phase blue/green algorithm (the all-to-all broadcast paper, "All-port half-duplex
// model": "an asymptotically time-optimal AAB algorithm for 2D meshes ... It consists of two
// phases", square meshes M(z,z), z even). Nodes are coloured as a chessboard, blue where
// the coordinates' sum is even.
// - Phase 1 (rounds 1 .. z-1): every row broadcasts its blue packets along the row and
//   every column its green packets along the column; after it, node (r, c) holds the z/2
//   blue packets of row r and the z/2 green packets of column c.
// - Phase 2 (from round z): every column broadcasts the blue packets, node (r, c) giving
//   the z/2 of row r, and every row the green packets, node (r, c) giving the z/2 of
//   column c. Row links carry only blue packets in phase 1 and green ones in phase 2,
//   column links the other colour: the rows and the columns never share a link.
// Each line broadcast is `line_broadcast` below: per round and link, the direction with
// more packets still to cross it (rightward on a tie) carries the packet that came from
// furthest away. The paper's phase 2 (a half-duplex simulation of full-duplex exchanges,
// then pipelining to the borders) takes z^2/2 + z - 2 rounds; this rule takes L m +
// floor(L/2) - 1 on a line of L nodes with m packets each, z^2/2 + z/2 - 1 here -- a count
// observed for every L in 2..10 and m in 1..6 when the rule was designed, not proved; every
// run checks it (formulas.h two_phase_half_duplex_mesh), and the paper's theorem is the
// bar `meets_paper` measures against. Buffers: up to about z packets a node (the paper
// says beta = sqrt(N)); `run` reports them.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>
#include <tuple>

#include "sw/core/formulas.h"
#include "sw/schedulers/broadcast_trees.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {

bool even_square_mesh(const Topology& t) {
  return t.kind() == TopologyKind::Mesh && t.dims().size() == 2 && t.dims()[0] == t.dims()[1] && t.dims()[0] % 2 == 0;
}
bool mesh_2d(const Topology& t) { return t.kind() == TopologyKind::Mesh && t.dims().size() == 2; }

// Half-duplex all-to-all broadcast along the line of nodes `line` (neighbours in order),
// line[i] starting with the origins `have[i]`, rounds from `first` on; the sends go into
// `tables`. Returns the last round that sends anything.
int line_broadcast(BroadcastTreeTables& tables, const Topology& topology, const std::vector<int>& line,
                   const std::vector<std::vector<int>>& have, int first) {
  const size_t links = line.size() - 1;
  // A packet waiting to cross a link: (how far it came from, origin); the smallest leaves first.
  using Waiting = std::tuple<int, int>;
  using Queue = std::priority_queue<Waiting, std::vector<Waiting>, std::greater<Waiting>>;
  std::vector<Queue> rightward(links), leftward(links);  // link i joins line[i] and line[i+1]
  std::vector<int64_t> to_cross_right(links, 0), to_cross_left(links, 0);
  for (size_t i = 0; i < line.size(); ++i)
    for (const int origin : have[i]) {
      if (i < links) rightward[i].push({0, origin});
      if (i > 0) leftward[i - 1].push({0, origin});
      for (size_t k = i; k < links; ++k) ++to_cross_right[k];
      for (size_t k = 0; k < i; ++k) ++to_cross_left[k];
    }
  int round = first, last = first - 1;
  auto left_to_cross = [&] {
    for (size_t k = 0; k < links; ++k)
      if (to_cross_right[k] > 0 || to_cross_left[k] > 0) return true;
    return false;
  };
  while (left_to_cross()) {
    if (round > tables.rounds)
      throw std::logic_error(fmt::format("two-phase: a line broadcast of {} nodes outran {} rounds", line.size(), tables.rounds));
    // a packet crossing link k in this round joins the next link's queue after the round
    std::vector<std::pair<size_t, Waiting>> arrivals_right, arrivals_left;
    for (size_t k = 0; k < links; ++k) {
      const bool right = !rightward[k].empty(), left = !leftward[k].empty();
      if (!right && !left) continue;
      const bool go_right = right && (!left || to_cross_right[k] >= to_cross_left[k]);
      Queue& queue = go_right ? rightward[k] : leftward[k];
      const auto [came, origin] = queue.top();
      queue.pop();
      const int from = line[go_right ? k : k + 1], to = line[go_right ? k + 1 : k];
      tables.at(from, round, topology.port_towards(from, to)) = origin;
      if (go_right) {
        --to_cross_right[k];
        if (k + 1 < links) arrivals_right.push_back({k + 1, {came - 1, origin}});
      } else {
        --to_cross_left[k];
        if (k > 0) arrivals_left.push_back({k - 1, {came - 1, origin}});
      }
      last = round;
    }
    for (const auto& [k, w] : arrivals_right) rightward[k].push(w);
    for (const auto& [k, w] : arrivals_left) leftward[k].push(w);
    ++round;
  }
  return last;
}

std::shared_ptr<const Tables> build(const Problem& p) {
  const Topology& topology = p.topology;
  const int rows = topology.dims()[0], columns = topology.dims()[1];
  auto node = [&](int r, int c) { return topology.node_at_coords({r, c}); };
  auto blue = [](int r, int c) { return (r + c) % 2 == 0; };
  auto row = [&](int r) {
    std::vector<int> line;
    for (int c = 0; c < columns; ++c) line.push_back(node(r, c));
    return line;
  };
  auto column = [&](int c) {
    std::vector<int> line;
    for (int r = 0; r < rows; ++r) line.push_back(node(r, c));
    return line;
  };
  // Rounds: a line broadcast of L nodes and P packets ends within P + L; phase 1's lines
  // carry about half their nodes' packets, phase 2's about half of all (the tables are cut
  // to the last send).
  BroadcastTreeTables t = empty_broadcast_tree_tables(topology, (topology.num_nodes() + 1) / 2 + 3 * (rows + columns) + 4);
  int phase1 = 0, last = 0;
  for (int r = 0; r < rows; ++r) {  // the blue packets along the rows
    std::vector<std::vector<int>> row_blue(static_cast<size_t>(columns));
    for (int c = 0; c < columns; ++c)
      if (blue(r, c)) row_blue[static_cast<size_t>(c)] = {node(r, c)};
    phase1 = std::max(phase1, line_broadcast(t, topology, row(r), row_blue, 1));
  }
  for (int c = 0; c < columns; ++c) {  // the green ones along the columns
    std::vector<std::vector<int>> column_green(static_cast<size_t>(rows));
    for (int r = 0; r < rows; ++r)
      if (!blue(r, c)) column_green[static_cast<size_t>(r)] = {node(r, c)};
    phase1 = std::max(phase1, line_broadcast(t, topology, column(c), column_green, 1));
  }
  // Phase 2, column c: node (r, c) gives the blue packets of row r; row r: node (r, c) the
  // green ones of column c (the same holdings along every column, and along every row).
  std::vector<std::vector<int>> blue_of_row(static_cast<size_t>(rows)), green_of_column(static_cast<size_t>(columns));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c) {
      if (blue(r, c)) blue_of_row[static_cast<size_t>(r)].push_back(node(r, c));
      else green_of_column[static_cast<size_t>(c)].push_back(node(r, c));
    }
  for (int c = 0; c < columns; ++c) last = std::max(last, line_broadcast(t, topology, column(c), blue_of_row, phase1 + 1));
  for (int r = 0; r < rows; ++r) last = std::max(last, line_broadcast(t, topology, row(r), green_of_column, phase1 + 1));
  BroadcastTreeTables cut = empty_broadcast_tree_tables(topology, last);
  for (int v = 0; v < topology.num_nodes(); ++v)
    for (int r = 1; r <= last; ++r)
      for (int q = 0; q < t.ports; ++q) cut.at(v, r, q) = t.at(v, r, q);
  cut.construction = fmt::format("blue/green: phase 1 {} rounds, phase 2 {}", phase1, last - phase1);
  return finish_broadcast_tree_tables(std::move(cut), p, "two-phase");
}

const AlgorithmRegistrar two_phase_registrar([] {
  Algorithm a = broadcast_tree_algorithm(
      "two-phase", "gossip without combining on 2D meshes, all-port half-duplex: blue packets along rows and "
                   "green along columns, then the other way round (AAB paper, all-port half-duplex model; "
                   "the paper's M(z,z), z even, generalised to M(R,C); full-duplex links run it too)");
  a.unsupported = [](const Problem& p) -> std::string {
    if (!mesh_2d(p.topology)) return "the blue/green phases run on a 2D mesh, mesh:RxC";
    // Full-duplex links carry a half-duplex schedule as well: the only non-combining
    // all-port gossip on meshes here (the paper's full-duplex mesh trees are not given).
    if (p.port_model.one_port) return fmt::format("it runs all-port routers, not {}", p.port_model.label());
    if (p.topology.num_nodes() > kMaxBroadcastTreeNodes)
      return fmt::format("broadcast-tree routers take at most {} nodes", kMaxBroadcastTreeNodes);
    return "";
  };
  a.is_default = [](const Problem& p) { return !p.port_model.one_port && p.port_model.half_duplex; };
  // Counts (the construction's and the paper's) on the paper's square meshes of even side
  // only; elsewhere the run measures it.
  a.formula = [](const Problem& p) -> std::optional<int64_t> {
    if (!even_square_mesh(p.topology)) return std::nullopt;
    return formulas::two_phase_half_duplex_mesh(p.topology.dims()[0]);
  };
  a.paper_formula = [](const Problem& p) -> std::optional<int64_t> {
    // Full-duplex: the paper's ceil((z1 z2 - 1)/2) for M(z1,z2), "solved" by time-arc-disjoint
    // trees it does not give ("2D tori", the lower bound and the sentence after it).
    if (!p.port_model.half_duplex) return formulas::tadbt_rounds(p.topology.num_nodes(), 2);
    if (!even_square_mesh(p.topology)) return std::nullopt;
    return formulas::two_phase_half_duplex_mesh_paper(p.topology.dims()[0]);
  };
  a.above_paper_reason = [](const Problem& p) {
    return p.port_model.half_duplex ? std::string()
                                    : std::string("two-phase is the paper's half-duplex construction, run on full-duplex "
                                                  "links; the paper's full-duplex mesh trees are cited, not given");
  };
  // Section 4: "it requires beta = sqrt(N)" for an N-node mesh.
  a.paper_buffers = [](const Problem& p) -> std::optional<int64_t> {
    if (!even_square_mesh(p.topology) || !p.port_model.half_duplex) return std::nullopt;
    return p.topology.dims()[0];
  };
  a.build = build;
  a.sweep = [](int max_size) {
    std::vector<SweepCase> out;
    for (int z = 2; z <= std::min(max_size, 16); z += 2) out.push_back({fmt::format("mesh:{}x{}", z, z), PortModel{false, true}, ""});
    for (const char* spec : {"mesh:4x6", "mesh:5x5"}) out.push_back({spec, PortModel{false, true}, ""});  // beyond the paper
    return out;
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
