// The time a search given --budget SECONDS has left: one definition for every scheduler
// that searches against the clock (the exact descents' solver calls, the restarts of
// tree-search and mirrored-snakes, the TDM heuristics' further attempts).
#pragma once
#include <chrono>

namespace fixroute {

class SearchDeadline {
 public:
  explicit SearchDeadline(double seconds)
      : end_(std::chrono::steady_clock::now() +
             std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds))) {}
  // Milliseconds left for the solver; 0 once the time is up.
  unsigned milliseconds_left() const {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end_ - std::chrono::steady_clock::now());
    return left.count() > 0 ? static_cast<unsigned>(left.count()) : 0;
  }
  bool passed() const { return std::chrono::steady_clock::now() >= end_; }

 private:
  std::chrono::steady_clock::time_point end_;
};

}  // namespace fixroute
