// Snakes and their mirror images on any 2D or 3D torus (the all-to-all broadcast paper,
// "2D tori": "Time and memory-optimal solutions exist for any 2D and 3D torus. In 2D case,
// a general T(z1,z2) requires beta <= 3"; 60 on 3D tori; the paper draws the odd squares'
// four rotated snakes and gives no construction for the rest). Seen centred at the root,
// the point reflection p -> -p is an automorphism of every torus and turns each direction
// into its opposite, so a tree made of arcs and their mirror images has 2d distinct
// directions in a round -- the paper's lemma -- when each round holds at most one arc along
// each dimension (each with its image). Round 1 sends the root's 2d arcs; every later round
// enters up to d new pairs {p, -p}, one along each dimension, from pairs informed in the
// last three rounds -- mostly the round before, so the tree is d snakes that may fork and
// stop -- and a pair waiting a round or two before it sends (two buffers, it and its image)
// is allowed while the round's buffers stay within the paper's promise: on tori with all
// sizes even every node of a bufferless tree would be informed in a round of its colour's
// parity, which the pairs' colours need not allow. Rounds left short of 2d arcs are counted
// against the slots the degree bound leaves free. Found by depth-first search (bufferless
// parents first, then fewest onward pairs; cut where a part of the pairs left touches no
// pair that may still send), restarted with ties broken anew.
//
// The reflection fixes the points with every coordinate 0 or half an even size -- at most
// three off the root in 2D, seven in 3D -- which no arc pair may enter (its image would enter
// the point too). Each is entered in a round and direction the pairs leave free, from a
// neighbour informed earlier, which holds the packet until then (2D: every placement tried,
// the fewest buffers kept; 3D: the first that fits). Trees above the promise are refused,
// so the tree has ceil((N-1)/2d) rounds, the degree bound, and at most the paper's buffers;
// of the trees found, the one of fewest buffers is kept. Where every size is odd (no fixed
// point but the root) a tree with no waits at all is looked for first: bufferless, as the
// paper says of its odd squares and odd cubes. With --budget, where the restarts
// found none, the first order is searched on until the time is spent: some tori need
// millions of rounds of backtracking in one order (torus:3x16 21 M, 3x22 11 M: both then
// bufferless), more than any restart is given.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>

#include "sw/core/errors.h"
#include "sw/core/formulas.h"
#include "sw/schedulers/broadcast_trees.h"
#include "sw/schedulers/search_deadline.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {
namespace mirrored {  // a unity build puts the other schedulers' names beside these

constexpr int kAttempts = 512;               // attempts, each with ties broken another way
constexpr int kTreesPerAttempt = 8;          // complete trees an attempt compares (fewest buffers kept)
constexpr int kFruitfulAttempts = 4;         // attempts that found trees before the search stops
constexpr int kAttemptsAfterFruit = 16;      // attempts after the first that found one, at most
constexpr int64_t kSearchBudget = 3000000;  // rounds tried in all the attempts together
constexpr int kBufferlessAttempts = 16;     // attempts at a tree without waits (every size odd)

using Point = std::array<int, 3>;  // a 2D torus's third coordinate is 0
// Ports: +dimension k is port 2k, -k is 2k+1.
constexpr std::array<Point, 6> kDirection = {{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}};
constexpr int kFixed = -2;  // a point the reflection fixes (the root is -1)
constexpr size_t kFixedTriedEveryWay = 3;  // up to this many fixed points (2D), every placement is tried
constexpr int kPlacements = 8192;  // steps of the fixed points' placement tried, at most
constexpr int kMaxWait = 2;  // rounds a parent may hold a packet before sending it on

bool mirrored_torus(const Topology& t) {
  const std::vector<int>& d = t.dims();
  return t.kind() == TopologyKind::Torus && (d.size() == 2 || d.size() == 3) &&
         std::all_of(d.begin(), d.end(), [](int z) { return z >= 3; }) && t.num_nodes() <= kMaxBroadcastTreeNodes;
}

class MirroredSnakes {
 public:
  // `promise`: the most buffers a tree may need (the paper's: 3 on 2D tori, 60 on 3D);
  // `budget_seconds` (0: none) the time a search that found nothing may go on.
  MirroredSnakes(const Topology& topology, int promise, double budget_seconds = 0)
      : dims_(static_cast<int>(topology.dims().size())),
        nodes_(topology.num_nodes()),
        promise_(promise),
        budget_seconds_(budget_seconds) {
    for (int k = 0; k < dims_; ++k) side_[static_cast<size_t>(k)] = topology.dims()[static_cast<size_t>(k)];
    // key() numbers points as the topology numbers its nodes (Topology::coords: mixed radix,
    // the last coordinate fastest), so a point's key is its node.
    for (int v = 0; v < nodes_; ++v) {
      const std::vector<int> c = topology.coords(v);
      if (key({c[0], c[1], dims_ == 3 ? c[2] : 0}) != static_cast<size_t>(v))
        throw std::logic_error("mirrored-snakes: the torus numbers its nodes otherwise than key()");
    }
    std::vector<Point> points;  // every point, the last coordinate fastest
    for (int x = 0; x < side_[0]; ++x)
      for (int y = 0; y < side_[1]; ++y)
        for (int w = 0; w < side_[2]; ++w) points.push_back({x, y, w});
    pair_.assign(static_cast<size_t>(nodes_), kFixed);
    pair_[key({0, 0, 0})] = -1;
    for (const Point& p : points) {
      if (key(p) == key(minus(p)) || pair_[key(p)] >= 0) continue;
      pair_[key(p)] = pair_[key(minus(p))] = pairs_++;
    }
    for (const Point& p : points)
      if (pair_[key(p)] == kFixed) fixed_.push_back(p);
    neighbours_.resize(static_cast<size_t>(pairs_));
    for (const Point& p : points) {
      const int a = pair_[key(p)];
      if (a < 0) continue;
      for (int d = 0; d < 2 * dims_; ++d) {
        const int b = pair_[key(add(p, kDirection[static_cast<size_t>(d)]))];
        auto& n = neighbours_[static_cast<size_t>(a)];
        if (b >= 0 && b != a && std::find(n.begin(), n.end(), b) == n.end()) n.push_back(b);
      }
    }
    rounds_ = static_cast<int>(formulas::tadbt_rounds(nodes_, 2 * dims_));
    // Slots (a round, a direction) the pairs leave free: the fixed points' and the slack.
    spare_slots_ = 2 * dims_ * rounds_ - 2 * pairs_;
  }

  // The tree of fewest buffers found (at most the promise), or empty.
  std::vector<GenericArc> tree() {
    const SearchDeadline budget_end(budget_seconds_);  // --budget counts from here
    seen_.assign(static_cast<size_t>(pairs_), 0);
    // The paper's odd tori are bufferless (its odd squares' rotated snakes, its odd cubes'
    // pyramids). Where every size is odd the reflection fixes no point but the root, and
    // up to 16 attempts first look for a tree in which no parent waits: found on every such
    // torus tried (2D up to 23x23 within 15 attempts, 3D up to 11x11x11 and the cubes up to
    // 19x19x19 within 7); not on 41x41 or 45x45, where the restarts' whole allowance found
    // none either. Elsewhere, or if none is found, the paper's promise bounds the waits.
    if (fixed_.empty() && promise_ > 0) {
      restarts(kBufferlessAttempts, 0);
      if (!best_.empty()) return best_;
    }
    restarts(kAttempts, promise_);
    if (best_.empty() && budget_seconds_ > 0) {  // the first order, on while the time lasts
      std::iota(tie_.begin(), tie_.end(), 0u);
      deadline_ = &budget_end;
      search(std::numeric_limits<int64_t>::max());
      deadline_ = nullptr;
    }
    return best_;
  }

 private:
  // Up to `attempts` attempts at trees of at most `buffers` buffers, with ties broken anew
  // each time (the first in pair order), until a few found trees, one found a bufferless
  // tree, or the rounds allowed are spent.
  void restarts(int attempts, int buffers) {
    allowed_ = buffers;
    std::mt19937 random(0x5a7e5);
    tie_.resize(static_cast<size_t>(pairs_));
    std::iota(tie_.begin(), tie_.end(), 0u);
    int64_t search_left = kSearchBudget;
    for (int attempt = 0, fruitful = 0, last = attempts - 1;
         attempt <= last && fruitful < kFruitfulAttempts && best_buffers_ != 0 && search_left > 0; ++attempt) {
      if (attempt > 0) std::shuffle(tie_.begin(), tie_.end(), random);
      // A fruitful attempt seldom turns back on large tori: restarts do better there than long
      // backtracking; thin tori need more of it, so each 16 attempts get twice the rounds.
      const int64_t budget = std::min((4 * static_cast<int64_t>(pairs_) + 1000) << std::min(attempt / 16, 10), search_left);
      search_left -= budget;
      search(budget);
      if (found_ > 0 && fruitful++ == 0) last = std::min(last, attempt + kAttemptsAfterFruit);
    }
  }

  // An attempt: depth-first from round 1 for at most `budget` rounds (or until deadline_).
  void search(int64_t budget) {
    informed_.assign(static_cast<size_t>(pairs_), -1);
    point_.assign(static_cast<size_t>(pairs_), Point{0, 0, 0});
    last_send_.assign(static_cast<size_t>(pairs_), 0);
    waiting_.assign(static_cast<size_t>(rounds_) + 2, 0);
    used_.assign(static_cast<size_t>(rounds_) + 1, {false, false, false, false, false, false});
    moves_.clear();
    by_round_.assign(static_cast<size_t>(rounds_) + 2, {});
    visited_ = 0;
    free_slots_ = 0;
    budget_ = budget;
    found_ = 0;
    extend(1);
  }

  // An arc of the upper copy: its mirror image goes from -from to -to, the opposite way.
  struct Move {
    int round, direction;
    Point from, to;
    int parent;  // the parent's pair, -1 for the root
  };

  size_t key(Point p) const {
    size_t k = 0;
    for (size_t i = 0; i < 3; ++i)
      k = k * static_cast<size_t>(side_[i]) + static_cast<size_t>(((p[i] % side_[i]) + side_[i]) % side_[i]);
    return k;
  }
  static Point add(Point a, Point b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
  static Point minus(Point p) { return {-p[0], -p[1], -p[2]}; }
  int node(Point p) const { return static_cast<int>(key(p)); }
  int pair_at(Point p) const { return pair_[key(p)]; }
  int onward(int pair) const {
    int n = 0;
    for (int b : neighbours_[static_cast<size_t>(pair)]) n += informed_[static_cast<size_t>(b)] < 0;
    return n;
  }

  // Whether every part of the pairs not yet informed still touches a pair that may send
  // (informed in the last kMaxWait + 1 rounds up to `round`). A part touches the pairs just
  // informed; it can lose its last such pair only where a pair just stopped being live, so
  // only the parts around those are walked, each until a live pair is met.
  bool reachable(int round) {
    ++stamp_;
    auto live_part = [&](int start) {
      if (informed_[static_cast<size_t>(start)] >= 0 || seen_[static_cast<size_t>(start)] == stamp_) return true;
      seen_[static_cast<size_t>(start)] = stamp_;
      queue_.assign(1, start);
      for (size_t i = 0; i < queue_.size(); ++i)
        for (int b : neighbours_[static_cast<size_t>(queue_[i])]) {
          const int at = informed_[static_cast<size_t>(b)];
          if (at >= round - kMaxWait) return true;
          if (at < 0 && seen_[static_cast<size_t>(b)] != stamp_) {
            seen_[static_cast<size_t>(b)] = stamp_;
            queue_.push_back(b);
          }
        }
      return false;
    };
    if (round - kMaxWait - 1 >= 1)
      for (int p : by_round_[static_cast<size_t>(round - kMaxWait - 1)])
        for (int n : neighbours_[static_cast<size_t>(p)])
          if (!live_part(n)) return false;
    return true;
  }

  // The buffers a parent informed in round `at`, last sending in `last`, adds by sending in
  // `round` (its mirror image too): the rounds it now waits through.
  void wait_for(int at, int last, int round, int delta) {
    for (int r = std::max(at + 1, last); r < round; ++r) waiting_[static_cast<size_t>(r)] += delta;
  }
  bool fits(int at, int last, int round) const {
    for (int r = std::max(at + 1, last); r < round; ++r)
      if (waiting_[static_cast<size_t>(r)] + 2 > allowed_) return false;
    return true;
  }

  // The moves along dimension `dim` (directions 2 dim, 2 dim + 1) a round may make: from
  // the root in round 1, else from a pair informed in the last kMaxWait + 1 rounds.
  std::vector<Move> options(int round, int dim) const {
    std::vector<Move> out;
    auto from = [&](Point p, int parent) {
      for (int d = 2 * dim; d < 2 * dim + 2; ++d) {
        const Point to = add(p, kDirection[static_cast<size_t>(d)]);
        const int t = pair_at(to);
        if (t >= 0 && informed_[static_cast<size_t>(t)] < 0) out.push_back({round, d, p, to, parent});
      }
    };
    if (round == 1) from({0, 0, 0}, -1);
    for (int r = std::max(1, round - 1 - kMaxWait); r < round; ++r)
      for (int p : by_round_[static_cast<size_t>(r)]) {
        const int at = informed_[static_cast<size_t>(p)];
        if (fits(at, last_send_[static_cast<size_t>(p)], round)) from(point_[static_cast<size_t>(p)], p);
      }
    return out;
  }

  void apply(const Move& m, int delta) {
    const int t = pair_at(m.to);
    if (delta > 0) {
      informed_[static_cast<size_t>(t)] = m.round;
      point_[static_cast<size_t>(t)] = m.to;
      by_round_[static_cast<size_t>(m.round)].push_back(t);
      ++visited_;
    } else {
      informed_[static_cast<size_t>(t)] = -1;
      by_round_[static_cast<size_t>(m.round)].pop_back();
      --visited_;
    }
    used_[static_cast<size_t>(m.round)][static_cast<size_t>(m.direction)] = delta > 0;
    used_[static_cast<size_t>(m.round)][static_cast<size_t>(m.direction ^ 1)] = delta > 0;
  }

  // Depth-first, round by round: a move along each dimension (or none, leaving two slots
  // free); bufferless parents first, then fewest onward pairs. True to stop.
  bool extend(int round) {
    if (--budget_ < 0) return true;
    if (deadline_ && budget_ % 4096 == 0 && deadline_->passed()) return true;
    if (visited_ == pairs_) return complete();
    if (round > rounds_) return false;
    struct Choice {
      int score;
      uint32_t tie;
      std::array<int, 3> pick;  // per dimension an index into its options, -1 for none
    };
    std::array<std::vector<Move>, 3> along;
    for (int k = 0; k < dims_; ++k) along[static_cast<size_t>(k)] = options(round, k);
    auto wait = [&](const Move& m) { return m.parent < 0 ? 0 : round - 1 - informed_[static_cast<size_t>(m.parent)]; };
    std::vector<Choice> choices;
    std::array<int, 3> pick = {-1, -1, -1};
    // Every pick, the last dimension's index turning fastest.
    for (bool more = true; more;) {
      int none = 0, score = 0;
      uint32_t tie = 0;
      std::array<int, 3> target = {-1, -2, -3};
      bool distinct = true;
      for (int k = 0; k < dims_; ++k) {
        const int i = pick[static_cast<size_t>(k)];
        if (i < 0) {
          ++none;
          continue;
        }
        const Move& m = along[static_cast<size_t>(k)][static_cast<size_t>(i)];
        const int t = pair_at(m.to);
        for (int j = 0; j < k; ++j) distinct = distinct && target[static_cast<size_t>(j)] != t;
        target[static_cast<size_t>(k)] = t;
        score += 100 * wait(m) + onward(t);
        tie ^= tie_[static_cast<size_t>(t)] * static_cast<uint32_t>(2 * k + 1);
      }
      if (distinct && free_slots_ + 2 * none <= spare_slots_) choices.push_back({score + none * 1000, tie, pick});
      more = false;
      for (int k = dims_ - 1; k >= 0 && !more; --k) {
        int& i = pick[static_cast<size_t>(k)];
        if (++i < static_cast<int>(along[static_cast<size_t>(k)].size())) {
          more = true;
        } else {
          i = -1;
        }
      }
    }
    std::sort(choices.begin(), choices.end(),
              [](const Choice& x, const Choice& y) { return x.score != y.score ? x.score < y.score : x.tie < y.tie; });
    for (const Choice& c : choices) {
      std::vector<Move> made;
      for (int k = 0; k < dims_; ++k)
        if (c.pick[static_cast<size_t>(k)] >= 0)
          made.push_back(along[static_cast<size_t>(k)][static_cast<size_t>(c.pick[static_cast<size_t>(k)])]);
      bool fit = true;
      size_t applied = 0;
      std::vector<std::pair<int, int>> sent;  // (parent, its last send before)
      for (const Move& m : made) {
        if (m.parent >= 0) {
          // A second move from the same parent finds it already waiting that long.
          const size_t p = static_cast<size_t>(m.parent);
          if (!fits(informed_[p], last_send_[p], round)) {
            fit = false;
            break;
          }
          wait_for(informed_[p], last_send_[p], round, 2);
          sent.push_back({m.parent, last_send_[p]});
          last_send_[p] = round;
        }
        apply(m, 1);
        moves_.push_back(m);
        ++applied;
      }
      const int left_free = 2 * (dims_ - static_cast<int>(made.size()));
      free_slots_ += left_free;
      if (fit && reachable(round) && extend(round + 1)) return true;
      free_slots_ -= left_free;
      for (size_t i = applied; i-- > 0;) {
        apply(made[i], -1);
        moves_.pop_back();
      }
      for (size_t i = sent.size(); i-- > 0;) {
        const size_t p = static_cast<size_t>(sent[i].first);
        last_send_[p] = sent[i].second;
        wait_for(informed_[p], last_send_[p], round, -2);
      }
    }
    return false;
  }
  // Every pair informed: the moves and their mirror images, then each point the mirror
  // fixes entered in a free (round, direction) from a neighbour informed before it; every
  // assignment of the first three such rounds per direction tried, the fewest buffers kept.
  bool complete() {
    std::vector<GenericArc> arcs;
    for (const Move& m : moves_) {
      arcs.push_back({m.round, m.direction, node(m.from), node(m.to)});
      arcs.push_back({m.round, m.direction ^ 1, node(minus(m.from)), node(minus(m.to))});
    }
    std::vector<std::vector<GenericArc>> entries(fixed_.size());  // each fixed point's
    for (size_t f = 0; f < fixed_.size(); ++f)
      for (int d = 0; d < 2 * dims_; ++d) {
        const Point parent = add(fixed_[f], kDirection[static_cast<size_t>(d ^ 1)]);
        const int pair = pair_at(parent);
        if (pair < 0) continue;  // another fixed point
        int taken = 0;
        for (int round = informed_[static_cast<size_t>(pair)] + 1; round <= rounds_ && taken < 3; ++round)
          if (!used_[static_cast<size_t>(round)][static_cast<size_t>(d)]) {
            entries[f].push_back({round, d, node(parent), node(fixed_[f])});
            ++taken;
          }
      }
    std::vector<GenericArc> best_here, chosen;
    int best_here_buffers = allowed_ + 1;
    int placements = kPlacements;
    auto place = [&](auto&& self, size_t f) -> void {
      --placements;
      if (f == fixed_.size()) {
        std::vector<GenericArc> all = arcs;
        all.insert(all.end(), chosen.begin(), chosen.end());
        const int buffers = generic_tree_buffers(all, nodes_);
        if (buffers < best_here_buffers) {
          best_here_buffers = buffers;
          best_here = std::move(all);
        }
        return;
      }
      for (const GenericArc& a : entries[f]) {
        if (std::any_of(chosen.begin(), chosen.end(),
                        [&](const GenericArc& c) { return c.level == a.level && c.port == a.port; }))
          continue;
        chosen.push_back(a);
        self(self, f + 1);
        chosen.pop_back();
        if ((fixed_.size() > kFixedTriedEveryWay && !best_here.empty()) || placements <= 0) return;  // 3D: the first that fits
      }
    };
    place(place, 0);
    if (best_here.empty()) return false;  // the fixed points do not fit: search on
    if (best_buffers_ < 0 || best_here_buffers < best_buffers_) {
      best_buffers_ = best_here_buffers;
      best_ = std::move(best_here);
    }
    return ++found_ >= kTreesPerAttempt || best_buffers_ == 0;
  }

  int dims_, nodes_, promise_;
  int allowed_ = 0;  // the buffers a tree of the current search may need: the promise, or 0
  Point side_ = {1, 1, 1};
  std::vector<int> pair_;  // by key: the pair {p, -p}, -1 at the root, kFixed where p = -p
  int pairs_ = 0;
  std::vector<Point> fixed_;
  std::vector<std::vector<int>> neighbours_;  // pairs touching each pair
  int rounds_ = 0, spare_slots_ = 0;
  std::vector<uint32_t> tie_;
  // The search's state: each pair's round and the point of it entered (its upper copy), the
  // round its last child was sent, the pairs of each round, the nodes waiting in each
  // round, the directions each round uses, the moves made.
  std::vector<int> informed_;
  std::vector<Point> point_;
  std::vector<int> last_send_;
  std::vector<std::vector<int>> by_round_;
  std::vector<int> waiting_;
  std::vector<std::array<bool, 6>> used_;
  std::vector<Move> moves_;
  int visited_ = 0, free_slots_ = 0;
  int64_t budget_ = 0;
  double budget_seconds_ = 0;
  const SearchDeadline* deadline_ = nullptr;  // the last attempt's, with --budget
  int found_ = 0;
  std::vector<int> seen_, queue_;  // the walks of reachable(): stamped, not cleared
  int stamp_ = 0;
  std::vector<GenericArc> best_;
  int best_buffers_ = -1;
};

}  // namespace mirrored

const AlgorithmRegistrar mirrored_snakes_registrar([] {
  Algorithm a = broadcast_tree_algorithm(
      "mirrored-snakes",
      "gossip without combining on any 2D or 3D torus: snakes and their mirror images through the root as the "
      "generic time-arc-disjoint tree, ceil((N-1)/2d) rounds, at most the paper's buffers (AAB paper, all-port "
      "full-duplex, 2D and 3D tori: beta <= 3 and 60)");
  a.unsupported = [](const Problem& p) -> std::string {
    if (!mirrored::mirrored_torus(p.topology))
      return fmt::format("the mirrored snakes cover 2D and 3D tori of sides 3 or more, up to {} nodes, torus:AxB or AxBxC",
                         kMaxBroadcastTreeNodes);
    return all_port_full_refusal(p.port_model);
  };
  a.formula = [](const Problem& p) -> std::optional<int64_t> {
    return formulas::tadbt_rounds(p.topology.num_nodes(), p.topology.num_ports());
  };
  a.paper_buffers = promised_tree_buffers;
  a.takes_budget = true;
  a.build = [](const Problem& p) {
    std::vector<GenericArc> arcs =
        mirrored::MirroredSnakes(p.topology, static_cast<int>(promised_tree_buffers(p).value_or(0)), p.budget_seconds)
            .tree();
    if (arcs.empty())
      throw InputError(fmt::format("mirrored-snakes: no pair of snakes through {} found in {} attempts or {} rounds "
                                   "tried{} (generic-tree-exact and tree-search search the whole tree)",
                                   p.topology.spec(), mirrored::kAttempts, mirrored::kSearchBudget,
                                   p.budget_seconds > 0 ? fmt::format(", then {} s in one order", p.budget_seconds)
                                                        : std::string(", --budget gives it more")));
    return generic_tree_tables(p, "mirrored-snakes", "two snakes and their mirror images", std::move(arcs));
  };
  // Even, odd and mixed sizes, the thin 3 x 8, sizes where the fixed points need buffers,
  // and 3D tori (up to seven fixed points).
  a.sweep = [](int max_size) {
    std::vector<SweepCase> out;
    for (const auto& [spec, smallest_side] :
         std::vector<std::pair<const char*, int>>{{"torus:4x4", 4}, {"torus:3x8", 3}, {"torus:4x6", 4}, {"torus:6x9", 6},
                                                  {"torus:7x10", 7}, {"torus:8x8", 8}, {"torus:12x12", 12}, {"torus:13x16", 13},
                                                  {"torus:3x3x3", 3}, {"torus:4x4x4", 4}, {"torus:3x4x5", 3}, {"torus:5x5x5", 5},
                                                  {"torus:4x6x7", 4}})
      if (smallest_side <= max_size) out.push_back({spec, {}, ""});
    return out;
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
