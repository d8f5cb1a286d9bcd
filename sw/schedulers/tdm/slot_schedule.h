// A TDM schedule as it is built (docs/tdm.md, "Schedulers"): which router outputs, local
// injections and ejections are taken in which slot of the period, and the chains placed so
// far. A chain injected at slot t along the ports w[0..h-1] from its source takes the
// source's local input at t, the i-th router's output w[i] at t+i and the destination's
// ejection at t+h, all modulo the period -- the timing of sw/kinds/tdm/tables.h.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sw/kinds/tdm/tables.h"

namespace fixroute {

class Topology;
struct Problem;
struct Tables;

class SlotSchedule {
 public:
  SlotSchedule(const Topology& topology, int period);
  int period() const { return period_; }
  // Whether the chain from `src` along `ports` fits when injected at `slot`.
  bool fits(int src, const std::vector<int>& ports, int slot) const;
  // Takes its slots (it must fit) and records it as a chain of `flow`.
  void place(int flow, int src, const std::vector<int>& ports, int slot);
  // Whether router `node`'s output (a port, or ports() for the ejection) is free in `slot`
  // (taken modulo the period); likewise its local input.
  bool output_free(int node, int output, int64_t slot) const { return !taken_[at(node, wrap(slot), output)]; }
  bool injection_free(int node, int64_t slot) const { return !taken_[at(node, wrap(slot), ports_ + 1)]; }
  // The tables: `flows` the traffic (each flow's chains placed), named for `problem`.
  TdmTables tables(const Problem& problem, std::vector<TdmFlow> flows, const char* algorithm,
                   std::string construction) const;

 private:
  int wrap(int64_t slot) const { return static_cast<int>(slot % period_); }
  size_t at(int node, int slot, int output) const {
    return (static_cast<size_t>(node) * static_cast<size_t>(period_) + static_cast<size_t>(slot)) *
               static_cast<size_t>(ports_ + 2) +
           static_cast<size_t>(output);
  }
  const Topology& topology_;
  int period_;
  int ports_;
  std::vector<uint8_t> taken_;  // per (node, slot, output 0..ports-1, ejection, local input)
  struct Placed {
    int flow, src, slot;
    std::vector<int> ports;
  };
  std::vector<Placed> placed_;
};

// Why the TDM routers cannot run `problem` with a scheduler that takes up to `max_nodes`
// nodes, or "": they use every port both ways and take at most kMaxTdmPorts ports.
std::string tdm_unsupported(const Problem& problem, int max_nodes);

// --budget for a heuristic: after its own search ends at `period`, more attempts one slot
// shorter, each with the next of its random rounds (`attempt(period, round)`, round 1, 2,
// ...; true: that period's schedule found), while `budget_seconds` last and the period is
// above `bound`. Returns how many ran; `period` is the shortest found. 0 seconds: none.
int attempts_within_budget(double budget_seconds, int64_t bound, int64_t& period,
                           const std::function<bool(int64_t period, uint64_t round)>& attempt);

// tdm-paths (`dimension_ordered` false) and tdm-dimension-order (true, meshes): every phit
// of the problem's flows as a chain on a shortest path -- any, or the dimension-ordered one
// -- placed longest first and repaired by ejection chains, the period searched from the
// bound (docs/tdm.md, "Schedulers"). Tables named `algorithm`.
std::shared_ptr<const Tables> chain_repair_build(const Problem& problem, bool dimension_ordered, const char* algorithm);

// The heuristic a TDM problem runs by default: tdm-classes where it runs, tdm-dimension-order
// on 2D meshes, else tdm-paths (tdm-exact starts from its schedule).
const char* tdm_default_heuristic(const Problem& problem);

// What a construction line adds for --seed and --budget: "", or "; seed S", "; N more
// attempts in the budget".
std::string search_note(const Problem& problem, int attempts_in_budget);

// A seed for an attempt's random round (0: the attempt's first).
inline uint64_t round_seed(uint64_t seed, uint64_t round) { return seed + round * 0xD1B54A32D192ED03ull; }

// Throws InputError for a topology the TDM routers cannot take (more ports than a select
// holds) or a period beyond kMaxTdmPeriod.
void check_tdm_size(const Topology& topology, int64_t period);

}  // namespace fixroute
