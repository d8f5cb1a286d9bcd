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
#include "sw/kinds/tdm/engine.h"
#include "sw/kinds/tdm/tables.h"
#include "sw/schedulers/tdm/slot_schedule.h"

namespace fixroute {
namespace {

constexpr int kMaxClassNodes = 4096;
// Past this many classes no repair: each move weighs every slot of a period that grows as
// the classes' hops (torus:24x24, 575 classes, spends 100 s in the repair's bisection).
constexpr size_t kMostRepairedClasses = 1000;

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
      : period_(period), width_(static_cast<size_t>(ports) + 2), owner_(2 * static_cast<size_t>(period) * width_, -1),
        words_(static_cast<size_t>(period) / 32 + 2), taken_(width_ * words_, 0) {}
  bool free(int64_t slot, int resource) const { return owner(slot, resource) < 0; }
  int owner(int64_t slot, int resource) const { return owner_[index(slot) + static_cast<size_t>(resource)]; }
  // The owners of slot's resources, indexed by resource (slot below two periods).
  const int* row(int64_t slot) const { return &owner_[index(slot)]; }
  void set(int64_t slot, int resource, int owner) {
    const size_t at = wrapped(slot) * width_ + static_cast<size_t>(resource);
    owner_[at] = owner;
    owner_[at + static_cast<size_t>(period_) * width_] = owner;
    for (const size_t copy : {wrapped(slot), wrapped(slot) + static_cast<size_t>(period_)}) {
      uint64_t& word = taken_[static_cast<size_t>(resource) * words_ + copy / 64];
      const uint64_t bit = uint64_t{1} << (copy % 64);
      word = owner < 0 ? word & ~bit : word | bit;
    }
  }
  // Which of the `length` (at most 64) slots from `slot` (below a period) have `resource`
  // free, as bits from the lowest: the matcher's and the repair's view of a chain's slots.
  uint64_t free_bits(int64_t slot, int resource, size_t length) const {
    const uint64_t* taken = &taken_[static_cast<size_t>(resource) * words_];
    const size_t at = static_cast<size_t>(slot), shift = at % 64;
    uint64_t bits = taken[at / 64] >> shift;
    if (shift) bits |= taken[at / 64 + 1] << (64 - shift);
    return ~bits & (length == 64 ? ~uint64_t{0} : (uint64_t{1} << length) - 1);
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
  size_t words_;                // 64-slot words per resource in taken_ (two periods and one spare)
  std::vector<uint64_t> taken_;  // per resource, per slot of two periods: owned (bit set) or free
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
  // How many hops matched; port(i) and word() give the ports, busy_hops() the hops whose
  // port is taken, all valid until the next call. A port is usable in a slot where the
  // grid has no owner for it.
  size_t match(const MoveSet& set, int64_t t, const ClassGrid& grid) {
    const size_t h = set.hop_ports.size(), kinds = set.types.size();
    hops_ = h;
    if (kinds == 2 && h <= 64) return match_two(set, t, grid);
    two_ = false;
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
    busy_ = 0;
    size_t k = 0;
    for (size_t i = 0; i < h; ++i) {
      if (type_of_[i] < 0) {
        while (used_[k] == set.count[k]) ++k;
        ++used_[k];
        type_of_[i] = static_cast<int>(k);
        if (i < 64 && !((allowed_[i] >> k) & 1u)) busy_ |= uint64_t{1} << i;
      }
      word_[i] = set.types[static_cast<size_t>(type_of_[i])];
    }
    return matched;
  }
  int port(size_t i) const { return two_ ? ((on_a_ >> i) & 1u ? port_a_ : port_b_) : word_[i]; }
  const std::vector<int>& word() {
    if (two_) {
      word_.resize(hops_);
      for (size_t i = 0; i < hops_; ++i) word_[i] = port(i);
    }
    return word_;
  }
  // The hops (of the first 64) whose port is taken in their slot, as bits.
  uint64_t busy_hops() const { return busy_; }

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

  // The same matching for two ports (any class of a 2D torus), the hops as bits: what
  // augment() finds, step for step, without the recursion -- a hop takes its first free
  // port with moves left; else the first earlier hop on that port that may take the other
  // one moves there (only that hop is tried); else it takes the other port where moves are left.
  size_t match_two(const MoveSet& set, int64_t t, const ClassGrid& grid) {
    const size_t h = set.hop_ports.size();
    two_ = true;
    port_a_ = set.types[0];
    port_b_ = set.types[1];
    const int count_a = set.count[0], count_b = set.count[1];
    const uint64_t free_a = grid.free_bits(t, port_a_, h), free_b = grid.free_bits(t, port_b_, h);
    uint64_t on_a = 0, on_b = 0;
    int used_a = 0, used_b = 0;
    size_t matched = 0;
    for (uint64_t hops = free_a | free_b; hops; hops &= hops - 1) {
      const uint64_t bit = hops & -hops;
      if (free_a & bit) {
        if (used_a < count_a) {
          on_a |= bit, ++used_a, ++matched;
        } else if (const uint64_t movable = on_a & free_b) {
          if (used_b < count_b) {
            const uint64_t j = movable & -movable;
            on_a ^= j | bit, on_b |= j, ++used_b, ++matched;
          }
        } else if ((free_b & bit) && used_b < count_b) {
          on_b |= bit, ++used_b, ++matched;
        }
      } else if (used_b < count_b) {
        on_b |= bit, ++used_b, ++matched;
      } else if (const uint64_t movable = on_b & free_a; movable && used_a < count_a) {
        const uint64_t j = movable & -movable;
        on_b ^= j | bit, on_a |= j, ++used_a, ++matched;
      }
    }
    // Unmatched hops take the moves left over, port a's first.
    for (uint64_t left = ~(on_a | on_b) & (h == 64 ? ~uint64_t{0} : (uint64_t{1} << h) - 1); left; left &= left - 1) {
      const uint64_t bit = left & -left;
      if (used_a < count_a) {
        on_a |= bit, ++used_a;
      } else {
        on_b |= bit, ++used_b;
      }
    }
    on_a_ = on_a;
    busy_ = (on_a & ~free_a) | (on_b & ~free_b);
    return matched;
  }

  std::vector<int> type_of_, used_, word_;
  std::vector<uint32_t> allowed_;
  std::vector<uint64_t> seen_;
  uint64_t stamp_ = 0;
  size_t hops_ = 0;
  bool two_ = false;  // the last match was match_two's: the ports are in on_a_
  int port_a_ = 0, port_b_ = 0;
  uint64_t on_a_ = 0, busy_ = 0;
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
  // returns the evicted. Every slot is tried (a random sample of them searched worse: 76
  // against 68 on torus:8x8), ties broken at random; the best is remembered as its slot
  // and move set and its word matched again at the end, not copied at every tie.
  std::vector<int> place_evicting(size_t c, int64_t move) {
    const DisplacementClass& cls = classes_[c];
    const int period = grid_.period();
    const int64_t tabu_since = move - kTabuMoves;  // placed after this: not evictable
    auto evictable = [&](int owner) { return owner < 0 || placed_at_[static_cast<size_t>(owner)] <= tabu_since; };
    std::vector<int>& evicted = evicted_;
    int64_t best_slot = -1;
    size_t best_set = 0, best_cost = SIZE_MAX, ties = 0;
    auto note = [&](int owner) {
      if (owner >= 0 && std::find(evicted.begin(), evicted.end(), owner) == evicted.end()) evicted.push_back(owner);
    };
    const std::vector<MoveSet>& sets = move_sets_[c];
    const int inject = grid_.inject(), eject = grid_.eject();
    for (int64_t t = 0; t < period; ++t) {
      const int injecting = grid_.owner(t, inject), ejecting = grid_.owner(t + cls.hops, eject);
      if (!evictable(injecting) || !evictable(ejecting)) continue;
      evicted.clear();
      note(injecting);
      note(ejecting);
      if (evicted.size() > best_cost) continue;  // worse already: no candidate here is taken
      const size_t ends = evicted.size();
      for (size_t s = 0; s < sets.size(); ++s) {
        const MoveSet& set = sets[s];
        const size_t hops = set.hop_ports.size();
        evicted.resize(ends);
        bool allowed = true;
        if (hops <= 64) {  // only the hops on taken ports, as bits
          const bool one_port = set.types.size() == 1;  // nothing to match
          uint64_t busy = one_port ? ~grid_.free_bits(t, set.types[0], hops) & (hops == 64 ? ~uint64_t{0} : (uint64_t{1} << hops) - 1)
                                   : (matcher_.match(set, t, grid_), matcher_.busy_hops());
          for (; busy && allowed && evicted.size() <= best_cost; busy &= busy - 1) {
            const size_t i = static_cast<size_t>(__builtin_ctzll(busy));
            const int owner = grid_.row(t + static_cast<int64_t>(i))[one_port ? set.types[0] : matcher_.port(i)];
            allowed = evictable(owner);
            note(owner);
          }
        } else {
          const int* word = set.types.size() == 1 ? set.hop_ports.data() : (matcher_.match(set, t, grid_), matcher_.word().data());
          for (size_t i = 0; i < hops && allowed && evicted.size() <= best_cost; ++i) {
            const int owner = grid_.row(t + static_cast<int64_t>(i))[word[i]];
            allowed = evictable(owner);
            note(owner);
          }
        }
        if (!allowed) continue;
        const size_t cost = evicted.size();
        if (cost < best_cost || (cost == best_cost && random_() % ++ties == 0)) {
          if (cost < best_cost) ties = 1;
          best_cost = cost;
          best_slot = t;
          best_set = s;
        }
      }
    }
    if (best_slot < 0) return {static_cast<int>(c)};  // nowhere now: it waits again
    const MoveSet& set = sets[best_set];
    std::vector<int> word = set.hop_ports;
    if (set.types.size() > 1) {
      matcher_.match(set, best_slot, grid_);
      word = matcher_.word();
    }
    evicted.clear();
    note(grid_.owner(best_slot, inject));
    note(grid_.owner(best_slot + cls.hops, eject));
    for (size_t i = 0; i < word.size(); ++i) note(grid_.row(best_slot + static_cast<int64_t>(i))[word[i]]);
    std::vector<int> best_evicted = evicted;
    for (int e : best_evicted) release(static_cast<size_t>(e));
    take(c, static_cast<int>(best_slot), word);
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
  std::vector<int> evicted_;  // place_evicting's, kept between moves
};

// The tables of a class placement: every router's slot table is router 0's (class d takes
// port w_d[i] in slot t_d + i at every node), and node v injects its phit of class d -- chain
// v * classes + d -- in slot t_d. Filled directly, not chain by chain: torus:64x64 has 16.7
// million chains on 4096 identical tables.
TdmTables translated_tables(const Problem& problem, const std::vector<PlacedClass>& placed, int period,
                            std::vector<TdmFlow> flows, std::string construction) {
  const Topology& t = problem.topology;
  const int n = t.num_nodes();
  const size_t classes = placed.size();
  TdmTables tables = empty_tdm_tables(t, period);
  tables.collective = problem.collective;
  tables.algorithm = "tdm-classes";
  tables.construction = std::move(construction);
  tables.flows = std::move(flows);
  // Router 0's table; the port a hop arrives on is the same at every node (the topology
  // looks the same from each).
  const size_t block = static_cast<size_t>(period) * static_cast<size_t>(tables.outputs());
  for (const PlacedClass& pc : placed) {
    uint8_t input = tables.local_code();
    int64_t slot = pc.slot;
    for (int port : pc.word) {
      tables.select[tables.at(0, static_cast<int>(slot % period), port)] = input;
      input = static_cast<uint8_t>(t.reverse_port(0, port) + 1);
      ++slot;
    }
    tables.select[tables.at(0, static_cast<int>(slot % period), tables.eject_output())] = input;
  }
  for (int v = 1; v < n; ++v)
    std::copy_n(tables.select.begin(), block, tables.select.begin() + static_cast<std::ptrdiff_t>(block * static_cast<size_t>(v)));
  tables.chains.resize(static_cast<size_t>(n) * classes);
  for (int src = 0; src < n; ++src)
    for (size_t c = 0; c < classes; ++c) {
      const PlacedClass& pc = placed[c];
      int dst = src;
      for (int port : pc.word) dst = t.neighbour(dst, port);
      const size_t chain = static_cast<size_t>(src) * classes + c;
      tables.chains[chain] = {src * (n - 1) + dst - (dst > src ? 1 : 0), pc.slot, static_cast<int>(pc.word.size())};
      tables.inject[tables.inject_at(src, pc.slot)] = static_cast<int32_t>(chain);
    }
  tables.rounds = static_cast<int>(tdm_run_slots(tables));
  return tables;
}

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
  // Repair moves a period may take: enough for every class to move many times (none past
  // kMostRepairedClasses: the bisection then tries placement alone).
  const int64_t moves = classes.size() > kMostRepairedClasses
                            ? 0
                            : std::max<int64_t>(20000, 100 * static_cast<int64_t>(classes.size()));
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
  return std::make_shared<TdmTables>(translated_tables(
      problem, *best, static_cast<int>(period), std::move(flows),
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
