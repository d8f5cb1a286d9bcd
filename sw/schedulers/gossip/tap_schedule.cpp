// Switch schedules for the taps that feed a node off a cycle. See tap_schedule.h.
#include "tap_schedule.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace fixroute::partial_cycles {

namespace {

// Places 0..n-1 as bits: the free classes whose flip alone changes the cost by one amount
// (parity_schedule). A tree of places was most of the 5D tori's build time.
class PlaceSet {
 public:
  explicit PlaceSet(size_t n) : words_((n + 63) / 64, 0) {}
  void insert(int i) {
    uint64_t& w = words_[static_cast<size_t>(i) / 64];
    count_ += (w & bit(i)) == 0;
    w |= bit(i);
  }
  void erase(int i) {
    uint64_t& w = words_[static_cast<size_t>(i) / 64];
    count_ -= (w & bit(i)) != 0;
    w &= ~bit(i);
  }
  bool empty() const { return count_ == 0; }
  // The first place at or after `from` and below `below`, or -1.
  int next(int from, int below) const {
    if (from >= below) return -1;
    size_t w = static_cast<size_t>(from) / 64;
    uint64_t word = words_[w] & (~uint64_t{0} << (from % 64));
    for (;;) {
      if (word != 0) {
        const int i = static_cast<int>(w * 64) + __builtin_ctzll(word);
        return i < below ? i : -1;
      }
      if (++w >= words_.size() || static_cast<int>(w * 64) >= below) return -1;
      word = words_[w];
    }
  }

 private:
  static uint64_t bit(int i) { return uint64_t{1} << (i % 64); }
  std::vector<uint64_t> words_;
  int count_ = 0;
};

// Boolean variables tied by parities: value(v) = value(root(v)) ^ parity(v).
class ParityClasses {
 public:
  explicit ParityClasses(int n) : parent_(static_cast<size_t>(n)), parity_(static_cast<size_t>(n), 0) {
    for (int v = 0; v < n; ++v) parent_[static_cast<size_t>(v)] = v;
  }
  std::pair<int, int> find(int v) {
    int p = 0;
    int r = v;
    while (parent_[static_cast<size_t>(r)] != r) {
      p ^= parity_[static_cast<size_t>(r)];
      r = parent_[static_cast<size_t>(r)];
    }
    // compress: v now points at r directly with its full parity
    int q = v, pq = p;
    while (parent_[static_cast<size_t>(q)] != q) {
      const int next = parent_[static_cast<size_t>(q)], pnext = pq ^ parity_[static_cast<size_t>(q)];
      parent_[static_cast<size_t>(q)] = r;
      parity_[static_cast<size_t>(q)] = pq;
      q = next;
      pq = pnext;
    }
    return {r, p};
  }
  // value(a) ^ value(b) == diff; false if that contradicts what is already tied
  bool tie(int a, int b, int diff) {
    auto [ra, pa] = find(a);
    auto [rb, pb] = find(b);
    if (ra == rb) return (pa ^ pb) == diff;
    parent_[static_cast<size_t>(ra)] = rb;
    parity_[static_cast<size_t>(ra)] = pa ^ pb ^ diff;
    return true;
  }

 private:
  std::vector<int> parent_;
  std::vector<int> parity_;
};

struct Literal {
  int var;
  int value;  // the literal holds when the variable has this value
};

int mod(int v, int m) { return ((v % m) + m) % m; }

int last_step(const TapDemand& d, size_t s) { return static_cast<int>(d.arrivals[s].size()) - 1; }

// A fixed pseudo-random 64-bit value for packet i (splitmix64's finaliser).
uint64_t mixed(size_t i) {
  uint64_t z = static_cast<uint64_t>(i) + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The paper's case first: every tap with at most one switch. A plan is a tap's start
// direction and switch step; two plans work together when each packet reaches C exactly
// once, but for the suppliers' own packets, which they may send themselves. Trying every
// pair costs (2 * steps)^2 packet-set comparisons per fed node, minutes on 5D tori; so each
// packet gets a fixed pseudo-random weight, a plan the sum of its packets' weights, and a
// working pair's sums add up to the total less the own packets neither plan covers. The
// pairs with such sums are checked packet by packet, and the first that works in plan
// order (a plans outer, b plans inner) is taken, as trying every pair in that order would.
// nullopt when no such pair feeds C exactly once.
std::optional<std::array<TapSchedule, 2>> one_switch_schedule(const TapDemand& d) {
  const size_t n = static_cast<size_t>(d.packets), words = (n + 63) / 64;
  std::vector<uint64_t> weight(n);
  uint64_t total = 0;
  for (size_t i = 0; i < n; ++i) total += weight[i] = mixed(i);
  struct Plan {
    TapSchedule schedule;
    uint64_t sum = 0;
  };
  std::array<std::vector<Plan>, 2> plans;
  for (size_t s = 0; s < 2; ++s) {
    const int steps = last_step(d, s);
    // per side (0 forwards, 1 backwards), over steps 1..t: the arrivals' weight sum and
    // how many arrive too late to reach C by the deadline
    std::array<std::vector<uint64_t>, 2> sum_to;
    std::array<std::vector<int>, 2> late_to;
    for (size_t side = 0; side < 2; ++side) {
      sum_to[side].assign(static_cast<size_t>(steps + 1), 0);
      late_to[side].assign(static_cast<size_t>(steps + 1), 0);
      for (int t = 1; t <= steps; ++t) {
        const int packet = d.arrivals[s][static_cast<size_t>(t)][side];
        const size_t i = static_cast<size_t>(t);
        sum_to[side][i] = sum_to[side][i - 1] + (packet >= 0 ? weight[static_cast<size_t>(packet)] : 0);
        late_to[side][i] = late_to[side][i - 1] + (packet >= 0 && t + 1 > d.deadline ? 1 : 0);
      }
    }
    for (bool forwards_first : {true, false})
      for (int sw = 2; sw <= steps + 1; ++sw) {  // a switch at step 1 is the other start
        // steps 1..sw-1 take side `first`, steps sw..steps the other
        const size_t first = forwards_first ? 0 : 1, then = 1 - first, before = static_cast<size_t>(sw - 1);
        const size_t end = static_cast<size_t>(steps);
        if (late_to[first][before] + late_to[then][end] - late_to[then][before] > 0) continue;
        Plan p;
        p.schedule.forwards_first = forwards_first;
        if (sw <= steps) p.schedule.switch_steps = {sw};
        p.sum = sum_to[first][before] + sum_to[then][end] - sum_to[then][before];
        plans[s].push_back(std::move(p));
      }
  }
  auto covered = [&](size_t s, const TapSchedule& schedule) {
    std::vector<uint64_t> bits(words, 0);
    const int sw = schedule.switch_steps.empty() ? last_step(d, s) + 1 : schedule.switch_steps[0];
    for (int t = 1; t <= last_step(d, s); ++t) {
      const bool forwards = schedule.forwards_first == (t < sw);
      const int packet = d.arrivals[s][static_cast<size_t>(t)][forwards ? 0 : 1];
      if (packet >= 0) bits[static_cast<size_t>(packet) / 64] |= uint64_t{1} << (packet % 64);
    }
    return bits;
  };
  auto has = [](const std::vector<uint64_t>& bits, size_t i) { return ((bits[i / 64] >> (i % 64)) & 1u) != 0; };

  std::vector<std::pair<uint64_t, size_t>> by_sum;  // b plans by weight sum, then index
  for (size_t j = 0; j < plans[1].size(); ++j) by_sum.push_back({plans[1][j].sum, j});
  std::sort(by_sum.begin(), by_sum.end());
  std::vector<uint64_t> uncovered_own{0};  // weight sums of the own packets a pair may leave out
  for (size_t s = 0; s < 2; ++s) {
    if (d.own[s] < 0 || (s == 1 && d.own[1] == d.own[0])) continue;
    const size_t k = uncovered_own.size();
    for (size_t i = 0; i < k; ++i) uncovered_own.push_back(uncovered_own[i] + weight[static_cast<size_t>(d.own[s])]);
  }
  const std::array<size_t, 2> own{d.own[0] >= 0 ? static_cast<size_t>(d.own[0]) : SIZE_MAX,
                                  d.own[1] >= 0 ? static_cast<size_t>(d.own[1]) : SIZE_MAX};
  std::vector<size_t> candidates;
  for (const Plan& a : plans[0]) {
    candidates.clear();
    for (uint64_t left_out : uncovered_own) {
      const uint64_t want = total - left_out - a.sum;
      for (auto it = std::lower_bound(by_sum.begin(), by_sum.end(), std::pair{want, size_t{0}});
           it != by_sum.end() && it->first == want; ++it)
        candidates.push_back(it->second);
    }
    if (candidates.empty()) continue;
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    const std::vector<uint64_t> a_bits = covered(0, a.schedule);
    for (size_t j : candidates) {
      const std::vector<uint64_t> b_bits = covered(1, plans[1][j].schedule);
      bool ok = true;
      for (size_t w = 0; w < words && ok; ++w) ok = (a_bits[w] & b_bits[w]) == 0;
      for (size_t i = 0; i < n && ok; ++i) ok = has(a_bits, i) || has(b_bits, i) || i == own[0] || i == own[1];
      if (!ok) continue;
      std::array<TapSchedule, 2> out{a.schedule, plans[1][j].schedule};
      const std::array<const std::vector<uint64_t>*, 2> bits{&a_bits, &b_bits};
      for (size_t s = 0; s < 2; ++s)
        out[s].sends_own = own[s] != SIZE_MAX && !has(*bits[1 - s], own[s]);
      return out;
    }
  }
  return std::nullopt;
}

}  // namespace

namespace {

// The general case: every choice of directions, as parity classes (see the header).
std::optional<std::array<TapSchedule, 2>> parity_schedule(const TapDemand& d) {
  const int steps = std::max(last_step(d, 0), last_step(d, 1));  // no packet arrives later
  // Variables: dir(s, t) = 1 when supplier s's tap takes the forwards-running arrival of
  // step t (1..steps); own(s) = 1 when it sends its own packet in step 1.
  auto dir = [steps](int s, int t) { return s * (steps + 1) + t; };
  auto own = [steps](int s) { return 2 * (steps + 1) + s; };
  const int nvars = 2 * (steps + 1) + 2;
  ParityClasses classes(nvars);
  std::vector<Literal> units;
  std::vector<std::vector<int>> used(2, std::vector<int>(static_cast<size_t>(steps + 1), 0));  // dir(s,t) matters

  // Per packet, where it passes each supplier: (supplier, step, 0 forwards / 1 backwards).
  std::vector<std::vector<std::array<int, 3>>> passes(static_cast<size_t>(d.packets));
  for (int s = 0; s < 2; ++s)
    for (int t = 1; t <= last_step(d, static_cast<size_t>(s)); ++t)
      for (int side = 0; side < 2; ++side) {
        const int packet = d.arrivals[static_cast<size_t>(s)][static_cast<size_t>(t)][static_cast<size_t>(side)];
        if (packet >= 0) passes[static_cast<size_t>(packet)].push_back({s, t, side});
      }
  for (int p = 0; p < d.packets; ++p) {
    std::vector<Literal> choices;
    for (int s = 0; s < 2; ++s) {
      if (d.own[static_cast<size_t>(s)] == p) choices.push_back({own(s), 1});
      for (const auto& [by, t, side] : passes[static_cast<size_t>(p)]) {
        if (by != s) continue;
        used[static_cast<size_t>(s)][static_cast<size_t>(t)] = 1;
        const int take = side == 0 ? 1 : 0;  // the direction that takes it
        if (t + 1 <= d.deadline) {
          choices.push_back({dir(s, t), take});
        } else {
          units.push_back({dir(s, t), take ^ 1});  // too late: the tap must look the other way
        }
      }
    }
    // exactly one of the (at most two) choices delivers p
    if (choices.empty() || choices.size() > 2) return std::nullopt;
    if (choices.size() == 1) {
      units.push_back(choices[0]);
    } else if (!classes.tie(choices[0].var, choices[1].var, choices[0].value ^ choices[1].value ^ 1)) {
      return std::nullopt;
    }
  }
  for (int s = 0; s < 2; ++s)
    if (d.own[static_cast<size_t>(s)] < 0) units.push_back({own(s), 0});

  // Classes fixed by a unit; the others are free to flip.
  std::vector<int> fixed(static_cast<size_t>(nvars), -1);  // by root
  for (const Literal& u : units) {
    auto [r, p] = classes.find(u.var);
    const int want = u.value ^ p;
    int& f = fixed[static_cast<size_t>(r)];
    if (f >= 0 && f != want) return std::nullopt;
    f = want;
  }
  std::vector<int> root(static_cast<size_t>(nvars)), parity(static_cast<size_t>(nvars));
  for (int v = 0; v < nvars; ++v) std::tie(root[static_cast<size_t>(v)], parity[static_cast<size_t>(v)]) = classes.find(v);
  std::vector<int> polarity;  // by root
  auto value = [&](int v) { return polarity[static_cast<size_t>(root[static_cast<size_t>(v)])] ^ parity[static_cast<size_t>(v)]; };

  // The directions that matter, in step order, per supplier.
  std::array<std::vector<int>, 2> sequence;
  for (int s = 0; s < 2; ++s)
    for (int t = 1; t <= steps; ++t)
      if (used[static_cast<size_t>(s)][static_cast<size_t>(t)]) sequence[static_cast<size_t>(s)].push_back(dir(s, t));
  auto switches = [&](int s) {
    int n = 0;
    const std::vector<int>& seq = sequence[static_cast<size_t>(s)];
    for (size_t i = 1; i < seq.size(); ++i) n += value(seq[i]) != value(seq[i - 1]);
    return n;
  };
  std::vector<int> free_roots;
  for (int v = 0; v < nvars; ++v)
    if (root[static_cast<size_t>(v)] == v && fixed[static_cast<size_t>(v)] < 0) free_roots.push_back(v);
  std::vector<int> place(static_cast<size_t>(nvars), -1);  // a free class's index in free_roots
  for (size_t i = 0; i < free_roots.size(); ++i) place[static_cast<size_t>(free_roots[i])] = static_cast<int>(i);
  // Where each class occurs in the sequences: flipping a class changes only the switches
  // next to its occurrences, so a flip is priced from those alone.
  std::vector<std::vector<std::pair<int, int>>> occurrences(static_cast<size_t>(nvars));
  for (int s = 0; s < 2; ++s)
    for (size_t i = 0; i < sequence[static_cast<size_t>(s)].size(); ++i)
      occurrences[static_cast<size_t>(root[static_cast<size_t>(sequence[static_cast<size_t>(s)][i])])].push_back(
          {s, static_cast<int>(i)});
  // The change of each tap's switch count if classes a and (if b >= 0) b flip together.
  auto flip_delta = [&](int a, int b) {
    std::array<int, 2> delta{0, 0};
    for (int r : {a, b}) {
      if (r < 0) continue;
      for (const auto& [s, i] : occurrences[static_cast<size_t>(r)]) {
        const std::vector<int>& seq = sequence[static_cast<size_t>(s)];
        for (int j : {i - 1, i + 1}) {
          if (j < 0 || j >= static_cast<int>(seq.size())) continue;
          const int other = root[static_cast<size_t>(seq[static_cast<size_t>(j)])];
          if (other == a || other == b) continue;  // flips with it: unchanged
          delta[static_cast<size_t>(s)] += value(seq[static_cast<size_t>(i)]) == value(seq[static_cast<size_t>(j)]) ? 1 : -1;
        }
      }
    }
    return delta;
  };

  // The classes next to each class somewhere in the sequences: only for such a pair does
  // a joint flip differ from the sum of the two single flips.
  std::vector<std::vector<int>> next_to(static_cast<size_t>(nvars));
  for (int s = 0; s < 2; ++s) {
    const std::vector<int>& seq = sequence[static_cast<size_t>(s)];
    for (size_t i = 1; i < seq.size(); ++i) {
      const int a = root[static_cast<size_t>(seq[i - 1])], b = root[static_cast<size_t>(seq[i])];
      if (a == b) continue;
      next_to[static_cast<size_t>(a)].push_back(b);
      next_to[static_cast<size_t>(b)].push_back(a);
    }
  }
  for (std::vector<int>& list : next_to) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  std::vector<char> is_next(static_cast<size_t>(nvars), 0);

  // Greedy from each pair of starting directions: walk both sequences in step order and
  // keep each tap's direction where the class is still free; then flip any free class,
  // or pair of classes, that lowers the cost, until none does. The best of the four is kept.
  std::vector<int> best_polarity;
  std::pair<int, int> best_cost{0, 0};
  for (int start = 0; start < 4; ++start) {
    polarity = fixed;
    std::array<int, 2> last{start & 1, (start >> 1) & 1};
    for (int t = 1; t <= steps; ++t)
      for (int s = 0; s < 2; ++s) {
        if (!used[static_cast<size_t>(s)][static_cast<size_t>(t)]) continue;
        const int v = dir(s, t);
        int& pol = polarity[static_cast<size_t>(root[static_cast<size_t>(v)])];
        if (pol < 0) pol = last[static_cast<size_t>(s)] ^ parity[static_cast<size_t>(v)];
        last[static_cast<size_t>(s)] = value(v);
      }
    for (int r : free_roots)
      if (polarity[static_cast<size_t>(r)] < 0) polarity[static_cast<size_t>(r)] = 0;
    std::array<int, 2> count{switches(0), switches(1)};
    auto cost_of = [](const std::array<int, 2>& c) { return std::make_pair(std::max(c[0], c[1]), c[0] + c[1]); };
    std::pair<int, int> current = cost_of(count);
    // flips of one class, then of two (a switch often needs two classes to move together).
    // single[r]: the change a flip of r alone makes, kept up to date as flips are taken, so
    // that a pair of classes not next to each other is priced as the sum of the two.
    std::vector<std::array<int, 2>> single(static_cast<size_t>(nvars), {0, 0});
    // The free classes' places in free_roots by their single change: a pair not next to
    // each other lowers the cost exactly when the sum of its two changes does, so the
    // scan over partners looks them up by change instead of trying each (minutes on 5D
    // tori), and still takes the same first improving partner.
    std::map<std::array<int, 2>, PlaceSet> by_change;
    auto set_single = [&](int r) {
      const int at = place[static_cast<size_t>(r)];
      if (at >= 0) {
        auto it = by_change.find(single[static_cast<size_t>(r)]);
        it->second.erase(at);
        if (it->second.empty()) by_change.erase(it);
      }
      single[static_cast<size_t>(r)] = flip_delta(r, -1);
      if (at >= 0) by_change.try_emplace(single[static_cast<size_t>(r)], free_roots.size()).first->second.insert(at);
    };
    auto refresh = [&](int r) {
      set_single(r);
      for (int other : next_to[static_cast<size_t>(r)]) set_single(other);
    };
    for (int r : free_roots) {
      single[static_cast<size_t>(r)] = flip_delta(r, -1);
      by_change.try_emplace(single[static_cast<size_t>(r)], free_roots.size())
          .first->second.insert(place[static_cast<size_t>(r)]);
    }
    auto try_flip = [&](int a, int b) {
      std::array<int, 2> delta = single[static_cast<size_t>(a)];
      if (b >= 0 && is_next[static_cast<size_t>(b)]) {
        delta = flip_delta(a, b);
      } else if (b >= 0) {
        delta[0] += single[static_cast<size_t>(b)][0];
        delta[1] += single[static_cast<size_t>(b)][1];
      }
      const std::array<int, 2> next{count[0] + delta[0], count[1] + delta[1]};
      if (cost_of(next) >= current) return false;
      polarity[static_cast<size_t>(a)] ^= 1;
      if (b >= 0) polarity[static_cast<size_t>(b)] ^= 1;
      count = next;
      current = cost_of(count);
      refresh(a);
      if (b >= 0) refresh(b);
      return true;
    };
    for (bool improved = true; improved;) {
      improved = false;
      for (int r : free_roots) improved = try_flip(r, -1) || improved;
      if (improved) continue;
      // Pairs (a, b), b after a in free_roots, in that order: the first b from `from`
      // whose flip with a lowers the cost, until there is none.
      for (size_t i = 0; i < free_roots.size(); ++i) {
        const int a = free_roots[i];
        std::vector<int> next_places;  // free classes next to a, after it
        for (int other : next_to[static_cast<size_t>(a)]) {
          is_next[static_cast<size_t>(other)] = 1;
          if (place[static_cast<size_t>(other)] > static_cast<int>(i)) next_places.push_back(place[static_cast<size_t>(other)]);
        }
        std::sort(next_places.begin(), next_places.end());
        for (int from = static_cast<int>(i) + 1;;) {
          int first = static_cast<int>(free_roots.size());
          const std::array<int, 2>& mine = single[static_cast<size_t>(a)];
          for (const auto& [change, places] : by_change) {
            if (cost_of({count[0] + mine[0] + change[0], count[1] + mine[1] + change[1]}) >= current) continue;
            for (int at = places.next(from, first); at >= 0; at = places.next(at + 1, first))
              if (!is_next[static_cast<size_t>(free_roots[static_cast<size_t>(at)])]) {
                first = at;
                break;
              }
          }
          for (int at : next_places) {
            if (at < from || at >= first) continue;
            const std::array<int, 2> delta = flip_delta(a, free_roots[static_cast<size_t>(at)]);
            if (cost_of({count[0] + delta[0], count[1] + delta[1]}) < current) {
              first = at;
              break;
            }
          }
          if (first == static_cast<int>(free_roots.size())) break;
          if (!try_flip(a, free_roots[static_cast<size_t>(first)]))
            throw std::logic_error("tap_schedule: a pair flip found to lower the cost does not");
          improved = true;
          from = first + 1;
        }
        for (int other : next_to[static_cast<size_t>(a)]) is_next[static_cast<size_t>(other)] = 0;
      }
    }
    if (best_polarity.empty() || current < best_cost) {
      best_cost = current;
      best_polarity = polarity;
    }
  }
  polarity = best_polarity;

  std::array<TapSchedule, 2> out;
  for (int s = 0; s < 2; ++s) {
    TapSchedule& sch = out[static_cast<size_t>(s)];
    const std::vector<int>& seq = sequence[static_cast<size_t>(s)];
    sch.sends_own = value(own(s)) == 1;
    if (!seq.empty()) sch.forwards_first = value(seq[0]) == 1;
    int current = sch.forwards_first ? 1 : 0;
    for (int v : seq) {
      const int t = v - dir(s, 0);
      if (value(v) != current) {
        current = value(v);
        sch.switch_steps.push_back(t);
      }
    }
  }
  return out;
}

}  // namespace

TapDemand ring_demand(int m, const std::vector<int>& sources, std::array<int, 2> suppliers,
                      std::array<bool, 2> own_allowed, int deadline) {
  TapDemand d;
  d.packets = static_cast<int>(sources.size());
  d.deadline = deadline;
  const int fwd_reach = m / 2, bwd_reach = (m - 1) / 2;
  std::vector<int> packet_at(static_cast<size_t>(m), -1);
  for (size_t i = 0; i < sources.size(); ++i) packet_at[static_cast<size_t>(sources[i])] = static_cast<int>(i);
  for (size_t s = 0; s < 2; ++s) {
    const int x = suppliers[s];
    if (own_allowed[s]) d.own[s] = packet_at[static_cast<size_t>(x)];
    d.arrivals[s].assign(static_cast<size_t>(fwd_reach + 1), {-1, -1});
    for (int t = 1; t <= fwd_reach; ++t) {
      d.arrivals[s][static_cast<size_t>(t)][0] = packet_at[static_cast<size_t>(mod(x - t, m))];
      if (t <= bwd_reach) d.arrivals[s][static_cast<size_t>(t)][1] = packet_at[static_cast<size_t>(mod(x + t, m))];
    }
  }
  return d;
}

std::optional<std::array<TapSchedule, 2>> schedule_taps(const TapDemand& demand) {
  if (auto one = one_switch_schedule(demand)) return one;
  return parity_schedule(demand);
}

}  // namespace fixroute::partial_cycles
