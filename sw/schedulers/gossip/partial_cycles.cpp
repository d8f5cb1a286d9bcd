// Gossip of one packet per node along partial Hamiltonian cycles: the `partial-cycles`
// algorithm (gossip paper, section 3, Theorems 2, 3 and 4). See partial_cycles.h.
#include "partial_cycles.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <utility>

#include "sw/core/errors.h"
#include "sw/core/formulas.h"
#include "sw/schedulers/common.h"
#include "odd_torus_patterns.h"
#include "sw/schedulers/port_rules.h"
#include "tap_schedule.h"

namespace fixroute::partial_cycles {

namespace {

// zigzag(d, j) of section 3 as the paper's axes of its moves across (each followed by a
// move along axis 1): zigzag(d, 1) = (2,1) d times; zigzag(j+1, j) = (2,1,2,1,3,1,...,
// j+1,1); zigzag(i, j) = (zigzag(i-1, j), 2, 1).
//
// On 4D tori the paper's zigzags cannot work (docs/gossip.md): every lap moves across 4
// times, so a cycle keeps to lines of one parity of the across coordinates, while a node
// off three cycles needs two neighbours on each. We use (beyond the paper) transitions of
// three moves, zigzag(4, 2) = (2,1,3,1,2,1) and zigzag(4, 3) = (2,1,3,1,4,1): the cycles
// then take the lines of colour y + 2z + w (mod 4) in the across coordinates (y, z, w)
// = axes (2, 3, 4), so the six lines around a line hold two of each other colour. They
// close when the paper's n2 is 4 (shape_problem).
//
// 5D (beyond the paper, the same idea): colour y + 2z + w + 2v (mod 5) over axes (2, 3,
// 4, 5), whose eight lines around a line hold two of each other colour; transitions of
// four moves, zigzag(5, 2) = (2,1,2,1,2,1,3,1), zigzag(5, 3) = (2,1,2,1,4,1,3,1) and
// zigzag(5, 4) = (2,1,2,1,4,1,5,1), each adding 5 to the colour (found by trying move
// patterns). Per n2/5 * n3 laps a cycle moves -2*n3 - 1 along axis 2 and +1
// along axis 4; per n4 of those, n4 * (-2*n3 - 1) along axis 2, -1 along axis 3 and +1
// along axis 5: after its n5 * n4 * n3 * n2/5 laps it is back where it began when n2 = 5
// and n3 divides n5 (shape_problem; checked: other sizes pass a node twice or stay open).
std::vector<int> zigzag(int d, int j) {
  if (d == 4 && j == 2) return {2, 3, 2};
  if (d == 4 && j == 3) return {2, 3, 4};
  if (d == 5 && j == 2) return {2, 2, 2, 3};
  if (d == 5 && j == 3) return {2, 2, 4, 3};
  if (d == 5 && j == 4) return {2, 2, 4, 5};
  std::vector<int> axes;
  if (j == 1) return std::vector<int>(static_cast<size_t>(d), 2);
  axes = {2, 2};
  for (int a = 3; a <= j + 1; ++a) axes.push_back(a);
  while (static_cast<int>(axes.size()) < d) axes.push_back(2);
  return axes;
}

int node_at(const std::vector<int>& dims, const std::vector<int>& x) {
  int id = 0;
  for (size_t k = 0; k < dims.size(); ++k) id = id * dims[k] + x[k];
  return id;
}

// Cycle c starts at the paper's (0, c, 0, ..., 0) and runs laps: a zigzag, then moves
// along axis 1 until it has crossed the wrap-around link. During lap i the highest j
// with i mod (n2/d * n3 * ... * nj) == 0 picks zigzag(d, j).
std::vector<int> lap_walk(const Topology& torus, int c) {
  const std::vector<int>& dims = torus.dims();
  const int d = static_cast<int>(dims.size());
  const int run = d - 1;  // the paper's axis 1
  auto our_dim = [d](int paper_axis) { return d - paper_axis; };
  std::vector<int64_t> period(static_cast<size_t>(d), 1);  // period[j], j = 1..d-1
  for (int j = 2; j < d; ++j)
    period[static_cast<size_t>(j)] =
        period[static_cast<size_t>(j - 1)] * (j == 2 ? dims[static_cast<size_t>(our_dim(2))] / d : dims[static_cast<size_t>(our_dim(j))]);
  const int64_t laps = period[static_cast<size_t>(d - 1)] *
                       (d == 2 ? dims[static_cast<size_t>(our_dim(2))] / d : dims[static_cast<size_t>(our_dim(d))]);
  std::vector<int> x(static_cast<size_t>(d), 0);
  x[static_cast<size_t>(our_dim(2))] = c;
  std::vector<int> walk{node_at(dims, x)};
  auto move = [&](int dim) {
    x[static_cast<size_t>(dim)] = (x[static_cast<size_t>(dim)] + 1) % dims[static_cast<size_t>(dim)];
    walk.push_back(node_at(dims, x));
  };
  for (int64_t lap = 1; lap <= laps; ++lap) {
    int j = 1;
    for (int k = 2; k < d; ++k)
      if (lap % period[static_cast<size_t>(k)] == 0) j = k;
    for (int axis : zigzag(d, j)) {
      move(our_dim(axis));
      move(run);
    }
    while (x[static_cast<size_t>(run)] != 0) move(run);
  }
  return walk;  // ends where it began when the construction closes
}

// The searched pattern a 2D torus takes its cycles from as it stands (odd_torus_patterns.h):
// for `Finish::Theorem` an odd first size under the second where the fewer-rows catalogue
// has one (those patterns meet Theorem 2's deadline as written; their taps cannot finish
// with the spread, so partial-cycles-early keeps the transposed construction there); both
// sizes odd, rows >= columns (axis_order transposes the others). nullopt: the laps.
std::optional<LinkCycles> searched_pattern(const std::vector<int>& dims, Finish finish) {
  if (dims.size() != 2) return std::nullopt;
  if (finish == Finish::Theorem)
    if (std::optional<LinkCycles> links = fewer_rows_links(dims[0], dims[1])) return links;
  if (both_sizes_odd_2d(dims)) return odd_torus_links(dims[0], dims[1]);
  return std::nullopt;
}

// 5D: the laps close when the fourth size is 5 and the third divides the first (zigzag).
bool five_d_closes(const std::vector<int>& n) { return n[3] == 5 && n[0] % n[2] == 0; }
}  // namespace

// The order in which our sizes enter the construction, where another order than ours
// is needed: construction dimension k is our dimension order[k]. 2D: an odd first and
// an even second size -- built transposed, the cycles running along the first size
// (Theorem 2 on the torus seen as n2 x n1), unless `partial-cycles` has a searched
// pattern for it as it stands (searched_pattern). 3D to 5D: the laps close only in some
// orders (3D: the second size divides the first, so 3x6xC is built as 6x3xC; 4D: the
// third size is 4, so Ax4xBxD is built as AxBx4xD; 5D: the fourth is 5 and the third
// divides the first); of those, the one with the largest last size (torus:4x3x3 as
// 3x3x4, 6x3x3 as 3x3x6: the laps along it, the shortest cycles); 3D and 4D sizes no
// order closes take a searched pattern in an order the catalogue has. 2D with both
// sizes odd: the patterns of odd_torus_patterns.h have the smaller size as columns.
// Empty: our order.
namespace {
// Why the laps do not close on a torus of `dims` taken in this order, or "".
std::string laps_shape_problem(const std::vector<int>& dims);
}  // namespace

std::vector<int> axis_order(const Topology& t, Finish finish) {
  if (t.kind() != TopologyKind::Torus) return {};
  const std::vector<int>& n = t.dims();
  auto sizes_in = [&](const std::vector<int>& order) {
    std::vector<int> sizes;
    for (int k : order) sizes.push_back(n[static_cast<size_t>(k)]);
    return sizes;
  };
  if (n.size() == 2 && n[0] % 2 == 1 && (n[1] % 2 == 0 || n[0] < n[1]) && !searched_pattern(n, finish)) return {1, 0};
  if (dimensional_links(n)) return {};  // a searched pattern for these sizes as they stand
  if (n.size() >= 3 && n.size() <= 5) {
    // Of the orders the laps close in, the one with the largest last size (the paper's n1:
    // the cycles' length P/d + P/n1 - ... falls as it grows, so 6x3x3 runs as 3x3x6); among
    // equals ours first, then the orders named in the docs, then any other.
    std::vector<int> ours(n.size());
    std::iota(ours.begin(), ours.end(), 0);
    std::vector<std::vector<int>> tried{ours};
    if (n.size() == 3) tried.push_back({1, 0, 2});
    if (n.size() == 4) tried.insert(tried.end(), {{0, 2, 1, 3}, {2, 1, 0, 3}});
    for (std::vector<int> order = ours; std::next_permutation(order.begin(), order.end());) tried.push_back(order);
    const std::vector<int>* best = nullptr;
    for (const std::vector<int>& order : tried)
      if (laps_shape_problem(sizes_in(order)).empty() &&
          (!best || n[static_cast<size_t>(order.back())] > n[static_cast<size_t>(best->back())]))
        best = &order;
    if (best) return *best == ours ? std::vector<int>{} : *best;
    if (n.size() == 5) return {};
    // no order closes the laps: a searched pattern for the sizes in another order
    for (std::vector<int> order = ours; std::next_permutation(order.begin(), order.end());)
      if (dimensional_links(sizes_in(order))) return order;
  }
  return {};
}

namespace {

Topology reordered(const Topology& t, const std::vector<int>& order) {
  std::vector<std::string> sizes;
  for (int k : order) sizes.push_back(std::to_string(t.dims()[static_cast<size_t>(k)]));
  return Topology::parse(fmt::format("torus:{}", fmt::join(sizes, "x")));
}

// Why the construction does not apply; build() reports it as an InputError,
// unsupported() returns it.
struct NotApplicable {
  std::string why;
};
[[noreturn]] void fail(const std::string& why) { throw NotApplicable{why}; }

// The links of cycle c in a pattern for this torus (odd_torus_patterns.h: two cycles on a
// 2D torus, d on a d-dimensional one), as a walk from its lowest node. Checked: the walk
// takes every link of the cycle (one cycle).
std::vector<int> pattern_walk(const Topology& torus, const TorusLinkCycles& links, int c) {
  const std::vector<int>& dims = torus.dims();
  const int n = torus.num_nodes();
  std::vector<std::vector<int>> next(static_cast<size_t>(n));  // cycle-c neighbours
  int count = 0;
  for (int v = 0; v < n; ++v) {
    const std::vector<int> x = torus.coords(v);
    for (size_t k = 0; k < dims.size(); ++k) {
      if (links.along[k][static_cast<size_t>(v)] != c) continue;
      std::vector<int> up = x;
      up[k] = (up[k] + 1) % dims[k];
      const int w = node_at(dims, up);
      next[static_cast<size_t>(v)].push_back(w);
      next[static_cast<size_t>(w)].push_back(v);
      ++count;
    }
  }
  int start = 0;
  while (start < n && next[static_cast<size_t>(start)].empty()) ++start;
  if (start == n) fail(fmt::format("pattern: cycle {} has no links", c));
  std::vector<int> walk{start};
  for (int prev = -1, v = start; walk.size() == 1 || v != start;) {
    const std::vector<int>& ns = next[static_cast<size_t>(v)];
    if (ns.size() != 2) fail(fmt::format("pattern: node {} has {} links on cycle {}", v, ns.size(), c));
    const int w = ns[0] != prev ? ns[0] : ns[1];
    prev = v;
    v = w;
    walk.push_back(v);
  }
  if (static_cast<int>(walk.size()) - 1 != count) fail(fmt::format("pattern: cycle {} is not one cycle", c));
  return walk;
}

std::vector<int> pattern_walk(const Topology& torus, const LinkCycles& links, int c) {
  return pattern_walk(torus, along_dimensions(links, torus.dims()[0], torus.dims()[1]), c);
}

// Each packet goes both ways round its cycle of m nodes: floor(m/2) hops forwards, the
// rest backwards, so it reaches every other node of the cycle once.
int reach_forwards(int m) { return m / 2; }
int reach_backwards(int m) { return (m - 1) / 2; }

std::string shape_problem(const Topology& t, Finish finish) {
  if (t.kind() != TopologyKind::Torus) return "needs a torus:AxB[xC...] topology";
  if (!axis_order(t, finish).empty()) return "";
  const std::vector<int>& dims = t.dims();
  if (searched_pattern(dims, finish)) return "";  // every both-odd size (rows >= columns, axis_order) and some odd x even
  if (dimensional_links(dims)) return "";
  const std::string why = laps_shape_problem(dims);
  if (!why.empty() && dims.size() >= 3 && dims.size() <= 5)
    return why + ", nor in any other order of the sizes, and the pattern catalogue has no d cycles for them "
                 "(tools/odd_torus_search AxBxC)";
  return why;
}

std::string laps_shape_problem(const std::vector<int>& dims) {
  const int d = static_cast<int>(dims.size());
  for (int k = 0; k + 1 < d; ++k)
    if (dims[static_cast<size_t>(k)] % d != 0)
      return fmt::format("needs every size but the last a multiple of {} (the number of dimensions); {} is not", d,
                         dims[static_cast<size_t>(k)]);
  // A lap's zigzag moves d - 1 times along axis 1 (our last size); with fewer nodes along
  // it the lap comes back to a node it passed (torus:5x5x5x5x3). As many suffice
  // (torus:4x4x4x3, 4x4x4x4, 5x5x5x5x4 close and feed).
  if (dims.back() < d - 1)
    return fmt::format("needs the last size at least {} (a lap's zigzag moves that often along it)", d - 1);
  // A cycle moves n2 - 1 along the paper's axis 2 per plane of axis 3: after n3 planes it
  // is back where it started only when n2 divides n3 (our second size divides the first).
  if (d == 3 && dims[0] % dims[1] != 0)
    return fmt::format("on 3D tori needs one of the first two sizes to divide the other (the cycles close only "
                       "then); {} and {} do not", dims[0], dims[1]);
  if (d == 4 && dims[2] != 4)
    return "on 4D tori needs one of the first three sizes to be 4 (the cycles close only then; the paper's own "
           "four-move laps leave nodes unfed: docs/gossip.md)";
  if (d == 5 && !five_d_closes(dims))
    return "on 5D tori needs one of the first four sizes to be 5 and, of the other three, one to divide another "
           "(the cycles close only then)";
  if (d > 5) return fmt::format("is built for 2 to 5 dimensions, not {}", d);
  return "";
}

Construction construct(const Topology& torus, Finish finish);
Construction from_pattern(const Topology& torus, const LinkCycles& links, Finish finish);
Construction from_pattern(const Topology& torus, const TorusLinkCycles& links, Finish finish);
Construction checked_and_fed(const Topology& torus, const std::function<std::vector<int>(int)>& walk_of,
                             const std::string& name, Finish finish);

// The step by which the taps must have fed a node off a cycle of m nodes. The cycle's own
// traffic ends after m/2 steps (each packet goes m/2 hops one way, (m-1)/2 the other, one
// a step); the paper's feeds end one step later (`Finish::Theorem`, which Theorems 2-4
// count), the early variant's with the cycle.
int feed_deadline(Finish finish, int m) { return m / 2 + (finish == Finish::Theorem ? 1 : 0); }

std::pair<int, int> link(int a, int b) { return {std::min(a, b), std::max(a, b)}; }

// The taps of suppliers sup[0] and sup[1] (on cycle c, at `position` on it) that give
// node v each packet travelling cycle c exactly once by the deadline, with the fewest
// switches found. `Finish::Theorem`: by the theorems' step count, the suppliers tapping
// their own packets only where the arrivals alone cannot do it (first neither, then one,
// then both); `Finish::Spread`: by the end of the cycles' spread, own packets allowed.
std::optional<std::array<Feed, 2>> switched_feeds(const Construction& k,
                                                  const std::vector<int>& position, int c, int v,
                                                  const std::vector<int>& sup, Finish finish) {
  const std::vector<int>& cyc = k.cycles[static_cast<size_t>(c)];
  const int m = static_cast<int>(cyc.size());
  std::vector<int> sources;
  for (int i = 0; i < m; ++i)
    if (k.home_cycle[static_cast<size_t>(cyc[static_cast<size_t>(i)])] == c) sources.push_back(i);
  const std::array<int, 2> at{position[static_cast<size_t>(sup[0])], position[static_cast<size_t>(sup[1])]};
  std::optional<std::array<TapSchedule, 2>> taps;
  const std::array<std::array<bool, 2>, 4> own_choices{{{false, false}, {true, false}, {false, true}, {true, true}}};
  for (const std::array<bool, 2>& own : own_choices) {
    if (finish == Finish::Spread && own != own_choices[3]) continue;
    if ((taps = schedule_taps(ring_demand(m, sources, at, own, feed_deadline(finish, m))))) break;
  }
  if (!taps) return std::nullopt;
  std::array<Feed, 2> feeds;
  for (size_t s = 0; s < 2; ++s) {
    const TapSchedule& plan = (*taps)[s];
    const int x = sup[s];
    const int pos = at[s];
    const int prev = cyc[static_cast<size_t>((pos + m - 1) % m)], next = cyc[static_cast<size_t>((pos + 1) % m)];
    Feed& f = feeds[s];
    f.cycle = c;
    f.node = v;
    f.supplier = x;
    f.first_from = plan.forwards_first ? prev : next;  // forwards-running packets come from prev
    f.second_from = plan.forwards_first ? next : prev;
    f.switch_steps = plan.switch_steps;
    f.sends_own = plan.sends_own;
  }
  return feeds;
}

}  // namespace

std::string unsupported(const Topology& t, Finish finish) { return shape_problem(t, finish); }

Construction build(const Topology& torus, Finish finish) {
  try {
    return construct(torus, finish);
  } catch (const NotApplicable& e) {
    throw InputError(fmt::format("partial-cycles on {}: {}", torus.spec(), e.why));
  }
}

namespace {
// A link pattern fits a 2D torus with one entry per node each way.
void check_pattern_shape(const Topology& torus, const LinkCycles& links) {
  if (torus.kind() != TopologyKind::Torus || torus.dims().size() != 2)
    throw InputError(fmt::format("a link pattern needs a 2D torus, not {}", torus.spec()));
  const size_t n = static_cast<size_t>(torus.num_nodes());
  if (links.right.size() != n || links.down.size() != n)
    throw InputError(fmt::format("a link pattern for {} needs {} links each way", torus.spec(), n));
}
}  // namespace

Construction build_from_links(const Topology& torus, const LinkCycles& links, Finish finish) {
  check_pattern_shape(torus, links);
  try {
    return from_pattern(torus, links, finish);
  } catch (const NotApplicable& e) {
    throw InputError(fmt::format("pattern on {}: {}", torus.spec(), e.why));
  }
}

Construction build_from_links(const Topology& torus, const TorusLinkCycles& links, Finish finish) {
  if (torus.kind() != TopologyKind::Torus || links.dims != torus.dims() || links.along.size() != torus.dims().size())
    throw InputError(fmt::format("a {}-dimensional link pattern does not fit {}", links.along.size(), torus.spec()));
  for (const std::vector<int>& along : links.along)
    if (along.size() != static_cast<size_t>(torus.num_nodes()))
      throw InputError(fmt::format("a link pattern for {} needs {} links along each dimension", torus.spec(),
                                   torus.num_nodes()));
  try {
    return from_pattern(torus, links, finish);
  } catch (const NotApplicable& e) {
    throw InputError(fmt::format("pattern on {}: {}", torus.spec(), e.why));
  }
}

std::vector<std::vector<int>> pattern_cycles(const Topology& torus, const LinkCycles& links) {
  check_pattern_shape(torus, links);
  try {
    std::vector<std::vector<int>> cycles;
    for (int c = 0; c < 2; ++c) {
      cycles.push_back(pattern_walk(torus, links, c));
      cycles.back().pop_back();  // the walk is closed: its last node is its first
    }
    return cycles;
  } catch (const NotApplicable& e) {
    throw InputError(fmt::format("pattern on {}: {}", torus.spec(), e.why));
  }
}

namespace {

Construction construct(const Topology& torus, Finish finish) {
  if (const std::vector<int> order = axis_order(torus, finish); !order.empty()) {
    const Topology other = reordered(torus, order);
    Construction k = construct(other, finish);
    auto here = [&](int v) {  // the node of `torus` at the coordinates of v in `other`
      const std::vector<int> x = other.coords(v);
      std::vector<int> ours(x.size());
      for (size_t i = 0; i < order.size(); ++i) ours[static_cast<size_t>(order[i])] = x[i];
      return node_at(torus.dims(), ours);
    };
    for (std::vector<int>& cycle : k.cycles)
      for (int& v : cycle) v = here(v);
    std::vector<int> home(k.home_cycle.size());
    for (size_t v = 0; v < home.size(); ++v) home[static_cast<size_t>(here(static_cast<int>(v)))] = k.home_cycle[v];
    k.home_cycle = std::move(home);
    for (Feed& f : k.feeds)
      for (int* v : {&f.node, &f.supplier, &f.first_from, &f.second_from}) *v = here(*v);
    return k;
  }
  if (std::string why = shape_problem(torus, finish); !why.empty()) fail(why);
  if (const std::optional<LinkCycles> pattern = searched_pattern(torus.dims(), finish))
    return from_pattern(torus, *pattern, finish);
  if (const std::optional<TorusLinkCycles> pattern = dimensional_links(torus.dims()))
    return from_pattern(torus, *pattern, finish);
  return checked_and_fed(
      torus, [&](int c) { return lap_walk(torus, c); }, fmt::format("paper-laps-{}d", torus.dims().size()), finish);
}

Construction from_pattern(const Topology& torus, const LinkCycles& links, Finish finish) {
  return checked_and_fed(
      torus, [&](int c) { return pattern_walk(torus, links, c); }, "searched-pattern-2d", finish);
}

Construction from_pattern(const Topology& torus, const TorusLinkCycles& links, Finish finish) {
  return checked_and_fed(
      torus, [&](int c) { return pattern_walk(torus, links, c); },
      fmt::format("searched-pattern-{}d", torus.dims().size()), finish);
}

// The d cycles walked by `walk_of` (closed walks), checked, and the taps that feed the
// nodes off each one.
Construction checked_and_fed(const Topology& torus, const std::function<std::vector<int>(int)>& walk_of,
                             const std::string& name, Finish finish) {
  const int d = static_cast<int>(torus.dims().size());
  const int n = torus.num_nodes();
  Construction out;
  out.name = name;
  out.home_cycle.assign(static_cast<size_t>(n), -1);
  std::vector<std::vector<int>> position(static_cast<size_t>(d), std::vector<int>(static_cast<size_t>(n), -1));
  std::set<std::pair<int, int>> used;
  for (int c = 0; c < d; ++c) {
    std::vector<int> walk = walk_of(c);
    if (walk.back() != walk.front()) fail(fmt::format("cycle {} does not close", c));
    walk.pop_back();
    for (size_t i = 0; i < walk.size(); ++i) {
      const int v = walk[i], next = walk[(i + 1) % walk.size()];
      if (position[static_cast<size_t>(c)][static_cast<size_t>(v)] >= 0)
        fail(fmt::format("cycle {} passes node {} twice", c, v));
      position[static_cast<size_t>(c)][static_cast<size_t>(v)] = static_cast<int>(i);
      if (!used.insert(link(v, next)).second) fail(fmt::format("link {}-{} is on two cycles", v, next));
      if (out.home_cycle[static_cast<size_t>(v)] < 0) out.home_cycle[static_cast<size_t>(v)] = c;
    }
    out.cycles.push_back(std::move(walk));
  }
  for (int v = 0; v < n; ++v)
    if (out.home_cycle[static_cast<size_t>(v)] < 0) fail(fmt::format("node {} is on no cycle", v));

  // Suppliers: for each node off a cycle, two neighbours on it across free links, each
  // free link used once (a small matching per node, by backtracking).
  for (int v = 0; v < n; ++v) {
    std::vector<int> missing;
    for (int c = 0; c < d; ++c)
      if (position[static_cast<size_t>(c)][static_cast<size_t>(v)] < 0) missing.push_back(c);
    std::vector<int> free_ports;
    for (int q = 0; q < torus.num_ports(); ++q)
      if (!used.count(link(v, torus.neighbour(v, q)))) free_ports.push_back(q);
    std::vector<int> owner(free_ports.size(), -1);  // cycle each free port feeds
    auto on = [&](int c, size_t k) {
      return position[static_cast<size_t>(c)][static_cast<size_t>(torus.neighbour(v, free_ports[k]))] >= 0;
    };
    auto assign = [&](auto&& self, size_t need) -> bool {
      if (need == 2 * missing.size()) return true;
      const int c = missing[need / 2];
      for (size_t k = 0; k < free_ports.size(); ++k) {
        if (owner[k] >= 0 || !on(c, k)) continue;
        if (need % 2 == 1) {  // the second supplier of c comes after the first: no repeats
          size_t first = 0;
          while (owner[first] != c) ++first;
          if (k < first) continue;
        }
        owner[k] = c;
        if (self(self, need + 1)) return true;
        owner[k] = -1;
      }
      return false;
    };
    if (!assign(assign, 0)) fail(fmt::format("node {} has no two free links to each cycle it is off", v));
    for (int c : missing) {
      std::vector<int> sup;
      for (size_t k = 0; k < free_ports.size(); ++k)
        if (owner[k] == c) sup.push_back(torus.neighbour(v, free_ports[k]));
      const std::optional<std::array<Feed, 2>> feeds =
          switched_feeds(out, position[static_cast<size_t>(c)], c, v, sup, finish);
      if (!feeds)
        fail(fmt::format("no switching of its two suppliers' taps feeds node {} every packet of cycle {} exactly "
                         "once by step {}", v, c,
                         feed_deadline(finish, static_cast<int>(out.cycles[static_cast<size_t>(c)].size()))));
      out.feeds.insert(out.feeds.end(), feeds->begin(), feeds->end());
    }
  }
  return out;
}

}  // namespace

void add_feed(NetworkTables& tables, const Topology& torus, const Feed& feed) {
  RouterTable& r = tables.routers[static_cast<size_t>(feed.supplier)];
  const int out_port = torus.port_towards(feed.supplier, feed.node);
  PortRule& rule = r.ports[static_cast<size_t>(out_port)];
  if (rule.tap_first >= 0)
    throw InputError(fmt::format("{}: node {} would feed through port {} twice", torus.spec(), feed.supplier, out_port));
  rule.tap_first = torus.port_towards(feed.supplier, feed.first_from);
  rule.tap_second = torus.port_towards(feed.supplier, feed.second_from);
  rule.switch_steps = feed.switch_steps;
  if (feed.sends_own) r.initial.push_back({out_port, Packet{feed.supplier, kBroadcastDest, feed.own_seq, 1}, 1});
}

namespace {

NetworkTables partial_cycle_tables(const Topology& torus, Finish finish, const char* name) {
  const Construction k = build(torus, finish);
  NetworkTables t = scheduling::empty_tables(torus, "gossip", name, Discipline::Fifo);
  const std::vector<int> order = axis_order(torus, finish);
  t.construction = k.name;
  if (!order.empty()) t.construction += fmt::format("-axes-{}", fmt::join(order, ","));
  for (size_t c = 0; c < k.cycles.size(); ++c) {
    const std::vector<int>& cyc = k.cycles[c];
    const int m = static_cast<int>(cyc.size());
    for (int i = 0; i < m; ++i) {
      const int v = cyc[static_cast<size_t>(i)];
      const int to_prev = torus.port_towards(v, cyc[static_cast<size_t>((i + m - 1) % m)]);
      const int to_next = torus.port_towards(v, cyc[static_cast<size_t>((i + 1) % m)]);
      RouterTable& r = t.routers[static_cast<size_t>(v)];
      r.ports[static_cast<size_t>(to_prev)].forward_mask |= 1u << to_next;
      r.ports[static_cast<size_t>(to_next)].forward_mask |= 1u << to_prev;
      if (k.home_cycle[static_cast<size_t>(v)] != static_cast<int>(c)) continue;
      r.initial.push_back({to_next, Packet{v, kBroadcastDest, 0, reach_forwards(m)}, 1});
      if (reach_backwards(m) > 0) r.initial.push_back({to_prev, Packet{v, kBroadcastDest, 0, reach_backwards(m)}, 1});
    }
  }
  for (const Feed& f : k.feeds) add_feed(t, torus, f);
  return t;
}

// Sweep sizes: every 2D torus of 3..16 (an odd first size with an even second:
// transposed; both odd: the patterns), 3D tori up to 6x6x6 (sizes but the last multiples
// of 3; torus:3x3x3 and 6x9x4 from searched patterns) and two 4D tori.
std::vector<SweepCase> partial_cycle_cases(int max_size) {
  std::vector<SweepCase> out = torus_2d_cases(max_size, false);
  for (const char* spec : {"torus:3x3x4", "torus:3x3x5", "torus:6x3x4", "torus:3x6x4", "torus:6x6x6", "torus:4x4x4x5",
                           "torus:4x4x4x6", "torus:4x4x4x4", "torus:4x4x4x3", "torus:4x3x3", "torus:6x3x3",
                           "torus:5x4x8x4", "torus:3x3x3", "torus:6x9x4"})
    if (max_size >= 6) out.push_back({spec, {}, ""});
  return out;
}

// Finishing with the spread works with 4, 8, 12 and 16 rows (or columns, transposed) and
// on some 4D tori (tap_schedule finds no schedule for the others, nor for 3D tori:
// docs/gossip.md).
std::vector<SweepCase> early_cases(int max_size) {
  std::vector<SweepCase> out;
  const int top = std::min(max_size, 16);
  for (int a = 4; a <= top; a += 4)
    for (int b = 3; b <= top; ++b) {
      out.push_back({fmt::format("torus:{}x{}", a, b), {}, ""});
      if (b % 2 == 1) out.push_back({fmt::format("torus:{}x{}", b, a), {}, ""});  // transposed
    }
  if (max_size >= 5)
    for (const char* spec : {"torus:4x4x4x5", "torus:4x4x4x3"}) out.push_back({spec, {}, ""});
  return out;
}

// The length of the construction's longest cycle: the laps' m (formulas::partial_cycle_length
// of P, d, the paper's n1 and n2 in the order the construction takes our sizes), or the
// longer of a searched pattern's two cycles (2D: both sizes odd, some odd x even),
// counted from its links.
int64_t cycle_length(const Topology& t, Finish finish) {
  std::vector<int> dims = t.dims();
  const std::vector<int> order = axis_order(t, finish);
  for (size_t k = 0; k < order.size(); ++k) dims[k] = t.dims()[static_cast<size_t>(order[k])];
  if (const std::optional<LinkCycles> links = searched_pattern(dims, finish)) {
    std::array<int64_t, 2> length{0, 0};
    for (const std::vector<int>* kind : {&links->right, &links->down})
      for (int c : *kind)
        if (c >= 0) ++length[static_cast<size_t>(c)];
    return std::max(length[0], length[1]);
  }
  if (const std::optional<TorusLinkCycles> links = dimensional_links(dims)) {
    std::vector<int64_t> length(dims.size(), 0);
    for (const std::vector<int>& along : links->along)
      for (int c : along)
        if (c >= 0) ++length[static_cast<size_t>(c)];
    return *std::max_element(length.begin(), length.end());
  }
  return formulas::partial_cycle_length(t.num_nodes(), static_cast<int64_t>(dims.size()), dims.back(),
                                        dims.size() >= 2 ? dims[dims.size() - 2] : 1);
}

// The construction's count on `t`: m/2 + 1 (`Finish::Theorem`) or the spread.
int64_t construction_count(const Topology& t, Finish finish) {
  const int64_t m = cycle_length(t, finish);
  return finish == Finish::Theorem ? formulas::gossip_partial_cycles_of_length(m)
                                   : formulas::gossip_partial_cycles_spread_of_length(m);
}

// The paper's algorithm: a node off a cycle gets its last packet one step after the
// cycle's spread ends -- Theorems 2, 3 and 4 exactly. Its taps switch as often as
// needed (once, as in the paper, on 2D tori with 4 or 8 rows).
Algorithm partial_cycles_algorithm(const char* name, const char* summary, Finish finish,
                                   std::vector<SweepCase> (*cases)(int)) {
  Algorithm a;
  a.name = name;
  a.collective = "gossip";
  a.router_kind = kPortRulesKind;
  a.summary = summary;
  a.unsupported = on_topology([finish](const Topology& t) { return unsupported(t, finish); });
  a.formula = all_port_only([finish](const Topology& t) { return construction_count(t, finish); });
  // As written: 2D with axis 1 our last size (Theorem 2 as printed, whatever the
  // construction's order); 3D and up with axis 1 the size the laps run along (Theorems 3
  // and 4 ask the others to be multiples of d).
  a.paper_formula = all_port_only([finish](const Topology& t) {
    int64_t axis_one = t.dims().back();
    if (const std::vector<int> order = axis_order(t, finish); t.dims().size() >= 3 && !order.empty())
      axis_one = t.dims()[static_cast<size_t>(order.back())];
    return formulas::gossip_partial_cycles_theorem(t.num_nodes(), static_cast<int64_t>(t.dims().size()), axis_one);
  });
  // Theorem 3 as printed (n1 n2 / 2 where Theorem 4 has n2 n3 / 2), on 3D tori where the two
  // differ: n1 the size the laps run along, n2 and n3 the other two, n2 the later in our order.
  a.paper_as_printed = [finish](const Problem& p) -> std::optional<int64_t> {
    const Topology& t = p.topology;
    if (!p.port_model.is_default() || t.kind() != TopologyKind::Torus || t.dims().size() != 3 ||
        !unsupported(t, finish).empty())
      return std::nullopt;
    const std::vector<int> order = axis_order(t, finish);
    const size_t run = order.empty() ? 2 : static_cast<size_t>(order.back());
    std::vector<int64_t> others;
    for (size_t k = 0; k < 3; ++k)
      if (k != run) others.push_back(t.dims()[k]);
    const int64_t n1 = t.dims()[run], n2 = others[1], n3 = others[0];
    const int64_t printed = formulas::gossip_partial_cycles_theorem3_as_printed(n1, n2, n3);
    if (printed == formulas::gossip_partial_cycles_theorem(t.num_nodes(), 3, n1)) return std::nullopt;
    return printed;
  };
  a.above_paper_reason = [finish](const Problem& p) {
    const Topology& t = p.topology;
    if (t.kind() == TopologyKind::Torus && t.dims().size() == 2 && axis_order(t, finish) == std::vector<int>{1, 0} &&
        t.dims()[0] % 2 == 1)
      return std::string(
                 "construction needs even laps: an odd first size is built transposed, as Theorem 2 on the "
                 "torus seen as n2 x n1 (section 3's special row for an odd size comes without a count), ") +
             (finish == Finish::Theorem
                  ? "and the pattern catalogue has none for this size (it holds every odd first size up to 21 x 24; "
                    "tools/odd_torus_search searches others)"
                  : "and the pattern catalogue's taps cannot finish with the cycles' spread, so this variant "
                    "does not use it (partial-cycles does: every odd first size up to 21 x 24)");
    return std::string();
  };
  a.build = port_rules_build([finish, name](const Topology& t) { return partial_cycle_tables(t, finish, name); });
  a.sweep = cases;
  return a;
}

// The paper's algorithm: a node off a cycle gets its last packet one step after the
// cycle's spread ends -- Theorems 2, 3 and 4 exactly. Its taps switch as often as
// needed (once, as in the paper, on 2D tori with 4 or 8 rows).
const AlgorithmRegistrar partial_cycles_registrar(partial_cycles_algorithm(
    "partial-cycles",
    "1 packet per node round d edge-disjoint partial Hamiltonian cycles, off-cycle nodes fed by taps that "
    "switch direction at scheduled steps (gossip paper, section 3)",
    Finish::Theorem, partial_cycle_cases));

// Beyond the paper: suppliers also put their own packets on the taps at step 1, which
// lets the feeds finish with the cycles' spread, one step under the theorems, where the
// tap schedules allow it (4, 8, 12, 16 rows). Whether they do is found by building them:
// where not, the build refuses the torus (exit 2) naming the node it cannot feed.
const AlgorithmRegistrar partial_cycles_early_registrar(partial_cycles_algorithm(
    "partial-cycles-early",
    "partial-cycles whose suppliers also tap their own packet at step 1: the feeds end with the cycles' spread "
    "(beyond the paper)",
    Finish::Spread, early_cases));

}  // namespace
}  // namespace fixroute::partial_cycles
