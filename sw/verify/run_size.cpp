#include "run_size.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>

#include "sw/core/errors.h"

namespace fixroute {

namespace {

// "1.5GiB" as 1.5 and "GiB": a number of digits with at most one point (in the whole
// text), then its unit; nullopt for anything else. std::strtod, not std::stod: a number
// of more digits than a double holds reads as infinity, which the callers' ranges refuse,
// where std::stod would throw std::out_of_range past them.
std::optional<std::pair<double, std::string>> number_and_unit(const std::string& text) {
  size_t end = 0;
  while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.')) ++end;
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])) || text.find('.') != text.rfind('.'))
    return std::nullopt;
  return std::make_pair(std::strtod(text.substr(0, end).c_str(), nullptr), text.substr(end));
}

}  // namespace

int64_t parse_memory_size(const std::string& text) {
  const auto bad = [&] {
    return InputError(fmt::format("--max-memory '{}': expected a size such as 4G, 512M, 1.5GiB or a byte count", text));
  };
  const auto split = number_and_unit(text);
  if (!split) throw bad();
  const double number = split->first;
  std::string unit = split->second;
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.size() == 3 && unit.substr(1) == "IB") unit = unit.substr(0, 1);
  if (unit.size() == 2 && unit[1] == 'B') unit = unit.substr(0, 1);
  int shift = 0;
  if (unit == "K") shift = 10;
  else if (unit == "M") shift = 20;
  else if (unit == "G") shift = 30;
  else if (unit == "T") shift = 40;
  else if (!unit.empty() && unit != "B") throw bad();
  const double bytes = std::ldexp(number, shift);
  if (!(bytes >= 1) || bytes > 9.0e18) throw bad();
  return static_cast<int64_t>(bytes);
}

double parse_duration(const std::string& text) {
  const auto bad = [&] {
    return InputError(fmt::format("--max-time '{}': expected a duration such as 90, 90s, 15m or 1.5h", text));
  };
  const auto split = number_and_unit(text);
  if (!split) throw bad();
  const double number = split->first;
  const std::string& unit = split->second;
  double scale = 0;
  if (unit.empty() || unit == "s") scale = 1;
  else if (unit == "m" || unit == "min") scale = 60;
  else if (unit == "h") scale = 3600;
  else throw bad();
  const double seconds = number * scale;
  if (!(seconds > 0) || seconds > 1e12) throw bad();
  return seconds;
}

std::string format_seconds(double seconds) {
  if (seconds < 100) return fmt::format("{:.2g} s", seconds);
  if (seconds < 6000) return fmt::format("{:.1f} min", seconds / 60);
  if (seconds < 3 * 86400) return fmt::format("{:.1f} h", seconds / 3600);
  return fmt::format("{:.1f} days", seconds / 86400);
}

double least_run_seconds(double router_steps, double router_steps_per_second) {
  return router_steps_per_second > 0 ? router_steps / router_steps_per_second : 0;
}

void check_run_time(const std::string& what, double seconds, double max_seconds, const std::string& how) {
  if (max_seconds <= 0 || seconds <= max_seconds) return;
  throw InputError(fmt::format("{} takes at least {} ({}), more than --max-time {}; refused before building it", what,
                               format_seconds(seconds), how, format_seconds(max_seconds)));
}

std::optional<int64_t> available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string key;
    int64_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  return std::nullopt;
}

std::string format_bytes(double bytes) {
  static const char* const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) return fmt::format("{:.0f} B", bytes);
  int u = -1;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  return fmt::format("{:.1f} {}", bytes, units[u]);
}

namespace {
void check_fits(const std::string& what, const char* doing, const char* before, int64_t bytes, int64_t max_memory) {
  const std::optional<int64_t> limit = max_memory > 0 ? std::optional<int64_t>(max_memory) : available_memory_bytes();
  if (!limit || bytes <= *limit) return;
  throw InputError(fmt::format("{} needs at least {}{}, more than {} ({}); refused before {}", what,
                               format_bytes(static_cast<double>(bytes)), doing, format_bytes(static_cast<double>(*limit)),
                               max_memory > 0 ? "--max-memory" : "the memory available, MemAvailable; --max-memory sets another limit",
                               before));
}
}  // namespace

void check_run_fits(const std::string& what, int64_t bytes, int64_t max_memory) {
  check_fits(what, " to run and verify", "building it", bytes, max_memory);
}

void check_write_fits(const std::string& what, int64_t bytes, int64_t max_memory) {
  check_fits(what, "", "writing anything", bytes, max_memory);
}

}  // namespace fixroute
