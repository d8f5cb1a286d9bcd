// The threads of an engine that splits its routers across threads within a step or a
// clock (ref_engine.cpp and the rtl engine's router arrays, `run --threads N`): run(f)
// calls f(0) .. f(parts - 1) at once, one part per thread (the caller takes part 0), and
// returns when every part is done. A step has a few such phases. A thread that waits spins
// for kSpin (a phase is often microseconds of work), then, up to as long as the last phase
// took, spins yielding its core between looks, then sleeps until it is woken. A thread that
// slept starts its next part a wake-up late (tens of microseconds, on every phase where the
// other part ran longer than kSpin); yielding keeps that off long phases on idle cores
// (yield() returns at once) without holding a core the awaited thread needs where the
// threads outnumber the cores (a pure spin as long as a phase fed on itself there: each
// spin lengthened the phases it was measured by).
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
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
    stop_.store(true);
    start_next();
    for (std::thread& t : workers_) t.join();
  }
  StepThreads(const StepThreads&) = delete;
  StepThreads& operator=(const StepThreads&) = delete;

  int parts() const { return parts_; }

  // f(k) for every part k, part 0 on the calling thread; rethrows what a part threw.
  void run(const std::function<void(int)>& f) {
    const auto begun = std::chrono::steady_clock::now();
    job_ = &f;
    pending_.store(parts_ - 1);
    start_next();
    call(0);
    wait_until([this] { return pending_.load() == 0; });
    const auto took = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - begun);
    last_phase_us_.store(std::min(took, kMaxYielding).count(), std::memory_order_relaxed);
    for (std::exception_ptr& e : failures_)
      if (e) std::rethrow_exception(std::exchange(e, nullptr));
  }

 private:
  static constexpr std::chrono::microseconds kSpin{50}, kMaxYielding{10000};

  // Every change a waiter waits for is made, then the sleepers are woken. A waiter counts
  // itself a sleeper before it checks (under the mutex), so a change made after its check
  // sees it and wakes it (the atomics are sequentially consistent).
  void notify() {
    if (sleepers_.load() == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    woken_.notify_all();
  }
  void start_next() {
    generation_.fetch_add(1);
    notify();
  }
  template <class Done>
  void wait_until(const Done& done) {
    const auto begun = std::chrono::steady_clock::now();
    const auto until = begun + kSpin;
    for (int spins = 1;; ++spins) {
      if (done()) return;
      if (spins % 64 == 0 && std::chrono::steady_clock::now() > until) break;
    }
    // then up to a phase's length, yielding between looks: on idle cores yield() returns at
    // once (a spin), on busy ones it hands the core to the thread being waited for
    const auto phase = std::chrono::microseconds(last_phase_us_.load(std::memory_order_relaxed));
    while (!done()) {
      if (std::chrono::steady_clock::now() > begun + phase) break;
      std::this_thread::yield();
    }
    std::unique_lock<std::mutex> lock(mutex_);
    sleepers_.fetch_add(1);
    woken_.wait(lock, done);
    sleepers_.fetch_sub(1);
  }

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
      wait_until([this, &seen] { return generation_.load() != seen; });
      seen = generation_.load();
      if (stop_.load()) return;
      call(k);
      if (pending_.fetch_sub(1) == 1) notify();  // the last part done: the caller may sleep
    }
  }

  const int parts_;
  const std::function<void(int)>* job_ = nullptr;
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> pending_{0};
  std::atomic<bool> stop_{false};
  std::atomic<int> sleepers_{0};
  std::atomic<int64_t> last_phase_us_{0};  // how long the last run() took, at most kMaxYielding: a wait yields that long
  std::mutex mutex_;
  std::condition_variable woken_;
  std::vector<std::exception_ptr> failures_;
  std::vector<std::thread> workers_;
};

}  // namespace fixroute
