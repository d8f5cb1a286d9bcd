#include "progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>

namespace fixroute {

Progress::Progress(std::string what, size_t total, bool shown, double plain_every)
    : what_(std::move(what)),
      total_(total),
      shown_(shown),
      terminal_(shown && isatty(fileno(stderr)) != 0),
      plain_every_(plain_every),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

Progress::~Progress() { clear(); }

std::string Progress::duration(double seconds) {
  const auto s = static_cast<int64_t>(std::llround(seconds));
  if (s < 60) return fmt::format("{} s", s);
  if (s < 3600) return fmt::format("{} min {} s", s / 60, s % 60);
  return fmt::format("{} h {:02} min", s / 3600, (s % 3600) / 60);
}

void Progress::update(size_t done, size_t failed) {
  if (!shown_) return;
  const auto now = std::chrono::steady_clock::now();
  const bool last = done >= total_;
  if (terminal_) {
    if (!last && drawn_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
  } else if (!last && std::chrono::duration<double>(now - last_draw_).count() < plain_every_) {
    return;
  }
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  std::string line = fmt::format("{}: {}/{} runs, {} failed, {} elapsed", what_, done, total_, failed, duration(elapsed));
  if (!last && done > 0)
    line += fmt::format(", about {} left",
                        duration(elapsed / static_cast<double>(done) * static_cast<double>(total_ - done)));
  std::fflush(stdout);
  if (terminal_) {
    fmt::print(stderr, "\r\033[K{}", line);
    drawn_ = true;
    last_draw_ = now;
  } else {
    fmt::print(stderr, "{}\n", line);
    last_draw_ = now;
  }
}

void Progress::clear() {
  if (terminal_ && drawn_) {
    fmt::print(stderr, "\r\033[K");
    drawn_ = false;
  }
}

void Progress::finish() {
  if (terminal_ && drawn_) {
    fmt::print(stderr, "\n");
    drawn_ = false;
  }
}

RunProgress::RunProgress(std::string what, bool shown, double quiet_for, double plain_every)
    : what_(std::move(what)),
      shown_(shown),
      terminal_(shown && isatty(fileno(stderr)) != 0),
      quiet_for_(quiet_for),
      plain_every_(plain_every),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

RunProgress::~RunProgress() { clear(); }

void RunProgress::clear() {
  if (terminal_ && drawn_) fmt::print(stderr, "\r\033[K");
  drawn_ = false;
  shown_ = false;
}

void RunProgress::step(int64_t step) {
  if (!shown_) return;
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (elapsed < quiet_for_) return;
  const double since_draw = std::chrono::duration<double>(now - last_draw_).count();
  if (drawn_ && since_draw < (terminal_ ? 0.1 : plain_every_)) return;
  const std::string line = fmt::format("{}: step {}, {} elapsed", what_, step, Progress::duration(elapsed));
  if (terminal_) {
    fmt::print(stderr, "\r\033[K{}", line);
  } else {
    fmt::print(stderr, "{}\n", line);
  }
  drawn_ = true;
  last_draw_ = now;
}

}  // namespace fixroute
