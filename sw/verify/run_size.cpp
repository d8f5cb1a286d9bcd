#include "run_size.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>

#include "sw/core/errors.h"

namespace fixroute {

int64_t parse_memory_size(const std::string& text) {
  const auto bad = [&] {
    return InputError(fmt::format("--max-memory '{}': expected a size such as 4G, 512M, 1.5GiB or a byte count", text));
  };
  size_t end = 0;
  while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.')) ++end;
  if (!std::isdigit(static_cast<unsigned char>(text[0])) || text.find('.') != text.rfind('.')) throw bad();
  const double number = std::stod(text.substr(0, end));
  std::string unit = text.substr(end);
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
