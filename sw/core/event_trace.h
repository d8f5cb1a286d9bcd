// The trace of a run in its kind's rows (docs/trace-format.md), written once for every
// kind: an event type names its columns (kCsvHeader, without the newline) and gives its
// fields in that order (fields(), a tuple of references); the CSV, the row count and
// equality of rows follow from those two.
#pragma once
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "sw/core/router_kind.h"

namespace fixroute {

// The rows of `events`, one line each, without the header.
template <class Event>
void append_csv_rows(fmt::memory_buffer& out, const std::vector<Event>& events) {
  for (const Event& e : events) fmt::format_to(std::back_inserter(out), "{}\n", fmt::join(e.fields(), ","));
}

// The header line, then the rows.
template <class Event>
std::string events_to_csv(const std::vector<Event>& events) {
  fmt::memory_buffer out;
  fmt::format_to(std::back_inserter(out), "{}\n", Event::kCsvHeader);
  append_csv_rows(out, events);
  return fmt::to_string(out);
}

// Rows are equal when their fields are.
template <class Event>
bool same_fields(const Event& a, const Event& b) {
  return a.fields() == b.fields();
}

// Where a streaming engine hands each step's rows as the step ends (EngineOptions::sink):
// the online scoreboard, the trace file. Steps in increasing order, rows sorted.
template <class Event>
struct StepSink : TraceSink {
  virtual void step(int64_t step, const std::vector<Event>& rows) = 0;
  // The same from a caller that has no use for `rows` afterwards: a sink that keeps the
  // step for later (another thread's) may take the vector and leave another in its place,
  // with any rows in it (the caller clears it before it fills it again).
  virtual void take_step(int64_t step, std::vector<Event>& rows) { this->step(step, rows); }
};

// The step a row belongs to: its `step` (a kind whose rows name it otherwise overloads
// step_of beside its event type).
template <class Event>
int64_t step_of(const Event& e) {
  return e.step;
}

// Calls each_step(step, its rows) for the sorted `rows`, step by step: `rows` itself where
// it holds one step, else each step's rows copied into `scratch`.
template <class Event, class EachStep>
void for_each_step(const std::vector<Event>& rows, std::vector<Event>& scratch, EachStep each_step) {
  for (size_t first = 0; first < rows.size();) {
    size_t end = first;
    while (end < rows.size() && step_of(rows[end]) == step_of(rows[first])) ++end;
    if (first == 0 && end == rows.size()) return each_step(step_of(rows.front()), rows);
    scratch.assign(rows.begin() + static_cast<std::ptrdiff_t>(first), rows.begin() + static_cast<std::ptrdiff_t>(end));
    each_step(step_of(scratch.front()), scratch);
    first = end;
  }
}

// Hands a whole sorted trace to `sink` step by step.
template <class Event>
void replay_steps(const std::vector<Event>& trace, StepSink<Event>& sink) {
  std::vector<Event> rows;
  for_each_step(trace, rows, [&](int64_t step, const std::vector<Event>& r) { sink.step(step, r); });
}

// What a streaming engine does with the rows of each step as the step ends: hands them to
// the sink where the run streams (EngineOptions::sink), keeps them where asked
// (EngineOptions::keep_trace) or where nothing streams. Written once for every kind.
template <class Event>
class StepRecorder {
 public:
  explicit StepRecorder(const EngineOptions& options)
      : sink_(dynamic_cast<StepSink<Event>*>(options.sink)), keep_(options.keep_trace || !sink_) {}
  // Whether a run with these options streams rows of this kind.
  static bool streams(const EngineOptions& options) { return dynamic_cast<StepSink<Event>*>(options.sink) != nullptr; }
  bool streamed() const { return sink_ != nullptr; }

  // One step's rows, sorted.
  void record(int64_t step, const std::vector<Event>& rows) {
    if (sink_) sink_->step(step, rows);
    if (keep_) trace_.insert(trace_.end(), rows.begin(), rows.end());
  }
  // The same where the caller clears `rows` before it fills them again: a sink on another
  // thread takes the vector instead of a copy (StepSink::take_step).
  void record_and_clear(int64_t step, std::vector<Event>& rows) {
    if (keep_) trace_.insert(trace_.end(), rows.begin(), rows.end());
    if (sink_) sink_->take_step(step, rows);
    rows.clear();
  }
  // Sorted rows of one step or more, handed on step by step.
  void record_steps(const std::vector<Event>& rows) {
    for_each_step(rows, step_rows_, [&](int64_t step, const std::vector<Event>& r) { record(step, r); });
    step_rows_.clear();
  }
  // Rows one at a time, in order; end_step records them as the step's.
  void add(const Event& e) { step_rows_.push_back(e); }
  void end_step(int64_t step) { record_and_clear(step, step_rows_); }

  // The rows kept, sorted (empty where the run streamed without keep_trace).
  std::vector<Event> take_trace() { return std::move(trace_); }

 private:
  StepSink<Event>* sink_;
  bool keep_;
  std::vector<Event> step_rows_, trace_;
};

// A kind's trace behind the kind-neutral interface of core/router_kind.h.
template <class Event>
struct EventTrace : Trace {
  std::vector<Event> events;  // sorted
  explicit EventTrace(std::vector<Event> e) : events(std::move(e)) {}
  std::string csv() const override { return events_to_csv(events); }
  int64_t rows() const override { return static_cast<int64_t>(events.size()); }
};

}  // namespace fixroute
