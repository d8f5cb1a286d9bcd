// One-packet gossip along partial Hamiltonian cycles (gossip paper, section 3) and the
// out-port taps with a switch step that feed the nodes off a cycle.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "sw/algorithms/common.h"
#include "sw/algorithms/partial_cycles.h"
#include "sw/algorithms/registry.h"
#include "sw/draw.h"
#include "sw/errors.h"
#include "sw/formulas.h"
#include "sw/ref_engine.h"
#include "sw/topology.h"
#include "tb/run_case.h"

#include "tests/test_support.h"

using namespace fixroute;
using ::testing::HasSubstr;

namespace {

RunResult run(const std::string& spec, const std::string& engine = "ref", const std::string& algorithm = "partial-cycles") {
  RunRequest req;
  req.topology = spec;
  req.collective = "gossip";
  req.algorithm = algorithm;
  req.engine = engine;
  return run_case(req);
}

std::vector<std::string> two_d_cases() {
  std::vector<std::string> out;
  for (int a : {4, 8})
    for (int b = 3; b <= 16; ++b) out.push_back("torus:" + std::to_string(a) + "x" + std::to_string(b));
  return out;
}

std::string spec_name(const ::testing::TestParamInfo<std::string>& info) { return testing_support::test_name(info.param); }

}  // namespace

class PartialCycles : public ::testing::TestWithParam<std::string> {};
TEST_P(PartialCycles, EveryNodeGetsEveryPacketOnceInTheoremTwosSteps) {
  Topology t = Topology::parse(GetParam());
  const int64_t p = t.num_nodes(), rows = t.dims()[0], cols = t.dims()[1];
  const int64_t cycle_nodes = p / 2 + rows;  // n1/2 laps of a row and two zigzag nodes
  ASSERT_EQ(cycle_nodes % 2, 0);
  // The paper's taps forward what arrives: the last feed comes one step after the
  // cycle's spread, Theorem 2's n1*n2/4 + n1/2 + 1 exactly (counted, not assumed).
  RunResult paper = run(GetParam());
  EXPECT_TRUE(paper.ok()) << summary(paper);
  EXPECT_EQ(paper.steps(), rows * cols / 4 + rows / 2 + 1);
  EXPECT_EQ(paper.steps(), cycle_nodes / 2 + 1);
  // Suppliers that also tap their own packet: the feeds end with the spread, one step less.
  RunResult early = run(GetParam(), "ref", "partial-cycles-early");
  EXPECT_TRUE(early.ok()) << summary(early);
  EXPECT_EQ(early.steps(), cycle_nodes / 2) << "the packets' spread round a cycle: taps never add a step";
  EXPECT_EQ(early.paper_formula, paper.steps());
  for (const RunResult* r : {&paper, &early}) {
    EXPECT_EQ(r->score.deliveries, p * (p - 1));
    EXPECT_EQ(r->engine_result.max_queue, 1) << "bufferless: one packet per port at most";
  }
  // O(degree) tables, whatever the size: header, 4 port rules, the own packet both ways
  // round its cycle (3 words each), CRC; early suppliers also put it on up to two taps.
  EXPECT_EQ(paper.table_bits_max, (5 + 3 * 4 + 3 * 2 + 1) * 32);
  EXPECT_EQ(early.table_bits_max, (5 + 3 * 4 + 3 * 4 + 1) * 32);
}
INSTANTIATE_TEST_SUITE_P(FourAndEightRows, PartialCycles, ::testing::ValuesIn(two_d_cases()), spec_name);

TEST(PartialCycles, EightByEightIsTheorem2) {
  RunResult r = run("torus:8x8");
  EXPECT_EQ(r.steps(), 21);
  EXPECT_EQ(r.formula, 21);
  EXPECT_EQ(r.bounds.best(), 16);
  EXPECT_TRUE(r.ok());
  RunResult early = run("torus:8x8", "ref", "partial-cycles-early");
  EXPECT_EQ(early.steps(), 20);
  EXPECT_EQ(early.paper_formula, 21);
  EXPECT_TRUE(early.ok());
}

TEST(PartialCycles, CyclesAreEdgeDisjointAndFeedEveryOtherNode) {
  Topology t = Topology::parse("torus:8x6");
  partial_cycles::Construction k = partial_cycles::build(t);
  ASSERT_EQ(k.cycles.size(), 2u);
  std::set<std::pair<int, int>> links;
  for (const auto& cycle : k.cycles) {
    EXPECT_EQ(cycle.size(), 8u * 6 / 2 + 8);
    EXPECT_EQ(std::set<int>(cycle.begin(), cycle.end()).size(), cycle.size()) << "a node twice on one cycle";
    for (size_t i = 0; i < cycle.size(); ++i) {
      int a = cycle[i], b = cycle[(i + 1) % cycle.size()];
      EXPECT_TRUE(t.adjacent(a, b));
      EXPECT_TRUE(links.insert({std::min(a, b), std::max(a, b)}).second) << "link on two cycles";
    }
  }
  // Columns 0 and 1 are on both cycles; each node of the other columns is fed by its two
  // vertical neighbours, which lie on the cycle it is off.
  std::map<std::pair<int, int>, int> suppliers;
  for (const partial_cycles::Feed& f : k.feeds) {
    EXPECT_GE(f.node % 6, 2);
    EXPECT_EQ(t.distance(f.node, f.supplier), 1);
    EXPECT_EQ(f.supplier % 6, f.node % 6) << "fed along its column";
    ++suppliers[{f.node, f.cycle}];
  }
  EXPECT_EQ(suppliers.size(), 8u * 4);
  for (const auto& [key, count] : suppliers) EXPECT_EQ(count, 2);
}

TEST(PartialCycles, RefusesWhatItCannotFeedWithOneLine) {
  for (const char* spec : {"torus:6x6", "torus:16x16", "torus:3x3x4", "torus:5x6", "torus:4x3x5", "ring:8"}) {
    Topology t = Topology::parse(spec);
    EXPECT_THROW(find_algorithm("gossip", "partial-cycles", t), InputError) << spec;
  }
  EXPECT_THAT(partial_cycles::unsupported(Topology::parse("torus:6x6")), HasSubstr("exactly once"));
  EXPECT_THAT(partial_cycles::unsupported(Topology::parse("torus:5x6")), HasSubstr("multiple of 2"));
  EXPECT_THROW(partial_cycles::build(Topology::parse("torus:16x16")), InputError);
}

// --- taps, on hand-made tables ------------------------------------------------------

namespace {

// line:3, node 0 sends one broadcast copy to node 1 with one hop: without a tap it ends
// at node 1; node 1's port 0 (to node 2) taps in-port 1 (from node 0).
NetworkTables tap_tables(int tap_before, int tap_after, int switch_step, int release) {
  Topology t = Topology::parse("line:3");
  NetworkTables tables = scheduling::empty_tables(t, "gossip", "test", Discipline::Fifo);
  tables.routers[0].initial.push_back({0, Packet{0, kBroadcastDest, 0, 1}, release});
  PortRule& rule = tables.routers[1].ports[0];
  rule.tap_before = tap_before;
  rule.tap_after = tap_after;
  rule.switch_step = switch_step;
  return tables;
}

std::vector<TraceEvent> trace_of(const NetworkTables& tables) {
  return run_ref_engine(Topology::parse("line:3"), tables, {}).trace;
}

}  // namespace

TEST(Taps, CopyWithOneHopLeftWhateverTheHops) {
  std::vector<TraceEvent> trace = trace_of(tap_tables(1, 1, 0, 1));
  ASSERT_EQ(trace.size(), 2u);
  EXPECT_EQ(trace[1].step, 2);
  EXPECT_EQ(trace[1].from, 1);
  EXPECT_EQ(trace[1].to, 2);
  EXPECT_EQ(trace[1].origin, 0);
  EXPECT_EQ(trace_of(tap_tables(-1, -1, 0, 1)).size(), 1u) << "no tap, no copy";
}

TEST(Taps, SwitchStepSelectsTheInPortByArrivalStep) {
  // Before step 3 the tap takes nothing; from step 3 on it takes in-port 1.
  EXPECT_EQ(trace_of(tap_tables(-1, 1, 3, 1)).size(), 1u) << "arrived in step 1: not tapped";
  EXPECT_EQ(trace_of(tap_tables(-1, 1, 3, 2)).size(), 1u) << "arrived in step 2: not tapped";
  EXPECT_EQ(trace_of(tap_tables(-1, 1, 3, 3)).size(), 2u) << "arrived in step 3: tapped";
  EXPECT_EQ(trace_of(tap_tables(1, -1, 3, 3)).size(), 1u) << "the before-tap ends at the switch";
}

TEST(Taps, TablesRefuseBadTaps) {
  Topology t = Topology::parse("line:3");
  NetworkTables self = tap_tables(0, -1, 0, 1);  // port 0 tapping its own in-port
  EXPECT_THROW(validate(self, t), InputError);
  NetworkTables border = tap_tables(1, -1, 0, 1);
  border.routers[0].ports[1].tap_before = 0;  // node 0's port 1 is unconnected
  EXPECT_THROW(validate(border, t), InputError);
  NetworkTables both = tap_tables(1, -1, 0, 1);
  both.routers[1].ports[1].forward_mask = 1u << 0;  // forwards and taps 1 -> 0
  EXPECT_THAT([&] { validate(both, t); }, ::testing::ThrowsMessage<InputError>(HasSubstr("both forwards and taps")));
}

TEST(Taps, SurviveTheTableFiles) {
  Topology t = Topology::parse("torus:4x5");
  NetworkTables tables = build_tables(find_algorithm("gossip", "partial-cycles", t), t, {});
  std::string dir = (std::filesystem::temp_directory_path() / ("fixroute_pc_" + std::to_string(::getpid()))).string();
  write_tables(tables, t, dir);
  NetworkTables back = load_tables(dir);
  std::filesystem::remove_all(dir);
  ASSERT_EQ(back.routers.size(), tables.routers.size());
  int taps = 0;
  for (size_t i = 0; i < back.routers.size(); ++i) {
    EXPECT_EQ(back.routers[i], tables.routers[i]);
    for (const PortRule& rule : back.routers[i].ports) taps += rule.tap_before >= 0 || rule.tap_after >= 0;
  }
  EXPECT_EQ(taps, 4 * 3 * 2) << "two suppliers for each of the 12 nodes off columns 0 and 1";
}

TEST(PartialCycles, DrawingMarksTheFeeds) {
  // torus:4x5: two cycles of 14 links each, the 12 vertical links of columns 2..4 free
  // (thin grey), and 24 feeds, two into each of the 12 nodes off one cycle.
  Topology t = Topology::parse("torus:4x5");
  NetworkTables tables = build_tables(find_algorithm("gossip", "partial-cycles", t), t, {});
  std::string svg = draw_port_rules(t, tables, "test");
  auto count = [&](const std::string& what) {
    int n = 0;
    for (size_t at = svg.find(what); at != std::string::npos; at = svg.find(what, at + 1)) ++n;
    return n;
  };
  auto links = [&](const std::string& colour) { return testing_support::drawn_links(svg, colour); };
  EXPECT_EQ(links("#d62728"), 14);
  EXPECT_EQ(links("#1f77b4"), 14);
  EXPECT_EQ(links("#bbbbbb"), 12);
  EXPECT_EQ(count("class=\"feed\""), 24);
}
