// What the exact searches (tdm-exact, trees-exact) share: the descent from a heuristic's
// count, one fewer at a time, each count asked of the SAT solver with the time left, until
// the lower bound is reached, a count is proven impossible, the solver runs out of time or
// a count is not to be searched.
#pragma once
#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sw/schedulers/search_deadline.h"

namespace fixroute {

template <class Schedule>
struct ExactDescent {
  int64_t count = 0;               // the least count with a schedule (the heuristic's where none below)
  std::optional<Schedule> best;    // the solver's schedule of `count`, where below the heuristic's
  bool proven_impossible = false;  // count - 1 has no schedule at all
  std::string verdict;             // for the construction line
};

// `solve(count, milliseconds, proven)`: a schedule of `count`, or nullopt (`proven` set
// where none exists); `name(count)` says a count in words ("period 17", "9 rounds");
// `skip(count)`: why a count is not searched, or "". `start_is_bound`: the verdict where
// the heuristic's count is the bound already.
template <class Schedule, class Solve, class Name, class Skip>
ExactDescent<Schedule> descend_exactly(int64_t start, int64_t bound, double seconds, const std::string& start_is_bound,
                                       Solve solve, Name name, Skip skip) {
  const SearchDeadline deadline(seconds);
  ExactDescent<Schedule> d;
  d.count = start;
  d.verdict = start <= bound ? start_is_bound : "the bound reached";
  while (d.count > bound) {
    const int64_t fewer = d.count - 1;
    if (const std::string why = skip(fewer); !why.empty()) {
      d.verdict = fmt::format("{} not searched: {}", name(fewer), why);
      break;
    }
    bool proven = false;
    std::optional<Schedule> found;
    if (const unsigned left = deadline.milliseconds_left()) found = solve(fewer, left, proven);
    if (!found) {
      d.proven_impossible = proven;
      d.verdict = proven ? fmt::format("{} proven impossible", name(fewer))
                         : fmt::format("{} not settled in {} s", name(fewer), seconds);
      break;
    }
    d.best = std::move(found);
    d.count = fewer;
  }
  return d;
}

}  // namespace fixroute
