// The papers' step-count formulas: the one place they are written down. Runs are
// compared with these; nothing in an engine or a scheduler computes a step count from them.
#pragma once
#include <cstdint>

namespace fixroute::formulas {

// Total exchange on line:n, furthest-first: ceil((n^2-1)/4)
// (total-exchange paper, eq. (1) and Theorem 1).
int64_t total_exchange_line(int64_t n);

// Total exchange on line:n by n consecutive optimal scatterings, the baseline of
// section 2: sum over i of max(i-1, n-i) = 3*ceil((n^2-1)/4) - floor(n/2).
int64_t total_exchange_line_scatterings(int64_t n);

// Total exchange on ring:n, message-shift (odd n, Theorem 2) and modified message-shift
// (even n, Theorem 3): ceil((n^2-1)/8), eq. (2).
int64_t total_exchange_ring(int64_t n);

// Half-duplex links or 1-port nodes: "a slowdown factor of two" (section 2).
int64_t time_sliced(int64_t full_duplex_steps);

// Gossip on an n1 x n2 torus with 2 packets per node (gossip paper, Theorem 1):
// ceil(n1*n2/2) steps.
int64_t gossip_torus_two_packets(int64_t n1, int64_t n2);

// Gossip of k packets per node along k edge-disjoint Hamiltonian cycles of a P-node
// network, each node's packet sent both ways round its cycle: ceil((P-1)/2) steps for any
// k (beyond the paper: with full cycles on every torus size this meets the lower bound
// ceil(2(P-1)/4) for k = 2; Theorem 1's count exceeds it by one when P is odd).
int64_t gossip_hamiltonian_cycles(int64_t nodes);

}  // namespace fixroute::formulas
