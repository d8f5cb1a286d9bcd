#include "circuit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "sw/core/errors.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {
constexpr int kSouth = 0, kNorth = 1, kEast = 2, kWest = 3;
}

void require_mesh(const Topology& topology, const std::string& what) {
  if (topology.kind() != TopologyKind::Mesh)
    throw InputError(fmt::format("{} runs on a circuit-switched mesh:RxC, not {}", what, topology.spec()));
}

std::vector<Hop> row_column_route(const Topology& mesh, int source, int dest) {
  const int cols = mesh.dims()[1];
  int row = source / cols, col = source % cols;
  const int dest_row = dest / cols, dest_col = dest % cols;
  std::vector<Hop> hops;
  int in_port = kLocalPort;
  auto leave = [&](int out_port) {
    hops.push_back({row * cols + col, in_port, out_port});
    in_port = out_port ^ 1;  // the port of the next router that faces this one
  };
  while (col != dest_col) {  // row-wise first
    leave(dest_col > col ? kEast : kWest);
    col += dest_col > col ? 1 : -1;
  }
  while (row != dest_row) {  // then column-wise
    leave(dest_row > row ? kSouth : kNorth);
    row += dest_row > row ? 1 : -1;
  }
  leave(kLocalPort);
  return hops;
}

std::vector<std::string> link_conflicts(const Topology& mesh, const std::vector<Circuit>& step) {
  // Every out-port of every router (the local one included: one delivery per node) and
  // every local in-port (one message sent per node) may be claimed once. Claims are
  // sorted by what they claim (memory grows with the step's hops, not with the mesh);
  // conflicts come out in the order the later claim appears in the step.
  struct Claim {
    uint64_t what;   // out-port: node * 5 + port; local in-port: nodes * 5 + node
    uint64_t order;  // 2 x the hop's place in the step, +1 for its out-port
    size_t circuit;
  };
  const uint64_t local_in_base = static_cast<uint64_t>(mesh.num_nodes()) * (kLocalPort + 1);
  const int cols = mesh.dims()[1];
  size_t hops = 0;  // a row-column path has a hop per router it passes
  for (const Circuit& c : step)
    hops += static_cast<size_t>(std::abs(c.source / cols - c.dest / cols) + std::abs(c.source % cols - c.dest % cols) + 1);
  std::vector<Claim> claims;
  std::vector<Hop> hops_of_claim;  // by order / 2
  claims.reserve(hops + step.size());
  hops_of_claim.reserve(hops);
  for (size_t c = 0; c < step.size(); ++c)
    for (const Hop& h : row_column_route(mesh, step[c].source, step[c].dest)) {
      const uint64_t order = 2 * static_cast<uint64_t>(hops_of_claim.size());
      hops_of_claim.push_back(h);
      if (h.in_port == kLocalPort) claims.push_back({local_in_base + static_cast<uint64_t>(h.node), order, c});
      claims.push_back({static_cast<uint64_t>(h.node) * (kLocalPort + 1) + static_cast<uint64_t>(h.out_port), order + 1, c});
    }
  std::sort(claims.begin(), claims.end(),
            [](const Claim& x, const Claim& y) { return x.what != y.what ? x.what < y.what : x.order < y.order; });
  std::vector<std::pair<uint64_t, std::string>> found;  // (order, description)
  for (size_t i = 1; i < claims.size(); ++i) {
    if (claims[i].what != claims[i - 1].what) continue;
    size_t first = i - 1;
    while (first > 0 && claims[first - 1].what == claims[i].what) --first;
    const Circuit& a = step[claims[first].circuit];
    const Circuit& b = step[claims[i].circuit];
    const Hop& h = hops_of_claim[claims[i].order / 2];
    std::string text;
    if (claims[i].what >= local_in_base) {
      text = fmt::format("circuits {}->{} and {}->{} both start at node {}", a.source, a.dest, b.source, b.dest, h.node);
    } else {
      const std::string where = h.out_port == kLocalPort ? fmt::format("the delivery port of node {}", h.node)
                                                         : fmt::format("link {}->{}", h.node, mesh.neighbour(h.node, h.out_port));
      text = fmt::format("circuits {}->{} and {}->{} both claim {}", a.source, a.dest, b.source, b.dest, where);
    }
    found.emplace_back(claims[i].order, std::move(text));
  }
  std::sort(found.begin(), found.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> conflicts;
  conflicts.reserve(found.size());
  for (auto& f : found) conflicts.push_back(std::move(f.second));
  return conflicts;
}

int64_t max_link_load(const Topology& mesh, const std::vector<Circuit>& circuits) {
  std::vector<int64_t> load(static_cast<size_t>(mesh.num_nodes()) * kLocalPort, 0);  // per router and link port
  int64_t most = 0;
  for (const Circuit& c : circuits)
    for (const Hop& h : row_column_route(mesh, c.source, c.dest))
      if (h.out_port != kLocalPort)
        most = std::max(most, ++load[static_cast<size_t>(h.node) * kLocalPort + static_cast<size_t>(h.out_port)]);
  return most;
}

int64_t circuit_count(const CircuitSchedule& schedule) {
  int64_t n = 0;
  for (const auto& s : schedule.steps) n += static_cast<int64_t>(s.size());
  return n;
}

std::vector<std::string> schedule_conflicts(const Topology& mesh, const CircuitSchedule& schedule) {
  std::vector<std::string> out;
  for (size_t t = 0; t < schedule.steps.size(); ++t)
    for (const std::string& c : link_conflicts(mesh, schedule.steps[t]))
      out.push_back(fmt::format("step {}: {}", t + 1, c));
  return out;
}

}  // namespace fixroute
