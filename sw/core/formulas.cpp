#include "formulas.h"

#include <algorithm>
#include <stdexcept>

#include "sw/topology/topology.h"

namespace fixroute::formulas {

namespace {
int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
}  // namespace

int64_t total_exchange_line(int64_t n) { return ceil_div(n * n - 1, 4); }

int64_t total_exchange_line_scatterings(int64_t n) { return 3 * total_exchange_line(n) - n / 2; }

int64_t total_exchange_ring(int64_t n) { return ceil_div(n * n - 1, 8); }

int64_t time_sliced(int64_t full_duplex_steps) { return 2 * full_duplex_steps; }

int64_t gossip_torus_two_packets(int64_t n1, int64_t n2) { return ceil_div(n1 * n2, 2); }

int64_t gossip_hamiltonian_cycles(int64_t nodes) { return ceil_div(nodes - 1, 2); }

int64_t partial_cycle_length(int64_t nodes, int64_t dims, int64_t run_axis_size, int64_t axis2_size) {
  const int64_t m = nodes / dims + nodes / run_axis_size;
  return dims >= 4 ? m - nodes / (run_axis_size * axis2_size) : m;
}

int64_t gossip_partial_cycles_of_length(int64_t cycle_length) { return cycle_length / 2 + 1; }

int64_t gossip_partial_cycles_spread_of_length(int64_t cycle_length) { return ceil_div(cycle_length - 1, 2); }

int64_t gossip_partial_cycles_theorem(int64_t nodes, int64_t dims, int64_t run_axis_size) {
  // floor((P + d * across + 2d) / 2d): exact also where P/d is not whole (2D, both odd)
  const int64_t across = nodes / run_axis_size;
  return (nodes + dims * across + 2 * dims) / (2 * dims);
}

int64_t gossip_partial_cycles_theorem3_as_printed(int64_t n1, int64_t n2, int64_t n3) {
  return (n1 * n2 * n3 + 3 * n1 * n2 + 6) / 6;
}

int64_t ceil_log2(int64_t v) {
  int64_t k = 0;
  while ((int64_t{1} << k) < v) ++k;
  return k;
}

int64_t circuit_bpc(int64_t n) { return n; }

int64_t circuit_omega(int64_t n) { return 2 * n; }

int64_t circuit_broadcast(int64_t rows, int64_t cols) { return ceil_log2(cols) + ceil_log2(rows); }

int64_t circuit_prefix(int64_t nodes) {
  const int64_t levels = ceil_log2(nodes);
  return levels * (levels + 1) / 2;
}

int64_t circuit_prefix_paper(int64_t nodes) { return ceil_log2(nodes) * ceil_log2(nodes); }

int64_t combining_line_exchange(int64_t z) { return z % 2 == 0 ? z - 1 : z; }
int64_t combining_ring_exchange(int64_t z) { return z % 2 == 0 ? z / 2 : (z + 3) / 2; }
int64_t combining_bipartite_alternation(int64_t first_colour_eccentricity, int64_t second_colour_eccentricity) {
  return std::max(first_colour_eccentricity, second_colour_eccentricity + 1);
}
int64_t combining_duplex_simulation(int64_t diameter) { return 2 * diameter; }
int64_t combining_hypercube_orientation(int64_t n) { return n == 2 ? 3 : n == 3 ? 5 : n; }
int64_t combining_ring_pipeline(int64_t z) { return z - 1; }

int64_t tadbt_rounds(int64_t nodes, int64_t degree) { return (nodes - 1 + degree - 1) / degree; }
int64_t tadbt_odd_square_torus(int64_t z) { return (z * z - 1) / 4; }
int64_t tadbt_hypercube(int64_t n) { return ((int64_t{1} << n) - 1 + n - 1) / n; }
int64_t hamiltonian_pair_exchange(int64_t nodes) { return nodes % 2 == 0 ? nodes - 1 : nodes; }
int64_t two_phase_half_duplex_mesh_paper(int64_t z) { return (z - 1) + z * z / 2 + z - 2; }
int64_t two_phase_half_duplex_mesh(int64_t z) { return (z - 1) + z * z / 2 + z / 2 - 1; }

int64_t time_independent_two_cycles_bound(int64_t nodes) {
  return std::max<int64_t>(0, (11 * nodes - 40 + 39) / 40);  // ceil((11N - 40) / 40)
}

namespace {
bool square_mesh(const Topology& base) { return base.kind() == TopologyKind::Mesh && base.dims()[0] == base.dims()[1]; }
int64_t table_pick(const std::string& op, int64_t broadcast, int64_t prefix, int64_t data_sum) {
  if (op == "broadcast") return broadcast;
  if (op == "prefix") return prefix;
  if (op == "data-sum") return data_sum;
  throw std::logic_error("no Table 4 row " + op);
}
}  // namespace

namespace {
// Row-major prefix on a grid: R + C - 2 in two dimensions; in more, the prefix in every
// slice of the first dimension, the slices' totals along it, then the offset broadcast
// through a slice (its eccentricity: half of each size round a torus).
int64_t grid_prefix_rounds(const std::vector<int>& dims, bool wrap) {
  if (dims.size() == 2) return dims[0] + dims[1] - 2;
  const std::vector<int> rest(dims.begin() + 1, dims.end());
  int64_t ecc = 0;
  for (int size : rest) ecc += wrap ? size / 2 : size - 1;
  return grid_prefix_rounds(rest, wrap) + dims[0] - 1 + ecc;
}
}  // namespace

int64_t base_prefix_rounds(const Topology& base) {
  switch (base.kind()) {
    case TopologyKind::Line:
    case TopologyKind::Ring: return base.num_nodes() - 1;
    case TopologyKind::Mesh:
    case TopologyKind::Torus: return grid_prefix_rounds(base.dims(), base.kind() == TopologyKind::Torus);
    case TopologyKind::Hypercube: return base.dims()[0];
    case TopologyKind::Complete: return 1;
    default: throw std::logic_error("no group prefix on " + base.spec());
  }
}

int64_t base_data_sum_rounds(const Topology& base) {
  if (base.kind() != TopologyKind::Mesh && base.kind() != TopologyKind::Torus) return base_prefix_rounds(base);
  int64_t rounds = 0;  // dimension by dimension, along the lines (the wrap links unused)
  for (int size : base.dims()) rounds += size - 1;
  return rounds;
}

int64_t bsn_broadcast(const Topology& base, int group, int proc) {
  return base.eccentricity(proc) + base.eccentricity(group) + 2;
}

int64_t bsn_broadcast_paper(const Topology& base) { return 2 * static_cast<int64_t>(base.diameter()) + 2; }

int64_t bsn_prefix(const Topology& base) {
  return 2 * base_prefix_rounds(base) + 2 * base.eccentricity(base.num_nodes() - 1) + 3;
}

int64_t bsn_data_sum(const Topology& base) { return 2 * base_data_sum_rounds(base) + 2; }

int64_t bsn_table4(const std::string& op, const Topology& base) {
  const int64_t n = base.num_nodes();
  if (base.kind() == TopologyKind::Line) return table_pick(op, 2 * n, 4 * n - 1, 3 * n - 1);  // sqrt(2N) = 2n
  if (square_mesh(base)) {
    const int64_t k = base.dims()[0];  // (8N)^(1/4) = 2k
    return table_pick(op, 4 * k - 2, 8 * k - 5, 6 * k - 4);
  }
  if (base.kind() == TopologyKind::Complete) return table_pick(op, 4, 7, 5);
  return -1;
}

int64_t otis_broadcast(const Topology& base, int group, int proc) {
  int64_t longest = base.eccentricity(proc);
  for (int x = 0; x < base.num_nodes(); ++x)
    if (x != group) longest = std::max<int64_t>(longest, base.distance(proc, x) + 1 + base.eccentricity(group));
  return longest;
}

int64_t otis_prefix(const Topology& base) {
  return 2 * base_prefix_rounds(base) + 2 + base.eccentricity(base.num_nodes() - 1);
}

int64_t otis_data_sum(const Topology& base) { return 2 * base_data_sum_rounds(base) + 1; }

int64_t otis_mesh_table4(const std::string& op, const Topology& base) {
  if (!square_mesh(base)) return -1;
  const int64_t k = base.dims()[0];  // N^(1/4) = k
  return table_pick(op, 4 * k - 3, 8 * k - 6, 8 * k - 7);
}

}  // namespace fixroute::formulas
