#include "circuit.h"

#include <fmt/format.h>

#include <map>

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
  // every local in-port (one message sent per node) may be claimed once.
  std::map<std::pair<int, int>, const Circuit*> out_claims;
  std::map<int, const Circuit*> local_in_claims;
  std::vector<std::string> conflicts;
  for (const Circuit& c : step) {
    for (const Hop& h : row_column_route(mesh, c.source, c.dest)) {
      if (h.in_port == kLocalPort) {
        auto [it, fresh] = local_in_claims.emplace(h.node, &c);
        if (!fresh)
          conflicts.push_back(fmt::format("circuits {}->{} and {}->{} both start at node {}", it->second->source,
                                          it->second->dest, c.source, c.dest, h.node));
      }
      auto [it, fresh] = out_claims.emplace(std::make_pair(h.node, h.out_port), &c);
      if (!fresh) {
        std::string where = h.out_port == kLocalPort ? fmt::format("the delivery port of node {}", h.node)
                                                     : fmt::format("link {}->{}", h.node, mesh.neighbour(h.node, h.out_port));
        conflicts.push_back(fmt::format("circuits {}->{} and {}->{} both claim {}", it->second->source,
                                        it->second->dest, c.source, c.dest, where));
      }
    }
  }
  return conflicts;
}

int64_t max_link_load(const Topology& mesh, const std::vector<Circuit>& circuits) {
  std::map<std::pair<int, int>, int64_t> load;
  int64_t most = 0;
  for (const Circuit& c : circuits)
    for (const Hop& h : row_column_route(mesh, c.source, c.dest))
      if (h.out_port != kLocalPort) most = std::max(most, ++load[{h.node, h.out_port}]);
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
