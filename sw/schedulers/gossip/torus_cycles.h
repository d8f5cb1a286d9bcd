// Two edge-disjoint Hamiltonian cycles on a 2D torus, as the port rules of its routers.
//
// A port pairing gives each node's four ports two pairs: a packet arriving on one port of
// a pair leaves on the other. The pairs chain into closed trails; when there are exactly
// two trails and each passes every node once, they are two edge-disjoint Hamiltonian
// cycles (a Hamiltonian decomposition), and every node lies on both.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "sw/topology/topology.h"

namespace fixroute::torus_cycles {

// partner[node][port]: the port a packet arriving on `port` leaves by.
using Pairing = std::vector<std::array<int, 4>>;

// The column-parity rule of the gossip paper, section 2: on even columns and on the last
// column T<->R, B<->L; on odd columns T<->L, B<->R. Two Hamiltonian cycles exactly when
// both sizes are even.
Pairing paper_zigzag(const Topology& torus);
// The rule for one column: true for T<->R, B<->L, false for T<->L, B<->R.
bool paper_top_with_right(int column, int columns);

// Two Hamiltonian cycles for any n1 x n2 torus, n1, n2 >= 3 (they exist: Kotzig). Starts
// from rows | columns and applies alternating-square switches (swap the two 2-factors on
// the four edges of a unit square whose sides alternate between them), which keep both
// 2-factors spanning: first along the diagonal (each merges two rows and two columns),
// then greedily wherever the number of cycles drops, with seeded random kicks on plateaus.
// Square switches keep the parity of each factor's crossings of every row and column gap;
// switching a whole alternating row or column (on an even side) changes it. Deterministic,
// with up to 400 seeded restarts within a work budget of a few seconds. Of all sizes from
// 3x3 to 32x32 only 4x31 and 31x4 are not reached (hamiltonian_decomposition takes a
// pattern there): it then throws InputError.
Pairing square_switching(const Topology& torus);

// The trails of a pairing, each as the (node, out-port) sequence of one direction. A port
// paired with -1 is unused: no trail starts there, and a trail that arrives there stops
// (it is then open: its last hop does not lead back to its first node).
std::vector<std::vector<std::array<int, 2>>> trails(const Topology& torus, const Pairing& pairing);

// The pairing that forwards along `cycles` (each a node sequence, closing back to its
// first node): each node on a cycle pairs its ports towards its neighbours before and
// after it there; ports no cycle uses stay -1.
Pairing pairing_along(const Topology& torus, const std::vector<std::vector<int>>& cycles);

// "" when the pairing is two edge-disjoint Hamiltonian cycles, else why it is not.
std::string check_decomposition(const Topology& torus, const Pairing& pairing);

struct Decomposition {
  std::string construction;  // "paper-zigzag", "searched-pattern-4xodd" or "square-switching"
  Pairing pairing;
};
// The paper's rule where it gives two Hamiltonian cycles; on 4 x C and C x 4 with C odd
// (>= 5) a searched pattern (odd_torus_patterns.h `hamiltonian_links`), which square
// switching does not reach on 4x31; square switching otherwise. Always verified by
// check_decomposition.
Decomposition hamiltonian_decomposition(const Topology& torus);

}  // namespace fixroute::torus_cycles
