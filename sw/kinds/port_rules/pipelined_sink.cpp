#include "sw/kinds/port_rules/pipelined_sink.h"

#include <stdexcept>

namespace fixroute {

PipelinedPacketSink::PipelinedPacketSink(PacketSink& target, size_t depth)
    : target_(target),
      link_target_(dynamic_cast<LinkStepSink*>(&target)),
      depth_(depth < 1 ? 1 : depth),
      worker_([this] { work(); }) {
  if (link_target_ && !link_target_->takes_links()) link_target_ = nullptr;
}

PipelinedPacketSink::~PipelinedPacketSink() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
  }
  changed_.notify_all();
  worker_.join();
}

void PipelinedPacketSink::rethrow() {  // with mutex_ held
  if (failed_) {
    std::exception_ptr e = failed_;
    failed_ = nullptr;
    std::rethrow_exception(e);
  }
}

void PipelinedPacketSink::enqueue(int64_t step, const std::function<void(Step&)>& fill) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return queued_.size() < depth_ || failed_; });
  rethrow();
  Step s;
  if (!spare_.empty()) {
    s = std::move(spare_.back());
    spare_.pop_back();
  }
  s.step = step;
  fill(s);
  queued_.push_back(std::move(s));
  lock.unlock();
  changed_.notify_all();
}

void PipelinedPacketSink::step(int64_t step, const std::vector<TraceEvent>& events) {
  enqueue(step, [&](Step& s) {
    s.as_links = false;
    s.events.assign(events.begin(), events.end());
  });
}

void PipelinedPacketSink::take_step(int64_t step, std::vector<TraceEvent>& events) {
  enqueue(step, [&](Step& s) {
    s.as_links = false;
    s.events.swap(events);  // the caller gets the spare
  });
}

void PipelinedPacketSink::links(int64_t step, const LinkStep& crossings) {
  if (!link_target_) throw std::logic_error("PipelinedPacketSink: links handed on to a sink that takes rows only");
  enqueue(step, [&](Step& s) {
    s.as_links = true;
    s.packets.assign(crossings.packets, crossings.packets + crossings.links);
    s.used.assign(crossings.used, crossings.used + crossings.links);
  });
}

void PipelinedPacketSink::drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return (queued_.empty() && !busy_) || failed_; });
  rethrow();
}

void PipelinedPacketSink::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return !queued_.empty() || closing_; });
    if (queued_.empty()) return;  // closing, nothing left
    Step s = std::move(queued_.front());
    queued_.pop_front();
    busy_ = true;
    lock.unlock();
    std::exception_ptr thrown;
    try {
      if (s.as_links)
        link_target_->links(s.step, LinkStep{s.packets.data(), s.used.data(), s.used.size()});
      else
        target_.step(s.step, s.events);
    } catch (...) {
      thrown = std::current_exception();
    }
    lock.lock();
    busy_ = false;
    spare_.push_back(std::move(s));
    if (thrown) {
      failed_ = thrown;
      queued_.clear();  // what follows a failed step is not checked
    }
    changed_.notify_all();
  }
}

}  // namespace fixroute
