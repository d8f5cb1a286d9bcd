// Two snakes and their mirror images on any 2D torus T(z1,z2) (the all-to-all broadcast
// paper, "2D tori": "Time and memory-optimal solutions exist for any 2D and 3D torus. In 2D
// case, a general T(z1,z2) requires beta <= 3"; the paper draws the odd squares' four
// rotated snakes and gives no construction for the rest). Seen centred at the root, the
// point reflection p -> -p is an automorphism of every 2D torus and turns each direction
// into its opposite, so a tree made of arcs and their mirror images has four distinct
// directions in a round -- the paper's lemma -- when each round holds at most one arc
// along dimension 0 and one along dimension 1 (each with its image). Round 1 sends the
// root's four arcs; every later round enters up to two new pairs {p, -p}, one along each
// dimension, from pairs informed in the last three rounds -- mostly the round before, so
// the tree is two snakes that may fork and stop -- and a pair waiting a round or two before
// it sends (two buffers, it and its image) is allowed while the round's buffers stay at most
// three: on tori with both sizes even every node of a bufferless tree would be informed in
// a round of its colour's parity, which the pairs' colours need not allow. Rounds left
// short of four arcs are counted against the slots the degree bound leaves free. Found by
// depth-first search (bufferless parents first, then fewest onward pairs; cut where a part
// of the pairs left touches no pair that may still send), restarted with ties broken anew.
//
// The reflection fixes (z1/2, 0), (0, z2/2) and (z1/2, z2/2) where those sizes are even --
// at most three points, which no arc pair may enter (its image would enter the point too).
// Each is entered in a round and direction the pairs leave free, from a neighbour informed
// earlier, which holds the packet until then. Trees with more than three buffers are
// refused, so the tree has ceil((z1 z2 - 1)/4) rounds, the degree bound, and at most the
// paper's three buffers; of the trees found, the one of fewest buffers is kept.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <random>

#include "sw/core/errors.h"
#include "sw/core/formulas.h"
#include "sw/schedulers/broadcast_trees.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {
namespace mirrored {  // a unity build puts the other schedulers' names beside these

constexpr int kAttempts = 512;               // attempts, each with ties broken another way
constexpr int kTreesPerAttempt = 8;          // complete trees an attempt compares (fewest buffers kept)
constexpr int kFruitfulAttempts = 4;         // attempts that found trees before the search stops
constexpr int kAttemptsAfterFruit = 16;      // attempts after the first that found one, at most
constexpr int64_t kSearchBudget = 3000000;  // rounds tried in all the attempts together

using Point = std::array<int, 2>;
// Ports: +dimension k is port 2k, -k is 2k+1.
constexpr std::array<Point, 4> kDirection = {{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
constexpr int kFixed = -2;  // a point the reflection fixes (the root is -1)
constexpr int kPromisedBuffers = 3;  // the paper's beta on 2D tori
constexpr int kMaxWait = 2;  // rounds a parent may hold a packet before sending it on

bool two_d_torus(const Topology& t) {
  return t.kind() == TopologyKind::Torus && t.dims().size() == 2 && t.dims()[0] >= 3 && t.dims()[1] >= 3 &&
         t.num_nodes() <= kMaxBroadcastTreeNodes;
}

class MirroredSnakes {
 public:
  explicit MirroredSnakes(const Topology& topology)
      : z1_(topology.dims()[0]), z2_(topology.dims()[1]), nodes_(topology.num_nodes()) {
    node_.assign(static_cast<size_t>(nodes_), -1);
    for (int v = 0; v < nodes_; ++v) {
      const std::vector<int> c = topology.coords(v);
      node_[key({c[0], c[1]})] = v;
    }
    pair_.assign(static_cast<size_t>(nodes_), kFixed);
    pair_[key({0, 0})] = -1;
    for (int x = 0; x < z1_; ++x)
      for (int y = 0; y < z2_; ++y) {
        const Point p{x, y};
        if (key(p) == key(minus(p)) || pair_[key(p)] >= 0) continue;
        pair_[key(p)] = pair_[key(minus(p))] = pairs_++;
      }
    for (int x = 0; x < z1_; ++x)
      for (int y = 0; y < z2_; ++y)
        if (pair_[key({x, y})] == kFixed) fixed_.push_back({x, y});
    neighbours_.resize(static_cast<size_t>(pairs_));
    for (int x = 0; x < z1_; ++x)
      for (int y = 0; y < z2_; ++y) {
        const int a = pair_[key({x, y})];
        if (a < 0) continue;
        for (const Point& d : kDirection) {
          const int b = pair_[key(add({x, y}, d))];
          auto& n = neighbours_[static_cast<size_t>(a)];
          if (b >= 0 && b != a && std::find(n.begin(), n.end(), b) == n.end()) n.push_back(b);
        }
      }
    rounds_ = static_cast<int>(formulas::tadbt_rounds(nodes_, 4));
    // Slots a round (four directions) the pairs leave free: the fixed points' and the slack.
    spare_slots_ = 4 * rounds_ - 2 * pairs_;
  }

  // The tree of fewest buffers found (at most kPromisedBuffers), or empty.
  std::vector<GenericArc> tree() {
    std::mt19937 random(0x5a7e5);
    tie_.resize(static_cast<size_t>(pairs_));
    std::iota(tie_.begin(), tie_.end(), 0u);
    seen_.assign(static_cast<size_t>(pairs_), 0);
    int64_t search_left = kSearchBudget;
    for (int attempt = 0, fruitful = 0, last = kAttempts - 1;
         attempt <= last && fruitful < kFruitfulAttempts && best_buffers_ != 0 && search_left > 0; ++attempt) {
      if (attempt > 0) std::shuffle(tie_.begin(), tie_.end(), random);
      informed_.assign(static_cast<size_t>(pairs_), -1);
      point_.assign(static_cast<size_t>(pairs_), Point{0, 0});
      last_send_.assign(static_cast<size_t>(pairs_), 0);
      waiting_.assign(static_cast<size_t>(rounds_) + 2, 0);
      used_.assign(static_cast<size_t>(rounds_) + 1, {false, false, false, false});
      moves_.clear();
      by_round_.assign(static_cast<size_t>(rounds_) + 2, {});
      visited_ = 0;
      free_slots_ = 0;
      // A fruitful attempt seldom turns back on large tori: restarts do better there than long
      // backtracking; thin tori need more of it, so each 16 attempts get twice the rounds.
      budget_ = std::min((4 * static_cast<int64_t>(pairs_) + 1000) << std::min(attempt / 16, 10), search_left);
      search_left -= budget_;
      found_ = 0;
      extend(1);
      if (found_ > 0 && fruitful++ == 0) last = std::min(last, attempt + kAttemptsAfterFruit);
    }
    return best_;
  }

 private:
  // An arc of the upper copy: its mirror image goes from -from to -to, the opposite way.
  struct Move {
    int round, direction;
    Point from, to;
    int parent;  // the parent's pair, -1 for the root
  };

  size_t key(Point p) const {
    return static_cast<size_t>(((p[0] % z1_) + z1_) % z1_) * static_cast<size_t>(z2_) +
           static_cast<size_t>(((p[1] % z2_) + z2_) % z2_);
  }
  static Point add(Point a, Point b) { return {a[0] + b[0], a[1] + b[1]}; }
  static Point minus(Point p) { return {-p[0], -p[1]}; }
  int node(Point p) const { return node_[key(p)]; }
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
      if (waiting_[static_cast<size_t>(r)] + 2 > kPromisedBuffers) return false;
    return true;
  }

  // The moves along one dimension (directions first, first + 1) a round may make: from
  // the root in round 1, else from a pair informed in the last kMaxWait + 1 rounds.
  std::vector<Move> options(int round, int first) const {
    std::vector<Move> out;
    auto from = [&](Point p, int parent) {
      for (int d = first; d < first + 2; ++d) {
        const Point to = add(p, kDirection[static_cast<size_t>(d)]);
        const int t = pair_at(to);
        if (t >= 0 && informed_[static_cast<size_t>(t)] < 0) out.push_back({round, d, p, to, parent});
      }
    };
    if (round == 1) from({0, 0}, -1);
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
    if (visited_ == pairs_) return complete();
    if (round > rounds_) return false;
    struct Choice {
      int score;
      uint32_t tie;
      int h, v;  // indices into the options, -1 for none
    };
    const std::vector<Move> along0 = options(round, 0), along1 = options(round, 2);
    auto wait = [&](const Move& m) { return m.parent < 0 ? 0 : round - 1 - informed_[static_cast<size_t>(m.parent)]; };
    std::vector<Choice> choices;
    for (int h = -1; h < static_cast<int>(along0.size()); ++h)
      for (int v = -1; v < static_cast<int>(along1.size()); ++v) {
        const int none = (h < 0) + (v < 0);
        if (free_slots_ + 2 * none > spare_slots_) continue;
        const int th = h < 0 ? -1 : pair_at(along0[static_cast<size_t>(h)].to);
        const int tv = v < 0 ? -2 : pair_at(along1[static_cast<size_t>(v)].to);
        if (th == tv) continue;
        int score = none * 1000;
        uint32_t tie = 0;
        if (h >= 0) score += 100 * wait(along0[static_cast<size_t>(h)]) + onward(th), tie ^= tie_[static_cast<size_t>(th)];
        if (v >= 0) score += 100 * wait(along1[static_cast<size_t>(v)]) + onward(tv), tie ^= tie_[static_cast<size_t>(tv)] * 3u;
        choices.push_back({score, tie, h, v});
      }
    std::sort(choices.begin(), choices.end(),
              [](const Choice& x, const Choice& y) { return x.score != y.score ? x.score < y.score : x.tie < y.tie; });
    for (const Choice& c : choices) {
      std::vector<Move> made;
      if (c.h >= 0) made.push_back(along0[static_cast<size_t>(c.h)]);
      if (c.v >= 0) made.push_back(along1[static_cast<size_t>(c.v)]);
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
      const int left_free = 2 * (2 - static_cast<int>(made.size()));
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
      for (int d = 0; d < 4; ++d) {
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
    int best_here_buffers = kPromisedBuffers + 1;
    auto place = [&](auto&& self, size_t f) -> void {
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

  int z1_, z2_, nodes_;
  std::vector<int> node_;  // by key
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
  std::vector<std::array<bool, 4>> used_;
  std::vector<Move> moves_;
  int visited_ = 0, free_slots_ = 0;
  int64_t budget_ = 0;
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
      "gossip without combining on any 2D torus T(z1,z2): two snakes and their mirror images through the root as "
      "the generic time-arc-disjoint tree, ceil((z1 z2 - 1)/4) rounds, buffers only for the up to three points the "
      "mirror fixes (AAB paper, all-port full-duplex, 2D tori: beta <= 3)");
  a.unsupported = [](const Problem& p) -> std::string {
    if (!mirrored::two_d_torus(p.topology))
      return fmt::format("the mirrored snakes cover 2D tori of sides 3 or more, up to {} nodes, torus:AxB",
                         kMaxBroadcastTreeNodes);
    return all_port_full_refusal(p.port_model);
  };
  a.formula = [](const Problem& p) -> std::optional<int64_t> {
    return formulas::tadbt_rounds(p.topology.num_nodes(), p.topology.num_ports());
  };
  a.paper_buffers = promised_tree_buffers;
  a.build = [](const Problem& p) {
    std::vector<GenericArc> arcs = mirrored::MirroredSnakes(p.topology).tree();
    if (arcs.empty())
      throw InputError(fmt::format("mirrored-snakes: no pair of snakes through {} found in {} attempts or {} rounds tried",
                                   p.topology.spec(), mirrored::kAttempts, mirrored::kSearchBudget));
    return generic_tree_tables(p, "mirrored-snakes", "two snakes and their mirror images", std::move(arcs));
  };
  // Even, odd and mixed sizes, the thin 3 x 8, and sizes where the fixed points need buffers.
  a.sweep = [](int max_size) {
    std::vector<SweepCase> out;
    for (const auto& [x, y] : std::vector<std::pair<int, int>>{{4, 4}, {3, 8}, {4, 6}, {6, 9}, {7, 10}, {8, 8}, {12, 12}, {13, 16}})
      if (std::min(x, y) <= max_size) out.push_back({fmt::format("torus:{}x{}", x, y), {}, ""});
    return out;
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
