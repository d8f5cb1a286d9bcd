// The event trace every engine writes (DESIGN.md "Trace format"): one row per arc
// crossing, `step,from,to,origin,dest,seq`, sorted by step, then from, then to.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace fixroute {

struct TraceEvent {
  int64_t step = 0;
  int from = 0;
  int to = 0;
  int origin = 0;
  int dest = 0;
  int seq = 0;
  bool operator==(const TraceEvent& o) const {
    return step == o.step && from == o.from && to == o.to && origin == o.origin && dest == o.dest && seq == o.seq;
  }
};

constexpr const char* kTraceHeader = "step,from,to,origin,dest,seq";

void sort_trace(std::vector<TraceEvent>& trace);
std::string trace_to_csv(const std::vector<TraceEvent>& trace);
void write_trace(const std::vector<TraceEvent>& trace, const std::string& path);  // throws InputError

}  // namespace fixroute
