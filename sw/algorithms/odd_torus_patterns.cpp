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
      {3, 3, false, {"120 020", "210 211", "221 112"}},
      {5, 3, true, {"122 120", "211 210", "002 012", "120 120", "211 210"}},
      {5, 5, true, {"12221 01002", "21112 02001", "02201 10020", "11022 20100", "20110 02001"}},
      {7, 7, true,
       {"1112221 0002001", "2221112 0001002", "1110220 1000200", "2222111 2000100", "0111022 0100020",
        "1022201 0020001", "2201112 0001002"}},
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
