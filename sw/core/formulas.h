// The papers' step-count formulas: the one place they are written down. Runs are
// compared with these (an algorithm's `formula` and `paper_formula`, the bounds); no
// engine and no scheduler uses them to decide a route, a release or a deadline.
#pragma once
#include <cstdint>
#include <string>

namespace fixroute {
class Topology;
}

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

// Gossip of 1 packet per node along d partial Hamiltonian cycles of a d-dimensional
// torus with P nodes (gossip paper, section 3). n1 is the size of the axis the cycles run
// along (the paper's axis 1; our last dimension), n2 that of the paper's axis 2 (our
// dimension d-2). Each cycle has m = P/d + P/n1 nodes for d = 2, 3 (the paper's laps of d
// moves across); for d = 4, 5, whose laps into the next plane move across d-1 times
// (beyond the paper: partial_cycles.cpp), m = P/d + P/n1 - P/(n1*n2).
int64_t partial_cycle_length(int64_t nodes, int64_t dims, int64_t run_axis_size, int64_t axis2_size);
// The count of the construction with cycles of m nodes (the longest): m/2 + 1, floor where
// m is odd. With the laps' m, for d = 2, 3 these are Theorems 2 and 3 (n1*n2/4 + n1/2 + 1
// on torus:n1xn2, n1*n2*n3/6 + n1*n2/2 + 1 on torus:n1xn2xn3); for d = 4, 5 it is under
// Theorem 4. With a pattern's m (2D tori with both sizes odd: odd_torus_patterns.h), at
// or under Theorem 2.
int64_t gossip_partial_cycles_of_length(int64_t cycle_length);
// Theorems 2, 3, 4 as stated: P/(2d) + P/(2*n1) + 1, n1 the run axis' size, rounded
// down (on torus:n1xn2 the second term is n1/2, as Theorem 2 writes it).
int64_t gossip_partial_cycles_theorem(int64_t nodes, int64_t dims, int64_t run_axis_size);
// Theorem 3 as printed, n1 n2 n3 / 6 + n1 n2 / 2 + 1 (n1 the run axis; Theorem 4 at d = 3
// has n2 n3 / 2 there: docs/formulas.md), rounded down.
int64_t gossip_partial_cycles_theorem3_as_printed(int64_t n1, int64_t n2, int64_t n3);
// The cycles' own spread: each packet both ways round its cycle of m nodes reaches the
// farthest node in ceil((m-1)/2) steps. Where the taps feed every off-cycle node no later
// than that (the switch steps the scheduler finds), this is the whole count: one under
// gossip_partial_cycles_of_length when m is even.
int64_t gossip_partial_cycles_spread_of_length(int64_t cycle_length);

// Circuit-switched n x n mesh, n = 2^k (circuit-switched mesh paper):
// a BPC permutation self-scheduled in n routing steps (section 3);
int64_t circuit_bpc(int64_t n);
// an Omega- or inverse-Omega-realizable permutation in two phases of n steps (section 4);
int64_t circuit_omega(int64_t n);
// broadcast and fan-in by recursive halving, rows then columns (sections 5.1, 5.2):
// log2(N) for n = 2^k, in general ceil(log2 C) + ceil(log2 R) on mesh:RxC;
int64_t circuit_broadcast(int64_t rows, int64_t cols);
// parallel prefix by the recurrence C(N) = C(N/2) + log2 N, C(2) = 1 of section 5.3:
// L(L+1)/2 with L = log2 N. The paper states this as log2(N)^2, which bounds it:
int64_t circuit_prefix(int64_t nodes);
int64_t circuit_prefix_paper(int64_t nodes);

// All-to-all broadcast with combining routers (the all-to-all broadcast paper, "SF
// switching with packet combining"; docs/combining.md):
// 1-port full-duplex pair exchanges on M(z): z-1 (z even), z (z odd); on T(z): z/2 (z
// even), (z+3)/2 (z odd); a product of lines or rings takes the sum over its dimensions,
// a hypercube n (the lemma for mesh-based topologies).
int64_t combining_line_exchange(int64_t z);
int64_t combining_ring_exchange(int64_t z);
// Bipartite all-port half-duplex alternation: the colour sending first informs a node at
// distance d in d rounds, the other colour in d+1, so max(e0, e1+1) with e0 and e1 the
// largest eccentricities in the two colour classes; the lemma's bound is D+1.
int64_t combining_bipartite_alternation(int64_t first_colour_eccentricity, int64_t second_colour_eccentricity);
// Half-duplex links simulating full-duplex ones: 2 diam(G) (the lemma's upper bound).
int64_t combining_duplex_simulation(int64_t diameter);
// The oriented hypercube (Corollary): diam(Q2) = 3, diam(Q3) = 5, diam(Qn) = n for n >= 4.
int64_t combining_hypercube_orientation(int64_t n);
// 1-port half-duplex pipelining one way round a ring of z: z-1; on a torus, dimension
// after dimension, the sum of z_i - 1 (2(z-1) on T(z,z)).
int64_t combining_ring_pipeline(int64_t z);

// All-to-all broadcast without combining (the all-to-all broadcast paper, "All-port
// full-duplex model" and "1-port model"; docs/broadcast-trees.md):
// time-arc-disjoint broadcast trees meet ceil((N-1)/d) on a vertex-symmetric network of
// degree d; on T(z,z), z odd, four snakes give (z^2-1)/4; on Q_n the necklace table
// ceil((2^n-1)/n) rows;
int64_t tadbt_rounds(int64_t nodes, int64_t degree);
int64_t tadbt_odd_square_torus(int64_t z);
int64_t tadbt_hypercube(int64_t n);
// 1-port full-duplex pair exchanges alternating along a Hamiltonian cycle: N-1 (the paper's, even
// N); on odd N one node idles a round: N, the matching bound.
int64_t hamiltonian_pair_exchange(int64_t nodes);
// All-port half-duplex M(z,z), z even, blue/green phases: the paper's z-1 + z^2/2 + z-2;
// with this project's line broadcasts in phase 2 (sw/schedulers/broadcast_trees/two_phase.cpp)
// z-1 + z^2/2 + z/2 - 1.
int64_t two_phase_half_duplex_mesh_paper(int64_t z);
int64_t two_phase_half_duplex_mesh(int64_t z);
// The paper's lemma ("Time-independent gossip in symmetric networks"): on a network of
// degree 4, time-independent routing on two edge-disjoint Hamiltonian cycles with one
// packet per node needs at least ceil(11N/40 - 1) rounds.
int64_t time_independent_two_cycles_bound(int64_t nodes);

// Swapped networks (the biswapped-network paper, section 3; docs/swapped-networks.md).
// The base network's operations as the constructions run them: a prefix sum and a data sum
// take n-1 rounds on line:n and ring:n (along the path), R+C-2 on mesh:RxC and torus:RxC,
// D on hypercube:D, 1 on complete:n; on a torus of more dimensions a data sum takes the sum
// of (size - 1) and a prefix the prefix of a slice, the first size - 1 and a slice's
// eccentricity; a broadcast from processor p its eccentricity.
int64_t base_prefix_rounds(const Topology& base);
int64_t base_data_sum_rounds(const Topology& base);
// BSN broadcast from <g,p,s> by the four steps, each move made once its datum is there:
// ecc(p) + ecc(g) + 2 (the paper's Theorem 1: 2 D + 2, the diameter, at worst).
int64_t bsn_broadcast(const Topology& base, int group, int proc);
int64_t bsn_broadcast_paper(const Topology& base);
// BSN prefix sum by Table 2's eight steps: 2 P + 2 B + 3, P the base's prefix, B its
// broadcast from processor n-1.
int64_t bsn_prefix(const Topology& base);
// BSN data sum by Table 3's steps 1-4 (step 5 is an addition, no move): 2 S + 2, S the base's data sum.
int64_t bsn_data_sum(const Topology& base);
// Table 4's closed forms for N = 2n^2 nodes (`op` broadcast, prefix or data-sum): BSN-Array
// (line:n) sqrt(2N), 2 sqrt(2N) - 1, (3/2) sqrt(2N) - 1; BSN-Mesh (mesh:kxk) 2 (8N)^(1/4) - 2,
// 4 (8N)^(1/4) - 5, 3 (8N)^(1/4) - 4; BSN-Complete 4, 7, 5; -1 for other bases.
int64_t bsn_table4(const std::string& op, const Topology& base);
// OTIS broadcast from <g,p>: a broadcast in group g, the swaps out of it, a broadcast in
// every other group: max(ecc(p), max over x != g of d(p,x) + 1 + ecc(g)).
int64_t otis_broadcast(const Topology& base, int group, int proc);
// OTIS prefix sum: local prefixes, group totals swapped into group n-1, their exclusive
// prefix there, swapped back, broadcast in each group: 2 P + 2 + B.
int64_t otis_prefix(const Topology& base);
// OTIS data sum: group sums, swap, group sums again: 2 S + 1.
int64_t otis_data_sum(const Topology& base);
// Wang and Sahni's OTIS-Mesh counts (Table 4's first column, N = k^4 nodes on mesh:kxk):
// broadcast 4 N^(1/4) - 3, prefix 8 N^(1/4) - 6, data sum 8 N^(1/4) - 7; -1 for other bases.
int64_t otis_mesh_table4(const std::string& op, const Topology& base);

// ceil(log2 v) for v >= 1.
int64_t ceil_log2(int64_t v);

}  // namespace fixroute::formulas
