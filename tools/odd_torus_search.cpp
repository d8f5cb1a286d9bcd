// Searches a pattern for sw/schedulers/gossip/torus_patterns.txt: two edge-disjoint partial
// cycles on an R x C torus (R odd; C odd, or even for the fewer-rows catalogue) such
// that every node is on a cycle or has two free-link neighbours on it, each cycle at
// most as long as Theorem 2 allows, rows 0 and 1 repeatable (the links above row 0 equal
// those below row 1), and accepted by
// partial_cycles::build_from_links -- the checks and tap scheduling of every run -- on R,
// R + 2, ..., R + 2 * EXTRA rows (EXTRA -1: rows 0 and 1 need not repeat, the pattern
// serves R x C only). A SAT search (CaDiCaL, through SatModel): the cycle conditions are
// local clauses, single cycles are enforced lazily (a cut per extra component, added to the
// same solver), and a pattern that fails on a grown torus (too long, or a node not fed) is
// blocked and the search goes on. CaDiCaL is deterministic: the same arguments print the
// same entry.
//
//   build/odd_torus_search ROWS COLS [EXTRA [laps | two-packet | hamiltonian | columns=W]] [--fewest-steps [SECONDS]]
//
// With --fewest-steps (partial-cycles patterns), each pattern found is followed by a search
// for one whose longer cycle m takes fewer steps (m/2 + 1) until there is none -- said on
// standard error, "none with fewer" -- or SECONDS are up; the best is printed.
//
// With `laps`, rows 0 and 1 are fixed as two laps of the paper's construction with their
// zigzags at columns 0 and 3 (row 0 on cycle 0 from column 0 to 3, on cycle 1 from 3 round
// to 0; row 1 the other way round): the search is then left only the rows between, which
// makes 11 and 13 columns a matter of seconds.
//
// With `columns=W` (fewer rows than columns), columns 1..W repeat instead of rows 0 and 1
// (the link right of column W is the one right of column 0), each cycle has at most half
// the block's nodes (a copy adds no more steps than Theorem 2's count as written does), and
// the pattern is accepted on C, C + W, ..., C + W * EXTRA columns: an entry
// `repeat-columns=1+W` that serves every C + W*k.
//
// With `two-packet`, the patterns of `hamiltonian-2-paper` (2 packets per node) instead:
// each cycle through all nodes but two, rows 0 and 1 repeatable when ROWS >= 5 and columns
// 0 and 1 when COLS >= 5 (EXTRA -1: neither), accepted when the algorithm's tables on the
// pattern (hamiltonian_two_paper.h), grown by 0..EXTRA row and column pairs, run on the
// reference engine within Theorem 1's ceil(P/2).
//
// With `hamiltonian` (ROWS any, COLS odd), two edge-disjoint Hamiltonian cycles for
// `hamiltonian-2`, columns 0 and 1 repeatable (EXTRA >= 0), accepted when the pattern
// grown by 0..EXTRA column pairs passes torus_cycles::check_decomposition.
//
//   build/odd_torus_search AxBxC[x...] [--period PxQxR[x...]] [--fewest-steps [SECONDS]]
//
// Three or more sizes: d cycles for partial-cycles (catalogue partial-cycles-nd), see
// search_dimensional. --period ties every link to the one P further along the first size,
// Q along the second, ...: the search then has the pattern of one period box to find.
//
// Prints the entry in the pattern file's format (docs/pattern-format.md; append it to
// sw/schedulers/gossip/torus_patterns.txt), or "none" (exit 1) when there is no such pattern.
#include <cstdio>
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "sw/schedulers/gossip/hamiltonian_two_paper.h"
#include "sw/schedulers/gossip/partial_cycles.h"
#include "sw/schedulers/gossip/pattern_file.h"
#include "sw/schedulers/gossip/torus_cycles.h"
#include "sw/core/errors.h"
#include "sw/core/formulas.h"
#include "sw/kinds/port_rules/ref_routers.h"
#include "sw/schedulers/sat_model.h"
#include "sw/topology/topology.h"

namespace {

using fixroute::InputError;
using fixroute::SatAnswer;
using fixroute::SatModel;
using fixroute::Topology;
using fixroute::partial_cycles::LinkCycles;

// The longest cycle whose m/2 + 1 is within Theorem 2's count on an R x C torus.
int longest_allowed(int rows, int cols) {
  return 2 * static_cast<int>(fixroute::formulas::gossip_partial_cycles_theorem(rows * cols, 2, cols)) - 1;
}

// `check` on the R x C torus; a pattern it throws InputError on is not accepted.
template <class Check>
bool accepted(int rows, int cols, const Check& check) {
  try {
    return check(Topology::parse("torus:" + std::to_string(rows) + "x" + std::to_string(cols)));
  } catch (const InputError&) {
    return false;
  }
}

// True when partial-cycles accepts the pattern on this torus (single disjoint cycles,
// every node fed, taps schedulable by m/2 + 1) and its cycles are within Theorem 2.
bool feeds_everyone(const LinkCycles& links, int rows, int cols) {
  return accepted(rows, cols, [&](const Topology& torus) {
    for (const std::vector<int>& cycle : fixroute::partial_cycles::build_from_links(torus, links).cycles)
      if (static_cast<int>(cycle.size()) > longest_allowed(rows, cols)) return false;
    return true;
  });
}

// True when hamiltonian-2-paper on the pattern finishes within Theorem 1 on this torus.
bool within_theorem_1(const LinkCycles& links, int rows, int cols) {
  return accepted(rows, cols, [&](const Topology& torus) {
    const fixroute::EngineResult run = fixroute::run_ref_engine(
        torus, fixroute::hamiltonian_two_paper_tables(torus, links), fixroute::EngineOptions{});
    return run.failure.empty() && run.steps_simulated <= fixroute::formulas::gossip_torus_two_packets(rows, cols);
  });
}

// True when the pattern is two edge-disjoint Hamiltonian cycles of this torus.
bool hamiltonian_pair(const LinkCycles& links, int rows, int cols) {
  return accepted(rows, cols, [&](const Topology& torus) {
    using namespace fixroute;
    const auto pairing = torus_cycles::pairing_along(torus, partial_cycles::pattern_cycles(torus, links));
    return torus_cycles::check_decomposition(torus, pairing).empty();
  });
}

// An entry's size and rows for the links of `pattern` (the d-word row layout of
// docs/pattern-format.md; with d = 2 the 2D "right down" rows).
void write_rows(fixroute::partial_cycles::TorusPattern& entry, const fixroute::partial_cycles::TorusLinkCycles& pattern) {
  const size_t d = pattern.dims.size();
  entry.dims = pattern.dims;
  entry.cols = pattern.dims.back();
  entry.rows = static_cast<int>(pattern.along[0].size()) / entry.cols;
  for (int r = 0; r < entry.rows; ++r) {
    std::string line;
    for (size_t w = 0; w < d; ++w) {
      if (w) line += ' ';
      for (int c = 0; c < entry.cols; ++c)
        line += static_cast<char>('1' + pattern.along[d - 1 - w][static_cast<size_t>(r * entry.cols + c)]);
    }
    entry.lines.push_back(line);
  }
}

// At least two of `x` when `when` holds: every set of all but one of them holds one.
void at_least_two(SatModel& s, int when, const std::vector<int>& x) {
  for (size_t skip = 0; skip < x.size(); ++skip) {
    std::vector<int> clause{-when};
    for (size_t i = 0; i < x.size(); ++i)
      if (i != skip) clause.push_back(x[i]);
    s.clause(clause);
  }
}

// The best pattern so far and, with --fewest-steps, the search for one with fewer steps:
// the time each check may take and the closing report.
class BestPattern {
 public:
  BestPattern(bool fewest_steps, unsigned seconds)
      : fewest_steps_(fewest_steps), seconds_(seconds), started_(std::chrono::steady_clock::now()) {}

  // For SatModel::check: no limit until a pattern is found (or without a time limit).
  unsigned time_left_ms() const {
    constexpr unsigned kNoTimeLimit = ~0u;
    if (!fewest_steps_ || seconds_ == 0 || entry_.empty()) return kNoTimeLimit;
    const auto used = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started_);
    return used.count() >= seconds_ * 1000LL ? 1u : static_cast<unsigned>(seconds_ * 1000LL - used.count());
  }
  // Keeps the entry of a pattern whose longest cycle has `longest` nodes; true when the
  // search goes on for fewer steps (the caller then bounds every cycle by next_longest()).
  bool found(const std::string& entry, int longest) {
    entry_ = entry;
    steps_ = longest / 2 + 1;
    return fewest_steps_;
  }
  int next_longest() const { return 2 * (steps_ - 1) - 1; }  // m'/2 + 1 < steps
  // Prints the entry (exit 0) or "none" (exit 1); `last` is the answer that ended the search.
  int report(SatAnswer last) const {
    if (entry_.empty()) {
      std::printf("none\n");
      return 1;
    }
    if (fewest_steps_)
      std::fprintf(stderr, "odd_torus_search: %d steps (m/2 + 1 of the longest cycle), %s\n", steps_,
                   last == SatAnswer::Unsatisfiable ? "none with fewer" : "fewer not settled in the time given");
    std::fputs(entry_.c_str(), stdout);
    return 0;
  }

 private:
  bool fewest_steps_;
  unsigned seconds_;
  std::chrono::steady_clock::time_point started_;
  std::string entry_;
  int steps_ = 0;
};

// The cycles of `links` that fall apart: for each cycle k and each of its components but
// one, a clause saying that a link leaving the component joins cycle k or one of two nodes
// on either side is off it. Empty when every cycle is one cycle.
template <class Is, class LinksOf>
std::vector<std::vector<int>> cuts(size_t nodes, const std::vector<std::vector<int>>& node_on, const Is& is,
                                   const LinksOf& links_of) {
  std::vector<std::vector<int>> out;
  for (size_t k = 0; k < node_on.size(); ++k) {
    std::vector<int> comp(nodes, -1);
    int comps = 0;
    for (size_t v0 = 0; v0 < nodes; ++v0) {
      if (!is(node_on[k][v0]) || comp[v0] >= 0) continue;
      std::vector<size_t> stack{v0};
      comp[v0] = comps;
      while (!stack.empty()) {
        const size_t v = stack.back();
        stack.pop_back();
        for (const auto& [x, w] : links_of(k, v))
          if (is(x) && comp[w] < 0) comp[w] = comps, stack.push_back(w);
      }
      ++comps;
    }
    for (int part = 0; comps > 1 && part < comps; ++part) {
      std::vector<int> clause;
      size_t inside = 0, outside = 0;
      for (size_t v = 0; v < nodes; ++v) {
        if (comp[v] == part) inside = v;
        if (comp[v] >= 0 && comp[v] != part) outside = v;
        for (const auto& [x, w] : links_of(k, v))
          if (comp[v] == part && comp[w] != part) clause.push_back(x);
      }
      clause.push_back(-node_on[k][inside]);
      clause.push_back(-node_on[k][outside]);
      out.push_back(clause);
    }
  }
  return out;
}

// A torus of three or more dimensions: d edge-disjoint cycles, every node on one at least,
// a node off cycle k fed by two neighbours on it across links no cycle uses (each such
// link into a node feeding one cycle), each cycle within Theorem 4's count (m/2 + 1, the
// paper's axis 1 our last size), accepted by partial_cycles::build_from_links (the taps
// scheduled). Prints a partial-cycles-nd entry; exit 1 with "none" where there is none.
int search_dimensional(const std::vector<int>& dims, const std::vector<int>& period, bool fewest_steps,
                       unsigned fewest_seconds) {
  using fixroute::partial_cycles::TorusLinkCycles;
  const size_t d = dims.size();
  size_t nodes = 1;
  for (int n : dims) nodes *= static_cast<size_t>(n);
  const int longest =
      2 * static_cast<int>(fixroute::formulas::gossip_partial_cycles_theorem(static_cast<int64_t>(nodes),
                                                                            static_cast<int64_t>(d), dims.back())) - 1;
  std::string spec = "torus:";
  for (size_t k = 0; k < d; ++k) spec += (k ? "x" : "") + std::to_string(dims[k]);
  const Topology torus = Topology::parse(spec);
  SatModel s;
  // link[k][dim][v]: the link from v one up along dim is on cycle k
  std::vector<std::vector<std::vector<int>>> link(d, std::vector<std::vector<int>>(d));
  std::vector<std::vector<int>> node_on(d);
  for (size_t k = 0; k < d; ++k) {
    for (size_t dim = 0; dim < d; ++dim)
      for (size_t v = 0; v < nodes; ++v) link[k][dim].push_back(s.variable());
    for (size_t v = 0; v < nodes; ++v) node_on[k].push_back(s.variable());
  }
  auto step = [&](size_t v, size_t dim, int by) {  // the node one up (1) or down (-1) along dim
    std::vector<int> x = torus.coords(static_cast<int>(v));
    x[dim] = (x[dim] + by + dims[dim]) % dims[dim];
    size_t w = 0;
    for (size_t k = 0; k < d; ++k) w = w * static_cast<size_t>(dims[k]) + static_cast<size_t>(x[k]);
    return w;
  };
  // the 2d links of v: (dim, owner of the link, neighbour)
  struct Incident {
    size_t dim, owner, neighbour;
  };
  auto incident = [&](size_t v) {
    std::vector<Incident> out;
    for (size_t dim = 0; dim < d; ++dim) {
      out.push_back({dim, v, step(v, dim, 1)});
      const size_t below = step(v, dim, -1);
      out.push_back({dim, below, below});
    }
    return out;
  };
  for (size_t v = 0; v < nodes; ++v) {
    for (size_t dim = 0; dim < d; ++dim) {
      std::vector<int> cycles_of_link;
      for (size_t k = 0; k < d; ++k) cycles_of_link.push_back(link[k][dim][v]);
      s.at_most_one(cycles_of_link);
    }
    const std::vector<Incident> around = incident(v);
    std::vector<std::vector<int>> feeds_over(around.size());  // per link into v: the cycle it feeds
    for (size_t k = 0; k < d; ++k) {
      std::vector<int> degree, fed;
      for (size_t i = 0; i < around.size(); ++i) {
        const Incident& l = around[i];
        const int on_link = link[k][l.dim][l.owner];
        degree.push_back(on_link);
        s.clause({node_on[k][v], -on_link});
        const int feeds = s.variable();  // cycle k reaches v over this free link
        for (size_t j = 0; j < d; ++j) s.clause({-feeds, -link[j][l.dim][l.owner]});
        s.clause({-feeds, node_on[k][l.neighbour]});
        s.clause({-feeds, -node_on[k][v]});
        fed.push_back(feeds);
        feeds_over[i].push_back(feeds);
      }
      s.at_most(degree, 2);
      s.at_most(fed, 2);  // implied (the ports count exactly), for propagation
      at_least_two(s, node_on[k][v], degree);
      at_least_two(s, -node_on[k][v], fed);
    }
    for (const std::vector<int>& one_link : feeds_over) s.at_most_one(one_link);
    // Implied, for propagation: v's 2d ports are two links per cycle it is on and two
    // feeding links per cycle it is off, so a link into v that no cycle uses feeds it.
    for (size_t i = 0; i < around.size(); ++i) {
      std::vector<int> clause = feeds_over[i];
      for (size_t j = 0; j < d; ++j) clause.push_back(link[j][around[i].dim][around[i].owner]);
      s.clause(clause);
    }
    std::vector<int> somewhere;
    for (size_t k = 0; k < d; ++k) somewhere.push_back(node_on[k][v]);
    s.clause(somewhere);
  }
  for (size_t k = 0; k < d; ++k) s.at_most(node_on[k], longest);
  s.clause({node_on[0][0]});
  // --period: every link and node as the one a period further along each size
  for (size_t along = 0; along < d; ++along) {
    if (period[along] == dims[along]) continue;
    for (size_t v = 0; v < nodes; ++v) {
      size_t w = v;
      for (int i = 0; i < period[along]; ++i) w = step(w, along, 1);
      for (size_t k = 0; k < d; ++k) {
        for (size_t dim = 0; dim < d; ++dim) {
          s.clause({-link[k][dim][v], link[k][dim][w]});
          s.clause({link[k][dim][v], -link[k][dim][w]});
        }
        s.clause({-node_on[k][v], node_on[k][w]});
        s.clause({node_on[k][v], -node_on[k][w]});
      }
    }
  }

  auto links_of = [&](size_t k, size_t v) {  // (link variable of cycle k, neighbour) around v
    std::vector<std::pair<int, size_t>> out;
    for (const Incident& l : incident(v)) out.push_back({link[k][l.dim][l.owner], l.neighbour});
    return out;
  };
  BestPattern best(fewest_steps, fewest_seconds);
  const int last_pattern_variable = node_on[d - 1].back();
  SatAnswer answer;
  while ((answer = s.check(best.time_left_ms())) == SatAnswer::Satisfiable) {
    std::vector<bool> assignment(static_cast<size_t>(last_pattern_variable) + 1);
    for (int x = 1; x <= last_pattern_variable; ++x) assignment[static_cast<size_t>(x)] = s.value(x);
    auto is = [&](int x) { return assignment[static_cast<size_t>(x)]; };
    const std::vector<std::vector<int>> cut = cuts(nodes, node_on, is, links_of);
    for (const std::vector<int>& clause : cut) s.clause(clause);
    if (!cut.empty()) continue;
    TorusLinkCycles pattern{dims, std::vector<std::vector<int>>(d, std::vector<int>(nodes, -1))};
    for (size_t k = 0; k < d; ++k)
      for (size_t dim = 0; dim < d; ++dim)
        for (size_t v = 0; v < nodes; ++v)
          if (is(link[k][dim][v])) pattern.along[dim][v] = static_cast<int>(k);
    bool good = true;
    try {
      fixroute::partial_cycles::build_from_links(torus, pattern);
    } catch (const InputError&) {
      good = false;
    }
    if (!good) {  // the taps cannot be scheduled: block exactly this pattern
      std::vector<int> clause;
      for (size_t k = 0; k < d; ++k)
        for (size_t dim = 0; dim < d; ++dim)
          for (int x : link[k][dim]) clause.push_back(is(x) ? -x : x);
      s.clause(clause);
      continue;
    }
    fixroute::partial_cycles::TorusPattern entry;
    entry.catalogue = fixroute::partial_cycles::kDimensionalCatalogue;
    write_rows(entry, pattern);
    int longest_cycle = 0;
    for (size_t k = 0; k < d; ++k)
      longest_cycle = std::max(longest_cycle, static_cast<int>(std::count_if(node_on[k].begin(), node_on[k].end(), is)));
    if (!best.found(fixroute::partial_cycles::format_pattern(entry), longest_cycle)) break;
    for (size_t k = 0; k < d; ++k) s.at_most(node_on[k], best.next_longest());
  }
  return best.report(answer);
}

}  // namespace

int main(int argc, char** argv) {
  // --fewest-steps [SECONDS] (partial-cycles patterns): after the first pattern found, ask for
  // ones whose longer cycle takes fewer steps until there is none (or the time is up).
  std::vector<std::string> args(argv + 1, argv + argc);
  bool fewest_steps = false;
  unsigned fewest_seconds = 0;  // 0: until proven
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i] == "--fewest-steps") {
      fewest_steps = true;
      if (i + 1 < args.size() && !args[i + 1].empty() && std::isdigit(static_cast<unsigned char>(args[i + 1][0]))) {
        fewest_seconds = static_cast<unsigned>(std::atoi(args[i + 1].c_str()));
        args.erase(args.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      }
      args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
  auto sizes = [](const std::string& text) {  // AxBxC... -> {A, B, C, ...}
    std::vector<int> out;
    for (const std::string& word : fixroute::partial_cycles::size_words(text)) out.push_back(std::atoi(word.c_str()));
    return out;
  };
  if (!args.empty() && args[0].find('x') != std::string::npos) {  // AxBxC[x...]: d cycles on d dimensions
    const std::vector<int> dims = sizes(args[0]);
    std::vector<int> period = dims;  // --period PxQxR: the pattern repeats every P along the first size, ...
    if (args.size() == 3 && args[1] == "--period") period = sizes(args[2]);
    bool periods_divide = period.size() == dims.size();
    for (size_t k = 0; periods_divide && k < dims.size(); ++k)
      periods_divide = period[k] >= 1 && dims[k] % period[k] == 0;
    if ((args.size() != 1 && args.size() != 3) || (args.size() == 3 && args[1] != "--period") || !periods_divide ||
        dims.size() < 3 || *std::min_element(dims.begin(), dims.end()) < 3) {
      std::fprintf(stderr, "usage: odd_torus_search AxBxC[x...] [--period PxQxR[x...]] [--fewest-steps [SECONDS]] "
                           "(three or more sizes, each at least 3; each period dividing its size)\n");
      return 2;
    }
    return search_dimensional(dims, period, fewest_steps, fewest_seconds);
  }
  const std::string mode = args.size() > 3 ? args[3] : "";
  const int block_width = mode.rfind("columns=", 0) == 0 ? std::atoi(mode.c_str() + 8) : 0;  // columns=W
  if (args.size() < 2 ||
      (args.size() > 3 && mode != "laps" && mode != "two-packet" && mode != "hamiltonian" && block_width < 1) ||
      args.size() > 4 || (fewest_steps && (mode == "two-packet" || mode == "hamiltonian"))) {
    std::fprintf(stderr, "usage: odd_torus_search ROWS COLS [EXTRA [laps | two-packet | hamiltonian | columns=W]] "
                         "[--fewest-steps [SECONDS]] (not with two-packet or hamiltonian)\n");
    return 2;
  }
  const int rows = std::atoi(args[0].c_str()), cols = std::atoi(args[1].c_str()),
            extra = args.size() > 2 ? std::atoi(args[2].c_str()) : 3;
  const bool laps = mode == "laps", two_packet = mode == "two-packet", hamiltonian = mode == "hamiltonian";
  const bool partial_cycles_mode = !two_packet && !hamiltonian;  // partial-cycles patterns
  const bool even_cols_allowed = partial_cycles_mode && !laps;  // odd rows under even columns (Theorem 2 as written)
  if (rows < 3 || cols < 3 || (rows % 2 == 0 && !hamiltonian) || (cols % 2 == 0 && !even_cols_allowed) ||
      (laps && (cols < 5 || extra < 0)) || (block_width > 0 && (extra < 1 || block_width >= cols || rows >= cols))) {
    std::fprintf(stderr, "odd_torus_search: ROWS and COLS must be odd and at least 3 (with laps: COLS at least 5, "
                         "EXTRA at least 0; with hamiltonian ROWS may be even; without a mode or with columns=W COLS "
                         "may be even; with columns=W: ROWS under COLS, W under COLS, EXTRA at least 1)\n");
    return 2;
  }
  const int longest = longest_allowed(rows, cols);
  SatModel s;
  auto R = [&](int r) { return (r + rows) % rows; };
  auto C = [&](int c) { return (c + cols) % cols; };
  const size_t nodes = static_cast<size_t>(rows * cols);
  // link[k][0][v]: the link right of node v on cycle k; link[k][1][v] the link below it
  std::vector<std::vector<std::vector<int>>> link(2, std::vector<std::vector<int>>(2));
  std::vector<std::vector<int>> node_on(2);
  for (int k = 0; k < 2; ++k)
    for (size_t v = 0; v < nodes; ++v) {
      link[k][0].push_back(s.variable());
      link[k][1].push_back(s.variable());
      node_on[k].push_back(s.variable());
    }
  auto at = [&](int r, int c) { return static_cast<size_t>(R(r) * cols + C(c)); };
  // the four links of (r, c): (kind, index of its owner, neighbour)
  auto links_of = [&](int r, int c) {
    return std::vector<std::pair<std::pair<int, size_t>, size_t>>{
        {{0, at(r, c)}, at(r, c + 1)}, {{0, at(r, c - 1)}, at(r, c - 1)},
        {{1, at(r, c)}, at(r + 1, c)}, {{1, at(r - 1, c)}, at(r - 1, c)}};
  };
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const size_t v = at(r, c);
      for (int kind = 0; kind < 2; ++kind) s.clause({-link[0][kind][v], -link[1][kind][v]});
      for (int k = 0; k < 2; ++k) {
        std::vector<int> degree, fed;
        for (const auto& [l, w] : links_of(r, c)) {
          const int on_link = link[k][l.first][l.second];
          degree.push_back(on_link);
          s.clause({node_on[k][v], -on_link});  // off the cycle: no link of it
          // fed over this link: free, and its neighbour on the cycle
          const int feeds = s.variable();
          s.clause({-feeds, -link[0][l.first][l.second]});
          s.clause({-feeds, -link[1][l.first][l.second]});
          s.clause({-feeds, node_on[k][w]});
          fed.push_back(feeds);
        }
        for (size_t skip = 0; skip < 4; ++skip) {  // at most two links of the cycle
          std::vector<int> clause;
          for (size_t i = 0; i < 4; ++i)
            if (i != skip) clause.push_back(-degree[i]);
          s.clause(clause);
        }
        at_least_two(s, node_on[k][v], degree);  // on it: two links
        at_least_two(s, -node_on[k][v], fed);    // off it: two neighbours on it across free links
        // Implied, for propagation: a node off the cycle is on the other one (two links) and
        // its two other links are free, so both come from nodes on the cycle.
        for (const auto& [l, w] : links_of(r, c))
          s.clause({link[0][l.first][l.second], link[1][l.first][l.second], node_on[k][v], node_on[k][w]});
      }
      s.clause({node_on[0][v], node_on[1][v]});
    }
  for (int k = 0; k < 2; ++k) {
    if (two_packet || hamiltonian) {
      const int missing = two_packet ? 2 : 0;  // each cycle through all nodes but these
      std::vector<int> off;
      for (int x : node_on[k]) off.push_back(-x);
      s.at_most(node_on[k], static_cast<int>(nodes) - missing);
      s.at_most(off, missing);
    } else {
      s.at_most(node_on[k], longest);
    }
  }
  auto same = [&](int a, int b) {
    s.clause({-a, b});
    s.clause({a, -b});
  };
  auto fixed = [&](int x, bool value) { s.clause({value ? x : -x}); };
  const bool repeats = extra >= 0 && !hamiltonian && (!two_packet || rows >= 5) && block_width == 0;
  const bool columns_repeat = (two_packet || hamiltonian) && extra >= 0 && cols >= 5;
  for (int k = 0; k < 2 && repeats; ++k)
    for (int c = 0; c < cols; ++c) same(link[k][1][at(rows - 1, c)], link[k][1][at(1, c)]);  // rows 0, 1 repeat
  for (int k = 0; k < 2 && columns_repeat; ++k)
    for (int r = 0; r < rows; ++r) same(link[k][0][at(r, cols - 1)], link[k][0][at(r, 1)]);  // columns 0, 1 repeat
  if (block_width > 0) {  // columns 1..W repeat: the link right of column W is the one right of column 0
    for (int k = 0; k < 2; ++k)
      for (int r = 0; r < rows; ++r) same(link[k][0][at(r, block_width)], link[k][0][at(r, 0)]);
    // A copy of the block adds a cycle's nodes in it: at most half the block's, so that the
    // steps grow no faster than Theorem 2's count as written (rows * W / 4 per copy).
    for (int k = 0; k < 2; ++k) {
      std::vector<int> in_block;
      for (int r = 0; r < rows; ++r)
        for (int c = 1; c <= block_width; ++c) in_block.push_back(node_on[k][at(r, c)]);
      s.at_most(in_block, rows * block_width / 2);
    }
  }
  fixed(node_on[0][0], true);
  constexpr int kZigzagColumn = 3;  // the second zigzag column of the laps (the first is 0)
  for (int c = 0; laps && c < cols; ++c) {
    const int row0_cycle = c < kZigzagColumn ? 0 : 1;  // of the link to the right
    fixed(link[row0_cycle][0][at(0, c)], true);
    fixed(link[1 - row0_cycle][0][at(1, c)], true);
    for (int k = 0; k < 2; ++k) {  // downwards: row 0 turns cycle 1 down at column 0, cycle 0 at column 3
      const int row0_down = c == 0 ? 1 : c == kZigzagColumn ? 0 : -1;
      const int row1_down = row0_down < 0 ? -1 : 1 - row0_down;
      fixed(link[k][1][at(0, c)], row0_down == k);
      fixed(link[k][1][at(1, c)], row1_down == k);
    }
  }

  BestPattern best(fewest_steps, fewest_seconds);
  const int last_pattern_variable = node_on[1].back();
  SatAnswer answer;
  while ((answer = s.check(best.time_left_ms())) == SatAnswer::Satisfiable) {
    // read before any clause is added (CaDiCaL keeps the model only until then)
    std::vector<bool> assignment(static_cast<size_t>(last_pattern_variable) + 1);
    for (int x = 1; x <= last_pattern_variable; ++x) assignment[static_cast<size_t>(x)] = s.value(x);
    auto is = [&](int x) { return assignment[static_cast<size_t>(x)]; };
    LinkCycles p;
    for (size_t v = 0; v < static_cast<size_t>(rows * cols); ++v) {
      p.right.push_back(is(link[0][0][v]) ? 0 : is(link[1][0][v]) ? 1 : -1);
      p.down.push_back(is(link[0][1][v]) ? 0 : is(link[1][1][v]) ? 1 : -1);
    }
    // One cycle each: where a cycle falls apart, at least one link leaving a component must
    // join it when nodes on both sides are on that cycle.
    auto cycle_links_of = [&](size_t k, size_t v) {  // (link variable of cycle k, neighbour) around v
      std::vector<std::pair<int, size_t>> out;
      for (const auto& [l, w] : links_of(static_cast<int>(v) / cols, static_cast<int>(v) % cols))
        out.push_back({link[k][l.first][l.second], w});
      return out;
    };
    const std::vector<std::vector<int>> cut = cuts(static_cast<size_t>(rows * cols), node_on, is, cycle_links_of);
    for (const std::vector<int>& clause : cut) s.clause(clause);
    const bool single = cut.empty();
    bool good = single;
    for (int k = 0; good && partial_cycles_mode && block_width == 0 && k <= std::max(extra, 0); ++k)
      good = feeds_everyone(fixroute::partial_cycles::with_rows_repeated(p, cols, k), rows + 2 * k, cols);
    for (int k = 0; good && block_width > 0 && k <= extra; ++k)
      good = feeds_everyone(fixroute::partial_cycles::with_column_block_repeated(p, cols, 1, block_width, k), rows,
                            cols + block_width * k);
    for (int kr = 0; good && two_packet && kr <= (repeats ? extra : 0); ++kr)
      for (int kc = 0; good && kc <= (columns_repeat ? extra : 0); ++kc)
        good = within_theorem_1(fixroute::partial_cycles::with_columns_repeated(
                                    fixroute::partial_cycles::with_rows_repeated(p, cols, kr), cols, kc),
                                rows + 2 * kr, cols + 2 * kc);
    for (int kc = 0; good && hamiltonian && kc <= (columns_repeat ? extra : 0); ++kc)
      good = hamiltonian_pair(fixroute::partial_cycles::with_columns_repeated(p, cols, kc), rows, cols + 2 * kc);
    if (good) {
      fixroute::partial_cycles::TorusPattern entry;
      entry.catalogue = two_packet    ? "two-packet"
                        : hamiltonian ? "hamiltonian"
                        : rows < cols ? "partial-cycles-fewer-rows"
                                      : "partial-cycles";
      write_rows(entry, fixroute::partial_cycles::along_dimensions(p, rows, cols));
      entry.rows_repeat = repeats;
      entry.cols_repeat = columns_repeat || block_width > 0;
      if (block_width > 0) entry.block_first = 1, entry.block_width = block_width;
      const int longer = static_cast<int>(std::max(std::count_if(node_on[0].begin(), node_on[0].end(), is),
                                                   std::count_if(node_on[1].begin(), node_on[1].end(), is)));
      if (!best.found(fixroute::partial_cycles::format_pattern(entry), longer)) break;
      for (int k = 0; k < 2; ++k) s.at_most(node_on[k], best.next_longest());
      continue;
    }
    if (single) {  // fails to feed on a grown torus: block exactly this pattern
      std::vector<int> clause;
      for (int k = 0; k < 2; ++k)
        for (int kind = 0; kind < 2; ++kind)
          for (int x : link[k][kind]) clause.push_back(is(x) ? -x : x);
      s.clause(clause);
    }
  }
  return best.report(answer);
}
