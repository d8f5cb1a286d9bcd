// Topologies: parsing of the spec strings of docs/topologies.md, node numbering, ports, distances.
//
// Port numbering (documented in docs/architecture.md):
//   line, ring, mesh, torus: port 2k steps +1 along dimension k, port 2k+1 steps -1
//     (line: 0 = right, 1 = left; ring: 0 = clockwise, 1 = counterclockwise;
//      2D: dimension 0 is the row, so 0 = S, 1 = N, 2 = E, 3 = W).
//   hypercube:D: port k flips bit k.
//   complete:N: port k leads to node (i + k + 1) mod N.
//   bsn:BASE, otis:BASE (swapped networks over a base network of n nodes): ports 0..d-1 as
//   the base's within a group, port d the swap link (otis: unconnected where group = processor).
//   graph:FILE: as the file numbers them, else in the order its links list them.
// Every router of a topology has the same port count; border ports of line and mesh, and
// the ports a graph's node does not use, are unconnected (neighbour -1).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fixroute {

enum class TopologyKind { Line, Ring, Mesh, Torus, Hypercube, Complete, Biswapped, Swapped, Graph };

// A node of a swapped network by its place (docs/topologies.md, "Swapped networks"):
// processor `proc` of group `group`, in `part` 0 or 1 (biswapped) or 0 (OTIS).
struct SwappedNode {
  int group = 0;
  int proc = 0;
  int part = 0;
};

// A straight cut through the middle of the longest dimension: the two side sizes and
// the number of links crossing it (one arc each way per link). For line, ring and
// hypercube it is a minimum bisection; bounds derived from it are valid for any cut.
struct Cut {
  int64_t side_a = 0;
  int64_t side_b = 0;
  int64_t links = 0;
};

class Topology {
 public:
  static constexpr int kMaxNodes = 1 << 22;  // 4 194 304; node ids are 32-bit everywhere they are stored
  static constexpr int kMaxHypercubeDimension = 16;
  static constexpr int kMaxGraphPorts = 64;            // ports a node of a graph: file may number
  static constexpr int64_t kMaxGraphFileBytes = 64 << 20;  // one port per dimension; port masks are 16 bits

  static constexpr int64_t kMaxNodePorts = int64_t{1} << 26;  // links are stored per node and port

  // Parses "line:N", "ring:N", "mesh:RxC", "torus:AxB[xC...]", "hypercube:D", "complete:N",
  // "bsn:BASE", "otis:BASE" (BASE any of the others but a swapped network), "graph:FILE"
  // (a list of links, docs/topologies.md; the spec keeps the file's absolute path).
  // Throws InputError with a one-line message naming what is accepted.
  static Topology parse(const std::string& spec);
  // The same with a smaller cap: at most `max_nodes` nodes (<= kMaxNodes) and as many node
  // ports per node as kMaxNodePorts allows kMaxNodes, refused before the wiring is built
  // (the topology fuzz target caps what a mutated spec may allocate).
  static Topology parse(const std::string& spec, int max_nodes);

  const std::string& spec() const { return spec_; }  // canonical form
  TopologyKind kind() const { return kind_; }
  const std::string& kind_name() const { return kind_name_; }
  const std::vector<int>& dims() const { return dims_; }
  int num_nodes() const { return num_nodes_; }
  int num_ports() const { return num_ports_; }

  // The node across `port` of `node`, or -1 when that port is unconnected.
  int neighbour(int node, int port) const { return nbr_[index(node, port)]; }
  // The port of neighbour(node, port) that leads back to node (-1 if unconnected).
  int reverse_port(int node, int port) const { return rev_[index(node, port)]; }
  // The port of `node` that leads to `other`, or -1 when they are not adjacent.
  int port_towards(int node, int other) const {
    for (int p = 0; p < num_ports_; ++p)
      if (nbr_[index(node, p)] == other) return p;
    return -1;
  }
  bool adjacent(int a, int b) const { return port_towards(a, b) >= 0; }
  // Every node's ports in the order of the neighbours they lead to (unconnected ports first,
  // equal neighbours in port order), node i's at [i * num_ports(), (i + 1) * num_ports()):
  // reading a step's links in this order gives its crossings in trace order (by from, then to).
  std::vector<uint32_t> ports_by_neighbour() const;

  int degree(int node) const;
  int min_degree() const;
  int64_t num_arcs() const;

  int distance(int a, int b) const;
  // Distances from `source` to every node by breadth-first search (-1: unreachable).
  std::vector<int> distances_from(int source) const { return breadth_first(source); }
  int diameter() const;
  int eccentricity(int node) const;  // the distance to the node furthest from `node`
  Cut bisection_cut() const;
  int64_t bisection_width() const { return bisection_cut().links; }

  std::vector<int> coords(int node) const;
  // The node at `coords` (coords(node_at_coords(c)) == c); std::out_of_range where `c` names none.
  int node_at_coords(const std::vector<int>& coords) const;

  // Swapped networks (bsn:, otis:): the base network of each group, and the numbering
  // id = (part * n + group) * n + proc with n the base's node count.
  bool swapped() const { return base_ != nullptr; }
  const Topology& base() const;  // logic_error when not swapped
  SwappedNode place(int node) const;
  int node_at(const SwappedNode& place) const;
  int swap_port() const { return num_ports_ - 1; }  // swapped networks only
  std::string port_name(int port) const;

 private:
  size_t index(int node, int port) const {
    return static_cast<size_t>(node) * static_cast<size_t>(num_ports_) + static_cast<size_t>(port);
  }
  void build();
  void build_swapped();
  void build_graph(const std::string& path, int max_nodes);
  std::vector<int> breadth_first(int source) const;  // distances from `source`, -1 unreachable

  std::string spec_;
  std::string kind_name_;
  TopologyKind kind_ = TopologyKind::Line;
  std::vector<int> dims_;
  int num_nodes_ = 0;
  int num_ports_ = 0;
  std::vector<int> nbr_;
  std::vector<int> rev_;
  std::shared_ptr<const Topology> base_;  // swapped networks: the network of each group
};

}  // namespace fixroute
