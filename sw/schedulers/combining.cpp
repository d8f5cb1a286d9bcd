#include "combining.h"

#include <fmt/format.h>

#include "sw/core/errors.h"
#include "sw/topology/topology.h"

namespace fixroute {

std::vector<Axis> combining_axes(const Topology& topology) {
  std::vector<Axis> axes;
  const bool wraps = topology.kind() == TopologyKind::Ring || topology.kind() == TopologyKind::Torus;
  if (topology.kind() == TopologyKind::Hypercube) return std::vector<Axis>(static_cast<size_t>(topology.dims()[0]), Axis{2, false});
  for (int size : topology.dims()) axes.push_back({size, wraps});
  return axes;
}

int axis_coord(const Topology& topology, int node, int axis) {
  if (topology.kind() == TopologyKind::Hypercube) return (node >> axis) & 1;
  return topology.coords(node)[static_cast<size_t>(axis)];
}

int axis_port(const Topology& topology, int node, int axis, int direction) {
  if (topology.kind() == TopologyKind::Hypercube) return ((node >> axis) & 1) == (direction > 0 ? 0 : 1) ? axis : -1;
  const int port = 2 * axis + (direction > 0 ? 0 : 1);
  return topology.neighbour(node, port) >= 0 ? port : -1;
}

int pair_exchange_direction(const Axis& axis, int x, int round) {
  const int z = axis.size;
  if (axis.wrap && z % 2 == 1) {
    const int idle = (round - 1) % z;
    const int q = ((x - idle - 1) % z + z) % z;  // position on the path idle+1, idle+2, ...
    if (q == z - 1) return 0;
    return q % 2 == 0 ? +1 : -1;
  }
  // Odd rounds pair (0,1), (2,3), ...; even rounds (1,2), (3,4), ... and on an even ring (z-1, 0).
  const int first = round % 2 == 1 ? 0 : 1;
  const int offset = ((x - first) % z + z) % z;
  const int direction = offset % 2 == 0 ? +1 : -1;
  if (!axis.wrap) {
    if (x < first) return 0;
    if (direction > 0 && x + 1 >= z) return 0;
  }
  return direction;
}

int pair_exchange_rounds(const Axis& axis) {
  const int z = axis.size;
  // Even line: an origin moves one hop each round both ways, the ends' after a first
  // exchange, z-1 in all; odd line: one end sits out every other round, one more. Even ring:
  // perfect matchings, the diameter z/2; odd ring: the idle node costs two rounds beyond it.
  if (!axis.wrap) return z % 2 == 0 ? z - 1 : z;
  return z % 2 == 0 ? z / 2 : (z + 3) / 2;
}

bool has_axes(const Topology& topology) {
  switch (topology.kind()) {
    case TopologyKind::Line:
    case TopologyKind::Ring:
    case TopologyKind::Mesh:
    case TopologyKind::Torus:
    case TopologyKind::Hypercube: return true;
    default: return false;
  }
}

std::vector<int> two_colouring(const Topology& topology) {
  const int nodes = topology.num_nodes();
  std::vector<int> colour(static_cast<size_t>(nodes), -1);
  if (has_axes(topology)) {
    if (topology.kind() == TopologyKind::Ring || topology.kind() == TopologyKind::Torus)
      for (int size : topology.dims())
        if (size % 2 == 1) return {};
    for (int n = 0; n < nodes; ++n) {
      if (topology.kind() == TopologyKind::Hypercube) {
        colour[static_cast<size_t>(n)] = __builtin_popcount(static_cast<unsigned>(n)) % 2;
        continue;
      }
      int sum = 0;
      for (int c : topology.coords(n)) sum += c;
      colour[static_cast<size_t>(n)] = sum % 2;
    }
    return colour;
  }
  // Any other network: breadth-first from node 0 (every topology is connected), the parity
  // of the distance; a link between two nodes of one parity: not bipartite.
  std::vector<int> queue{0};
  colour[0] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const int n = queue[head];
    for (int q = 0; q < topology.num_ports(); ++q) {
      const int m = topology.neighbour(n, q);
      if (m < 0) continue;
      int& c = colour[static_cast<size_t>(m)];
      if (c < 0) {
        c = 1 - colour[static_cast<size_t>(n)];
        queue.push_back(m);
      } else if (c == colour[static_cast<size_t>(n)]) {
        return {};
      }
    }
  }
  return colour;
}

bool is_bipartite(const Topology& topology) { return !two_colouring(topology).empty(); }

std::vector<SweepCase> combining_cases(const std::vector<std::string>& specs, PortModel model) {
  model.combining = true;
  std::vector<SweepCase> out;
  for (const std::string& spec : specs) out.push_back({spec, model, ""});
  return out;
}

std::vector<SweepCase> joined_cases(std::vector<SweepCase> a, const std::vector<SweepCase>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::vector<std::string> combining_lines(int max_size) {
  std::vector<std::string> out;
  for (int n = 2; n <= std::min(max_size, 33); ++n) out.push_back(fmt::format("line:{}", n));
  return out;
}
std::vector<std::string> combining_rings(int max_size) {
  std::vector<std::string> out;
  for (int n = 3; n <= std::min(max_size, 33); ++n) out.push_back(fmt::format("ring:{}", n));
  return out;
}
std::vector<std::string> combining_meshes() {
  std::vector<std::string> out;
  for (int a = 2; a <= 8; ++a)
    for (int b = a; b <= 8; ++b) out.push_back(fmt::format("mesh:{}x{}", a, b));
  return out;
}
std::vector<std::string> combining_tori() {
  std::vector<std::string> out;
  for (int a = 3; a <= 8; ++a)
    for (int b = a; b <= 8; ++b) out.push_back(fmt::format("torus:{}x{}", a, b));
  out.push_back("torus:3x3x3");
  out.push_back("torus:4x4x4");
  return out;
}
std::vector<std::string> combining_hypercubes() {
  std::vector<std::string> out;
  for (int n = 1; n <= 8; ++n) out.push_back(fmt::format("hypercube:{}", n));
  return out;
}

std::vector<std::string> combining_irregular() {
  std::vector<std::string> out;
  for (int n = 2; n <= 8; ++n) out.push_back(fmt::format("complete:{}", n));
  for (const char* spec : {"bsn:line:2", "bsn:ring:4", "bsn:mesh:2x2", "bsn:hypercube:3", "bsn:complete:3", "otis:line:3",
                           "otis:ring:5", "otis:mesh:3x3", "otis:complete:3", "otis:hypercube:3", "otis:torus:3x3"})
    out.push_back(spec);
  return out;
}

std::vector<std::string> joined(std::initializer_list<std::vector<std::string>> lists) {
  std::vector<std::string> out;
  for (const std::vector<std::string>& list : lists) out.insert(out.end(), list.begin(), list.end());
  return out;
}

Algorithm combining_algorithm(const std::string& name, const std::string& summary) {
  Algorithm a;
  a.name = name;
  a.collective = "gossip";
  a.router_kind = kCombiningKind;
  a.summary = summary;
  return a;
}

std::string combining_model_refusal(const PortModel& model, const char* ports, const char* duplex) {
  const std::string p = ports, d = duplex;
  if ((p != "any" && model.ports_name() != p) || (d != "any" && model.duplex_name() != d))
    return fmt::format("it runs {}{} routers, not {}", p == "any" ? "" : p + " ",
                       d == "any" ? "" : d + "-duplex", model.label());
  return "";
}

std::shared_ptr<const Tables> finish_combining_tables(CombiningTables tables, const Problem& problem,
                                                      const std::string& algorithm) {
  tables.algorithm = algorithm;
  tables.port_model = problem.port_model;
  validate_combining(tables, problem.topology, fmt::format("the {} tables", algorithm));
  return std::make_shared<CombiningTables>(std::move(tables));
}

}  // namespace fixroute
