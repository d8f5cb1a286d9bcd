// All-to-all on any network (docs/tdm.md, "tdm-paths"): every flow's phit on a shortest path
// and at a slot where the whole path is free -- for each injection slot, a depth-first search
// of the shortest-path graph towards the destination, taking only outputs free in the slot
// the phit would reach them -- longest flows first, period by period from the lower bound up,
// a few shuffled orders per period (periods grow a sixteenth at a time until one fits, then
// shrink one at a time while one still does).
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <random>

#include "sw/core/algorithm.h"
#include "sw/core/errors.h"
#include "sw/kinds/tdm/bounds.h"
#include "sw/schedulers/tdm/slot_schedule.h"

namespace fixroute {
namespace {

constexpr int kOrdersPerPeriod = 8;
constexpr int kMaxPathNodes = 1024;

// The free shortest path of a phit from `src` to `dst` injected at `slot`, as ports; empty
// where none is free. `to_dst` holds every node's distance to dst.
class FreePathSearch {
 public:
  FreePathSearch(const Topology& t, const SlotSchedule& schedule, std::mt19937_64& random)
      : t_(t), schedule_(schedule), random_(random), dead_(static_cast<size_t>(t.num_nodes()), 0) {}

  std::vector<int> find(int src, int dst, const std::vector<int>& to_dst, int64_t slot) {
    ++visit_;
    ports_.clear();
    if (!schedule_.injection_free(src, slot)) return {};
    if (walk(src, dst, to_dst, slot)) return ports_;
    return {};
  }

 private:
  bool walk(int v, int dst, const std::vector<int>& to_dst, int64_t slot) {
    if (v == dst) return schedule_.output_free(v, t_.num_ports(), slot);
    int order[kMaxTdmPorts];
    const int ports = t_.num_ports();
    std::iota(order, order + ports, 0);
    std::shuffle(order, order + ports, random_);
    for (int k = 0; k < ports; ++k) {
      const int p = order[k], u = t_.neighbour(v, p);
      if (u < 0 || to_dst[static_cast<size_t>(u)] != to_dst[static_cast<size_t>(v)] - 1 ||
          dead_[static_cast<size_t>(u)] == visit_ || !schedule_.output_free(v, p, slot))
        continue;
      ports_.push_back(p);
      if (walk(u, dst, to_dst, slot + 1)) return true;
      ports_.pop_back();
    }
    dead_[static_cast<size_t>(v)] = visit_;
    return false;
  }

  const Topology& t_;
  const SlotSchedule& schedule_;
  std::mt19937_64& random_;
  std::vector<int64_t> dead_;  // visit_ where no free path leads on from the node
  int64_t visit_ = 0;
  std::vector<int> ports_;
};

std::shared_ptr<const Tables> build(const Problem& problem) {
  const Topology& t = problem.topology;
  const int n = t.num_nodes();
  std::vector<TdmFlow> flows = total_exchange_flows(t);
  const int64_t bound = tdm_period_bounds(t, flows).best();
  std::vector<std::vector<int>> distance(static_cast<size_t>(n));
  for (int v = 0; v < n; ++v) distance[static_cast<size_t>(v)] = t.distances_from(v);
  std::vector<size_t> order(flows.size());
  std::iota(order.begin(), order.end(), 0);
  auto hops = [&](size_t f) { return distance[static_cast<size_t>(flows[f].dst)][static_cast<size_t>(flows[f].src)]; };
  // One greedy placement at `period`: the schedule, or null where a flow finds no slot.
  auto attempt_at = [&](int64_t period, std::mt19937_64& random) -> std::unique_ptr<SlotSchedule> {
    std::shuffle(order.begin(), order.end(), random);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return hops(a) > hops(b); });
    auto schedule = std::make_unique<SlotSchedule>(t, static_cast<int>(period));
    FreePathSearch search(t, *schedule, random);
    for (size_t f : order) {
      const TdmFlow& flow = flows[f];
      const std::vector<int>& to_dst = distance[static_cast<size_t>(flow.dst)];
      const int64_t start = static_cast<int64_t>(random() % static_cast<uint64_t>(period));
      bool placed = false;
      for (int64_t k = 0; k < period && !placed; ++k) {
        const int64_t slot = (start + k) % period;
        const std::vector<int> ports = search.find(flow.src, flow.dst, to_dst, slot);
        if (ports.empty()) continue;
        schedule->place(static_cast<int>(f), flow.src, ports, static_cast<int>(slot));
        placed = true;
      }
      if (!placed) return nullptr;
    }
    return schedule;
  };
  // Periods a sixteenth apart up from the bound until one fits, then one shorter at a time
  // while one of a few shuffled orders still fits.
  std::unique_ptr<SlotSchedule> best;
  int64_t period = std::max<int64_t>(bound, 1);
  for (;; period += std::max<int64_t>(1, period / 16)) {
    check_tdm_size(t, period);
    std::mt19937_64 random(static_cast<uint64_t>(period));
    if ((best = attempt_at(period, random))) break;
  }
  for (bool shorter = true; shorter && period > bound;) {
    shorter = false;
    std::mt19937_64 random(static_cast<uint64_t>(period - 1));
    for (int attempt = 0; attempt < kOrdersPerPeriod && !shorter; ++attempt)
      if (std::unique_ptr<SlotSchedule> s = attempt_at(period - 1, random)) {
        best = std::move(s);
        --period;
        shorter = true;
      }
  }
  return std::make_shared<TdmTables>(
      best->tables(problem, std::move(flows), "tdm-paths", fmt::format("shortest paths, period {} (bound {})", period, bound)));
}

const AlgorithmRegistrar tdm_paths([] {
  Algorithm a;
  a.name = "tdm-paths";
  a.collective = "total-exchange";
  a.router_kind = kTdmKind;
  a.summary = "TDM slot tables for all-to-all on any network: each flow on a free shortest path, longest first "
              "(docs/tdm.md)";
  a.unsupported = [](const Problem& p) { return tdm_unsupported(p, kMaxPathNodes); };
  a.formula = [](const Problem&) { return std::optional<int64_t>{}; };
  a.build = build;
  a.sweep = [](int max_size) {
    std::vector<SweepCase> cases;
    for (int k = 2; k <= std::min(max_size, 6); ++k) cases.push_back({fmt::format("mesh:{}x{}", k, k), {}, ""});
    cases.push_back({"mesh:3x5", {}, ""});
    cases.push_back({"torus:4x4", {}, ""});
    cases.push_back({"hypercube:4", {}, ""});
    cases.push_back({"complete:6", {}, ""});
    cases.push_back({"bsn:ring:3", {}, ""});
    cases.push_back({"otis:line:3", {}, ""});
    cases.push_back({"line:6", {}, ""});
    return cases;
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
