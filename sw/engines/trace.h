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

// Writes a CSV as its rows come, through a PartialOutput (core/partial_output.h): a file
// is renamed into place by finish(), so a run that stops early leaves none behind.
// `header`: the header line (without the newline); step() writes port-rules rows, write()
// rows formatted elsewhere (another kind's trace, the sweep's rows). `what` names the file
// in errors.
class TraceCsvWriter {
 public:
  // Throws InputError when it cannot write there.
  explicit TraceCsvWriter(const std::string& path, const std::string& header = kTraceHeader,
                          const std::string& what = "trace");
  ~TraceCsvWriter();
  TraceCsvWriter(const TraceCsvWriter&) = delete;
  TraceCsvWriter& operator=(const TraceCsvWriter&) = delete;
  void step(const std::vector<TraceEvent>& events);
  void write(const std::string& rows);
  void finish();  // throws InputError when the file could not be completed
  bool to_standard_output() const { return out_.standard_output(); }

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
