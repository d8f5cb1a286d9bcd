// Searched link patterns: two edge-disjoint cycles on a 2D torus where the paper's
// constructions do not reach -- for `partial-cycles` and `hamiltonian-2-paper` with both
// sizes odd, for `partial-cycles` with fewer (odd) rows than columns, and for
// `hamiltonian-2` on 4 x odd (declared at the end of this file). The searched entries are
// data, tools/odd_torus_search's output in sw/schedulers/gossip/torus_patterns.txt
// (docs/pattern-format.md); CTest checks the tool still prints some of them.
//
// `partial-cycles`, both sizes odd:
// Section 3 of the gossip paper says only that "the case of odd n1 and n2 can be treated
// by inserting one special row". A special row alone cannot do it: a node off a cycle
// needs two neighbours on it across free links, and with an odd number of rows every
// column breaks the rows' alternation somewhere, so the break must wind round the whole
// torus (a 3-row band with the paper's rows elsewhere has no solution, found by a SAT
// search). The patterns come from a search, tools/odd_torus_search (SAT, CaDiCaL):
// every node on a cycle or fed by two free-link neighbours on it, each cycle closed and
// no longer than Theorem 2 allows. For 3 and 5 columns they are entries of the pattern
// file; for every odd C >= 7 a construction read off its 15 x 15 pattern, the staircase
// (the .cpp). They are data, not results: partial_cycles.cpp traces and checks the cycles and
// schedules the taps on every run, and the routers measure the steps.
//
// A pattern's rows 0 and 1 repeat: the links above row 0 are those below row 1, so two
// more rows are a copy of rows 0 and 1 inserted after row 1 (each cycle grows by
// C + 2 nodes, as a lap of the paper's construction does). With the smaller size as
// columns this covers every 2D torus with both sizes odd.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace fixroute::partial_cycles {

// The cycle (0 or 1) of each link of an R x C torus, -1 where no cycle uses it: right[v]
// is the link from node v = r*C + c to (r, c+1), down[v] the one to (r+1, c).
struct LinkCycles {
  std::vector<int> right, down;
};

// The same for a torus of any number of dimensions d: along[k][v] is the cycle (0 .. d-1)
// of the link from node v to its neighbour one up along dimension k, -1 where no cycle
// uses it. A 2D LinkCycles is {down, right}.
struct TorusLinkCycles {
  std::vector<int> dims;
  std::vector<std::vector<int>> along;
};
TorusLinkCycles along_dimensions(const LinkCycles& links, int rows, int cols);

// For `partial-cycles` on a torus of three or more dimensions that the laps of Theorems 3
// and 4 do not close on (torus:3x3x3, the lap axis not longer than d): d cycles from the
// search (tools/odd_torus_search AxBxC, catalogue partial-cycles-nd), for exactly the sizes
// an entry has. nullopt where there is none.
std::optional<TorusLinkCycles> dimensional_links(const std::vector<int>& dims);

// The pattern for C columns extended to R rows (R, C odd), or nullopt when there is none
// (R < C, or C and R of other parities).
std::optional<LinkCycles> odd_torus_links(int rows, int cols);

// For `partial-cycles` on R x C with R odd and R < C: Theorem 2 as written, R*C/4 + R/2
// + 1 (built transposed, as the paper's laps or the both-odd patterns on C x R, it takes
// about C/2 in place of R/2). The paper's "special row" is not described; these too come
// from the search (tools/odd_torus_search R C EXTRA): single sizes, four of them growing
// by a repeated block of columns (3 x (11, 15, 16 + 6k), 7 x (10 + 8k)). nullopt where
// the catalogue has no entry (the torus is then built transposed).
std::optional<LinkCycles> fewer_rows_links(int rows, int cols);

// Sizes of a 2D torus with both odd: where partial-cycles and hamiltonian-2-paper take
// their cycles from these patterns instead of the paper's rules.
bool both_sizes_odd_2d(const std::vector<int>& dims);

// `pattern` (C columns) with rows 0 and 1 repeated `pairs` more times after row 1.
LinkCycles with_rows_repeated(const LinkCycles& pattern, int cols, int pairs);
// `pattern` (C columns) with columns 0 and 1 repeated `pairs` more times after column 1.
LinkCycles with_columns_repeated(const LinkCycles& pattern, int cols, int pairs);
// The same for a block of `width` rows (columns) from `first`, `copies` more times after it.
LinkCycles with_row_block_repeated(const LinkCycles& pattern, int cols, int first, int width, int copies);
LinkCycles with_column_block_repeated(const LinkCycles& pattern, int cols, int first, int width, int copies);
// The R x C `pattern` seen as C x R (node (r, c) becomes (c, r)).
LinkCycles transposed(const LinkCycles& pattern, int rows, int cols);

// For `hamiltonian-2-paper` (2 packets per node, section 2 "Odd n_i") on an R x C torus
// with both sizes odd (>= 3): two edge-disjoint cycles through all nodes but two each
// (3 x 3: but three), every node on at least one, a node off a cycle fed by two
// free-link neighbours on it. The paper only says the remaining cases "can be treated
// similarly" to n1 even, n2 odd; the paper's rule with one special row and column has no
// such pair (exhaustive search), so these too come from the search
// (tools/odd_torus_search ... two-packet): a 5 x 5 pattern whose rows 0, 1 and columns
// 0, 1 repeat, a 3 x 5 whose columns repeat (and its transpose), and 3 x 3. nullopt when
// a size is even or under 3.
std::optional<LinkCycles> two_packet_links(int rows, int cols);

// For `hamiltonian-2` on 4 x C and C x 4 with C odd >= 5: two edge-disjoint Hamiltonian
// cycles (tools/odd_torus_search 4 5 EXTRA hamiltonian: a 4 x 5 pattern whose columns 0, 1
// repeat). Square switching finds cycles on most sizes but not on 4x31 within its budget;
// this reaches every such size at once. nullopt on other sizes.
std::optional<LinkCycles> hamiltonian_links(int rows, int cols);

}  // namespace fixroute::partial_cycles
