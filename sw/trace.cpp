#include "trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <tuple>

#include "errors.h"

namespace fixroute {

void sort_trace(std::vector<TraceEvent>& trace) {
  std::sort(trace.begin(), trace.end(), [](const TraceEvent& a, const TraceEvent& b) {
    return std::tie(a.step, a.from, a.to, a.origin, a.dest, a.seq) <
           std::tie(b.step, b.from, b.to, b.origin, b.dest, b.seq);
  });
}

std::string trace_to_csv(const std::vector<TraceEvent>& trace) {
  std::string out = kTraceHeader;
  out += '\n';
  for (const TraceEvent& e : trace) out += fmt::format("{},{},{},{},{},{}\n", e.step, e.from, e.to, e.origin, e.dest, e.seq);
  return out;
}

void write_trace(const std::vector<TraceEvent>& trace, const std::string& path) {
  std::ofstream out(path);
  out << trace_to_csv(trace);
  if (!out) throw InputError(fmt::format("cannot write trace '{}'", path));
}

std::vector<TraceEvent> parse_trace(const std::string& csv) {
  std::istringstream in(csv);
  std::string line;
  if (!std::getline(in, line) || line != kTraceHeader)
    throw InputError(fmt::format("bad trace: the first line is not '{}'", kTraceHeader));
  std::vector<TraceEvent> out;
  int lineno = 1;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty()) continue;
    TraceEvent e;
    char extra = 0;
    if (std::sscanf(line.c_str(), "%ld,%d,%d,%d,%d,%d%c", &e.step, &e.from, &e.to, &e.origin, &e.dest, &e.seq,
                    &extra) != 6)
      throw InputError(fmt::format("bad trace: line {} is not six integers", lineno));
    out.push_back(e);
  }
  return out;
}

}  // namespace fixroute
