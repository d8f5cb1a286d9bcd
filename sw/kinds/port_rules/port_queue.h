// The ref engine's out-port queues (ref_engine.cpp), every port of the network in one
// object: each pops the packet router_rules::pick_next would pick, without scanning.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "sw/kinds/port_rules/router_rules.h"
#include "sw/kinds/port_rules/tables.h"

namespace fixroute {

// Queue q's kind is fixed at construction. Every queue owns a run of slots in one shared
// pool; a queue that outgrows its run moves to a larger run at the pool's end (no
// allocation per queue, none at all once a run has warmed up; a step's pops and pushes
// touch one small record and a slot of one run). A step sweeps every queue, and on large
// networks the records are met again only after the scoreboard has swept its own arrays:
// they are kept small, and a FIFO queue's first packet lives in its record (32 bytes; the
// pool only once it holds two), so more of them stay in the caches.
// - FIFO: the run is a ring.
// - Furthest-first: the run is kept sorted, the packet that leaves next at its top (most
//   hops; among equal hops the one queued first): a lower part, a gap, an upper part and
//   free slots above it. A new packet goes before every packet with as many hops or more:
//   the gap moves there (the packets between it and there cross it) and the packet fills
//   its first slot. Pops take the top, so the place a port's next packet joins keeps its
//   distance from the top from step to step (a packet leaves one queue as the furthest
//   and arrives with nearly the most hops of the next) and the gap follows it a slot at a
//   time. Per-hop-count lists scattered over a pool cost a cache miss per push and per pop
//   on long lines; a plain sorted array moved tens of packets per push. The record holds
//   the lower part's top and a copy of the hops under it (48 bytes): what nearly every push
//   compares with and moves, without touching the run beside the gap.
class PortQueues {
 public:
  enum class Kind { Fifo, FurthestFirst };
  static constexpr uint32_t kInitialSortedRun = 2;  // slots of a sorted queue's first run

  explicit PortQueues(const std::vector<Kind>& kinds) : sorted_(kinds.size()) {
    static_assert(std::is_trivially_copyable_v<Packet>, "packets are moved with memmove");
    static_assert(sizeof(Ring) == 32, "two ring records to a cache line");
    static_assert(sizeof(SortedRun) == 48, "four sorted-run records to three cache lines");
    for (size_t q = 0; q < kinds.size(); ++q) sorted_[q] = kinds[q] == Kind::FurthestFirst;
    const auto sorted = static_cast<size_t>(std::count(sorted_.begin(), sorted_.end(), uint8_t{1}));
    if (sorted > kMaxPool / kInitialSortedRun) throw std::length_error("ref engine: more out-port queues than 2^31");
    all_ = sorted == 0 ? All::Fifo : sorted == kinds.size() ? All::FurthestFirst : All::Mixed;
    if (all_ != All::FurthestFirst) rings_.resize(kinds.size());
    if (all_ != All::Fifo) sorted_runs_.resize(kinds.size());
    pool_.resize(sorted * kInitialSortedRun);
    size_t next = 0;
    for (size_t q = 0; q < kinds.size(); ++q)
      if (sorted_[q]) {
        SortedRun& r = sorted_runs_[q];
        r.base = static_cast<uint32_t>(next);
        r.capacity = kInitialSortedRun;
        next += kInitialSortedRun;
      } else {
        rings_[q].capacity = 1;  // its packet in the record
      }
  }

  // Room asked for up front for the runs of `packets` packets queued at once (a run's
  // doublings leave its old runs behind: up to about four slots a packet), so the pool is
  // not moved as it grows -- each move would leave the old copy to the allocator, resident
  // until it decays (line:1024 total exchange: 10-13 MB of peak memory, timing-dependent).
  // Only address space: a slot's page is touched when a run takes it.
  void expect(size_t packets) {
    pool_.reserve(std::min(kMaxPool, pool_.size() + 4 * packets));
  }

  // What every queue is, where all are alike (the ref engine's step is compiled for each:
  // a queue's kind is then not asked). `kAll` below: all() as the caller knows it.
  enum class All { Fifo, FurthestFirst, Mixed };
  All all() const { return all_; }

  template <All kAll = All::Mixed>
  size_t size(size_t q) const {
    return is_sorted<kAll>(q) ? sorted_runs_[q].size : rings_[q].size;
  }
  template <All kAll = All::Mixed>
  bool empty(size_t q) const {
    return size<kAll>(q) == 0;
  }

  // Returns the queue's size after the push.
  template <All kAll = All::Mixed>
  uint32_t push(size_t q, Packet p) {  // by value: in two registers, not through memory
    if (is_sorted<kAll>(q)) return push_sorted(sorted_runs_[q], p);
    return push_ring(rings_[q], p);
  }

  template <All kAll = All::Mixed>
  Packet pop(size_t q) {
    if (is_sorted<kAll>(q)) {
      SortedRun& r = sorted_runs_[q];
      --r.size;
      Packet p;
      if (r.end > r.high) {
        p = pool_[r.base + --r.end];
      } else {  // the lower part's top, from the record, which then takes the next from the run
        p = r.top;
        --r.head;
        copy_top(r);
      }
      if (r.end == r.high) r.high = r.end = r.head;  // no upper part: the gap and the free slots are one
      if (r.capacity > kLongRun) prefetch(&pool_[r.base + (r.end > kAhead ? r.end - kAhead : 0)]);
      return p;
    }
    return pop_ring(rings_[q]);
  }

 private:
  // FIFO: packets from `head` round the ring. Furthest-first: the lower part [0, head), the
  // gap [head, high), the upper part [high, end), free slots [end, capacity).
  struct Queue {
    uint32_t base = 0;      // first slot of the run in pool_
    uint32_t capacity = 0;  // slots of the run (a power of two)
    uint32_t head = 0;
    uint32_t size = 0;
  };
  // A FIFO queue starts with room for one packet in its record (no run in the pool): where
  // a port never holds more (gossip's cycles), a push or pop touches one cache line.
  struct Ring : Queue {
    Packet slot;  // the packet, while capacity is 1
  };
  // The lower part's top packet lives in the record, and the hops of the one under it are
  // copied there: nearly every push compares with both and moves the top across the gap
  // (the new packet becomes the top), and a step's other traffic evicts the run's line
  // there between two visits (line:1024 total exchange: most of a push's time read or wrote
  // it). The top's slot in the run is written only when a packet joins above it or a push
  // goes out of line (the run whole again); copy_top reads the top back from the run where
  // the lower part changed otherwise.
  static constexpr int kNoHops = std::numeric_limits<int>::min();
  struct SortedRun : Queue {
    uint32_t high = 0;
    uint32_t end = 0;
    Packet top;                    // the packet of slot head - 1, where head > 0
    int32_t below_hops = kNoHops;  // run[head - 2].hops, where head > 1
    uint32_t unused = 0;           // 48 bytes
  };
  void copy_top(SortedRun& r) const {
    const Packet* run = &pool_[r.base];
    if (r.head != 0) r.top = run[r.head - 1];
    r.below_hops = r.head >= 2 ? run[r.head - 2].hops : kNoHops;
  }
  template <All kAll>
  bool is_sorted(size_t q) const {
    return kAll == All::FurthestFirst || (kAll == All::Mixed && sorted_[q]);
  }
  static constexpr size_t kMaxPool = size_t{1} << 32;  // slots: a run's base is 32 bits

  uint32_t push_ring(Ring& r, Packet p) {
    if (r.capacity == 1 && r.size == 0) {
      r.slot = p;
      r.size = 1;
      return 1;
    }
    if (r.size == r.capacity) grow(r);
    pool_[r.base + ((r.head + r.size) & (r.capacity - 1))] = p;
    if (r.capacity > kLongRun) prefetch(&pool_[r.base + ((r.head + r.size + kAhead) & (r.capacity - 1))]);
    return ++r.size;
  }
  Packet pop_ring(Ring& r) {
    --r.size;
    if (r.capacity == 1) return r.slot;
    const Packet p = pool_[r.base + r.head];
    r.head = (r.head + 1) & (r.capacity - 1);
    if (r.capacity > kLongRun) prefetch(&pool_[r.base + ((r.head + kAhead) & (r.capacity - 1))]);
    return p;
  }

  // Queues move through their runs a slot a step, and a step visits every queue: with
  // more packets in flight than the caches hold, each new line would be a miss the core
  // waits for. The line a queue's end reaches next is asked for a push or pop ahead, in
  // runs longer than a few lines (short ones stay cached; asking costs more than it saves).
  static constexpr uint32_t kAhead = 64 / sizeof(Packet);
  static constexpr uint32_t kLongRun = 4 * kAhead;
  static void prefetch(const Packet* slot) { __builtin_prefetch(slot, 1); }

  // A furthest-first push where the gap is open and the packet joins at it or a slot under
  // it (nearly every push: see the class comment), inline; any other out of line
  // (push_sorted_anywhere), so the arrivals' loop stays small and keeps its registers.
  uint32_t push_sorted(SortedRun& r, Packet p) {
    const uint32_t head = r.head;
    if (head == r.high) return push_sorted_anywhere(r, p);
    Packet* run = &pool_[r.base];
    if (head != 0 && r.top.hops >= p.hops) {  // the gap moves down a slot: p takes the top's slot
      if (r.below_hops >= p.hops) return push_sorted_anywhere(r, p);
      run[--r.high] = r.top;
    } else {
      if (r.high != r.end && run[r.high].hops < p.hops) return push_sorted_anywhere(r, p);
      if (head != 0) run[head - 1] = r.top;  // no longer the top: into the run
      r.below_hops = head != 0 ? r.top.hops : kNoHops;
      r.head = head + 1;
    }
    r.top = p;
    if (r.capacity > kLongRun) prefetch(run + (r.high > kAhead ? r.high - kAhead : 0));
    return ++r.size;
  }

  __attribute__((noinline)) uint32_t push_sorted_anywhere(SortedRun& r, Packet p) {
    if (r.head != 0) pool_[r.base + r.head - 1] = r.top;  // the run whole again (see SortedRun)
    if (r.head == r.high) open_gap(r);
    Packet* run = &pool_[r.base];
    // where it joins: above every packet with fewer hops, below the others
    const bool above_lower = r.head == 0 || run[r.head - 1].hops < p.hops;
    const bool below_upper = r.high == r.end || run[r.high].hops >= p.hops;
    if (!above_lower) {  // the gap moves down: the lower part's packets from `at` cross it
      const uint32_t at = join_below(run, r.head, p.hops);
      const uint32_t n = r.head - at;
      std::memmove(run + r.high - n, run + at, n * sizeof(Packet));
      r.high -= n;
      r.head = at;
    } else if (!below_upper) {  // the gap moves up: the upper part's packets below `at` cross it
      const uint32_t at = join_above(run, r.high, r.end, p.hops);
      const uint32_t n = at - r.high;
      std::memmove(run + r.head, run + r.high, n * sizeof(Packet));
      r.head += n;
      r.high = at;
    }
    run[r.head++] = p;
    copy_top(r);
    // the upper part's bottom moves down a slot a push: its next line, fetched ahead
    if (r.capacity > kLongRun) prefetch(run + (r.high > kAhead ? r.high - kAhead : 0));
    return ++r.size;
  }


  static bool fewer_hops(const Packet& a, int hops) { return a.hops < hops; }
  static constexpr uint32_t kScan = 8;  // slots looked at one by one next to the gap before a binary search

  // The first slot of [0, below) with as many hops or more (the packets at `below - 1` and
  // maybe a few under it have: the gap usually moves a slot or two).
  static uint32_t join_below(const Packet* run, uint32_t below, int hops) {
    uint32_t at = below - 1;  // run[at].hops >= hops
    for (uint32_t k = 0; k < kScan; ++k, --at)
      if (at == 0 || run[at - 1].hops < hops) return at;
    return static_cast<uint32_t>(std::lower_bound(run, run + at, hops, fewer_hops) - run);
  }
  // The first slot of [from, end) with as many hops or more, or `end` (run[from] has fewer).
  static uint32_t join_above(const Packet* run, uint32_t from, uint32_t end, int hops) {
    uint32_t at = from + 1;
    for (uint32_t k = 0; k < kScan; ++k, ++at)
      if (at == end || run[at].hops >= hops) return at;
    return static_cast<uint32_t>(std::lower_bound(run + at, run + end, hops, fewer_hops) - run);
  }

  // A full gap: the upper part moved to the top of the run, or, where that leaves fewer
  // free slots than a quarter of the packets (the gap would soon close again), a run twice
  // as large. Either way the packets moved pay for at least size / 4 pushes.
  void open_gap(SortedRun& r) {
    const uint32_t upper = r.end - r.high, free = r.capacity - r.size;
    if (free == 0 || free < r.size / 4) {
      grow(r);
      return;
    }
    Packet* run = &pool_[r.base];
    std::memmove(run + r.capacity - upper, run + r.high, upper * sizeof(Packet));
    r.high = r.capacity - upper;
    r.end = r.capacity;
  }

  // A run twice as large at the pool's end (larger_run: its first slot): a ring's packets
  // in order from its start; a sorted run's lower part at its start and its upper part at
  // its top.
  size_t larger_run(const Queue& r) {
    const size_t capacity = static_cast<size_t>(r.capacity) * 2;
    if (capacity > (size_t{1} << 31)) throw std::length_error("ref engine: an out-port queue of 2^31 packets");
    const size_t base = pool_.size();
    if (base + capacity > kMaxPool) throw std::length_error("ref engine: out-port queues of 2^32 packets in all");
    pool_.resize(base + capacity);
    return base;
  }
  void grow(Ring& r) {
    const size_t base = larger_run(r);
    if (r.capacity == 1) pool_[base] = r.slot;  // full: its one packet
    for (size_t k = 0; k < r.size && r.capacity > 1; ++k)
      pool_[base + k] = pool_[r.base + ((r.head + k) & (r.capacity - 1))];
    r.head = 0;
    r.base = static_cast<uint32_t>(base);
    r.capacity *= 2;
  }
  void grow(SortedRun& r) {
    const size_t base = larger_run(r);
    const uint32_t capacity = r.capacity * 2, upper = r.end - r.high;
    std::copy_n(pool_.begin() + static_cast<std::ptrdiff_t>(r.base), r.head, pool_.begin() + static_cast<std::ptrdiff_t>(base));
    std::copy_n(pool_.begin() + static_cast<std::ptrdiff_t>(r.base + r.high), upper,
                pool_.begin() + static_cast<std::ptrdiff_t>(base + capacity - upper));
    r.high = capacity - upper;
    r.end = capacity;
    r.base = static_cast<uint32_t>(base);
    r.capacity = capacity;
  }

  All all_ = All::Fifo;
  std::vector<uint8_t> sorted_;          // per queue: furthest-first
  std::vector<Ring> rings_;              // per queue where any is FIFO (else empty)
  std::vector<SortedRun> sorted_runs_;  // per queue where any is sorted (else empty)
  std::vector<Packet> pool_;
};

}  // namespace fixroute
