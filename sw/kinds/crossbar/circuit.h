// Circuit switching on the row-column mesh (circuit-switched mesh paper, sections 1-2):
// a routing step sets up link-disjoint circuits, each carrying one message from its
// source to its destination along the fixed row-column path (row-wise to the
// destination's column, then column-wise). This header is the one definition of that
// rule, of a link conflict and of a schedule; schedulers, engines and checks call it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace fixroute {

class Topology;

// The crossbar's fifth port, after the mesh ports 0 = S, 1 = N, 2 = E, 3 = W
// (sw/topology/topology.h): where a circuit enters from and leaves to the node itself.
constexpr int kLocalPort = 4;
constexpr int kCrossbarPorts = 5;
constexpr int kNoPort = 7;  // a crossbar input that is not connected in a step

struct Circuit {
  int source = 0;
  int dest = 0;
  bool operator==(const Circuit& o) const { return source == o.source && dest == o.dest; }
  bool operator<(const Circuit& o) const { return source != o.source ? source < o.source : dest < o.dest; }
};

// One router a circuit passes: it enters on `in_port` and leaves on `out_port`
// (kLocalPort at the source's entry and at the destination's exit).
struct Hop {
  int node = 0;
  int in_port = 0;
  int out_port = 0;
};

struct CircuitSchedule {
  std::vector<std::vector<Circuit>> steps;  // steps[t - 1]: the circuits of routing step t
  // Routing steps (from 1) where a new phase of the algorithm begins; the nodes' message
  // rules reset what they relay there (prefix levels; sw/kinds/crossbar/scoreboard.h).
  std::vector<int> phase_starts;
  std::string construction;  // how this schedule was found, where it varies
};

// The row-column path of a circuit, one hop per router from source to destination
// (a single local->local hop when source == dest). Requires a 2D mesh.
std::vector<Hop> row_column_route(const Topology& mesh, int source, int dest);
// The same hops handed to `visit(row, col, in_port, out_port)` one by one, with nothing
// stored (mesh ports 0 = S, 1 = N, 2 = E, 3 = W; a port's opposite is port ^ 1).
template <class Visit>
void for_each_hop(int cols, int source, int dest, Visit&& visit) {
  int row = source / cols, col = source % cols;
  const int dest_row = dest / cols, dest_col = dest % cols;
  int in_port = kLocalPort;
  const int east_west = dest_col > col ? 2 : 3, step_col = dest_col > col ? 1 : -1;
  for (; col != dest_col; col += step_col) {  // row-wise first
    visit(row, col, in_port, east_west);
    in_port = east_west ^ 1;  // the port of the next router that faces this one
  }
  const int south_north = dest_row > row ? 0 : 1, step_row = dest_row > row ? 1 : -1;
  for (; row != dest_row; row += step_row) {  // then column-wise
    visit(row, col, in_port, south_north);
    in_port = south_north ^ 1;
  }
  visit(row, col, in_port, kLocalPort);
}

// The conflicts of one routing step: two circuits that claim one directed link, one
// source or one destination, as one-line descriptions; empty when the step is sound.
std::vector<std::string> link_conflicts(const Topology& mesh, const std::vector<Circuit>& step);

// The most circuits that cross one directed link, over all of `circuits`: a lower bound
// on the routing steps that carry them (docs/formulas.md, "link load").
int64_t max_link_load(const Topology& mesh, const std::vector<Circuit>& circuits);

// Throws InputError unless `topology` is a 2D mesh (the row-column rule needs one).
void require_mesh(const Topology& topology, const std::string& what);

// The number of circuits in a schedule, and its steps with every step's conflicts
// (empty when every step is link-disjoint).
int64_t circuit_count(const CircuitSchedule& schedule);
std::vector<std::string> schedule_conflicts(const Topology& mesh, const CircuitSchedule& schedule);

}  // namespace fixroute
