// The catalogue of partial-cycle patterns for 2D tori with both sizes odd. See
// odd_torus_patterns.h.
#include "odd_torus_patterns.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace fixroute::partial_cycles {

namespace {

// One row per torus row: the cycle of each link to the right, a space, the cycle of each
// link downwards; '0' free, '1' cycle 0, '2' cycle 1 (the search's output format).
struct Pattern {
  int rows;
  int cols;
  bool repeats;  // rows 0 and 1 may be repeated (the header)
  std::vector<std::string> lines;
};

const std::vector<Pattern>& catalogue() {
  static const std::vector<Pattern> patterns{
      // tools/odd_torus_search 3 3 -1, 5 3 6, 5 5 5, 7 7 4, 9 9 2
      {3, 3, false, {"121 012", "012 201", "200 021"}},
      {5, 3, true, {"211 120", "122 210", "010 201", "221 102", "102 210"}},
      {5, 5, true, {"11222 20100", "22111 10200", "10220 01002", "21102 02010", "02011 10200"}},
      {7, 7, true,
       {"1221111 0201000", "2112222 0102000", "1020111 0020100", "2211022 0010020", "1122201 0020001",
        "2211110 2010000", "0102222 0102000"}},
      {9, 9, true,
       {"111222222 200100000", "222111111 100200000", "111222220 000100002", "222111102 000200010",
        "111222011 000100200", "222110222 000201000", "110201111 001020000", "201122222 020010000",
        "022011111 100200000"}},
  };
  return patterns;
}

int cycle_of(char digit) { return digit - '0' - 1; }

}  // namespace

std::optional<LinkCycles> odd_torus_links(int rows, int cols) {
  const Pattern* best = nullptr;
  for (const Pattern& p : catalogue()) {
    const bool fits = p.cols == cols && (rows == p.rows || (p.repeats && rows > p.rows && (rows - p.rows) % 2 == 0));
    if (fits && (!best || p.rows > best->rows)) best = &p;
  }
  if (!best) return std::nullopt;
  // Rows 0, 1, then (rows - base) / 2 copies of rows 0 and 1, then the rest.
  std::vector<const std::string*> order{&best->lines[0], &best->lines[1]};
  for (int k = 0; k < (rows - best->rows) / 2; ++k) {
    order.push_back(&best->lines[0]);
    order.push_back(&best->lines[1]);
  }
  for (size_t r = 2; r < best->lines.size(); ++r) order.push_back(&best->lines[r]);
  LinkCycles out;
  for (const std::string* line : order)
    for (int c = 0; c < cols; ++c) {
      out.right.push_back(cycle_of((*line)[static_cast<size_t>(c)]));
      out.down.push_back(cycle_of((*line)[static_cast<size_t>(cols + 1 + c)]));
    }
  return out;
}

std::string odd_torus_catalogue() {
  std::vector<std::string> sizes;
  for (const Pattern& p : catalogue()) sizes.push_back(fmt::format("{}{}x{}", p.rows, p.repeats ? "+" : "", p.cols));
  return fmt::format("{}", fmt::join(sizes, ", "));
}

}  // namespace fixroute::partial_cycles
