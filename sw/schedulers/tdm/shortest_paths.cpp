// All-to-all, or your own flows (flows:FILE), on any network (docs/tdm.md, "tdm-paths"):
// every phit on a shortest path at a slot where the whole path is free, longest flows first,
// the rest placed by ejection chains (ChainRepair); periods grow an eighth at a time from
// the lower bound until the greedy placement fits, then the shortest the repair reaches
// between it and the bound is found by bisection. On meshes the same search with each
// phit's path fixed to its dimension-ordered one (tdm-dimension-order).
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <random>

#include "sw/core/algorithm.h"
#include "sw/core/collectives.h"
#include "sw/core/errors.h"
#include "sw/kinds/tdm/bounds.h"
#include "sw/schedulers/search_deadline.h"
#include "sw/schedulers/tdm/slot_schedule.h"

namespace fixroute {
namespace {

constexpr int64_t kLeastRepairMoves = 20000;
constexpr int64_t kMostRepairMoves = 60000;
constexpr size_t kMostRepairedChains = 12000;
constexpr int64_t kWorkPerBuild = int64_t{400} * 1000 * 1000;
// Dimension-ordered chains: the cells (a path's cell weighed for one injection slot) looked
// at over the whole build, per chain.
constexpr int64_t kCellsPerFixedChain = 5000;
constexpr int kMaxPathNodes = 1024;

// The chains at one period, placed as ClassSearch places classes (translation_classes.cpp):
// each where a free shortest path takes it, longest first; then, for a budget of moves, a
// waiting chain goes where it evicts the fewest others -- for each injection slot the
// cheapest shortest path by dynamic programming over the shortest-path graph, an occupied
// output costing one, one held by a chain placed in the last few moves forbidden -- and
// the evicted wait their turn.
class ChainRepair {
 public:
  // `work`: the path-search steps taken so far, shared by every attempt of a build; the
  // repair stops once it passes `work_limit`.
  // `dimension_order`: the topology's coordinates per node (coords, dims values each), where
  // every chain keeps its dimension-ordered path; empty: any shortest path.
  ChainRepair(const Topology& t, const std::vector<TdmFlow>& flows, const std::vector<size_t>& chain_flow,
              const std::vector<std::vector<int>>& distance, const std::vector<int>& dimension_order, int period,
              uint64_t seed, int64_t& work, int64_t work_limit, const SearchDeadline* deadline = nullptr)
      : work_(work), work_limit_(work_limit), deadline_(deadline), t_(t), flows_(flows), chain_flow_(chain_flow), distance_(distance),
        coords_(dimension_order), dims_(static_cast<int>(t.dims().size())), period_(period), ports_(t.num_ports()),
        owner_(static_cast<size_t>(t.num_nodes()) * static_cast<size_t>(period) * static_cast<size_t>(ports_ + 2), -1),
        placed_(chain_flow.size()), placed_at_(chain_flow.size(), -kTabuMoves - 1),
        cost_(static_cast<size_t>(t.num_nodes())), next_(static_cast<size_t>(t.num_nodes())),
        stamp_(static_cast<size_t>(t.num_nodes()), 0), random_(seed) {}

  // Every chain placed, in `order`, then repaired within `moves` moves: or false.
  bool solve(const std::vector<size_t>& order, int64_t moves) {
    std::vector<size_t> waiting;
    for (size_t c : order)
      if (!place(c, 0, /*free_only=*/true)) waiting.push_back(c);
    for (int64_t move = 1; move <= moves && work_ < work_limit_ && !waiting.empty(); ++move) {
      if (deadline_ && move % 256 == 0 && deadline_->passed()) break;
      const size_t pick = static_cast<size_t>(random_() % waiting.size());
      const size_t c = waiting[pick];
      waiting[pick] = waiting.back();
      waiting.pop_back();
      evicted_.clear();
      if (!place(c, move, false)) {
        waiting.push_back(c);
        continue;
      }
      waiting.insert(waiting.end(), evicted_.begin(), evicted_.end());
    }
    return waiting.empty();
  }

  std::unique_ptr<SlotSchedule> schedule() const {
    auto s = std::make_unique<SlotSchedule>(t_, period_);
    for (size_t c = 0; c < placed_.size(); ++c)
      s->place(static_cast<int>(chain_flow_[c]), flows_[chain_flow_[c]].src, placed_[c].ports, placed_[c].slot);
    return s;
  }

 private:
  static constexpr int64_t kTabuMoves = 8;
  int64_t& work_;
  const int64_t work_limit_;
  const SearchDeadline* deadline_;  // where given, the repair also stops once it passes
  static constexpr int64_t kForbidden = int64_t{1} << 40;
  struct Placed {
    int slot = -1;
    std::vector<int> ports;
  };

  size_t cell(int node, int64_t slot, int resource) const {
    // Slots asked for are below two periods (a chain is shorter than the period): a
    // subtraction, not a division, in the path search's innermost loop.
    if (slot >= period_) slot -= period_;
    if (slot >= period_) slot %= period_;
    return (static_cast<size_t>(node) * static_cast<size_t>(period_) + static_cast<size_t>(slot)) *
               static_cast<size_t>(ports_ + 2) +
           static_cast<size_t>(resource);
  }
  int64_t cell_cost(size_t at, int64_t move, bool free_only) const {
    const int owner = owner_[at];
    if (owner < 0) return 0;
    if (free_only || placed_at_[static_cast<size_t>(owner)] + kTabuMoves > move) return kForbidden;
    // Fixed paths: evicting a short chain costs less than a long one (it finds a slot again
    // sooner) -- on mesh 10x10 it halves the moves a period needs; for tdm-paths, whose
    // chains move to other paths too, one per chain does better (mesh 8x8: 132 against 137).
    return coords_.empty() ? 1 : static_cast<int64_t>(placed_[static_cast<size_t>(owner)].ports.size());
  }
  // The cheapest way on from `v` (its distance from the source `depth`) to dst.
  int64_t best(int v, int dst, const std::vector<int>& to_dst, int64_t slot, int64_t move, bool free_only) {
    if (stamp_[static_cast<size_t>(v)] == visit_) return cost_[static_cast<size_t>(v)];
    stamp_[static_cast<size_t>(v)] = visit_;
    ++work_;
    int64_t cost = kForbidden;
    int via = -1;
    if (v == dst) {
      cost = cell_cost(cell(v, slot, ports_), move, free_only);
    } else {
      const int start = static_cast<int>(random_() % static_cast<uint64_t>(ports_));
      for (int k = 0, p = start; k < ports_; ++k, p = p + 1 == ports_ ? 0 : p + 1) {
        const int u = t_.neighbour(v, p);
        if (u < 0 || to_dst[static_cast<size_t>(u)] != to_dst[static_cast<size_t>(v)] - 1) continue;
        const int64_t here = cell_cost(cell(v, slot, p), move, free_only);
        if (here >= kForbidden) continue;
        const int64_t total = here + best(u, dst, to_dst, slot + 1, move, free_only);
        if (total < cost) {
          cost = total;
          via = p;
        }
      }
    }
    cost_[static_cast<size_t>(v)] = std::min(cost, kForbidden);
    next_[static_cast<size_t>(v)] = via;
    return cost_[static_cast<size_t>(v)];
  }

  // Port 2k steps +1 along dimension k, 2k+1 steps -1 (sw/topology/topology.h).
  int dimension_port(int v, int dst) const {
    const int* a = &coords_[static_cast<size_t>(v) * static_cast<size_t>(dims_)];
    const int* b = &coords_[static_cast<size_t>(dst) * static_cast<size_t>(dims_)];
    for (int k = 0; k < dims_; ++k)
      if (a[k] != b[k]) return 2 * k + (b[k] < a[k] ? 1 : 0);
    return -1;
  }

  // Places chain c at its cheapest slot and path (free_only: where nothing is evicted);
  // the evicted go to evicted_. False where nothing is allowed.
  bool place(size_t c, int64_t move, bool free_only) {
    const TdmFlow& f = flows_[chain_flow_[c]];
    const std::vector<int>& to_dst = distance_[static_cast<size_t>(f.dst)];
    if (!coords_.empty()) {
      // The path's cells at slot 0 (the hop i's cell of slot t is i + t slots on), the
      // ejection last.
      path_.clear();
      path_cells_.clear();
      int v = f.src;
      for (; v != f.dst; v = t_.neighbour(v, path_.back())) {
        path_.push_back(dimension_port(v, f.dst));
        path_cells_.push_back(cell(v, 0, path_.back()));
      }
      path_cells_.push_back(cell(v, 0, ports_));
    }
    int64_t best_cost = kForbidden, best_slot = -1;
    std::vector<int> best_ports;
    uint64_t ties = 0;
    const int64_t start = static_cast<int64_t>(random_() % static_cast<uint64_t>(period_));
    for (int64_t k = 0; k < period_; ++k) {
      const int64_t t = (start + k) % period_;
      const int64_t inject = cell_cost(cell(f.src, t, ports_ + 1), move, free_only);
      if (inject >= kForbidden) continue;
      // The ejection first: the whole search is wasted where it is taken.
      if (cell_cost(cell(f.dst, t + to_dst[static_cast<size_t>(f.src)], ports_), move, free_only) >= kForbidden) continue;
      ++visit_;
      const int64_t cost = inject + (coords_.empty() ? best(f.src, f.dst, to_dst, t, move, free_only)
                                                     : along_path(t, move, free_only, best_cost - inject));
      if (cost >= kForbidden || cost > best_cost) continue;
      if (cost < best_cost) ties = 0;
      if (random_() % ++ties != 0) continue;
      best_cost = cost;
      best_slot = t;
      if (coords_.empty()) {
        best_ports.clear();
        for (int v = f.src; v != f.dst; v = t_.neighbour(v, next_[static_cast<size_t>(v)]))
          best_ports.push_back(next_[static_cast<size_t>(v)]);
      }
      if (free_only) break;  // the first free one
    }
    if (best_slot < 0) return false;
    take(c, static_cast<int>(best_slot), coords_.empty() ? std::move(best_ports) : path_);
    placed_at_[c] = move;
    return true;
  }

  // The cost of path_cells_ injected at `slot`, the ejection included: kForbidden where a
  // cell is, or once the cost passes `enough` (the slot would not be taken).
  int64_t along_path(int64_t slot, int64_t move, bool free_only, int64_t enough) {
    work_ += static_cast<int64_t>(path_cells_.size());
    const size_t stride = static_cast<size_t>(ports_ + 2);
    int64_t cost = 0;
    for (const size_t base : path_cells_) {
      cost += cell_cost(base + static_cast<size_t>(slot) * stride, move, free_only);
      if (cost > enough) return kForbidden;
      if (++slot == period_) slot = 0;
    }
    return cost;
  }

  // Every cell of the path, the injection and the ejection: their owners evicted first.
  template <class Each>
  void for_cells(const TdmFlow& f, int slot, const std::vector<int>& ports, Each each) {
    each(cell(f.src, slot, ports_ + 1));
    int v = f.src;
    int64_t s = slot;
    for (int p : ports) {
      each(cell(v, s, p));
      v = t_.neighbour(v, p);
      ++s;
    }
    each(cell(v, s, ports_));
  }
  void take(size_t c, int slot, std::vector<int> ports) {
    const TdmFlow& f = flows_[chain_flow_[c]];
    for_cells(f, slot, ports, [&](size_t at) {
      if (const int owner = owner_[at]; owner >= 0) release(static_cast<size_t>(owner));
      owner_[at] = static_cast<int>(c);
    });
    placed_[c] = {slot, std::move(ports)};
  }
  void release(size_t c) {
    Placed& p = placed_[c];
    for_cells(flows_[chain_flow_[c]], p.slot, p.ports, [&](size_t at) { owner_[at] = -1; });
    p = Placed{};
    evicted_.push_back(c);
  }

  const Topology& t_;
  const std::vector<TdmFlow>& flows_;
  const std::vector<size_t>& chain_flow_;
  const std::vector<std::vector<int>>& distance_;
  const std::vector<int>& coords_;
  const int dims_;
  std::vector<int> path_;           // dimension-ordered: the ports of the chain being placed
  std::vector<size_t> path_cells_;  // and its cells at slot 0, the ejection's last
  const int period_, ports_;
  std::vector<int> owner_;  // per (node, slot, output 0..ports-1, ejection, injection): its chain, -1 free
  std::vector<Placed> placed_;
  std::vector<int64_t> placed_at_;
  std::vector<int64_t> cost_;
  std::vector<int> next_;
  std::vector<int64_t> stamp_;
  int64_t visit_ = 0;
  std::vector<size_t> evicted_;
  std::mt19937_64 random_;
};

}  // namespace

std::shared_ptr<const Tables> chain_repair_build(const Problem& problem, bool dimension_ordered, const char* algorithm) {
  const Topology& t = problem.topology;
  const int n = t.num_nodes();
  const std::string collective = find_collective(problem.collective).name;
  std::vector<TdmFlow> flows = tdm_demand_flows(t, collective);
  const int64_t bound = tdm_period_bounds(t, flows).best();
  std::vector<std::vector<int>> distance(static_cast<size_t>(n));
  for (int v = 0; v < n; ++v) distance[static_cast<size_t>(v)] = t.distances_from(v);
  std::vector<int> coords;
  if (dimension_ordered)
    for (int v = 0; v < n; ++v)
      for (int c : t.coords(v)) coords.push_back(c);
  // A chain per phit of each flow, placed on its own.
  std::vector<size_t> order;
  for (size_t f = 0; f < flows.size(); ++f) order.insert(order.end(), static_cast<size_t>(flows[f].phits), f);
  auto hops = [&](size_t f) { return distance[static_cast<size_t>(flows[f].dst)][static_cast<size_t>(flows[f].src)]; };
  // Path-search steps (a node of a shortest-path graph weighed for one injection slot) the
  // repair may take over the whole build: large networks get fewer moves, deterministically.
  // Dimension-ordered, a step is a cell of the chain's one path, and the limit grows with
  // the chains.
  int64_t work = 0;
  const int64_t work_limit = dimension_ordered ? kCellsPerFixedChain * static_cast<int64_t>(order.size()) : kWorkPerBuild;
  // One attempt at `period`: a shuffled order (longest first) placed, then repaired for
  // `moves` moves (0: placed only).
  // --budget's rounds, dimension-ordered: each repairs until it succeeds or the budget's
  // time is up (a period near the bound needs more moves than a build's share; mesh 8x8 at
  // 128 about 200 000).
  std::optional<SearchDeadline> budget_end;
  auto attempt_at = [&](int64_t period, int64_t moves, uint64_t round = 0) -> std::unique_ptr<SlotSchedule> {
    std::mt19937_64 random(round_seed(attempt_seed(problem, period), round));
    std::shuffle(order.begin(), order.end(), random);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return hops(a) > hops(b); });
    std::vector<size_t> chains(order.size());  // chain i is a phit of flow order[i]
    std::iota(chains.begin(), chains.end(), 0);
    // The budget's extra rounds (--budget) each get the path-search steps a build has.
    int64_t round_work = 0;
    const bool until_deadline = round > 0 && dimension_ordered;
    ChainRepair repair(t, flows, order, distance, coords, static_cast<int>(period), random(),
                       round > 0 ? round_work : work,
                       until_deadline ? std::numeric_limits<int64_t>::max() : work_limit,
                       until_deadline ? &*budget_end : nullptr);
    if (!repair.solve(chains, moves)) return nullptr;
    return repair.schedule();
  };
  // A period where the greedy placement alone fits (an eighth apart up from the bound),
  // then the shortest between it and the bound that the repair reaches, by bisection.
  std::unique_ptr<SlotSchedule> best;
  int64_t period = std::max<int64_t>(bound, 1);
  for (;; period += std::max<int64_t>(1, period / 8)) {
    check_tdm_size(t, period);
    if ((best = attempt_at(period, 0))) break;
  }
  // Past kMostRepairedChains chains on shortest paths no repair (each attempt would cost
  // more than the placement itself many times over): the bisection and the budget's rounds
  // then try the placement alone, in other orders.
  const bool repair = dimension_ordered || order.size() <= kMostRepairedChains;
  // Dimension-ordered, an attempt's moves are bounded by the build's cells alone (a move
  // is cheap, and a period near the bound needs many: mesh 10x10 at 253 about 40 000).
  const int64_t moves =
      dimension_ordered ? std::numeric_limits<int64_t>::max()
      : repair          ? std::clamp<int64_t>(2 * static_cast<int64_t>(order.size()), kLeastRepairMoves, kMostRepairMoves)
                        : 0;
  for (int64_t low = std::max<int64_t>(bound, 1); low < period && work < work_limit;) {  // below low: none found
    const int64_t mid = low + (period - low) / 2;
    if (std::unique_ptr<SlotSchedule> shorter = attempt_at(mid, moves)) {
      best = std::move(shorter);
      period = mid;
    } else {
      low = mid + 1;
    }
  }
  if (problem.budget_seconds > 0) budget_end.emplace(problem.budget_seconds);
  const int extra = attempts_within_budget(problem.budget_seconds, std::max<int64_t>(bound, 1), period,
                                           [&](int64_t shorter, uint64_t round) {
                                             std::unique_ptr<SlotSchedule> s = attempt_at(shorter, moves, round);
                                             if (s) best = std::move(s);
                                             return best && best->period() == shorter;
                                           });
  Problem named = problem;
  named.collective = collective;
  return std::make_shared<TdmTables>(
      best->tables(named, std::move(flows), algorithm,
                   fmt::format("{}, period {} (bound {}){}", dimension_ordered ? "dimension-ordered paths" : "shortest paths",
                               period, bound, search_note(problem, extra))));
}

namespace {

std::shared_ptr<const Tables> shortest_paths_build(const Problem& problem) {
  return chain_repair_build(problem, /*dimension_ordered=*/false, "tdm-paths");
}

Algorithm tdm_paths_for(const char* collective) {
  Algorithm a;
  a.name = "tdm-paths";
  a.collective = collective;
  a.router_kind = kTdmKind;
  a.summary = "TDM slot tables on any network: each phit on a free shortest path, longest first (docs/tdm.md)";
  a.unsupported = [](const Problem& p) { return tdm_unsupported(p, kMaxPathNodes); };
  // The default where neither tdm-classes nor tdm-dimension-order is (tdm-exact, on small
  // networks, is asked for by name).
  a.is_default = [](const Problem& p) { return std::string(tdm_default_heuristic(p)) == "tdm-paths"; };
  a.formula = [](const Problem&) { return std::optional<int64_t>{}; };
  a.build = shortest_paths_build;
  a.takes_budget = true;
  a.takes_seed = true;
  return a;
}

const AlgorithmRegistrar tdm_paths_total_exchange([] {
  Algorithm a = tdm_paths_for("total-exchange");
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
    for (const char* graph : {"floorplan7.txt", "torus4x5_missing_link.txt"})
      if (const std::string path = example_file(graph); !path.empty()) cases.push_back({"graph:" + path, {}, ""});
    return cases;
  };
  return a;
}());

// Your own traffic (flows:FILE): the example graph with its 60 flows of mixed bandwidth.
const AlgorithmRegistrar tdm_paths_flows([] {
  Algorithm a = tdm_paths_for("flows");
  a.sweep = [](int) {
    std::vector<SweepCase> cases;
    const std::string graph = example_file("torus4x5_missing_link.txt"), flows = example_file("torus4x5_60_flows.txt");
    if (!graph.empty() && !flows.empty()) cases.push_back({"graph:" + graph, {}, "", "flows:" + flows});
    return cases;
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
