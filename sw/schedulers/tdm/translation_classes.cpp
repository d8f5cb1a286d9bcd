// All-to-all on networks that look the same from every node -- tori, rings, hypercubes,
// complete graphs -- by displacement classes (docs/tdm.md, "tdm-classes"): every node sends
// its phit for displacement d in the same slot t_d along the same port word, so the N
// translates of a class take the N copies of one output in each slot and never meet. The
// schedule is then one of N-1 classes on a router's ports: in slot t_d + i the class takes
// port w_d[i] everywhere (any order of a shortest path's moves is a shortest path), the
// local injection in t_d and the ejection in t_d + h. Classes are placed longest first
// where their moves match free ports, the rest by ejection chains (ClassSearch), period by
// period from the lower bound up.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <cstdint>
#include <random>

#include "sw/core/algorithm.h"
#include "sw/core/errors.h"
#include "sw/kinds/tdm/bounds.h"
#include "sw/schedulers/tdm/slot_schedule.h"

namespace fixroute {
namespace {

constexpr int kMaxClassNodes = 4096;

// A displacement class: the moves of a shortest path from node 0 to `dest`, as counts per
// port; `either` dimensions (half-way round an even ring) may go either way.
struct DisplacementClass {
  int dest = 0;
  int hops = 0;
  std::vector<int> moves;                    // per port: how many hops take it
  std::vector<std::pair<int, int>> either;   // (port +, port -) with `count` hops, choose one direction
  std::vector<int> either_count;
};

bool translation_invariant(const Topology& t) {
  switch (t.kind()) {
    case TopologyKind::Torus:
    case TopologyKind::Ring:
    case TopologyKind::Hypercube:
    case TopologyKind::Complete:
      return true;
    default:
      return false;
  }
}

std::vector<DisplacementClass> displacement_classes(const Topology& t) {
  std::vector<DisplacementClass> classes;
  for (int d = 1; d < t.num_nodes(); ++d) {
    DisplacementClass c;
    c.dest = d;
    c.moves.assign(static_cast<size_t>(t.num_ports()), 0);
    if (t.kind() == TopologyKind::Complete) {
      c.moves[static_cast<size_t>(d - 1)] = 1;
    } else if (t.kind() == TopologyKind::Hypercube) {
      for (int b = 0; b < t.dims()[0]; ++b)
        if ((d >> b) & 1) c.moves[static_cast<size_t>(b)] = 1;
    } else {
      const std::vector<int> at = t.coords(d);
      for (size_t k = 0; k < at.size(); ++k) {
        const int size = t.dims()[k], ahead = at[k], back = size - at[k];
        if (ahead == 0) continue;
        if (ahead == back) {
          c.either.push_back({static_cast<int>(2 * k), static_cast<int>(2 * k + 1)});
          c.either_count.push_back(ahead);
        } else if (ahead < back) {
          c.moves[2 * k] = ahead;
        } else {
          c.moves[2 * k + 1] = back;
        }
      }
    }
    c.hops = std::accumulate(c.moves.begin(), c.moves.end(), 0) +
             std::accumulate(c.either_count.begin(), c.either_count.end(), 0);
    classes.push_back(std::move(c));
  }
  return classes;
}

// One router's view of the period: per slot, which class has taken each port, the
// injection and the ejection (the same at every router); -1 where free. Kept for two
// periods, the second a copy of the first: a chain is shorter than the period, so the
// slots asked for are below two periods and the repair's innermost loop reads without a
// wrap-around.
class ClassGrid {
 public:
  ClassGrid(int period, int ports)
      : period_(period), width_(static_cast<size_t>(ports) + 2), owner_(2 * static_cast<size_t>(period) * width_, -1) {}
  bool free(int64_t slot, int resource) const { return owner(slot, resource) < 0; }
  int owner(int64_t slot, int resource) const { return owner_[index(slot) + static_cast<size_t>(resource)]; }
  // The owners of slot's resources, indexed by resource (slot below two periods).
  const int* row(int64_t slot) const { return &owner_[index(slot)]; }
  void set(int64_t slot, int resource, int owner) {
    const size_t at = wrapped(slot) * width_ + static_cast<size_t>(resource);
    owner_[at] = owner;
    owner_[at + static_cast<size_t>(period_) * width_] = owner;
  }
  int eject() const { return static_cast<int>(width_) - 2; }
  int inject() const { return static_cast<int>(width_) - 1; }
  int period() const { return period_; }

 private:
  size_t wrapped(int64_t slot) const { return static_cast<size_t>(slot % period_); }
  size_t index(int64_t slot) const {
    return (slot < 2 * static_cast<int64_t>(period_) ? static_cast<size_t>(slot) : wrapped(slot)) * width_;
  }
  int period_;
  size_t width_;
  std::vector<int> owner_;
};

// One way to take a class's moves (the half-way dimensions chosen): its hops' ports, and
// the distinct ports with how many hops take each.
struct MoveSet {
  std::vector<int> hop_ports;
  std::vector<int> types, count;
};

// The move sets of a class, one per choice of direction in its half-way dimensions.
std::vector<MoveSet> move_sets_of(const DisplacementClass& cls) {
  std::vector<MoveSet> sets;
  for (size_t choice = 0; choice < (size_t{1} << cls.either.size()); ++choice) {
    std::vector<int> moves = cls.moves;
    for (size_t e = 0; e < cls.either.size(); ++e)
      moves[static_cast<size_t>((choice >> e) & 1 ? cls.either[e].second : cls.either[e].first)] += cls.either_count[e];
    MoveSet set;
    for (size_t p = 0; p < moves.size(); ++p) {
      if (moves[p] == 0) continue;
      set.types.push_back(static_cast<int>(p));
      set.count.push_back(moves[p]);
      for (int k = 0; k < moves[p]; ++k) set.hop_ports.push_back(static_cast<int>(p));
    }
    sets.push_back(std::move(set));
  }
  return sets;
}

// The port word of a move set placed from slot `t`: as many hops as possible matched to a
// port free in the grid in slot t + i (augmenting paths over the few distinct ports,
// each with its count of moves), the others given the moves left over. The scratch
// buffers are kept between calls: the repair calls this for every slot of every move.
class MoveMatcher {
 public:
  // The word, valid until the next call, and how many hops matched: a port is usable in a
  // slot where the grid has no owner for it.
  size_t match(const MoveSet& set, int64_t t, const ClassGrid& grid) {
    const size_t h = set.hop_ports.size(), kinds = set.types.size();
    type_of_.assign(h, -1);
    used_.assign(kinds, 0);
    allowed_.resize(h);
    if (seen_.size() < kinds) seen_.resize(kinds, 0);
    for (size_t i = 0; i < h; ++i) {
      const int* owners = grid.row(t + static_cast<int64_t>(i));
      uint32_t allowed = 0;
      for (size_t k = 0; k < kinds; ++k)
        if (owners[set.types[k]] < 0) allowed |= 1u << k;
      allowed_[i] = allowed;
    }
    size_t matched = 0;
    for (size_t i = 0; i < h; ++i) {
      if (!allowed_[i]) continue;
      ++stamp_;  // a fresh search: no port seen (instead of clearing seen_)
      if (augment(set, i)) ++matched;
    }
    word_.resize(h);
    size_t k = 0;
    for (size_t i = 0; i < h; ++i) {
      if (type_of_[i] < 0) {
        while (used_[k] == set.count[k]) ++k;
        ++used_[k];
        type_of_[i] = static_cast<int>(k);
      }
      word_[i] = set.types[static_cast<size_t>(type_of_[i])];
    }
    return matched;
  }
  std::vector<int>& word() { return word_; }

 private:
  bool augment(const MoveSet& set, size_t i) {
    for (size_t k = 0; k < set.types.size(); ++k) {
      if (seen_[k] == stamp_ || !((allowed_[i] >> k) & 1u)) continue;
      seen_[k] = stamp_;
      if (used_[k] < set.count[k]) {
        ++used_[k];
        type_of_[i] = static_cast<int>(k);
        return true;
      }
      for (size_t j = 0; j < type_of_.size(); ++j)
        if (type_of_[j] == static_cast<int>(k) && augment(set, j)) {
          type_of_[i] = static_cast<int>(k);  // j moved to another port; i takes its place
          return true;
        }
    }
    return false;
  }
  std::vector<int> type_of_, used_, word_;
  std::vector<uint32_t> allowed_;
  std::vector<uint64_t> seen_;
  uint64_t stamp_ = 0;
};

struct PlacedClass {
  int slot = -1;  // -1: not placed
  std::vector<int> word;
};

// The classes at one period: placed greedily, then repaired by ejection chains -- an
// unplaced class goes where it evicts the fewest others (never one placed in the last
// few moves), and those wait their turn -- for a budget of moves.
class ClassSearch {
 public:
  ClassSearch(const std::vector<DisplacementClass>& classes, int period, int ports, uint64_t seed)
      : classes_(classes), grid_(period, ports), placed_(classes.size()), placed_at_(classes.size(), -1000000),
        random_(seed) {
    for (const DisplacementClass& cls : classes) move_sets_.push_back(move_sets_of(cls));
  }

  // Every class placed within `moves` repair moves, or false.
  bool solve(const std::vector<size_t>& order, int64_t moves) {
    solved_ = solve_once(order, moves);
    return solved_;
  }
  bool solved() const { return solved_; }

 private:
  bool solve_once(const std::vector<size_t>& order, int64_t moves) {
    std::vector<size_t> waiting;
    for (size_t c : order)
      if (!place_free(c)) waiting.push_back(c);
    for (int64_t move = 0; move < moves && !waiting.empty(); ++move) {
      const size_t pick = static_cast<size_t>(random_() % waiting.size());
      const size_t c = waiting[pick];
      waiting[pick] = waiting.back();
      waiting.pop_back();
      for (int evicted : place_evicting(c, move)) waiting.push_back(static_cast<size_t>(evicted));
    }
    return waiting.empty();
  }

 public:
  const std::vector<PlacedClass>& placed() const { return placed_; }

 private:
  static constexpr int64_t kTabuMoves = 8;

  // Placed where it evicts no one (the first such slot from a random start), or false.
  bool place_free(size_t c) {
    const DisplacementClass& cls = classes_[c];
    const int period = grid_.period();
    const int start = static_cast<int>(random_() % static_cast<uint64_t>(period));
    for (int k = 0; k < period; ++k) {
      const int64_t t = (start + k) % period;
      if (!grid_.free(t, grid_.inject()) || !grid_.free(t + cls.hops, grid_.eject())) continue;
      for (const MoveSet& set : move_sets_[c]) {
        const size_t matched = matcher_.match(set, t, grid_);
        if (matched == set.hop_ports.size()) {
          take(c, static_cast<int>(t), matcher_.word());
          return true;
        }
      }
    }
    return false;
  }

  // Placed where it evicts the fewest classes (none placed in the last kTabuMoves moves);
  // returns the evicted.
  std::vector<int> place_evicting(size_t c, int64_t move) {
    const DisplacementClass& cls = classes_[c];
    const int period = grid_.period();
    auto evictable = [&](int owner) { return owner < 0 || placed_at_[static_cast<size_t>(owner)] + kTabuMoves <= move; };
    std::vector<int>& best_evicted = best_evicted_;
    std::vector<int>& best_word = best_word_;
    std::vector<int>& evicted = evicted_;
    best_evicted.clear();
    int64_t best_slot = -1;
    size_t best_cost = SIZE_MAX, ties = 0;
    auto note = [&](int owner) {
      if (owner >= 0 && std::find(evicted.begin(), evicted.end(), owner) == evicted.end()) evicted.push_back(owner);
    };
    // Every slot (a random sample of them searched worse: 76 against 68 on torus:8x8).
    for (int64_t t = 0; t < period; ++t) {
      if (!evictable(grid_.owner(t, grid_.inject())) || !evictable(grid_.owner(t + cls.hops, grid_.eject()))) continue;
      evicted.clear();
      note(grid_.owner(t, grid_.inject()));
      note(grid_.owner(t + cls.hops, grid_.eject()));
      if (evicted.size() > best_cost) continue;  // worse already: no candidate here is taken
      const size_t ends = evicted.size();
      for (const MoveSet& set : move_sets_[c]) {
        matcher_.match(set, t, grid_);
        const std::vector<int>& word = matcher_.word();
        evicted.resize(ends);
        bool allowed = true;
        for (size_t i = 0; i < word.size() && allowed && evicted.size() <= best_cost; ++i) {
          const int owner = grid_.owner(t + static_cast<int64_t>(i), word[i]);
          allowed = evictable(owner);
          note(owner);
        }
        if (!allowed) continue;
        const size_t cost = evicted.size();
        if (cost < best_cost || (cost == best_cost && random_() % ++ties == 0)) {
          if (cost < best_cost) ties = 1;
          best_cost = cost;
          best_evicted = evicted;
          best_word = word;
          best_slot = t;
        }
      }
    }
    if (best_slot < 0) return {static_cast<int>(c)};  // nowhere now: it waits again
    for (int e : best_evicted) release(static_cast<size_t>(e));
    take(c, static_cast<int>(best_slot), best_word);
    placed_at_[c] = move;
    return best_evicted;
  }

  void take(size_t c, int t, const std::vector<int>& word) {
    const int owner = static_cast<int>(c);
    grid_.set(t, grid_.inject(), owner);
    for (size_t i = 0; i < word.size(); ++i) grid_.set(t + static_cast<int64_t>(i), word[i], owner);
    grid_.set(t + classes_[c].hops, grid_.eject(), owner);
    placed_[c] = {t, word};
  }
  void release(size_t c) {
    PlacedClass& p = placed_[c];
    grid_.set(p.slot, grid_.inject(), -1);
    for (size_t i = 0; i < p.word.size(); ++i) grid_.set(p.slot + static_cast<int64_t>(i), p.word[i], -1);
    grid_.set(p.slot + classes_[c].hops, grid_.eject(), -1);
    p = PlacedClass{};
  }

  const std::vector<DisplacementClass>& classes_;
  ClassGrid grid_;
  std::vector<PlacedClass> placed_;
  std::vector<int64_t> placed_at_;
  std::mt19937_64 random_;
  bool solved_ = false;
  std::vector<std::vector<MoveSet>> move_sets_;  // per class
  MoveMatcher matcher_;
  std::vector<int> evicted_, best_evicted_, best_word_;  // place_evicting's, kept between moves
};

std::string classes_unsupported(const Problem& p) {
  if (!translation_invariant(p.topology)) return "it takes tori, rings, hypercubes and complete graphs";
  return tdm_unsupported(p, kMaxClassNodes);
}

std::shared_ptr<const Tables> classes_build(const Problem& problem) {
  const Topology& t = problem.topology;
  const std::vector<DisplacementClass> classes = displacement_classes(t);
  std::vector<TdmFlow> flows = total_exchange_flows(t);
  const int64_t bound = tdm_period_bounds(t, flows).best();
  std::vector<size_t> order(classes.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return classes[a].hops > classes[b].hops; });
  // Repair moves a period may take: enough for every class to move many times.
  const int64_t moves = std::max<int64_t>(20000, 100 * static_cast<int64_t>(classes.size()));
  // A period where the classes fit by placement alone (a sixteenth apart up from the
  // bound), then the shortest between it and the bound the repair reaches, by bisection.
  std::optional<std::vector<PlacedClass>> best;
  auto attempt = [&](int64_t period, int64_t budget, uint64_t round = 0) {
    ClassSearch search(classes, static_cast<int>(period), t.num_ports(), round_seed(attempt_seed(problem, period), round));
    if (search.solve(order, budget)) best = search.placed();
    return search.solved();
  };
  int64_t period = std::max<int64_t>(bound, 1);
  for (;; period += std::max<int64_t>(1, period / 16)) {
    check_tdm_size(t, period);
    if (attempt(period, 0)) break;
  }
  for (int64_t low = std::max<int64_t>(bound, 1); low < period;) {  // below low: none found
    const int64_t mid = low + (period - low) / 2;
    if (attempt(mid, moves)) {
      period = mid;
    } else {
      low = mid + 1;
    }
  }
  const int extra = attempts_within_budget(problem.budget_seconds, bound, period,
                                           [&](int64_t shorter, uint64_t round) { return attempt(shorter, moves, round); });
  SlotSchedule schedule(t, static_cast<int>(period));
  const int n = t.num_nodes();
  for (int src = 0; src < n; ++src)
    for (size_t c = 0; c < classes.size(); ++c) {
      const PlacedClass& pc = (*best)[c];
      int dst = src;
      for (int port : pc.word) dst = t.neighbour(dst, port);
      schedule.place(src * (n - 1) + dst - (dst > src ? 1 : 0), src, pc.word, pc.slot);
    }
  return std::make_shared<TdmTables>(schedule.tables(
      problem, std::move(flows), "tdm-classes",
      fmt::format("{} displacement classes, period {} (bound {}){}", classes.size(), period, bound,
                  search_note(problem, extra))));
}

const AlgorithmRegistrar tdm_classes([] {
  Algorithm a;
  a.name = "tdm-classes";
  a.collective = "total-exchange";
  a.router_kind = kTdmKind;
  a.summary = "TDM slot tables for all-to-all on tori, rings, hypercubes and complete graphs: every node sends each "
              "displacement in the same slot along the same ports (docs/tdm.md)";
  a.unsupported = classes_unsupported;
  a.is_default = [](const Problem& p) { return translation_invariant(p.topology); };
  a.formula = [](const Problem&) { return std::optional<int64_t>{}; };
  a.build = classes_build;
  a.takes_budget = true;
  a.takes_seed = true;
  a.sweep = [](int max_size) {
    std::vector<SweepCase> cases;
    for (int k = 3; k <= std::min(max_size, 6); ++k) cases.push_back({fmt::format("torus:{}x{}", k, k), {}, ""});
    cases.push_back({"torus:4x6", {}, ""});
    cases.push_back({"torus:3x3x3", {}, ""});
    for (int d = 2; d <= 5; ++d) cases.push_back({fmt::format("hypercube:{}", d), {}, ""});
    for (int n = 3; n <= 8; ++n) cases.push_back({fmt::format("complete:{}", n), {}, ""});
    cases.push_back({"ring:7", {}, ""});
    return cases;
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
