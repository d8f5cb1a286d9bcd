// Progress of a long command on stderr (docs/cli.md, "Progress"): on a terminal one line
// redrawn in place (done/total, failures, elapsed, an estimate of what is left); otherwise
// a plain line every `plain_every` items and at the end, for logs.
#pragma once
#include <chrono>
#include <cstdio>
#include <string>

namespace fixroute {

class Progress {
 public:
  Progress(std::string what, size_t total, bool shown, size_t plain_every = 25);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `done` items finished, `failed` of them failed.
  void update(size_t done, size_t failed);
  // Clears the terminal line before other output goes to the terminal (redrawn at the next update).
  void clear();
  // Ends the line on a terminal.
  void finish();

  // "4 s", "3 min 10 s", "2 h 05 min".
  static std::string duration(double seconds);

 private:
  std::string what_;
  size_t total_;
  bool shown_, terminal_, drawn_ = false;
  size_t plain_every_;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace fixroute
