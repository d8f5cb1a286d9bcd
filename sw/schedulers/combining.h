// What every scheduler of the combining routers shares (sw/schedulers/combining/): the
// topology seen as axes (line, ring, mesh and torus dimensions; a hypercube's bits as
// lines of two nodes), the one-dimensional pair exchanges of the all-to-all broadcast
// paper's 1-port full-duplex lemma, and the registration fields every such algorithm has.
#pragma once
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "sw/core/algorithm.h"
#include "sw/kinds/combining/tables.h"

namespace fixroute {

// One dimension of a product topology: `size` nodes along it, wrapping or not.
struct Axis {
  int size = 0;
  bool wrap = false;
};
std::vector<Axis> combining_axes(const Topology& topology);
int axis_coord(const Topology& topology, int node, int axis);
// The port of `node` one step along `axis` in direction +1 or -1; -1 where there is none.
int axis_port(const Topology& topology, int node, int axis, int direction);

// The 1-port full-duplex pair exchange along one axis (the paper's lemma for M(z) and
// T(z)): in round r (from 1) of the pattern, the direction (+1, -1, or 0: idle) the node
// at coordinate x exchanges in. A line or an even ring alternates odd-even and even-odd
// pairs; an odd ring pairs the path left when node (r-1) mod z sits out, so the idle node
// moves on by one each round.
int pair_exchange_direction(const Axis& axis, int x, int round);
// The rounds the pattern is run for: until every node of the axis knows every origin of
// it (the lemma: z-1 or z on a line, z/2 or (z+3)/2 on a ring).
int pair_exchange_rounds(const Axis& axis);

// Whether the topology is a product of lines and cycles (line, ring, mesh, torus) or a
// hypercube: what combining_axes describes. Complete graphs and swapped networks are not.
bool has_axes(const Topology& topology);
// The two colours (0 or 1) of a bipartite topology's nodes, in node order (the parity of a
// node's coordinates' sum, a hypercube node's bit count, elsewhere of its distance from
// node 0); empty where the topology is not bipartite.
std::vector<int> two_colouring(const Topology& topology);
bool is_bipartite(const Topology& topology);

// Sweep cases of combining gossip under `model` on the given topology specs.
std::vector<SweepCase> combining_cases(const std::vector<std::string>& specs, PortModel model);
std::vector<SweepCase> joined_cases(std::vector<SweepCase> a, const std::vector<SweepCase>& b);
// Specs of the sweep's sizes: line:2..33, ring:3..33 (capped at max_size), meshes 2x2..8x8
// and tori 3x3..8x8 (A <= B), hypercube:1..8.
std::vector<std::string> combining_lines(int max_size);
std::vector<std::string> combining_rings(int max_size);
std::vector<std::string> combining_meshes();
std::vector<std::string> combining_tori();
std::vector<std::string> combining_hypercubes();
// Networks without dimensions: complete:2..8 and small biswapped and OTIS networks.
std::vector<std::string> combining_irregular();
// The lists joined.
std::vector<std::string> joined(std::initializer_list<std::vector<std::string>> lists);

// An Algorithm with the fields every combining scheduler shares set (collective gossip,
// router kind combining, the model it runs under); the caller sets the rest.
Algorithm combining_algorithm(const std::string& name, const std::string& summary);
// "" when `model` is ports/duplex as asked, else why not; "any" accepts either.
std::string combining_model_refusal(const PortModel& model, const char* ports, const char* duplex);
// The tables named and validated.
std::shared_ptr<const Tables> finish_combining_tables(CombiningTables tables, const Problem& problem,
                                                      const std::string& algorithm);

}  // namespace fixroute
