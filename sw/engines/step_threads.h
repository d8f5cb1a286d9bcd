// The threads of an engine that splits its routers across threads within a step
// (ref_engine.cpp, `run --threads N`): run(f) calls f(0) .. f(parts - 1) at once, one part
// per thread (the caller takes part 0), and returns when every part is done. A step has a
// few such phases; the waits spin briefly, then yield (a step is microseconds of work).
#pragma once
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <thread>
#include <utility>
#include <vector>

namespace fixroute {

class StepThreads {
 public:
  explicit StepThreads(int parts) : parts_(parts), failures_(static_cast<size_t>(parts)) {
    for (int k = 1; k < parts; ++k) workers_.emplace_back([this, k] { work(k); });
  }
  ~StepThreads() {
    stop_.store(true, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_acq_rel);
    for (std::thread& t : workers_) t.join();
  }
  StepThreads(const StepThreads&) = delete;
  StepThreads& operator=(const StepThreads&) = delete;

  int parts() const { return parts_; }

  // f(k) for every part k, part 0 on the calling thread; rethrows what a part threw.
  void run(const std::function<void(int)>& f) {
    job_ = &f;
    pending_.store(parts_ - 1, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_acq_rel);
    call(0);
    for (int spins = 0; pending_.load(std::memory_order_acquire) > 0; ++spins)
      if (spins > kSpins) std::this_thread::yield();
    for (std::exception_ptr& e : failures_)
      if (e) std::rethrow_exception(std::exchange(e, nullptr));
  }

 private:
  static constexpr int kSpins = 2000;

  void call(int k) {
    try {
      (*job_)(k);
    } catch (...) {
      failures_[static_cast<size_t>(k)] = std::current_exception();
    }
  }
  void work(int k) {
    uint64_t seen = 0;
    for (;;) {
      uint64_t now = generation_.load(std::memory_order_acquire);
      for (int spins = 0; now == seen; ++spins) {
        if (spins > kSpins) std::this_thread::yield();
        now = generation_.load(std::memory_order_acquire);
      }
      seen = now;
      if (stop_.load(std::memory_order_acquire)) return;
      call(k);
      pending_.fetch_sub(1, std::memory_order_acq_rel);
    }
  }

  const int parts_;
  const std::function<void(int)>* job_ = nullptr;
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> pending_{0};
  std::atomic<bool> stop_{false};
  std::vector<std::exception_ptr> failures_;
  std::vector<std::thread> workers_;
};

}  // namespace fixroute
