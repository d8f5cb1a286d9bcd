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

}  // namespace fixroute::formulas
