#include "trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
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

}  // namespace fixroute
