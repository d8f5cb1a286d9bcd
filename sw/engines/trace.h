// The port-rule routers' trace, as every engine writes it for them (docs/trace-format.md):
// one row per arc crossing, `step,from,to,origin,dest,seq`, sorted by step, then from, then to.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <optional>
#include <tuple>
#include <utility>
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

// A kind's scoreboard online (core/router_kind.h OnlineScore) on one thread: `Board` takes
// each step's rows (step(step, rows)) and gives the verdict (finish()); a streaming engine
// feeds it, any other engine's trace is replayed into it, and the trace CSV is written as the
// steps come where asked.
template <class Event, class Board>
class BoardOnlineScore final : public OnlineScore, public StepSink<Event> {
 public:
  template <class... BoardArgs>
  explicit BoardOnlineScore(const std::string& trace_path, BoardArgs&&... board_args)
      : board_(std::forward<BoardArgs>(board_args)...) {
    if (!trace_path.empty()) csv_.emplace(trace_path, Event::kCsvHeader);
  }
  TraceSink& sink() override { return static_cast<StepSink<Event>&>(*this); }
  void replay(const Trace& trace) override { replay_steps(as_kind<EventTrace<Event>>(trace).events, *this); }
  ScoreboardReport finish() override {
    if (csv_) csv_->finish();
    return board_.finish();
  }

 private:
  void step(int64_t step, const std::vector<Event>& rows) override {
    board_.step(step, rows);
    if (csv_) csv_->rows(rows);
    if (on_step) on_step(step);
  }
  Board board_;
  std::optional<TraceCsvWriter> csv_;
};

}  // namespace fixroute
