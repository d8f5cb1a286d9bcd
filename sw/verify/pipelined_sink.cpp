#include "pipelined_sink.h"

namespace fixroute {

PipelinedPacketSink::PipelinedPacketSink(PacketSink& target, size_t depth)
    : target_(target), depth_(depth < 1 ? 1 : depth), worker_([this] { work(); }) {}

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

void PipelinedPacketSink::enqueue(int64_t step, const std::function<void(std::vector<TraceEvent>&)>& fill) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return queued_.size() < depth_ || failed_; });
  rethrow();
  Step s;
  s.step = step;
  if (!spare_.empty()) {
    s.events = std::move(spare_.back());
    spare_.pop_back();
  }
  fill(s.events);
  queued_.push_back(std::move(s));
  lock.unlock();
  changed_.notify_all();
}

void PipelinedPacketSink::step(int64_t step, const std::vector<TraceEvent>& events) {
  enqueue(step, [&](std::vector<TraceEvent>& rows) { rows.assign(events.begin(), events.end()); });
}

void PipelinedPacketSink::take_step(int64_t step, std::vector<TraceEvent>& events) {
  enqueue(step, [&](std::vector<TraceEvent>& rows) { rows.swap(events); });  // the caller gets the spare
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
      target_.step(s.step, s.events);
    } catch (...) {
      thrown = std::current_exception();
    }
    lock.lock();
    busy_ = false;
    spare_.push_back(std::move(s.events));
    if (thrown) {
      failed_ = thrown;
      queued_.clear();  // what follows a failed step is not checked
    }
    changed_.notify_all();
  }
}

}  // namespace fixroute
