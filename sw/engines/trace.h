// The event trace every engine writes (docs/trace-format.md): one row per arc
// crossing, `step,from,to,origin,dest,seq`, sorted by step, then from, then to.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "sw/core/partial_output.h"

#include "sw/core/router_kind.h"

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

// One step's crossings, as a streaming engine hands them on (core/router_kind.h TraceSink):
// steps in increasing order, `events` sorted as sort_trace sorts them.
struct PacketSink : TraceSink {
  virtual void step(int64_t step, const std::vector<TraceEvent>& events) = 0;
};

// Hands a whole sorted trace to `sink` step by step.
void replay_trace(const std::vector<TraceEvent>& trace, PacketSink& sink);

// Writes a trace CSV as the steps come, to `path`.tmp, renamed to `path` by finish();
// a run that stops early leaves no file behind (core/partial_output.h). `header`: the
// kind's header line (without the newline); step() writes port-rules rows, write() rows
// another kind formatted.
class TraceCsvWriter {
 public:
  // Throws InputError when it cannot write there.
  explicit TraceCsvWriter(const std::string& path, const char* header = kTraceHeader);
  ~TraceCsvWriter();
  TraceCsvWriter(const TraceCsvWriter&) = delete;
  TraceCsvWriter& operator=(const TraceCsvWriter&) = delete;
  void step(const std::vector<TraceEvent>& events);
  void write(const std::string& rows);
  void finish();  // throws InputError when the file could not be completed

 private:
  PartialOutput out_;
  std::FILE* file_ = nullptr;
};

// The port-rule routers' trace behind the kind-neutral interface of core/router_kind.h.
struct PacketTrace : Trace {
  std::vector<TraceEvent> events;  // sorted
  explicit PacketTrace(std::vector<TraceEvent> e) : events(std::move(e)) {}
  std::string csv() const override { return trace_to_csv(events); }
  int64_t rows() const override { return static_cast<int64_t>(events.size()); }
};

}  // namespace fixroute
