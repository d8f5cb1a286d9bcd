// Progress of a long command on stderr (docs/cli.md, "Progress"): on a terminal one line
// redrawn in place (done/total, failures, elapsed, an estimate of what is left); otherwise
// a plain line every `plain_every` seconds and at the end, for logs.
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace fixroute {

class Progress {
 public:
  Progress(std::string what, size_t total, bool shown, double plain_every = 30.0);
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
  double plain_every_;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

// Progress of one run (`fixroute run`, docs/cli.md "Progress"): nothing while the run is
// younger than `quiet_for` seconds; then on a terminal one line redrawn in place (the step
// reached, elapsed), otherwise that line every `plain_every` seconds, for logs.
class RunProgress {
 public:
  RunProgress(std::string what, bool shown, double quiet_for = 1.0, double plain_every = 10.0);
  ~RunProgress();  // clears the terminal line
  RunProgress(const RunProgress&) = delete;
  RunProgress& operator=(const RunProgress&) = delete;

  void step(int64_t step);
  // Clears the terminal line and shows no more: the result follows.
  void clear();

 private:
  std::string what_;
  bool shown_, terminal_, drawn_ = false;
  double quiet_for_, plain_every_;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace fixroute
