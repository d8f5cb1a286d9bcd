// A PacketSink that hands each step to another sink on a second thread: the engine
// simulates step t+1 while the scoreboard (and the trace writer) check step t. Same
// steps, same order, same verdict as calling the sink directly (docs/cli.md `--threads`).
#pragma once
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "sw/engines/trace.h"

namespace fixroute {

class PipelinedPacketSink final : public PacketSink {
 public:
  // At most `depth` steps wait for `target` (the engine blocks beyond): memory stays a
  // few steps' crossings.
  explicit PipelinedPacketSink(PacketSink& target, size_t depth = 2);
  ~PipelinedPacketSink() override;  // drains what is queued; an error found then is dropped
  PipelinedPacketSink(const PipelinedPacketSink&) = delete;
  PipelinedPacketSink& operator=(const PipelinedPacketSink&) = delete;

  // Queues a copy of the step; rethrows here what `target` threw on an earlier step.
  void step(int64_t step, const std::vector<TraceEvent>& events) override;
  // Queues the step's vector itself and hands the caller a spare one (no copy).
  void take_step(int64_t step, std::vector<TraceEvent>& events) override;
  // Waits until `target` has every queued step; rethrows what it threw.
  void drain();

 private:
  struct Step {
    int64_t step = 0;
    std::vector<TraceEvent> events;
  };
  // Waits for room, then queues the step with a spare vector (or a new one) that `fill`
  // fills or swaps with the caller's.
  void enqueue(int64_t step, const std::function<void(std::vector<TraceEvent>&)>& fill);
  void work();
  void rethrow();

  PacketSink& target_;
  size_t depth_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Step> queued_;
  std::vector<std::vector<TraceEvent>> spare_;  // buffers handed back for reuse
  bool busy_ = false;                           // the worker holds a step
  bool closing_ = false;
  std::exception_ptr failed_;
  std::thread worker_;
};

}  // namespace fixroute
