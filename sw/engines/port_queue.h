// The ref engine's out-port queues (ref_engine.cpp), every port of the network in one
// object: each pops the packet router_rules::pick_next would pick, without scanning.
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

// Queue q's kind is fixed at construction. FIFO queues: ring buffers in one shared pool
// of slots, a queue that outgrows its ring moving to a ring twice as large at the pool's
// end (no allocation per queue, none at all once a run has warmed up; a step's pops walk
// a few flat arrays). Furthest-first queues: one FIFO per hop count (linked through a
// pool of slots of their own) and a bit per non-empty one, the highest found a word at a
// time (hop counts never exceed the largest an initial packet has, `max_hops`); where the
// network is too large for that, a heap ordered by router_rules::furthest_first_priority.
class PortQueues {
 public:
  enum class Kind { Fifo, Buckets, Heap };
  static constexpr uint32_t kInitialRing = 2;  // slots per FIFO queue before it first grows

  PortQueues(const std::vector<Kind>& kinds, int max_hops) : rings_(kinds.size()) {
    size_t fifos = 0;
    for (const Kind k : kinds) fifos += k == Kind::Fifo ? 1 : 0;
    pool_.resize(fifos * kInitialRing);
    size_t next = 0;
    for (size_t q = 0; q < kinds.size(); ++q) {
      Ring& r = rings_[q];
      if (kinds[q] == Kind::Fifo) {
        r.base = next;
        r.mask = kInitialRing - 1;
        next += kInitialRing;
      } else {
        r.ordered = static_cast<int32_t>(ordered_.size());
        ordered_.push_back(std::make_unique<Ordered>(kinds[q] == Kind::Heap, max_hops));
      }
    }
  }

  size_t size(size_t q) const { return rings_[q].size; }
  bool empty(size_t q) const { return rings_[q].size == 0; }

  void push(size_t q, const Packet& p) {
    Ring& r = rings_[q];
    if (r.ordered >= 0) {
      ordered_[static_cast<size_t>(r.ordered)]->push(p);
    } else {
      if (r.size > r.mask) grow(r);
      pool_[r.base + ((r.head + r.size) & r.mask)] = p;
    }
    ++r.size;
  }

  Packet pop(size_t q) {
    Ring& r = rings_[q];
    --r.size;
    if (r.ordered >= 0) return ordered_[static_cast<size_t>(r.ordered)]->pop();
    const Packet p = pool_[r.base + r.head];
    r.head = (r.head + 1) & r.mask;
    return p;
  }

 private:
  struct Ring {
    size_t base = 0;        // FIFO: first slot of the ring in pool_
    uint32_t mask = 0;      // FIFO: capacity - 1 (a power of two)
    uint32_t head = 0;      // FIFO: offset of the oldest packet
    uint32_t size = 0;
    int32_t ordered = -1;   // furthest-first: index in ordered_
  };

  // A furthest-first queue. Buckets: per hop count a list in arrival order through
  // `pool` (first, last: slots, -1 empty); freed slots are chained from `free`, so memory
  // follows the longest queue.
  using Entry = std::pair<uint64_t, Packet>;
  struct ByPriority {  // a functor, so the heap's comparisons inline
    bool operator()(const Entry& a, const Entry& b) const { return a.first < b.first; }
  };
  struct Ordered {
    struct Slot {
      Packet packet;
      int32_t next = -1;
    };
    Ordered(bool as_heap, int hops) : heap_kind(as_heap), max_hops(hops) {}
    bool heap_kind;
    int max_hops;
    std::vector<Slot> pool;
    int32_t free = -1;
    std::vector<int32_t> first, last;
    std::vector<uint64_t> nonempty;
    int top = -1;
    std::vector<Entry> heap;  // Kind::Heap
    uint64_t queued = 0;

    void push(const Packet& p) {
      if (heap_kind) {
        heap.push_back({router_rules::furthest_first_priority(p, queued++), p});
        std::push_heap(heap.begin(), heap.end(), ByPriority{});
        return;
      }
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

    Packet pop() {
      if (heap_kind) {
        std::pop_heap(heap.begin(), heap.end(), ByPriority{});
        const Packet p = heap.back().second;
        heap.pop_back();
        return p;
      }
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

  void grow(Ring& r) {  // a ring twice as large at the pool's end, the packets in order from its start
    const size_t capacity = static_cast<size_t>(r.mask) + 1;
    if (capacity * 2 > (size_t{1} << 31)) throw std::length_error("ref engine: an out-port queue of 2^31 packets");
    const size_t base = pool_.size();
    pool_.resize(base + capacity * 2);
    for (size_t k = 0; k < r.size; ++k) pool_[base + k] = pool_[r.base + ((r.head + k) & r.mask)];
    r.base = base;
    r.head = 0;
    r.mask = static_cast<uint32_t>(capacity * 2 - 1);
  }

  std::vector<Ring> rings_;
  std::vector<Packet> pool_;
  std::vector<std::unique_ptr<Ordered>> ordered_;
};

}  // namespace fixroute
