// The ref engine's out-port queue (ref_engine.cpp): pops the packet
// router_rules::pick_next would pick, without scanning the queue.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "router_rules.h"
#include "sw/tables/port_rule_tables.h"

namespace fixroute {

// One out-port's queue, popping what router_rules::pick_next would pick. FIFO ports: a
// ring buffer that only grows (no allocation once a run has warmed up). Furthest-first
// ports: one FIFO per hop count (linked through one pool of slots) and a bit per
// non-empty one, the highest found a word at a time (hop counts never exceed the largest
// an initial packet has, `max_hops`); where the network is too large for that, a heap
// ordered by router_rules::furthest_first_priority.
class PortQueue {
 public:
  enum class Kind { Fifo, Buckets, Heap };
  PortQueue(Kind kind, int max_hops)
      : kind_(kind), ordered_(kind == Kind::Fifo ? nullptr : std::make_unique<Ordered>(max_hops)) {}
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  void push(const Packet& p) {
    ++size_;
    if (kind_ == Kind::Fifo) {
      if (size_ > ring_.size()) grow();
      ring_[(head_ + size_ - 1) & (ring_.size() - 1)] = p;
    } else if (kind_ == Kind::Buckets) {
      ordered_->push_bucket(p);
    } else {
      ordered_->heap.push_back({router_rules::furthest_first_priority(p, ordered_->queued++), p});
      std::push_heap(ordered_->heap.begin(), ordered_->heap.end(), ByPriority{});
    }
  }

  Packet pop() {
    --size_;
    if (kind_ == Kind::Fifo) {
      const Packet p = ring_[head_];
      head_ = (head_ + 1) & (ring_.size() - 1);
      return p;
    }
    if (kind_ == Kind::Buckets) return ordered_->pop_bucket();
    std::pop_heap(ordered_->heap.begin(), ordered_->heap.end(), ByPriority{});
    const Packet p = ordered_->heap.back().second;
    ordered_->heap.pop_back();
    return p;
  }

 private:
  using Entry = std::pair<uint64_t, Packet>;
  struct ByPriority {  // a functor, so the heap's comparisons inline
    bool operator()(const Entry& a, const Entry& b) const { return a.first < b.first; }
  };

  // Furthest-first state, kept apart so the FIFO ports a run walks every step stay small.
  // Buckets: per hop count a list in arrival order through `pool` (first, last: slots, -1
  // empty); freed slots are chained from `free`, so memory follows the longest queue.
  struct Ordered {
    struct Slot {
      Packet packet;
      int32_t next = -1;
    };
    explicit Ordered(int hops) : max_hops(hops) {}
    int max_hops;
    std::vector<Slot> pool;
    int32_t free = -1;
    std::vector<int32_t> first, last;
    std::vector<uint64_t> nonempty;
    int top = -1;
    std::vector<Entry> heap;  // Kind::Heap
    uint64_t queued = 0;

    void push_bucket(const Packet& p) {
      if (first.empty()) {  // allocated on first use: most furthest-first ports of a big network stay idle
        first.assign(static_cast<size_t>(max_hops) + 1, -1);
        last.assign(first.size(), -1);
        nonempty.assign(first.size() / 64 + 1, 0);
      }
      const size_t h = static_cast<size_t>(p.hops);
      if (h >= first.size()) throw std::logic_error("ref engine: a packet with more hops than any initial one");
      int32_t slot = free;
      if (slot >= 0) {
        free = pool[static_cast<size_t>(slot)].next;
      } else {
        slot = static_cast<int32_t>(pool.size());
        pool.push_back({});
      }
      pool[static_cast<size_t>(slot)] = {p, -1};
      if (last[h] >= 0)
        pool[static_cast<size_t>(last[h])].next = slot;
      else
        first[h] = slot;
      last[h] = slot;
      nonempty[h / 64] |= uint64_t{1} << (h % 64);
      top = std::max(top, static_cast<int>(h));
    }

    Packet pop_bucket() {
      const size_t h = static_cast<size_t>(top);
      const int32_t slot = first[h];
      Slot& taken = pool[static_cast<size_t>(slot)];
      const Packet p = taken.packet;
      first[h] = taken.next;
      taken.next = free;
      free = slot;
      if (first[h] < 0) {  // emptied: the next highest non-empty bucket
        last[h] = -1;
        nonempty[h / 64] &= ~(uint64_t{1} << (h % 64));
        top = -1;
        for (size_t w = h / 64 + 1; w-- > 0;)
          if (nonempty[w]) {
            top = static_cast<int>(w * 64 + 63 - static_cast<size_t>(__builtin_clzll(nonempty[w])));
            break;
          }
      }
      return p;
    }
  };

  void grow() {  // capacity a power of two, the packets in order from 0
    std::vector<Packet> bigger(std::max<size_t>(4, ring_.size() * 2));
    for (size_t k = 0; k + 1 < size_; ++k) bigger[k] = ring_[(head_ + k) & (ring_.size() - 1)];
    ring_ = std::move(bigger);
    head_ = 0;
  }

  Kind kind_;
  size_t size_ = 0;
  std::vector<Packet> ring_;  // Kind::Fifo
  size_t head_ = 0;
  std::unique_ptr<Ordered> ordered_;
};

}  // namespace fixroute
