// `hamiltonian-2-paper` (gossip paper, section 2) on the cycles of a given link pattern:
// what tools/odd_torus_search tries its candidates with. The algorithm itself registers
// by name (sw/core/algorithm.h); on tori with both sizes odd it takes its pattern from
// odd_torus_patterns.h.
#pragma once
#include "sw/kinds/port_rules/tables.h"
#include "sw/topology/topology.h"
#include "odd_torus_patterns.h"

namespace fixroute {

// The tables of the two-packet scheme on the two cycles of `links` (an R x C 2D torus):
// each node's packet k goes both ways round cycle k, or both round the cycle it is on if it
// is off the other; a node off a cycle is fed by its two free-link neighbours on it, taps
// switching so that it gets every packet once by Theorem 1's ceil(P/2). Throws InputError
// where a cycle does not check, a node is on neither or lacks two suppliers, or no taps
// feed it in time. The step count itself is what a run measures.
NetworkTables hamiltonian_two_paper_tables(const Topology& torus, const partial_cycles::LinkCycles& links);

}  // namespace fixroute
