// A PacketSink that hands each step to another sink on a second thread: the engine
// simulates step t+1 while the scoreboard (and the trace writer) check step t. Same
// steps, same order, same verdict as calling the sink directly (docs/cli.md `--threads`).
// Where the sink also takes links (LinkStepSink: the online scoreboard), so does the
// pipeline: it queues a copy of the step's links, which costs the engine less than rows.
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
#include "sw/kinds/port_rules/link_step.h"

namespace fixroute {

class PipelinedPacketSink final : public PacketSink, public LinkStepSink {
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
  // Queues a copy of the step's links (where the target takes links).
  void links(int64_t step, const LinkStep& crossings) override;
  bool takes_links() const override { return link_target_ != nullptr; }
  // The target's check in parts, where it has one: the engine's threads then check each
  // step in place of this pipeline (asked before the first step, so nothing is queued).
  RangedLinkCheck* ranged() override { return link_target_ ? link_target_->ranged() : nullptr; }
  // Waits until `target` has every queued step; rethrows what it threw.
  void drain();

 private:
  struct Step {
    int64_t step = 0;
    bool as_links = false;  // the step is `packets` and `used`, not `events`
    std::vector<TraceEvent> events;
    std::vector<Packet> packets;
    std::vector<uint8_t> used;
  };
  // Waits for room, then queues the step with a spare buffer (or a new one) that `fill`
  // fills or swaps with the caller's.
  void enqueue(int64_t step, const std::function<void(Step&)>& fill);
  void work();
  void rethrow();

  PacketSink& target_;
  LinkStepSink* link_target_;  // the target, where it takes links
  size_t depth_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Step> queued_;
  std::vector<Step> spare_;  // buffers handed back for reuse
  bool busy_ = false;        // the worker holds a step
  bool closing_ = false;
  std::exception_ptr failed_;
  std::thread worker_;
};

}  // namespace fixroute
