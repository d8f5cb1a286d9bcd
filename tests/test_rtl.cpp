// The rtl engine: the verilated routers against the reference engine, row for row, on
// every verilated size; the hardware's own table checks and fault detection.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sw/schedulers/common.h"
#include "sw/schedulers/port_rules.h"
#include "sw/core/errors.h"
#include "sw/topology/topology.h"
#include "tb/rtl_engine.h"
#include "sw/verify/run_case.h"

#include "test_support.h"
#include "verilated_cases.h"

using namespace fixroute;
using ::testing::HasSubstr;

namespace {

using Case = testing_support::VerilatedCase;

RunResult run(const Case& c, const std::string& engine) {
  RunRequest req;
  req.topology = c.topology;
  req.collective = c.collective;
  req.algorithm = c.algorithm;
  req.engine = engine;
  req.port_model = c.model;
  return run_case(req);
}

}  // namespace

class RtlAgainstRef : public ::testing::TestWithParam<Case> {};

TEST_P(RtlAgainstRef, TraceIsIdenticalAndStepsMeetTheFormula) {
  RunResult rtl = run(GetParam(), "rtl");
  RunResult ref = run(GetParam(), "ref");
  EXPECT_TRUE(rtl.ok()) << summary(rtl);
  EXPECT_EQ(rtl.steps(), ref.steps());
  EXPECT_EQ(rtl.trace->csv(), ref.trace->csv());
  EXPECT_EQ(rtl.stats.max_queue, ref.stats.max_queue);
  ASSERT_TRUE(rtl.stats.clock_cycles.has_value());
  EXPECT_GE(*rtl.stats.clock_cycles, 2 * rtl.steps()) << "a step is at least SEND + RECEIVE";
}

INSTANTIATE_TEST_SUITE_P(Verilated, RtlAgainstRef,
                         ::testing::ValuesIn(testing_support::verilated_cases({PortModel{false, true}, PortModel{true, false}})),
                         testing_support::verilated_case_name);

TEST(Rtl, Torus6x6GossipMeetsTheIssueTarget) {
  RunResult r = run({"torus:6x6", "gossip", "hamiltonian-2", {}}, "rtl");
  EXPECT_EQ(r.steps(), 18);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.stats.max_queue, 1);
}

TEST(Rtl, Ring8MeetsTheIssueTarget) {
  RunResult r = run({"ring:8", "total-exchange", "", {}}, "rtl");
  EXPECT_EQ(r.steps(), 8);
  EXPECT_TRUE(r.ok());
}

// torus:4x4 with tables built here: every node sends one packet along each straight line
// of its row and column to the node two hops away (the port rules gossip will use: keep
// going straight). Nothing in the papers; it proves the torus top's wiring.
TEST(Rtl, TorusTopMatchesRef) {
  Topology topo = Topology::parse("torus:4x4");
  NetworkTables t = scheduling::empty_tables(topo, "total-exchange", "test", Discipline::Fifo);
  scheduling::forward_straight(t, topo);
  for (int i = 0; i < topo.num_nodes(); ++i)
    for (int p = 0; p < topo.num_ports(); ++p) {
      int two_away = topo.neighbour(topo.neighbour(i, p), p);
      scheduling::add_unicast(t, i, two_away, p, 2);
    }
  EngineResult ref = run_ref_engine(topo, t, {});
  EngineResult rtl = run_rtl_engine(topo, t, {});
  EXPECT_EQ(rtl.failure, "");
  EXPECT_EQ(rtl.trace.size(), 16u * 4u * 2u);
  EXPECT_EQ(trace_to_csv(rtl.trace), trace_to_csv(ref.trace));
}

class RtlTableCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    NetworkTables t = build_tables(find_algorithm("total-exchange", "", topo_), topo_, {});
    for (const RouterTable& r : t.routers) images_.push_back(encode_image(r, topo_.num_ports()));
  }
  std::string failure() { return run_rtl_images(topo_, images_, {}).failure; }
  Topology topo_ = Topology::parse("ring:7");
  std::vector<std::vector<uint32_t>> images_;
};

TEST_F(RtlTableCheck, CleanImagesLoad) { EXPECT_EQ(failure(), ""); }

TEST_F(RtlTableCheck, FlippedBitFailsTheHardwareChecksum) {
  images_[3][6] ^= 0x10;
  EXPECT_THAT(failure(), HasSubstr("router 3 did not load its table: checksum mismatch"));
}

TEST_F(RtlTableCheck, AllZeroImageIsRefused) {
  std::fill(images_[5].begin(), images_[5].end(), 0u);
  EXPECT_THAT(failure(), HasSubstr("router 5 did not load its table: bad magic word"));
}

TEST_F(RtlTableCheck, TruncatedImageIsRefused) {
  images_[0].pop_back();
  EXPECT_THAT(failure(), HasSubstr("router 0 did not load its table: wrong length"));
}

TEST_F(RtlTableCheck, ImageOfAnotherTopologyIsRefused) {
  Topology torus = Topology::parse("torus:4x4");
  NetworkTables t = scheduling::empty_tables(torus, "total-exchange", "test", Discipline::Fifo);
  images_[2] = encode_image(t.routers[2], torus.num_ports());
  EXPECT_THAT(failure(), HasSubstr("router 2 did not load its table: wrong port count"));
}

TEST(RtlFaults, QueueOverflowIsReported) {
  // line:5 queues hold 5 packets. Node 1's port 0 sends once every 15 steps while node 0
  // keeps feeding it: its queue must overflow, and the hardware must say so.
  Topology topo = Topology::parse("line:5");
  NetworkTables t = scheduling::empty_tables(topo, "total-exchange", "test", Discipline::Fifo);
  scheduling::forward_straight(t, topo);
  for (int k = 0; k < 4; ++k) t.routers[0].initial.push_back({0, Packet{0, 4, k, 4}, 1});
  for (int k = 0; k < 4; ++k) t.routers[1].initial.push_back({0, Packet{1, 4, k, 3}, 1});
  t.routers[1].ports[0].send_period = 15;
  t.routers[1].ports[0].send_phase = 14;
  EngineResult r = run_rtl_engine(topo, t, {});
  EXPECT_THAT(r.failure, HasSubstr("fault"));
  EXPECT_THAT(r.failure, HasSubstr("router(s) 1"));
}

TEST(RtlFaults, PacketWithoutRuleIsReportedByBothEngines) {
  Topology topo = Topology::parse("line:5");
  NetworkTables t = scheduling::empty_tables(topo, "total-exchange", "test", Discipline::Fifo);
  scheduling::forward_straight(t, topo);
  // Two hops short of node 3: it has crossed its last allowed arc when it reaches node 1.
  t.routers[0].initial.push_back({0, Packet{0, 3, 0, 1}, 1});
  EXPECT_THAT(run_rtl_engine(topo, t, {}).failure, HasSubstr("step 1: fault"));
  EXPECT_THAT(run_rtl_engine(topo, t, {}).failure, HasSubstr("router(s) 1"));
  EXPECT_THAT(run_ref_engine(topo, t, {}).failure, HasSubstr("step 1: node 1 cannot forward"));
}

TEST(Rtl, UnbuiltSizeNamesTheBuiltOnes) {
  try {
    run({"ring:9", "total-exchange", "", {}}, "rtl");
    FAIL() << "ring:9 is not verilated";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("no verilated ring:9; built sizes: "));
    EXPECT_THAT(e.what(), HasSubstr("ring:8"));
  }
}

TEST(Rtl, VcdIsWritten) {
  std::filesystem::path vcd = std::filesystem::temp_directory_path() / ("fixroute_" + std::to_string(::getpid()) + ".vcd");
  RunRequest req;
  req.topology = "line:3";
  req.collective = "total-exchange";
  req.engine = "rtl";
  req.vcd_path = vcd.string();
  EXPECT_TRUE(run_case(req).ok());
  std::string text = testing_support::slurp(vcd);
  EXPECT_THAT(text, HasSubstr("$enddefinitions"));
  EXPECT_THAT(text, HasSubstr("link_valid"));
  std::filesystem::remove(vcd);
}
