// Time-independent gossip on 2D tori along two edge-disjoint Hamiltonian cycles (gossip
// paper, section 2; beyond it, full cycles on every size).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "sw/schedulers/gossip/hamiltonian_two_paper.h"
#include "sw/schedulers/gossip/odd_torus_patterns.h"
#include "sw/schedulers/gossip/partial_cycles.h"
#include "sw/schedulers/port_rules.h"
#include "sw/schedulers/gossip/torus_cycles.h"
#include "sw/kinds/port_rules/draw.h"
#include "sw/report/draw.h"
#include "sw/core/errors.h"
#include "sw/core/formulas.h"
#include "sw/topology/topology.h"
#include "sw/verify/run_case.h"

#include "test_support.h"
#include "test_labels.h"

using namespace fixroute;
using ::testing::HasSubstr;

namespace {

std::vector<std::string> tori(int from, int to) {
  std::vector<std::string> out;
  for (int a = from; a <= to; ++a)
    for (int b = from; b <= to; ++b) out.push_back("torus:" + std::to_string(a) + "x" + std::to_string(b));
  return out;
}

std::string spec_name(const ::testing::TestParamInfo<std::string>& info) { return testing_support::test_name(info.param); }

RunResult run(const std::string& spec, const std::string& engine = "ref", const std::string& algorithm = "hamiltonian-2") {
  RunRequest req;
  req.topology = spec;
  req.collective = "gossip";
  req.algorithm = algorithm;
  req.engine = engine;
  return run_case(req);
}

}  // namespace

TEST(TorusCycles, PaperRuleIsAHamiltonianDecompositionExactlyOnEvenSizes) {
  for (int a = 3; a <= 12; ++a)
    for (int b = 3; b <= 12; ++b) {
      Topology t = Topology::parse("torus:" + std::to_string(a) + "x" + std::to_string(b));
      std::string why = torus_cycles::check_decomposition(t, torus_cycles::paper_zigzag(t));
      EXPECT_EQ(why.empty(), a % 2 == 0 && b % 2 == 0) << t.spec() << ": " << why;
    }
}

TEST(TorusCycles, VerifierRejectsRowsAndColumns) {
  Topology t = Topology::parse("torus:4x5");
  torus_cycles::Pairing rows_and_columns(20, {1, 0, 3, 2});  // S<->N, E<->W: straight on
  EXPECT_EQ(torus_cycles::check_decomposition(t, rows_and_columns), "9 trails, not 2");
  torus_cycles::Pairing broken = torus_cycles::paper_zigzag(Topology::parse("torus:4x4"));
  broken[5] = {0, 1, 2, 3};  // every port paired with itself
  EXPECT_THAT(torus_cycles::check_decomposition(Topology::parse("torus:4x4"), broken), HasSubstr("not paired"));
}

FIXROUTE_LABEL("slow", "Larger/Decomposition");
class Decomposition : public ::testing::TestWithParam<std::string> {};
TEST_P(Decomposition, EverySizeHasTwoHamiltonianCycles) {
  Topology t = Topology::parse(GetParam());
  torus_cycles::Decomposition d = torus_cycles::hamiltonian_decomposition(t);
  EXPECT_EQ(torus_cycles::check_decomposition(t, d.pairing), "");
  const int a = t.dims()[0], b = t.dims()[1];
  const bool even = a % 2 == 0 && b % 2 == 0;
  const bool four_by_odd = (a == 4 && b % 2 == 1 && b >= 5) || (b == 4 && a % 2 == 1 && a >= 5);
  EXPECT_EQ(d.construction, even ? "paper-zigzag" : four_by_odd ? "searched-pattern-4xodd" : "square-switching");
}
INSTANTIATE_TEST_SUITE_P(Tori3to16, Decomposition, ::testing::ValuesIn(tori(3, 16)), spec_name);
INSTANTIATE_TEST_SUITE_P(Larger, Decomposition,
                         ::testing::Values("torus:17x23", "torus:31x32", "torus:3x64", "torus:40x40", "torus:4x29",
                                           "torus:4x31", "torus:31x4", "torus:4x101"),
                         spec_name);

TEST(TorusCycles, FourByOddPatternGrowsToEveryOddWidth) {
  // 4 x C, C odd: the 4 x 5 pattern with columns 0, 1 repeated (square switching alone
  // does not reach 4x31). Not for 4 x 3 (square switching), nor for even widths.
  for (int c = 5; c <= 41; c += 2) {
    const auto links = partial_cycles::hamiltonian_links(4, c);
    ASSERT_TRUE(links.has_value()) << c;
    const Topology t = Topology::parse("torus:4x" + std::to_string(c));
    EXPECT_EQ(torus_cycles::check_decomposition(t, torus_cycles::pairing_along(t, partial_cycles::pattern_cycles(t, *links))),
              "")
        << c;
  }
  EXPECT_FALSE(partial_cycles::hamiltonian_links(4, 3).has_value());
  EXPECT_FALSE(partial_cycles::hamiltonian_links(3, 4).has_value());
  EXPECT_FALSE(partial_cycles::hamiltonian_links(4, 6).has_value());
  EXPECT_FALSE(partial_cycles::hamiltonian_links(6, 5).has_value());
  EXPECT_TRUE(partial_cycles::hamiltonian_links(7, 4).has_value());
}

class HamiltonianTwo : public ::testing::TestWithParam<std::string> {};
TEST_P(HamiltonianTwo, MeetsTheLowerBoundWithOnePacketQueues) {
  RunResult r = run(GetParam());
  const int64_t p = r.nodes;
  EXPECT_TRUE(r.ok()) << summary(r);
  EXPECT_EQ(r.score.deliveries, 2 * p * (p - 1));
  EXPECT_EQ(r.steps(), r.bounds.best()) << "full cycles reach ceil(2(P-1)/4)";
  EXPECT_EQ(r.steps(), formulas::gossip_hamiltonian_cycles(p));
  ASSERT_TRUE(r.paper_formula.has_value());
  EXPECT_EQ(*r.paper_formula - r.steps(), p % 2) << "Theorem 1's ceil(P/2): one more when P is odd";
  EXPECT_EQ(r.stats.max_queue, 1) << "a router never holds more than one packet per port";
  EXPECT_EQ(r.table_bits_max, (5 + 3 * 4 + 3 * 4 + 1) * 32) << "O(degree) table, whatever the size";
}
INSTANTIATE_TEST_SUITE_P(Tori3to16, HamiltonianTwo, ::testing::ValuesIn(tori(3, 16)), spec_name);

TEST(HamiltonianTwo, IssueTargets) {
  RunResult six = run("torus:6x6");
  EXPECT_EQ(six.steps(), 18);
  EXPECT_EQ(six.construction, "paper-zigzag");
  RunResult odd = run("torus:5x7");
  EXPECT_EQ(odd.steps(), 17);
  EXPECT_EQ(odd.paper_formula, 18);
  EXPECT_EQ(odd.bounds.best(), 17);
  EXPECT_TRUE(odd.ok());
}

// Section 2 as the paper builds it (`hamiltonian-2-paper`): the column-parity cycles on
// even sizes; with one size odd, partial cycles whose off-cycle nodes are fed by switching
// taps; with both odd, the same scheme on a searched pattern's cycles; Theorem 1's
// ceil(n1*n2/2) exactly on every size.
class HamiltonianTwoPaper : public ::testing::TestWithParam<std::string> {};
TEST_P(HamiltonianTwoPaper, TheoremOneExactly) {
  Topology t = Topology::parse(GetParam());
  const int64_t p = t.num_nodes(), a = t.dims()[0], b = t.dims()[1];
  RunResult r = run(GetParam(), "ref", "hamiltonian-2-paper");
  EXPECT_TRUE(r.ok()) << summary(r);
  EXPECT_EQ(r.score.deliveries, 2 * p * (p - 1));
  EXPECT_EQ(r.steps(), (a * b + 1) / 2) << "Theorem 1";
  if (a % 2 == 0 && b % 2 == 0) {
    EXPECT_EQ(r.construction, "paper-zigzag");
    EXPECT_EQ(r.stats.max_queue, 1);
  } else {
    EXPECT_EQ(r.construction, a % 2 == 1 && b % 2 == 1 ? "searched-pattern-2d" : "paper-partial");
    EXPECT_EQ(r.stats.max_queue, 2) << "an off-cycle node's second packet waits a step";
  }
  if (a % 2 == 1 && b % 2 == 1) {
    EXPECT_EQ(r.steps(), r.bounds.best() + 1) << "P odd: Theorem 1 is the bound + 1";
  }
}
INSTANTIATE_TEST_SUITE_P(Tori3to16, HamiltonianTwoPaper, ::testing::ValuesIn(tori(3, 16)), spec_name);

TEST(HamiltonianTwoPaper, OffCycleNodesAreFedByTheirVerticalNeighbours) {
  // torus:6x7: column 5 (= n2-2) does L<->R only; its nodes on alternate rows are off one
  // cycle each, fed by the nodes above and below across the column's free vertical links.
  Topology t = Topology::parse("torus:6x7");
  NetworkTables tables = build_tables(find_algorithm("gossip", "hamiltonian-2-paper", t), t, {});
  int taps = 0;
  for (const RouterTable& r : tables.routers)
    for (int port = 0; port < 4; ++port) {
      const PortRule& rule = r.ports[static_cast<size_t>(port)];
      if (rule.tap_first < 0) continue;
      ++taps;
      const int fed = t.neighbour(r.node, port);
      EXPECT_EQ(fed % 7, 5) << "fed node in column n2-2";
      EXPECT_EQ(r.node % 7, 5) << "supplier in the same column";
      const auto& initial = tables.routers[static_cast<size_t>(fed)].initial;
      EXPECT_EQ(std::count_if(initial.begin(), initial.end(), [](const InitialPacket& ip) { return ip.packet.hops > 1; }), 4)
          << "both packets both ways round the cycle it is on (hops 1: a tap's own packet)";
    }
  EXPECT_EQ(taps, 2 * 6) << "six off-cycle nodes, two feeds each";
  RunResult r = run("torus:6x7", "ref", "hamiltonian-2-paper");
  EXPECT_EQ(r.steps(), 21);
  EXPECT_EQ(r.formula, 21);
  EXPECT_EQ(r.bounds.best(), 21);
  EXPECT_TRUE(r.ok()) << summary(r);
}

// Both sizes odd: the two-packet patterns (odd_torus_patterns.h) grow to every size, each
// cycle through all nodes but two; four nodes are off a cycle, each fed by its two
// free-link neighbours (eight taps on every size).
TEST(HamiltonianTwoPaper, BothOddPatternsMissTwoNodesPerCycle) {
  for (int rows = 3; rows <= 15; rows += 2)
    for (int cols = 3; cols <= 15; cols += 2) {
      const std::string spec = "torus:" + std::to_string(rows) + "x" + std::to_string(cols);
      SCOPED_TRACE(spec);
      const std::optional<partial_cycles::LinkCycles> links = partial_cycles::two_packet_links(rows, cols);
      ASSERT_TRUE(links.has_value());
      const Topology t = Topology::parse(spec);
      const auto cycles = partial_cycles::pattern_cycles(t, *links);
      ASSERT_EQ(cycles.size(), 2u);
      EXPECT_EQ(static_cast<int>(cycles[0].size()), rows * cols - 2);
      EXPECT_EQ(static_cast<int>(cycles[1].size()), rows * cols - 2);
      NetworkTables tables = build_tables(find_algorithm("gossip", "hamiltonian-2-paper", t), t, {});
      int taps = 0;
      for (const RouterTable& r : tables.routers)
        for (const PortRule& rule : r.ports) {
          if (rule.tap_first < 0) continue;
          ++taps;
          EXPECT_TRUE(rule.forward_mask == 0u) << "a tap's port is a free link: nothing is forwarded on it";
        }
      EXPECT_EQ(taps, 8);
    }
  EXPECT_FALSE(partial_cycles::two_packet_links(4, 5).has_value());
  EXPECT_FALSE(partial_cycles::two_packet_links(1, 5).has_value());
}

TEST(HamiltonianTwoPaper, PatternGrowthAndTransposeAgree) {
  // 3 x C grows by columns; C x 3 is its transpose, so the two give the same steps.
  const partial_cycles::LinkCycles wide = *partial_cycles::two_packet_links(3, 9);
  const partial_cycles::LinkCycles tall = *partial_cycles::two_packet_links(9, 3);
  EXPECT_EQ(partial_cycles::transposed(wide, 3, 9).right, tall.right);
  EXPECT_EQ(partial_cycles::transposed(wide, 3, 9).down, tall.down);
  EXPECT_EQ(partial_cycles::transposed(tall, 9, 3).right, wide.right);
  // Repeating columns 0 and 1 is repeating rows 0 and 1 of the transpose.
  const partial_cycles::LinkCycles base = *partial_cycles::two_packet_links(5, 5);
  const partial_cycles::LinkCycles grown = partial_cycles::with_columns_repeated(base, 5, 2);
  EXPECT_EQ(grown.right.size(), 5u * 9u);
  EXPECT_EQ(grown.right, partial_cycles::two_packet_links(5, 9)->right);
  EXPECT_EQ(grown.down, partial_cycles::two_packet_links(5, 9)->down);
}

TEST(HamiltonianTwoPaper, BothOddMeasured) {
  // Measured (ref engine): Theorem 1's ceil(P/2), one over the bound (P-1)/2.
  for (const auto& [spec, steps] : std::vector<std::pair<std::string, int64_t>>{
           {"torus:3x3", 5}, {"torus:5x5", 13}, {"torus:5x7", 18}, {"torus:3x15", 23}, {"torus:15x3", 23},
           {"torus:21x21", 221}}) {
    RunResult r = run(spec, "ref", "hamiltonian-2-paper");
    EXPECT_EQ(r.steps(), steps) << spec;
    EXPECT_EQ(r.formula, steps) << spec;
    EXPECT_TRUE(r.ok()) << summary(r);
  }
}

TEST(HamiltonianTwoPaper, ABrokenPatternIsRefused) {
  const Topology t = Topology::parse("torus:5x5");
  partial_cycles::LinkCycles links = *partial_cycles::two_packet_links(5, 5);
  links.right[0] = links.right[0] == 0 ? 1 : 0;  // a link moved to the other cycle: degrees break
  EXPECT_THROW(hamiltonian_two_paper_tables(t, links), InputError);
  partial_cycles::LinkCycles all_free = *partial_cycles::two_packet_links(5, 5);
  std::fill(all_free.right.begin(), all_free.right.end(), -1);
  std::fill(all_free.down.begin(), all_free.down.end(), -1);
  EXPECT_THROW(hamiltonian_two_paper_tables(t, all_free), InputError);
  EXPECT_THROW(hamiltonian_two_paper_tables(Topology::parse("torus:5x7"), links), InputError) << "a 5x5 pattern";
  EXPECT_THROW(hamiltonian_two_paper_tables(Topology::parse("ring:25"), links), InputError);
}

TEST(HamiltonianTwo, OnlyOnTwoDimensionalTori) {
  EXPECT_THROW(run("ring:8"), std::exception);
  EXPECT_THROW(run("torus:3x3x3"), std::exception);
}

// Port-rule tables take another port model only on lines and rings: on a torus the
// schedulers refuse it up front (not while building), so gossip there under half-duplex or
// 1-port goes to the broadcast-tree routers by default -- rarest-first, hamiltonian-pairs.
TEST(HamiltonianTwo, RefusesOtherPortModelsSoTheDefaultMovesOn) {
  for (const PortModel& model : {PortModel{false, true}, PortModel{true, false}, PortModel{true, true}}) {
    RunRequest req;
    req.topology = "torus:4x4";
    req.collective = "gossip";
    req.port_model = model;
    const RunResult r = run_case(req);
    EXPECT_TRUE(r.ok()) << model.label() << ": " << summary(r);
    EXPECT_EQ(r.algorithm, model.one_port ? "hamiltonian-pairs" : "rarest-first") << model.label();
    req.algorithm = "hamiltonian-2";
    try {
      run_case(req);
      ADD_FAILURE() << "hamiltonian-2 ran under " << model.label();
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), ::testing::HasSubstr("is implemented for line and ring tables, not torus")) << model.label();
    }
  }
}

TEST(Draw, EachCycleInItsOwnColourCoversEveryNode) {
  // The picture of torus:5x7's tables: two colours, each on P links (a wrap-around link is
  // drawn as two dashed half-links).
  const testing_support::GossipDrawing drawing = testing_support::draw_gossip("torus:5x7", "hamiltonian-2");
  EXPECT_EQ(drawing.links("#d62728"), 35);
  EXPECT_EQ(drawing.links("#1f77b4"), 35);
  EXPECT_EQ(drawing.links("#2ca02c"), 0) << "exactly two cycles";
  EXPECT_THROW(draw_port_rules(Topology::parse("ring:5"), drawing.tables, "x"), InputError);
}

TEST(Draw, BothOddPaperCyclesShowTheirFeeds) {
  // hamiltonian-2-paper on torus:5x5: two cycles of 23 links, the 4 free links grey, and
  // 8 feeds (four nodes off a cycle, two suppliers each).
  const testing_support::GossipDrawing drawing = testing_support::draw_gossip("torus:5x5", "hamiltonian-2-paper");
  EXPECT_EQ(drawing.links("#d62728"), 23);
  EXPECT_EQ(drawing.links("#1f77b4"), 23);
  EXPECT_EQ(drawing.links("#bbbbbb"), 4);
  EXPECT_EQ(drawing.links("#2ca02c"), 0) << "no third trail";
  EXPECT_EQ(drawing.feeds(), 8);
}

TEST(HamiltonianTwo, TableFilesKeepTheConstruction) {
  Topology t = Topology::parse("torus:3x5");
  NetworkTables tables = build_tables(find_algorithm("gossip", "hamiltonian-2", t), t, {});
  std::string dir = (std::filesystem::temp_directory_path() / ("fixroute_g_" + std::to_string(::getpid()))).string();
  write_tables(tables, t, dir);
  NetworkTables back = load_tables(dir);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(back.construction, "square-switching");
  ASSERT_EQ(back.routers.size(), tables.routers.size());
  for (size_t i = 0; i < back.routers.size(); ++i) EXPECT_EQ(back.routers[i], tables.routers[i]);
}
