// The circuit-switched row-column mesh (issue 6): schedulers, the paper's worked example,
// crossbar tables, the ref and RTL crossbar routers, the circuit scoreboard, the CLI.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <tuple>

#include "sw/kinds/crossbar/draw.h"
#include "sw/schedulers/circuit/fft.h"
#include "sw/schedulers/circuits.h"
#include "sw/kinds/crossbar/tables.h"
#include "sw/core/errors.h"
#include "sw/topology/topology.h"
#include "sw/kinds/crossbar/scoreboard.h"
#include "sw/verify/run_case.h"
#include "tb/crossbar/xbar_rtl.h"
#include "test_support.h"
#include "test_labels.h"

using ::testing::HasSubstr;
using fixroute::testing_support::run_cli;
using fixroute::testing_support::scratch;
using fixroute::testing_support::test_name;
namespace fs = std::filesystem;

namespace fixroute {
namespace {

RunResult run(const std::string& mesh, const std::string& collective, const std::string& permutation = "",
              const std::string& algorithm = "", const std::string& engine = "ref", int root = 0) {
  RunRequest req;
  req.topology = mesh;
  req.collective = collective;
  req.permutation = permutation;
  req.algorithm = algorithm;
  req.engine = engine;
  req.root = root;
  return run_case(req);
}

CircuitSchedule schedule_of(const std::string& mesh, const std::string& collective, const std::string& permutation,
                            const std::string& algorithm = "", int root = 0) {
  const Topology t = Topology::parse(mesh);
  const CircuitDemand d = make_circuit_demand(t, collective, permutation, root);
  return build_schedule(find_circuit_algorithm(algorithm, t, d), t, d);
}

// The 1R-1C criterion of section 3: one source per row, one destination per column,
// among the messages that leave their node (a local->local circuit claims no link).
void expect_one_per_row_and_column(const Topology& mesh, const CircuitSchedule& s) {
  const int cols = mesh.dims()[1];
  for (size_t t = 0; t < s.steps.size(); ++t) {
    std::set<int> rows, dest_cols;
    for (const Circuit& c : s.steps[t]) {
      if (c.source == c.dest) continue;
      EXPECT_TRUE(rows.insert(c.source / cols).second) << "step " << t + 1 << ": two sources in row " << c.source / cols;
      EXPECT_TRUE(dest_cols.insert(c.dest % cols).second) << "step " << t + 1 << ": two destinations in column " << c.dest % cols;
    }
  }
}

// Figure 1 of the paper: n = 4, pi = (1, 3, 2, 0), a = 1010, and the four steps it lists.
TEST(CircuitPaper, WorkedExampleScheduleIsThePapers) {
  const CircuitSchedule s = schedule_of("mesh:4x4", "permutation", "bpc:1,3,2,0:1010");
  const std::vector<std::set<std::pair<int, int>>> paper = {
      {{0b0000, 0b1010}, {0b0110, 0b1111}, {0b1000, 0b1000}, {0b1110, 0b1101}},
      {{0b0001, 0b0010}, {0b0111, 0b0111}, {0b1001, 0b0000}, {0b1111, 0b0101}},
      {{0b0010, 0b1011}, {0b0100, 0b1110}, {0b1010, 0b1001}, {0b1100, 0b1100}},
      {{0b0011, 0b0011}, {0b0101, 0b0110}, {0b1011, 0b0001}, {0b1101, 0b0100}}};
  ASSERT_EQ(s.steps.size(), paper.size());
  for (size_t t = 0; t < paper.size(); ++t) {
    std::set<std::pair<int, int>> got;
    for (const Circuit& c : s.steps[t]) got.insert({c.source, c.dest});
    EXPECT_EQ(got, paper[t]) << "step t = " << t;
  }
}

FIXROUTE_LABEL("rtl", "CircuitPaper", "WorkedExampleOnTheRtl");
TEST(CircuitPaper, WorkedExampleOnTheRtlMeetsNSteps) {
  RunResult r = run("mesh:4x4", "permutation", "bpc:1,3,2,0:1010", "", "rtl");
  EXPECT_TRUE(r.ok()) << summary(r);
  EXPECT_EQ(r.steps(), 4);
  EXPECT_EQ(r.trace->rows(), 16);  // the fixed points too, through local->local
  ASSERT_TRUE(r.stats.cycles_per_step);
  EXPECT_EQ(*r.stats.clock_cycles, 4 * *r.stats.cycles_per_step);
}

TEST(CircuitRules, RowColumnRouteGoesAlongTheRowFirst) {
  const Topology m = Topology::parse("mesh:4x4");
  const std::vector<Hop> hops = row_column_route(m, 1, 14);  // (0,1) -> (3,2)
  std::vector<int> nodes;
  for (const Hop& h : hops) nodes.push_back(h.node);
  EXPECT_EQ(nodes, (std::vector<int>{1, 2, 6, 10, 14}));
  EXPECT_EQ(hops.front().in_port, kLocalPort);
  EXPECT_EQ(hops.back().out_port, kLocalPort);
}

TEST(CircuitRules, ConflictCheckFindsASharedLink) {
  const Topology m = Topology::parse("mesh:4x4");
  EXPECT_TRUE(link_conflicts(m, {{0, 3}, {4, 7}}).empty());
  const auto c = link_conflicts(m, {{0, 3}, {1, 2}});  // both use 1 -> 2
  ASSERT_FALSE(c.empty());
  EXPECT_THAT(c.front(), HasSubstr("link 1->2"));
  EXPECT_FALSE(link_conflicts(m, {{0, 5}, {5, 5}}).empty());  // one delivery port
}

// The claims of circuits counted hop by hop, as the rule says: every out-port (the local
// one included) and every local in-port at most once per step.
int64_t most_claims_by_hops(const Topology& m, const std::vector<Circuit>& circuits, bool links_only) {
  std::map<std::pair<int, int>, int64_t> claims;  // (node, out-port; 5 = local in-port)
  int64_t most = 0;
  for (const Circuit& c : circuits)
    for (const Hop& h : row_column_route(m, c.source, c.dest)) {
      if (!links_only && h.in_port == kLocalPort) most = std::max(most, ++claims[{h.node, 5}]);
      if (!links_only || h.out_port != kLocalPort) most = std::max(most, ++claims[{h.node, h.out_port}]);
    }
  return most;
}

// The conflict check and the link load work on whole row and column runs; hop by hop
// they must agree on random circuits of non-square meshes.
TEST(CircuitRules, RunBasedChecksAgreeWithHopByHopClaims) {
  std::mt19937 rng(7);
  for (const char* spec : {"mesh:5x7", "mesh:9x3", "mesh:2x6", "mesh:8x8"}) {
    const Topology m = Topology::parse(spec);
    std::uniform_int_distribution<int> node(0, m.num_nodes() - 1), count(1, 6);
    for (int trial = 0; trial < 300; ++trial) {
      std::vector<Circuit> circuits(static_cast<size_t>(count(rng)));
      for (Circuit& c : circuits) c = {node(rng), node(rng)};
      EXPECT_EQ(link_conflicts(m, circuits).empty(), most_claims_by_hops(m, circuits, false) <= 1) << spec << " trial " << trial;
      EXPECT_EQ(max_link_load(m, circuits), most_claims_by_hops(m, circuits, true)) << spec << " trial " << trial;
    }
  }
}

// Above kStoredXbarSettings the tables keep the circuits and the engine expands each
// step's settings: the same settings, the same run, as stored tables.
TEST(CircuitTables, SettingsExpandedPerStepEqualTheStoredOnes) {
  const std::vector<std::array<const char*, 4>> cases = {
      {"mesh:8x8", "permutation", "transpose", ""}, {"mesh:6x10", "permutation", "random:3", ""},
      {"mesh:8x8", "fft", "", "z-order"},          {"mesh:5x9", "broadcast", "", ""},
      {"mesh:8x8", "prefix", "", ""}};
  for (const auto& [spec, collective, permutation, algorithm] : cases) {
    const Topology m = Topology::parse(spec);
    const CircuitSchedule s = schedule_of(spec, collective, permutation, algorithm);
    const XbarTables stored = make_xbar_tables(m, s);
    const XbarTables expanded_form = make_xbar_tables(m, s, 0);
    ASSERT_FALSE(stored.routers.empty()) << spec;
    ASSERT_TRUE(expanded_form.routers.empty() && expanded_form.circuits) << spec;
    EXPECT_EQ(expanded_form.steps(), stored.steps()) << spec;
    EXPECT_EQ(xbar_table_bits(expanded_form), xbar_table_bits(stored)) << spec;
    XbarTables expanded;
    EXPECT_EQ(stored_xbar_tables(m, expanded_form, expanded).routers, stored.routers) << spec;
    const XbarRun a = run_xbar_ref(m, stored), b = run_xbar_ref(m, expanded_form);
    EXPECT_EQ(a.trace, b.trace) << spec;
    EXPECT_EQ(a.faults, b.faults) << spec;
    EXPECT_TRUE(a.faults.empty()) << spec;
    EXPECT_EQ(static_cast<int64_t>(a.trace.size()), circuit_count(s)) << spec;
  }
}

TEST(CircuitTables, StepSettingsSlotsMapBackToTheirRouters) {
  for (const char* spec : {"mesh:5x7", "mesh:17x3", "mesh:8x8"}) {
    const Topology m = Topology::parse(spec);
    const XbarTables none;
    const XbarStepSettings settings(m, none);
    std::set<size_t> slots;
    for (int n = 0; n < m.num_nodes(); ++n) {
      const size_t at = settings.slot(n / m.dims()[1], n % m.dims()[1]);
      EXPECT_TRUE(slots.insert(at).second) << spec << " node " << n;
      EXPECT_EQ(settings.node_at(at), n) << spec;
    }
  }
}

// BPC: n routing steps, 1R-1C, on every power of two up to 32; the named ones and random ones.
class Bpc : public ::testing::TestWithParam<int> {};
TEST_P(Bpc, NamedAndRandomBpcInNSteps) {
  const int n = GetParam();
  const std::string mesh = fmt::format("mesh:{}x{}", n, n);
  std::vector<std::string> perms = {"transpose", "bit-reversal", "perfect-shuffle", "bit-complement"};
  std::mt19937 rng(static_cast<unsigned>(n));
  const int bits = 2 * log2_exact(n);
  for (int k = 0; k < 3; ++k) {
    std::vector<int> pi(static_cast<size_t>(bits));
    for (int i = 0; i < bits; ++i) pi[static_cast<size_t>(i)] = i;
    std::shuffle(pi.begin(), pi.end(), rng);
    std::string a;
    for (int i = 0; i < bits; ++i) a += (rng() & 1) ? '1' : '0';
    perms.push_back(fmt::format("bpc:{}:{}", fmt::join(pi, ","), a));
  }
  for (const std::string& p : perms) {
    RunResult r = run(mesh, "permutation", p);
    EXPECT_EQ(r.algorithm, "bpc-self-schedule");
    EXPECT_TRUE(r.ok()) << p << "\n" << summary(r);
    EXPECT_EQ(r.steps(), n) << p;
    expect_one_per_row_and_column(Topology::parse(mesh), schedule_of(mesh, "permutation", p));
  }
}
INSTANTIATE_TEST_SUITE_P(Sizes, Bpc, ::testing::Values(2, 4, 8, 16, 32));

// A random Omega-realizable permutation: random 2x2 switch states, destination from the
// line each input reaches after the last stage.
std::vector<int> random_omega(int nodes, unsigned seed) {
  const int m = log2_exact(nodes);
  std::mt19937 rng(seed);
  std::vector<int> line(static_cast<size_t>(nodes)), dest(static_cast<size_t>(nodes));
  for (int s = 0; s < nodes; ++s) line[static_cast<size_t>(s)] = s;
  for (int stage = 0; stage < m; ++stage) {
    std::vector<bool> cross(static_cast<size_t>(nodes / 2));
    for (size_t k = 0; k < cross.size(); ++k) cross[k] = rng() & 1;
    for (int s = 0; s < nodes; ++s) {
      int l = ((line[static_cast<size_t>(s)] << 1) | (line[static_cast<size_t>(s)] >> (m - 1))) & (nodes - 1);
      if (cross[static_cast<size_t>(l / 2)]) l ^= 1;
      line[static_cast<size_t>(s)] = l;
    }
  }
  for (int s = 0; s < nodes; ++s) dest[static_cast<size_t>(s)] = line[static_cast<size_t>(s)];
  return dest;
}

std::string write_permutation(const std::vector<int>& dest, const std::string& name) {
  const fs::path path = scratch() / name;
  std::ofstream out(path);
  for (int d : dest) out << d << "\n";
  return path.string();
}

class Omega : public ::testing::TestWithParam<int> {};
TEST_P(Omega, OmegaAndInverseOmegaInTwoNSteps) {
  const int n = GetParam();
  const std::string mesh = fmt::format("mesh:{}x{}", n, n);
  for (unsigned seed = 1; seed <= 3; ++seed) {
    std::vector<int> f = random_omega(n * n, seed);
    ASSERT_TRUE(omega_realizable(f));
    std::vector<int> inverse(f.size());
    for (size_t s = 0; s < f.size(); ++s) inverse[static_cast<size_t>(f[s])] = static_cast<int>(s);
    ASSERT_TRUE(inverse_omega_realizable(inverse));
    for (const auto& p : {f, inverse}) {
      const std::string file = write_permutation(p, fmt::format("omega_{}_{}.txt", n, seed));
      RunResult r = run(mesh, "permutation", "omega:" + file);
      EXPECT_EQ(r.algorithm, "omega-two-phase");
      EXPECT_TRUE(r.ok()) << summary(r);
      EXPECT_EQ(r.steps(), 2 * n);
    }
  }
}
INSTANTIATE_TEST_SUITE_P(Sizes, Omega, ::testing::Values(2, 4, 8, 16, 32));

// Beyond the paper: any permutation, any n, <= n steps; exactly the busiest row or column.
class EdgeColouring : public ::testing::TestWithParam<int> {};
TEST_P(EdgeColouring, RandomPermutationsInAtMostNSteps) {
  const int n = GetParam();
  for (const std::string& mesh : {fmt::format("mesh:{}x{}", n, n), fmt::format("mesh:{}x{}", n, n + 1)}) {
    const Topology t = Topology::parse(mesh);
    for (unsigned seed = 1; seed <= 3; ++seed) {
      const std::string p = fmt::format("random:{}", seed);
      RunResult r = run(mesh, "permutation", p, "edge-colouring");
      EXPECT_TRUE(r.ok()) << summary(r);
      EXPECT_LE(r.steps(), std::max(t.dims()[0], t.dims()[1])) << mesh << " " << p;
      EXPECT_GE(r.steps(), r.bounds.best());
      expect_one_per_row_and_column(t, schedule_of(mesh, "permutation", p, "edge-colouring"));
    }
  }
}
INSTANTIATE_TEST_SUITE_P(Sizes, EdgeColouring, ::testing::Range(2, 33));

// On small meshes the exhaustive search measures how far edge-colouring is from optimal.
TEST(OptimalSearch, NeverWorseThanEdgeColouringNorBelowTheLinkLoad) {
  int better = 0;
  for (int n = 2; n <= 5; ++n)
    for (unsigned seed = 1; seed <= 4; ++seed) {
      const std::string mesh = fmt::format("mesh:{}x{}", n, n), p = fmt::format("random:{}", seed);
      RunResult best = run(mesh, "permutation", p, "optimal-search");
      RunResult colour = run(mesh, "permutation", p, "edge-colouring");
      EXPECT_TRUE(best.ok()) << summary(best);
      EXPECT_LE(best.steps(), colour.steps());
      EXPECT_GE(best.steps(), best.bounds.best());
      better += best.steps() < colour.steps();
    }
  EXPECT_GT(better, 0) << "1R-1C is sufficient, not necessary: the search finds shorter schedules";
  // The transpose of a 4x4: each row sends 3 messages off the diagonal.
  EXPECT_EQ(run("mesh:4x4", "permutation", "transpose", "edge-colouring").steps(), 3);
}

class Halving : public ::testing::TestWithParam<std::string> {};
TEST_P(Halving, BroadcastAndFanInInLogSteps) {
  const Topology t = Topology::parse(GetParam());
  int64_t expected = 0;  // ceil(log2 C) + ceil(log2 R): log2 N on n x n, n = 2^k
  while ((1 << expected) < t.dims()[1]) ++expected;
  for (int r = 0; (1 << r) < t.dims()[0]; ++r) ++expected;
  for (int root : {0, t.num_nodes() / 2 + 1, t.num_nodes() - 1}) {
    RunResult b = run(GetParam(), "broadcast", "", "", "ref", root);
    RunResult f = run(GetParam(), "fan-in", "", "", "ref", root);
    EXPECT_TRUE(b.ok()) << summary(b);
    EXPECT_TRUE(f.ok()) << summary(f);
    EXPECT_EQ(b.steps(), expected);
    EXPECT_EQ(f.steps(), expected);
  }
}
INSTANTIATE_TEST_SUITE_P(Meshes, Halving,
                         ::testing::Values("mesh:2x2", "mesh:4x4", "mesh:8x8", "mesh:16x16", "mesh:32x32", "mesh:3x3",
                                           "mesh:5x7", "mesh:6x6"),
                         [](const ::testing::TestParamInfo<std::string>& param) { return test_name(param.param); });

TEST(Prefix, RecurrenceCountOnPowersOfTwo) {
  for (int n : {2, 4, 8, 16, 32}) {
    RunResult r = run(fmt::format("mesh:{}x{}", n, n), "prefix");
    EXPECT_TRUE(r.ok()) << summary(r);
    const int64_t levels = 2 * log2_exact(n);
    EXPECT_EQ(r.steps(), levels * (levels + 1) / 2);  // C(N) = C(N/2) + log2 N, C(2) = 1
    ASSERT_TRUE(r.paper_formula);
    EXPECT_EQ(*r.paper_formula, levels * levels);
  }
}

TEST(FirstFit, LinkDisjointAndShorterWhereRowSegmentsAreShort) {
  for (int n = 2; n <= 12; ++n) {
    RunResult r = run(fmt::format("mesh:{}x{}", n, n), "permutation", "random:3", "first-fit");
    EXPECT_TRUE(r.ok()) << summary(r);
    EXPECT_GE(r.steps(), r.bounds.best());
  }
  // Swapping neighbours in every row: first-fit packs each row into one step (the
  // circuits run on disjoint row links), 1R-1C needs one step per message of a row.
  const std::string swap = write_permutation({1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14}, "pairs.txt");
  EXPECT_EQ(run("mesh:4x4", "permutation", "file:" + swap, "first-fit").steps(), 1);
  EXPECT_EQ(run("mesh:4x4", "permutation", "file:" + swap, "edge-colouring").steps(), 4);
}

TEST(Fft, PhasesSplitEvensToTheTopHalfAndComposeToTheIdentity) {
  const Topology m = Topology::parse("mesh:4x4");
  for (const char* algorithm : {"divide-and-conquer", "z-order"}) {
    const std::vector<FftPhase> phases = fft_phases(m, algorithm);
    ASSERT_EQ(phases.size(), 6u) << "splits and merges for blocks of 16, 8, 4";
    std::vector<int> at(16);
    for (int x = 0; x < 16; ++x) at[static_cast<size_t>(x)] = x;
    for (const FftPhase& p : phases) {
      EXPECT_EQ(std::set<int>(p.dest.begin(), p.dest.end()).size(), 16u) << p.name << " is a permutation";
      for (int& node : at) node = p.dest[static_cast<size_t>(node)];
    }
    for (int x = 0; x < 16; ++x) EXPECT_EQ(at[static_cast<size_t>(x)], x) << "every merge undoes its split";
  }
  // Row-major (the paper): the first split sends point 2i to node i, 2i+1 to node 8+i.
  const std::vector<FftPhase> row_major = fft_phases(m, "divide-and-conquer");
  EXPECT_EQ(row_major[0].dest[6], 3);
  EXPECT_EQ(row_major[0].dest[7], 11);
  // Z order: point i = (r1 c1 r0 c0) sits at row r1r0, column c1c0.
  EXPECT_EQ(fft_layout(m, FftLayout::ZOrder), (std::vector<int>{0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15}));
}

// The paper's O(n) (section 5.3): measured, with the lower bound (sum over phases of the
// busiest link). Row-major halves (top/bottom rows, as the paper splits) keep every
// level n columns wide, and the lower bound itself grows like n log n; Z order makes every
// level a square sub-mesh and steps/n levels off (docs/circuit-switching.md has the table).
TEST(Fft, StepsAgainstTheLowerBoundAndLinearInN) {
  for (int n : {2, 4, 8, 16, 32, 64}) {
    const std::string mesh = fmt::format("mesh:{}x{}", n, n);
    RunResult paper = run(mesh, "fft", "", "divide-and-conquer");
    RunResult z = run(mesh, "fft", "", "z-order");
    for (const RunResult* r : {&paper, &z}) {
      EXPECT_TRUE(r->ok()) << summary(*r);
      EXPECT_GE(r->steps(), r->bounds.best());
      EXPECT_LE(r->steps(), r->bounds.best() + r->bounds.best() / 20 + 2) << "within 5% of the bound";
      EXPECT_FALSE(r->formula) << "the paper states O(n), no count";
    }
    EXPECT_LE(z.steps(), 7 * n) << mesh;
  }
  EXPECT_FALSE(run("mesh:4x8", "fft", "", "divide-and-conquer").steps() == 0);
  const auto o = run_cli("run mesh:6x6 fft");
  EXPECT_EQ(o.code, 2);
  EXPECT_THAT(o.err, HasSubstr("powers of two"));
  const auto z = run_cli("run mesh:2x8 fft --algorithm z-order");
  EXPECT_EQ(z.code, 2);
  EXPECT_THAT(z.err, HasSubstr("R = C or R = 2C"));
}

TEST(Fft, ScoreboardCatchesAPointSentTheWrongWay) {
  const Topology m = Topology::parse("mesh:4x4");
  const CircuitDemand d = make_circuit_demand(m, "fft", "", 0);
  const XbarTables t = circuit_tables(find_circuit_algorithm("", m, d), m, d);
  std::vector<CircuitEvent> trace = run_xbar_ref(m, t).trace;
  EXPECT_TRUE(score_circuits(m, t, trace).clean());
  std::vector<CircuitEvent> wrong = trace;
  std::swap(wrong[3].dest, wrong[4].dest);
  EXPECT_FALSE(score_circuits(m, t, wrong).clean());
  std::vector<CircuitEvent> missing(trace.begin() + 1, trace.end());
  const ScoreboardReport r = score_circuits(m, t, missing);
  EXPECT_FALSE(r.clean());
  EXPECT_THAT(r.errors.front(), HasSubstr("never sends its point in split 2^4"));
}

// The scoreboard judges the trace, not the schedule: a wrong delivery is caught.
TEST(CircuitScoreboard, CatchesAMessageAtTheWrongNode) {
  const Topology m = Topology::parse("mesh:2x2");
  XbarTables t = circuit_tables(find_circuit_algorithm("", m, make_circuit_demand(m, "permutation", "transpose", 0)), m,
                                make_circuit_demand(m, "permutation", "transpose", 0));
  std::vector<CircuitEvent> trace = run_xbar_ref(m, t).trace;
  EXPECT_TRUE(score_circuits(m, t, trace).clean());
  auto moving = std::find_if(trace.begin(), trace.end(), [](const CircuitEvent& e) { return e.source != e.dest; });
  ASSERT_NE(moving, trace.end());
  std::vector<CircuitEvent> lost = trace, misrouted = trace;
  lost.erase(lost.begin() + (moving - trace.begin()));
  const ScoreboardReport never_left = score_circuits(m, t, lost);
  ASSERT_FALSE(never_left.clean());
  EXPECT_EQ(never_left.errors.front(), fmt::format("node {0}'s message never reaches node {1}: no circuit delivered it "
                                                   "(it stays at node {0})",
                                                   moving->source, moving->dest));
  const size_t at = static_cast<size_t>(moving - trace.begin());
  misrouted[at].dest ^= 1;
  const ScoreboardReport astray = score_circuits(m, t, misrouted);
  ASSERT_FALSE(astray.clean());
  EXPECT_THAT(astray.errors, testing::Contains(fmt::format(
                                 "node {}'s message never reaches node {}: its last circuit, in step {}, delivered it to node {}",
                                 moving->source, moving->dest, moving->step, misrouted[at].dest)));
  // transpose on 2x2 fixes nodes 0 and 3: without its local circuit a fixed point fails.
  auto fixed = std::find_if(trace.begin(), trace.end(), [](const CircuitEvent& e) { return e.source == e.dest; });
  ASSERT_NE(fixed, trace.end());
  std::vector<CircuitEvent> no_local = trace;
  no_local.erase(no_local.begin() + (fixed - trace.begin()));
  const ScoreboardReport r = score_circuits(m, t, no_local);
  EXPECT_FALSE(r.clean());
  EXPECT_THAT(r.errors.front(), HasSubstr("never goes through a circuit"));
}

// draw: one panel per routing step, each circuit of the tables drawn once.
TEST(CircuitDraw, OnePanelPerStepWithItsCircuits) {
  const Topology m = Topology::parse("mesh:4x4");
  const CircuitDemand d = make_circuit_demand(m, "permutation", "bpc:1,3,2,0:1010", 0);
  const XbarTables t = circuit_tables(find_circuit_algorithm("", m, d), m, d);
  const std::string svg = draw_circuit_steps(m, t, "a <title> & more");
  auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t at = svg.find(what); at != std::string::npos; at = svg.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("<g class=\"step\""), 4u);
  EXPECT_EQ(count("class=\"circuit\""), 16u);  // every node sends once
  EXPECT_EQ(count("<polyline class=\"circuit\""), 16u - count("<circle class=\"circuit\""));
  EXPECT_GE(count("<circle class=\"circuit\""), 1u);  // the example has fixed points (1000 -> 1000)
  EXPECT_THAT(svg, HasSubstr("a &lt;title&gt; &amp; more"));
  EXPECT_THAT(svg, HasSubstr("<g class=\"legend\">"));
  EXPECT_THAT(svg, HasSubstr("a circuit: from its source (dot)"));
  EXPECT_THAT(svg, HasSubstr("a message that stays at its node"));
  // Step 1 of the paper's list: 0000 -> 1010 goes east to column 2, then south to row 2
  // (panel 1 at the top left: node (r, c) at x = 20 + 44c, y = 70 + 44r).
  EXPECT_THAT(svg, HasSubstr("points=\"20,70 64,70 108,70 108,114 108,158 \""));
  const auto o = run_cli("draw mesh:4x4 permutation --permutation transpose -o steps.svg");
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_THAT(testing_support::slurp(scratch() / "steps.svg"), HasSubstr("step 4"));
  const auto bad = run_cli("draw mesh:4x4 permutation --permutation rotate -o steps.svg");
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, HasSubstr("accepted: bpc:PI:A"));
}

// Two circuits that claim one link: every engine detects and reports it, the run fails.
int conflict_node = -1;
XbarTables conflicting_tables(const std::string& dir) {
  const Topology m = Topology::parse("mesh:4x4");
  const CircuitDemand d = make_circuit_demand(m, "permutation", "transpose", 0);
  XbarTables t = circuit_tables(find_circuit_algorithm("", m, d), m, d);
  // The first router with a linked input connected in step 1: connect a second linked
  // input to the same output.
  for (XbarRouterTable& r : t.routers)
    for (int in = 0; in < 4; ++in) {
      const int out = r.settings[0][static_cast<size_t>(in)];
      if (out == kNoPort) continue;
      for (int other = 0; other < 4; ++other)
        if (other != in && other != out && m.neighbour(r.node, other) >= 0 && r.settings[0][static_cast<size_t>(other)] == kNoPort) {
          r.settings[0][static_cast<size_t>(other)] = out;
          write_xbar_tables(t, dir);
          conflict_node = r.node;
          return t;
        }
    }
  ADD_FAILURE() << "no router to make a conflict at";
  return t;
}

FIXROUTE_LABEL("rtl", "CircuitConflict");
TEST(CircuitConflict, DetectedAndReportedByRefAndRtl) {
  const std::string dir = (scratch() / "conflict").string();
  conflicting_tables(dir);
  std::vector<std::string> faults;
  for (const char* engine : {"ref", "rtl"}) {
    RunRequest req;
    req.tables_dir = dir;
    req.engine = engine;
    RunResult r = run_case(req);
    EXPECT_FALSE(r.ok()) << engine;
    ASSERT_FALSE(r.stats.faults.empty()) << engine;
    EXPECT_THAT(r.stats.faults.front(), HasSubstr("link conflict")) << engine;
    EXPECT_THAT(r.stats.faults.front(), HasSubstr(fmt::format("step 1: router {}:", conflict_node))) << engine;
    if (faults.empty()) faults = r.stats.faults;
    else EXPECT_EQ(r.stats.faults, faults) << "engines word the same fault alike";
  }
  const auto o = run_cli("run mesh:4x4 permutation --tables " + dir + " --json");
  EXPECT_EQ(o.code, 1) << o.err;
}

TEST(CircuitTables, RoundTripAndRefuseDamage) {
  const std::string dir = (scratch() / "xbar").string();
  const Topology m = Topology::parse("mesh:4x4");
  const CircuitDemand d = make_circuit_demand(m, "broadcast", "", 5);
  const XbarTables t = circuit_tables(find_circuit_algorithm("", m, d), m, d);
  write_xbar_tables(t, dir);
  const XbarTables back = load_xbar_tables(dir);
  EXPECT_EQ(back.routers, t.routers);
  EXPECT_EQ(back.root, 5);
  EXPECT_EQ(back.step_cycles, xbar_step_cycles(m));
  // One flipped hex digit: refused whole.
  const fs::path hex = fs::path(dir) / "router-3.hex";
  std::string text = testing_support::slurp(hex);
  text[text.size() - 3] = text[text.size() - 3] == '0' ? '1' : '0';
  std::ofstream(hex) << text;
  EXPECT_THROW(load_xbar_tables(dir), InputError);
  const auto o = run_cli("run mesh:4x4 broadcast --tables " + dir);
  EXPECT_EQ(o.code, 2);
  EXPECT_THAT(o.err, HasSubstr("router-3.hex"));
}

FIXROUTE_LABEL("rtl", "XbarRtl");
// Every curated crossbar mesh runs each collective with the ref trace, cycle count steps x
// cycles (on the mesh top where one was verilated, on a router array elsewhere).
class XbarRtl : public ::testing::TestWithParam<std::string> {};
TEST_P(XbarRtl, TracesIdenticalToRef) {
  const Topology t = Topology::parse(GetParam());
  struct Case { std::string collective, permutation, algorithm; };
  std::vector<Case> cases = {{"permutation", "transpose", ""}, {"permutation", "bit-reversal", ""},
                             {"permutation", "bit-complement", "omega-two-phase"}, {"permutation", "random:7", ""},
                             {"broadcast", "", ""}, {"fan-in", "", ""}, {"prefix", "", ""},
                             {"fft", "", "divide-and-conquer"}, {"fft", "", "z-order"}};
  for (const Case& c : cases) {
    RunResult ref = run(GetParam(), c.collective, c.permutation, c.algorithm, "ref", t.num_nodes() - 1);
    RunResult rtl = run(GetParam(), c.collective, c.permutation, c.algorithm, "rtl", t.num_nodes() - 1);
    EXPECT_TRUE(rtl.ok()) << summary(rtl);
    EXPECT_EQ(rtl.trace->csv(), ref.trace->csv()) << c.collective << " " << c.permutation;
    ASSERT_TRUE(rtl.stats.clock_cycles && rtl.stats.cycles_per_step);
    EXPECT_EQ(*rtl.stats.clock_cycles, rtl.stats.steps_simulated * *rtl.stats.cycles_per_step);
  }
}
INSTANTIATE_TEST_SUITE_P(Verilated, XbarRtl, ::testing::ValuesIn(xbar_curated_sizes()),
                         [](const ::testing::TestParamInfo<std::string>& param) { return test_name(param.param); });

FIXROUTE_LABEL("rtl", "XbarRtlThreads");
// `run --threads N`, N >= 3: N-1 threads share each clock edge of a crossbar router array:
// the one-thread run's trace, clock for clock.
TEST(XbarRtlThreads, GiveTheOneThreadTraceAndCycles) {
  for (const auto& [collective, permutation, algorithm] :
       {std::tuple<std::string, std::string, std::string>{"permutation", "transpose", ""}, {"fft", "", "z-order"}}) {
    RunRequest req;
    req.topology = "mesh:8x8";
    req.collective = collective;
    req.permutation = permutation;
    req.algorithm = algorithm;
    req.engine = "rtl";
    const RunResult one = run_case(req);
    req.threads = 3;
    const RunResult many = run_case(req);
    EXPECT_TRUE(many.ok()) << summary(many);
    EXPECT_THAT(many.stats.hardware, HasSubstr("array"));
    EXPECT_EQ(many.trace->csv(), one.trace->csv()) << collective;
    EXPECT_EQ(many.stats.clock_cycles, one.stats.clock_cycles) << collective;
    EXPECT_GT(one.trace->rows(), 0) << collective;
  }
}

// SystemC: one elaboration per process, so each case is its own TEST (own process).
void expect_systemc_matches_ref(const std::string& mesh, const std::string& collective, const std::string& permutation,
                                const std::string& algorithm = "") {
  RunResult ref = run(mesh, collective, permutation, algorithm, "ref");
  RunResult sc = run(mesh, collective, permutation, algorithm, "systemc");
  EXPECT_TRUE(sc.ok()) << summary(sc);
  EXPECT_EQ(sc.trace->csv(), ref.trace->csv());
  ASSERT_TRUE(sc.stats.clock_cycles && sc.stats.cycles_per_step);
  EXPECT_EQ(*sc.stats.clock_cycles, sc.steps() * *sc.stats.cycles_per_step);
}
FIXROUTE_LABEL("systemc", "XbarSystemc");
TEST(XbarSystemc, PaperExample) { expect_systemc_matches_ref("mesh:4x4", "permutation", "bpc:1,3,2,0:1010"); }
TEST(XbarSystemc, OmegaOn8x8) { expect_systemc_matches_ref("mesh:8x8", "permutation", "bit-complement", "omega-two-phase"); }
TEST(XbarSystemc, EdgeColouringOn6x6) { expect_systemc_matches_ref("mesh:6x6", "permutation", "random:5"); }
TEST(XbarSystemc, BroadcastOn16x16) { expect_systemc_matches_ref("mesh:16x16", "broadcast", ""); }
TEST(XbarSystemc, FanInOn3x5) { expect_systemc_matches_ref("mesh:3x5", "fan-in", ""); }
TEST(XbarSystemc, PrefixOn8x8) { expect_systemc_matches_ref("mesh:8x8", "prefix", ""); }
TEST(XbarSystemc, FftOn16x16) { expect_systemc_matches_ref("mesh:16x16", "fft", "", "z-order"); }
TEST(XbarSystemc, ConflictDetected) {
  const std::string dir = (scratch() / "conflict_sc").string();
  conflicting_tables(dir);
  RunRequest req;
  req.tables_dir = dir;
  RunResult ref = run_case(req);
  req.engine = "systemc";
  RunResult sc = run_case(req);
  EXPECT_FALSE(sc.ok());
  ASSERT_FALSE(sc.stats.faults.empty());
  EXPECT_EQ(sc.stats.faults, ref.stats.faults);
}

TEST(CircuitCli, DoneWhenLines) {
  auto o = run_cli("run mesh:4x4 permutation --permutation bpc:1,3,2,0:1010 --engine rtl --json");
  ASSERT_EQ(o.code, 0) << o.err;
  auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["steps"], 4);
  EXPECT_EQ(j["ok"], true);
  o = run_cli("run mesh:16x16 broadcast --json");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out)["steps"], 8);
  std::vector<int> dest(36);
  for (int i = 0; i < 36; ++i) dest[static_cast<size_t>(i)] = i;
  std::shuffle(dest.begin(), dest.end(), std::mt19937(2026));
  o = run_cli("run mesh:6x6 permutation --permutation file:" + write_permutation(dest, "random6.txt") + " --json");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_LE(nlohmann::json::parse(o.out)["steps"].get<int>(), 6);
  o = run_cli("run mesh:4x4 permutation --permutation transpose --trace trace.csv");
  EXPECT_EQ(o.code, 0);
  EXPECT_EQ(testing_support::slurp(scratch() / "trace.csv").substr(0, 24), "step,source,destination\n");
}

FIXROUTE_LABEL("cosim", "CircuitCli", "CosimOfTheCrossbarMeshes");
TEST(CircuitCli, CosimOfTheCrossbarMeshes) {
  auto o = run_cli("cosim mesh:4x4 permutation --permutation transpose --json");
  ASSERT_EQ(o.code, 0) << o.err;
  const auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["agree"], true);
  EXPECT_EQ(j["switching"], "circuit");
  EXPECT_EQ(j["steps"], 4);
  EXPECT_EQ(j["cycles"], 32);
  o = run_cli("cosim mesh:3x5 broadcast --json");  // no mesh top of that size: a router array
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out)["agree"], true);
  o = run_cli("cosim mesh:512x512 broadcast");
  EXPECT_EQ(o.code, 2);
  EXPECT_THAT(o.err, HasSubstr("mesh:512x512 has 262144 nodes; the crossbar routers' 16-bit messages name at most 65536"));
}

TEST(CircuitCli, BadPermutationsAreRefusedOnOneLine) {
  const std::string dup = write_permutation({0, 1, 2, 2}, "dup.txt");
  const std::string shorter = write_permutation({0, 1, 2}, "short.txt");
  const std::string mesh44 = write_permutation({1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14}, "swap.txt");
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"run mesh:4x4 permutation", "needs --permutation"},
      {"run mesh:4x4 permutation --permutation bpc:1,3,2:1010", "PI needs 4 entries"},
      {"run mesh:4x4 permutation --permutation bpc:1,3,3,0:1010", "PI lists bit 3 twice"},
      {"run mesh:4x4 permutation --permutation bpc:1,3,2,0:10x0", "A needs 4 binary digits"},
      {"run mesh:4x4 permutation --permutation bpc:1,3,2,7:1010", "bit positions 0..3"},
      {"run mesh:6x6 permutation --permutation transpose", "n a power of two"},
      {"run mesh:2x2 permutation --permutation file:" + dup, "appears twice"},
      {"run mesh:2x2 permutation --permutation file:" + shorter, "has 3 destinations"},
      {"run mesh:2x2 permutation --permutation file:/nonexistent", "cannot read"},
      {"run mesh:4x4 permutation --permutation rotate", "accepted: bpc:PI:A"},
      {"run mesh:4x4 permutation --permutation omega:" + mesh44 + " --algorithm bpc-self-schedule", "needs a BPC"},
      {"run torus:4x4 permutation --permutation transpose", "circuit-switched mesh"},
      {"run mesh:4x4 broadcast --root 16", "--root 16 is not a node"},
      {"run mesh:4x4 broadcast --permutation transpose", "is for the permutation collective"},
      {"run mesh:6x6 prefix", "powers of two"},
  };
  for (const auto& [args, message] : bad) {
    const auto o = run_cli(args);
    EXPECT_EQ(o.code, 2) << args << "\n" << o.out << o.err;
    EXPECT_THAT(o.err, HasSubstr(message)) << args;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << args << ": " << o.err;
  }
}

}  // namespace
}  // namespace fixroute
