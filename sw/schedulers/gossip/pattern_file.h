// The pattern file: searched link patterns of edge-disjoint cycles on tori -- two on 2D
// tori, d on a d-dimensional one (docs/pattern-format.md). tools/odd_torus_search prints entries with format_pattern;
// the schedulers read sw/schedulers/gossip/torus_patterns.txt, built into the binary, through
// patterns_in (odd_torus_patterns.h grows and serves them).
#pragma once
#include <string>
#include <vector>

namespace fixroute::partial_cycles {

// One entry: which catalogue it belongs to, its size, which rows or columns repeat when it
// grows, and one line per torus row: the cycle of each link to the right ('1' cycle 0,
// '2' cycle 1, '0' free), a space, the cycle of each link downwards. A d-dimensional entry
// (catalogue partial-cycles-nd) has a line per row of its last size -- the nodes
// (x0, ..., x_{d-2}, 0 .. n_{d-1} - 1), rows in node order -- holding d words: the cycle of
// each node's link up along dimension d-1, then d-2, ..., 0 ('1' .. 'd', '0' free); for d = 2
// that is the 2D layout.
struct TorusPattern {
  std::string catalogue;
  std::vector<int> dims;  // the torus's sizes; 2D: {rows, cols}
  int rows = 0;           // lines: the product of every size but the last
  int cols = 0;           // the last size
  bool rows_repeat = false;  // rows 0, 1 may be repeated after row 1
  bool cols_repeat = false;  // columns block_first .. block_first+block_width-1 may be repeated after the block
  int block_first = 0;
  int block_width = 2;
  std::vector<std::string> lines;
};

// The catalogues' names, in the order the file lists them.
inline constexpr const char* kCatalogues[] = {"partial-cycles", "partial-cycles-fewer-rows", "two-packet",
                                              "hamiltonian", "partial-cycles-nd"};
// The catalogue whose entries have three or more sizes (the others: two).
inline constexpr const char* kDimensionalCatalogue = "partial-cycles-nd";

// A size "AxBxC..." split at each 'x', in order (an empty word where two meet): the
// pattern file's sizes and tools/odd_torus_search's arguments read the same way.
std::vector<std::string> size_words(const std::string& text);

// Every entry of a pattern file's text; `where` names it in errors. Throws InputError
// ("WHERE line N: ...") on anything malformed: an unknown catalogue or keyword, a line of
// the wrong length or with another digit, a missing row, a repeated block off the pattern.
std::vector<TorusPattern> parse_patterns(const std::string& text, const std::string& where);

// The entry as the file holds it: its `pattern` line and its rows, each ending in '\n'.
std::string format_pattern(const TorusPattern& p);

// The file built into the binary (sw/schedulers/gossip/torus_patterns.txt), parsed once.
const std::vector<TorusPattern>& built_in_patterns();

// The entries of one catalogue, in file order.
std::vector<TorusPattern> patterns_in(const std::string& catalogue);

}  // namespace fixroute::partial_cycles
