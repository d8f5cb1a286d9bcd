// Searches a pattern for sw/schedulers/gossip/torus_patterns.txt: two edge-disjoint partial
// cycles on an R x C torus (R odd; C odd, or even for the fewer-rows catalogue) such
// that every node is on a cycle or has two free-link neighbours on it, each cycle at
// most as long as Theorem 2 allows, rows 0 and 1 repeatable (the links above row 0 equal
// those below row 1), and accepted by
// partial_cycles::build_from_links -- the checks and tap scheduling of every run -- on R,
// R + 2, ..., R + 2 * EXTRA rows (EXTRA -1: rows 0 and 1 need not repeat, the pattern
// serves R x C only). A SAT search (z3): the cycle conditions are local, single cycles
// are enforced lazily (a cut per extra component), and a pattern that fails on a grown
// torus (too long, or a node not fed) is blocked and the search goes on.
//
//   build/odd_torus_search ROWS COLS [EXTRA [laps | two-packet | hamiltonian]]
//
// With `laps`, rows 0 and 1 are fixed as two laps of the paper's construction with their
// zigzags at columns 0 and 3 (row 0 on cycle 0 from column 0 to 3, on cycle 1 from 3 round
// to 0; row 1 the other way round): the search is then left only the rows between, which
// makes 11 and 13 columns a matter of seconds.
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
// Prints the entry in the pattern file's format (docs/pattern-format.md; append it to
// sw/schedulers/gossip/torus_patterns.txt), or "none" (exit 1) when there is no such pattern.
#include <z3++.h>

#include <cstdio>
#include <algorithm>
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
#include "sw/topology/topology.h"

namespace {

using fixroute::InputError;
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

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 4 ? argv[4] : "";
  if (argc < 3 || (argc > 4 && mode != "laps" && mode != "two-packet" && mode != "hamiltonian") || argc > 5) {
    std::fprintf(stderr, "usage: odd_torus_search ROWS COLS [EXTRA [laps | two-packet | hamiltonian]]\n");
    return 2;
  }
  const int rows = std::atoi(argv[1]), cols = std::atoi(argv[2]), extra = argc > 3 ? std::atoi(argv[3]) : 3;
  const bool laps = mode == "laps", two_packet = mode == "two-packet", hamiltonian = mode == "hamiltonian";
  const bool partial_cycles_mode = !two_packet && !hamiltonian;  // partial-cycles patterns
  const bool even_cols_allowed = partial_cycles_mode && !laps;  // odd rows under even columns (Theorem 2 as written)
  if (rows < 3 || cols < 3 || (rows % 2 == 0 && !hamiltonian) || (cols % 2 == 0 && !even_cols_allowed) ||
      (laps && (cols < 5 || extra < 0))) {
    std::fprintf(stderr, "odd_torus_search: ROWS and COLS must be odd and at least 3 (with laps: COLS at least 5, "
                         "EXTRA at least 0; with hamiltonian ROWS may be even; without a mode COLS may be even)\n");
    return 2;
  }
  const int longest = longest_allowed(rows, cols);
  z3::context ctx;
  z3::solver s(ctx, "QF_LIA");  // one fixed engine: the default switches engines on a timer
  auto var = [&](const std::string& name, int r, int c) {
    return ctx.bool_const((name + std::to_string(r) + "_" + std::to_string(c)).c_str());
  };
  auto R = [&](int r) { return (r + rows) % rows; };
  auto C = [&](int c) { return (c + cols) % cols; };
  // right/down link of (r, c) on cycle k: on[k][0] right, on[k][1] down
  std::vector<std::vector<std::vector<z3::expr>>> link(2, std::vector<std::vector<z3::expr>>(2));
  std::vector<std::vector<z3::expr>> node_on(2);
  for (int k = 0; k < 2; ++k)
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        link[k][0].push_back(var("r" + std::to_string(k) + "_", r, c));
        link[k][1].push_back(var("d" + std::to_string(k) + "_", r, c));
        node_on[k].push_back(var("on" + std::to_string(k) + "_", r, c));
      }
  auto at = [&](int r, int c) { return static_cast<size_t>(R(r) * cols + C(c)); };
  auto one = [&](const z3::expr& e) { return z3::ite(e, ctx.int_val(1), ctx.int_val(0)); };
  // the four links of (r, c): (kind, index of its owner, neighbour)
  auto links_of = [&](int r, int c) {
    return std::vector<std::pair<std::pair<int, size_t>, size_t>>{
        {{0, at(r, c)}, at(r, c + 1)}, {{0, at(r, c - 1)}, at(r, c - 1)},
        {{1, at(r, c)}, at(r + 1, c)}, {{1, at(r - 1, c)}, at(r - 1, c)}};
  };
  z3::expr length0 = ctx.int_val(0), length1 = ctx.int_val(0);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      for (int kind = 0; kind < 2; ++kind) s.add(!(link[0][kind][at(r, c)] && link[1][kind][at(r, c)]));
      for (int k = 0; k < 2; ++k) {
        z3::expr degree = ctx.int_val(0), fed = ctx.int_val(0);
        for (const auto& [l, w] : links_of(r, c)) {
          degree = degree + one(link[k][l.first][l.second]);
          fed = fed + one(!link[0][l.first][l.second] && !link[1][l.first][l.second] && node_on[k][w]);
        }
        s.add(z3::ite(node_on[k][at(r, c)], degree == 2, degree == 0));
        s.add(z3::implies(!node_on[k][at(r, c)], fed >= 2));
      }
      s.add(node_on[0][at(r, c)] || node_on[1][at(r, c)]);
      length0 = length0 + one(node_on[0][at(r, c)]);
      length1 = length1 + one(node_on[1][at(r, c)]);
    }
  if (two_packet || hamiltonian) {
    const int length = rows * cols - (two_packet ? 2 : 0);
    s.add(length0 == length && length1 == length);
  } else {
    s.add(length0 <= longest && length1 <= longest);
  }
  const bool repeats = extra >= 0 && !hamiltonian && (!two_packet || rows >= 5);
  const bool columns_repeat = (two_packet || hamiltonian) && extra >= 0 && cols >= 5;
  for (int k = 0; k < 2 && repeats; ++k)
    for (int c = 0; c < cols; ++c) s.add(link[k][1][at(rows - 1, c)] == link[k][1][at(1, c)]);  // rows 0, 1 repeat
  for (int k = 0; k < 2 && columns_repeat; ++k)
    for (int r = 0; r < rows; ++r) s.add(link[k][0][at(r, cols - 1)] == link[k][0][at(r, 1)]);  // columns 0, 1 repeat
  s.add(node_on[0][0]);
  constexpr int kZigzagColumn = 3;  // the second zigzag column of the laps (the first is 0)
  for (int c = 0; laps && c < cols; ++c) {
    const int row0_cycle = c < kZigzagColumn ? 0 : 1;  // of the link to the right
    s.add(link[row0_cycle][0][at(0, c)] && link[1 - row0_cycle][0][at(1, c)]);
    for (int k = 0; k < 2; ++k) {  // downwards: row 0 turns cycle 1 down at column 0, cycle 0 at column 3
      const int row0_down = c == 0 ? 1 : c == kZigzagColumn ? 0 : -1;
      const int row1_down = row0_down < 0 ? -1 : 1 - row0_down;
      s.add(link[k][1][at(0, c)] == ctx.bool_val(row0_down == k));
      s.add(link[k][1][at(1, c)] == ctx.bool_val(row1_down == k));
    }
  }

  while (s.check() == z3::sat) {
    const z3::model model = s.get_model();
    auto is = [&](const z3::expr& e) { return model.eval(e).is_true(); };
    LinkCycles p;
    for (size_t v = 0; v < static_cast<size_t>(rows * cols); ++v) {
      p.right.push_back(is(link[0][0][v]) ? 0 : is(link[1][0][v]) ? 1 : -1);
      p.down.push_back(is(link[0][1][v]) ? 0 : is(link[1][1][v]) ? 1 : -1);
    }
    // One cycle each: where a cycle falls apart, at least one link leaving a component must
    // join it when nodes on both sides are on that cycle.
    bool single = true;
    for (int k = 0; k < 2; ++k) {
      std::vector<int> comp(static_cast<size_t>(rows * cols), -1);
      int comps = 0;
      for (size_t v0 = 0; v0 < comp.size(); ++v0) {
        if (!is(node_on[k][v0]) || comp[v0] >= 0) continue;
        std::vector<size_t> stack{v0};
        comp[v0] = comps;
        while (!stack.empty()) {
          const size_t v = stack.back();
          stack.pop_back();
          for (const auto& [l, w] : links_of(static_cast<int>(v) / cols, static_cast<int>(v) % cols))
            if (is(link[k][l.first][l.second]) && comp[w] < 0) comp[w] = comps, stack.push_back(w);
        }
        ++comps;
      }
      for (int part = 0; comps > 1 && part < comps; ++part) {
        single = false;
        z3::expr_vector clause(ctx);
        size_t inside = 0, outside = 0;
        for (size_t v = 0; v < comp.size(); ++v) {
          if (comp[v] == part) inside = v;
          if (comp[v] >= 0 && comp[v] != part) outside = v;
          for (const auto& [l, w] : links_of(static_cast<int>(v) / cols, static_cast<int>(v) % cols))
            if (comp[v] == part && comp[w] != part) clause.push_back(link[k][l.first][l.second]);
        }
        clause.push_back(!node_on[k][inside]);
        clause.push_back(!node_on[k][outside]);
        s.add(z3::mk_or(clause));
      }
    }
    bool good = single;
    for (int k = 0; good && partial_cycles_mode && k <= std::max(extra, 0); ++k)
      good = feeds_everyone(fixroute::partial_cycles::with_rows_repeated(p, cols, k), rows + 2 * k, cols);
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
      entry.rows = rows;
      entry.cols = cols;
      entry.rows_repeat = repeats;
      entry.cols_repeat = columns_repeat;
      for (int r = 0; r < rows; ++r) {
        std::string line;
        for (int c = 0; c < cols; ++c) line += static_cast<char>('1' + p.right[static_cast<size_t>(r * cols + c)]);
        line += ' ';
        for (int c = 0; c < cols; ++c) line += static_cast<char>('1' + p.down[static_cast<size_t>(r * cols + c)]);
        entry.lines.push_back(line);
      }
      std::fputs(fixroute::partial_cycles::format_pattern(entry).c_str(), stdout);
      return 0;
    }
    if (single) {  // fails to feed on a grown torus: block exactly this pattern
      z3::expr_vector clause(ctx);
      for (int k = 0; k < 2; ++k)
        for (int kind = 0; kind < 2; ++kind)
          for (size_t i = 0; i < link[k][kind].size(); ++i)
            clause.push_back(is(link[k][kind][i]) ? !link[k][kind][i] : link[k][kind][i]);
      s.add(z3::mk_or(clause));
    }
  }
  std::printf("none\n");
  return 1;
}
