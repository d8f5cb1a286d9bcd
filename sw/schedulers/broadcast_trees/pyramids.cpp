// Six isomorphic snakes on the odd cube T(z,z,z) (the all-to-all broadcast paper, "2D tori",
// last paragraph: "The cube is partitioned into 6 pyramids, covered by isomorphic snakes";
// the paper gives no more than that sentence). Seen centred at the root, g(x,y,w) =
// (-w,-x,-y) is an automorphism of the cube of order 6 that takes each of the six directions
// to the next (+x, -y, +w, -x, +y, -w): six snakes that are images of one another under g use
// six distinct directions in every round -- the paper's lemma. Each snake covers one point of
// every orbit of g, a sixth of the cube (the paper's pyramid): the snake is a Hamiltonian
// path through the orbits, from the orbit of the unit vectors, found by depth-first search
// (fewest onward orbits first); every round it enters the next orbit from the previous one,
// so no node holds a packet: bufferless.
//
// g fixes no point off the root but the diagonal's: g^2 permutes the coordinates, so each
// (a,a,a), a = 1..k (z = 2k+1), shares its orbit with -(a,a,a) alone. The k diagonal pairs
// take the last ceil(k/3) rounds, three pairs a round on the three axes ((a,a,a) entered
// along +axis, -(a,a,a) along -axis), from whichever generic neighbour was informed last:
// (z^3-z)/6 + ceil(k/3) = ceil((z^3-1)/6) rounds, the degree bound. Their parents hold the
// packet from the round they were informed to those last rounds: the buffers are theirs
// (the paper calls the cube's solution bufferless; it does not say how the diagonal is
// covered). Of the Hamiltonian paths found first, the one of fewest buffers is kept.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <numeric>
#include <random>

#include "sw/core/errors.h"
#include "sw/core/formulas.h"
#include "sw/schedulers/broadcast_trees.h"
#include "sw/topology/topology.h"

namespace fixroute {
namespace {

// The largest odd side whose cube the broadcast-tree routers hold (an origin per node):
// 19 (6859 of 8192).
constexpr int largest_odd_side() {
  int z = 1;
  while ((z + 2) * (z + 2) * (z + 2) <= kMaxBroadcastTreeNodes) z += 2;
  return z;
}
constexpr int kMaxSide = largest_odd_side();
constexpr int64_t kAttemptBudget = 200000;  // orbits entered before an attempt starts again
constexpr int kPyramidAttempts = 32;       // attempts, each with ties broken another way
constexpr int kPathsPerAttempt = 8;         // Hamiltonian paths an attempt compares (they differ near the end)

using Point = std::array<int, 3>;

bool odd_cube(const Topology& t) {
  return t.kind() == TopologyKind::Torus && t.dims().size() == 3 && t.dims()[0] == t.dims()[1] &&
         t.dims()[1] == t.dims()[2] && t.dims()[0] % 2 == 1;
}

class Cube {
 public:
  explicit Cube(const Topology& topology) : topology_(topology), z_(topology.dims()[0]) {}
  int side() const { return z_; }
  size_t key(Point p) const { return static_cast<size_t>((wrap(p[0]) * z_ + wrap(p[1])) * z_ + wrap(p[2])); }
  int node(Point p) const { return topology_.node_at_coords({wrap(p[0]), wrap(p[1]), wrap(p[2])}); }
  // The port that steps along `direction` (a unit vector): +dimension k is port 2k, -k 2k+1.
  static int port(Point direction) {
    for (int k = 0; k < 3; ++k)
      if (direction[static_cast<size_t>(k)] != 0) return 2 * k + (direction[static_cast<size_t>(k)] > 0 ? 0 : 1);
    return -1;
  }
  static Point g(Point p) { return {-p[2], -p[0], -p[1]}; }
  static Point add(Point a, Point b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }

 private:
  int wrap(int c) const { return ((c % z_) + z_) % z_; }  // round the torus
  const Topology& topology_;
  int z_;
};

const std::array<Point, 6> kDirections = {{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}};

// The orbits of g on the points off the root and the diagonal (six points each), and which
// orbits touch: entered[o] lists (next orbit, a point of o, direction into the next).
struct Orbits {
  std::vector<std::array<Point, 6>> points;  // points[o][j] = g^j(points[o][0])
  std::vector<int> of;                       // by key: the orbit, -1 at the root and on the diagonal
  struct Step {
    int next;
    Point from, direction;
  };
  std::vector<std::vector<Step>> steps;
};

Orbits orbits_of(const Cube& cube) {
  const int z = cube.side(), k = (z - 1) / 2;
  Orbits o;
  o.of.assign(static_cast<size_t>(z * z * z), -1);
  for (int x = -k; x <= k; ++x)
    for (int y = -k; y <= k; ++y)
      for (int w = -k; w <= k; ++w) {
        const Point p{x, y, w};
        if ((x == y && y == w) || o.of[cube.key(p)] >= 0) continue;  // the root, the diagonal, or seen
        std::array<Point, 6> orbit{};
        orbit[0] = p;
        for (size_t j = 1; j < 6; ++j) orbit[j] = Cube::g(orbit[j - 1]);
        for (const Point& q : orbit) o.of[cube.key(q)] = static_cast<int>(o.points.size());
        o.points.push_back(orbit);
      }
  o.steps.resize(o.points.size());
  for (size_t a = 0; a < o.points.size(); ++a)
    for (const Point& from : o.points[a])
      for (const Point& d : kDirections) {
        const int b = o.of[cube.key(Cube::add(from, d))];
        if (b < 0 || b == static_cast<int>(a)) continue;
        auto& s = o.steps[a];
        if (std::none_of(s.begin(), s.end(), [b](const Orbits::Step& t) { return t.next == b; })) s.push_back({b, from, d});
      }
  return o;
}

// The whole tree from a Hamiltonian path through the orbits (path[0] the unit vectors').
std::vector<GenericArc> tree_of(const Cube& cube, const Orbits& o, const std::vector<int>& path,
                                const std::vector<Orbits::Step>& into) {
  std::vector<GenericArc> arcs;
  std::vector<int> level(o.points.size(), 0);
  auto six = [&](int round, Point from, Point direction) {
    for (int j = 0; j < 6; ++j) {
      arcs.push_back({round, Cube::port(direction), cube.node(from), cube.node(Cube::add(from, direction))});
      from = Cube::g(from);
      direction = Cube::g(direction);
    }
  };
  six(1, {0, 0, 0}, {1, 0, 0});
  level[static_cast<size_t>(path[0])] = 1;
  for (size_t i = 1; i < path.size(); ++i) {
    six(static_cast<int>(i) + 1, into[i].from, into[i].direction);
    level[static_cast<size_t>(path[i])] = static_cast<int>(i) + 1;
  }
  // The diagonal pairs, three a round: each pair's axis and sign chosen (over every
  // assignment of its round's pairs to distinct axes) for the latest-informed parents.
  const int k = (cube.side() - 1) / 2;
  for (int first = 1; first <= k; first += 3) {
    const int round = static_cast<int>(path.size()) + 1 + (first - 1) / 3;
    const int pairs = std::min(3, k - first + 1);
    std::array<int, 3> axes = {0, 1, 2};
    std::vector<std::pair<Point, Point>> best;  // (parent, direction) of each pair's +(a,a,a)
    int best_score = -1;
    do {
      int score = 0;
      std::vector<std::pair<Point, Point>> chosen;
      for (int i = 0; i < pairs; ++i) {
        const int a = first + i;
        std::pair<Point, Point> pick;
        int latest = -1;
        for (int sign : {1, -1}) {
          Point d{0, 0, 0};
          d[static_cast<size_t>(axes[static_cast<size_t>(i)])] = sign;
          const Point parent = Cube::add({a, a, a}, {-d[0], -d[1], -d[2]});
          const int l = level[static_cast<size_t>(o.of[cube.key(parent)])];
          if (l > latest) {
            latest = l;
            pick = {parent, d};
          }
        }
        score += latest;
        chosen.push_back(pick);
      }
      if (score > best_score) {
        best_score = score;
        best = chosen;
      }
    } while (std::next_permutation(axes.begin(), axes.end()));
    for (const auto& [parent, d] : best) {
      arcs.push_back({round, Cube::port(d), cube.node(parent), cube.node(Cube::add(parent, d))});
      const Point back = Cube::g(Cube::g(Cube::g(parent))), back_d = {-d[0], -d[1], -d[2]};  // g^3 = -1
      arcs.push_back({round, Cube::port(back_d), cube.node(back), cube.node(Cube::add(back, back_d))});
    }
  }
  return arcs;
}

std::vector<GenericArc> pyramids(const Topology& topology) {
  const Cube cube(topology);
  const Orbits o = orbits_of(cube);
  const int orbits = static_cast<int>(o.points.size());
  const int start = o.of[cube.key({1, 0, 0})];
  std::vector<GenericArc> best;
  int best_buffers = -1;
  std::mt19937 random(0x9712a);
  std::vector<uint32_t> tie(static_cast<size_t>(orbits));  // among orbits of as many onward ways: lower first
  std::iota(tie.begin(), tie.end(), 0u);
  for (int attempt = 0; attempt < kPyramidAttempts && best_buffers != 0; ++attempt) {
    if (attempt > 0) std::shuffle(tie.begin(), tie.end(), random);
    std::vector<int> path = {start};
    std::vector<Orbits::Step> into = {{start, {0, 0, 0}, {1, 0, 0}}};
    std::vector<char> visited(static_cast<size_t>(orbits), 0);
    visited[static_cast<size_t>(start)] = 1;
    int64_t budget = kAttemptBudget;
    int found = 0;
    auto onward = [&](int orbit) {
      int n = 0;
      for (const Orbits::Step& s : o.steps[static_cast<size_t>(orbit)]) n += !visited[static_cast<size_t>(s.next)];
      return n;
    };
    // Depth-first, fewest onward orbits first (Warnsdorff's rule); returns true to stop.
    std::function<bool()> extend = [&]() -> bool {
      if (--budget < 0) return true;
      if (static_cast<int>(path.size()) == orbits) {
        std::vector<GenericArc> arcs = tree_of(cube, o, path, into);
        const int buffers = generic_tree_buffers(arcs, topology.num_nodes());
        if (best_buffers < 0 || buffers < best_buffers) {
          best = std::move(arcs);
          best_buffers = buffers;
        }
        return ++found >= kPathsPerAttempt || best_buffers == 0;
      }
      std::vector<std::pair<int, Orbits::Step>> next;
      for (const Orbits::Step& s : o.steps[static_cast<size_t>(path.back())])
        if (!visited[static_cast<size_t>(s.next)]) next.push_back({onward(s.next), s});
      std::sort(next.begin(), next.end(), [&](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first
                                  : tie[static_cast<size_t>(a.second.next)] < tie[static_cast<size_t>(b.second.next)];
      });
      for (const auto& [ways, s] : next) {
        if (ways == 0 && static_cast<int>(path.size()) + 1 < orbits) continue;  // a dead end short of the last orbit
        visited[static_cast<size_t>(s.next)] = 1;
        path.push_back(s.next);
        into.push_back(s);
        if (extend()) return true;
        visited[static_cast<size_t>(s.next)] = 0;
        path.pop_back();
        into.pop_back();
      }
      return false;
    };
    extend();
  }
  if (best.empty())
    throw InputError(fmt::format("pyramids: no Hamiltonian path through the orbits of {} in {} attempts",
                                 topology.spec(), kPyramidAttempts));
  return best;
}

const AlgorithmRegistrar pyramids_registrar([] {
  Algorithm a = broadcast_tree_algorithm(
      "pyramids", "gossip without combining on T(z,z,z), z odd: six isomorphic snakes as the generic "
                  "time-arc-disjoint tree, ceil((z^3-1)/6) rounds, buffers only for the diagonal (AAB paper, "
                  "all-port full-duplex, 3D cube)");
  a.unsupported = [](const Problem& p) -> std::string {
    if (!odd_cube(p.topology) || p.topology.dims()[0] > kMaxSide)
      return fmt::format("the six snakes cover a cube of odd side up to {}, torus:ZxZxZ", kMaxSide);
    return all_port_full_refusal(p.port_model);
  };
  a.formula = [](const Problem& p) -> std::optional<int64_t> {
    return formulas::tadbt_rounds(p.topology.num_nodes(), p.topology.num_ports());
  };
  // The paper calls the cube's pyramid solution trivial, as the snakes' (bufferless); the
  // diagonal's parents here wait (docs/broadcast-trees.md).
  a.paper_buffers = [](const Problem&) { return std::optional<int64_t>{0}; };
  a.build = [](const Problem& p) {
    return generic_tree_tables(p, "pyramids", "six isomorphic snakes", pyramids(p.topology));
  };
  a.sweep = [](int max_size) {
    std::vector<SweepCase> out;
    for (int z = 3; z <= std::min(max_size, 7); z += 2) out.push_back({fmt::format("torus:{}x{}x{}", z, z, z), {}, ""});
    return out;
  };
  return a;
}());

}  // namespace
}  // namespace fixroute
