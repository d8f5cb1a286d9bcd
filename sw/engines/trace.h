// The port-rule routers' trace, as every engine writes it for them (docs/trace-format.md):
// one row per arc crossing, `step,from,to,origin,dest,seq`, sorted by step, then from, then to.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "sw/core/event_trace.h"
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
  static constexpr const char* kCsvHeader = "step,from,to,origin,dest,seq";
  auto fields() const { return std::tie(step, from, to, origin, dest, seq); }
  bool operator==(const TraceEvent& o) const { return same_fields(*this, o); }
};

void sort_trace(std::vector<TraceEvent>& trace);

// One step's crossings, as a streaming engine hands them on: `events` sorted as sort_trace
// sorts them (replay_steps hands on a whole trace).
using PacketSink = StepSink<TraceEvent>;

// Writes a CSV as its rows come, through a PartialOutput (core/partial_output.h): a file
// is renamed into place by finish(), so a run that stops early leaves none behind.
// `header`: the header line (without the newline); rows() writes a kind's trace rows
// (event_trace.h), write() rows formatted elsewhere (the sweep's). `what` names the file
// in errors.
class TraceCsvWriter {
 public:
  // Throws InputError when it cannot write there.
  explicit TraceCsvWriter(const std::string& path, const std::string& header = TraceEvent::kCsvHeader,
                          const std::string& what = "trace");
  ~TraceCsvWriter();
  TraceCsvWriter(const TraceCsvWriter&) = delete;
  TraceCsvWriter& operator=(const TraceCsvWriter&) = delete;
  template <class Event>
  void rows(const std::vector<Event>& events) {
    fmt::memory_buffer out;
    append_csv_rows(out, events);
    write(out.data(), out.size());
  }
  void write(const std::string& rows) { write(rows.data(), rows.size()); }
  void finish();  // throws InputError when the file could not be completed
  bool to_standard_output() const { return out_.standard_output(); }

 private:
  void write(const char* data, size_t size);
  PartialOutput out_;
  std::FILE* file_ = nullptr;
};

// The port-rule routers' trace behind the kind-neutral interface of core/router_kind.h.
using PacketTrace = EventTrace<TraceEvent>;

}  // namespace fixroute
