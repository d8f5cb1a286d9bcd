// The rtl engine: the verilated routers against the reference engine, row for row, on
// every verilated size; the hardware's own table checks and fault detection.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <fstream>

#include "sw/schedulers/common.h"
#include "sw/schedulers/port_rules.h"
#include "sw/core/errors.h"
#include "sw/topology/topology.h"
#include "tb/port_rules/rtl_engine.h"
#include "sw/verify/run_case.h"

#include "test_support.h"
#include "verilated_cases.h"
#include "test_labels.h"

// Every test of this file runs the rtl engine.
FIXROUTE_LABEL("rtl");

using namespace fixroute;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

using Case = testing_support::VerilatedCase;

RunResult run(const Case& c, const std::string& engine, int threads = 1, const std::string& vcd_path = "") {
  RunRequest req;
  req.threads = threads;
  req.vcd_path = vcd_path;
  req.topology = c.topology;
  req.collective = c.collective;
  req.algorithm = c.algorithm;
  req.engine = engine;
  req.port_model = c.model;
  return run_case(req);
}

// The waveform of an rtl run (the run must verify).
std::string rtl_waveform(const std::string& topology, const std::string& collective) {
  const std::filesystem::path vcd =
      std::filesystem::temp_directory_path() / ("fixroute_" + std::to_string(::getpid()) + ".vcd");
  RunRequest req;
  req.topology = topology;
  req.collective = collective;
  req.engine = "rtl";
  req.vcd_path = vcd.string();
  EXPECT_TRUE(run_case(req).ok());
  std::string text = testing_support::slurp(vcd);
  EXPECT_EQ(testing_support::gtkwave_save_file_fault(vcd, Topology::parse(topology).num_nodes(), 2), "");
  std::filesystem::remove(vcd);
  std::filesystem::remove(std::filesystem::path(vcd).replace_extension(".gtkw"));
  return text;
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
  EXPECT_EQ(events_to_csv(rtl.trace), events_to_csv(ref.trace));
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

TEST_F(RtlTableCheck, MorePacketsThanTheEntryRamHoldsAreRefused) {
  // The ring:7 top's routers hold 8 initial packets; router 2 gets 6 + 3.
  NetworkTables t = build_tables(find_algorithm("total-exchange", "", topo_), topo_, {});
  RouterTable& r = t.routers[2];
  for (int k = 0; k < 3; ++k) r.initial.push_back(r.initial.back());
  images_[2] = encode_image(r, topo_.num_ports());
  EXPECT_THAT(failure(), HasSubstr("router 2 did not load its table: it needs more than the router was built with"));
}

// The build without taps and furthest-first keeps, of a port's taps and switch words, only
// whether they name any: the load still refuses a table that names taps, switch steps or a
// furthest-first queue (error 7), and loads the same table without them.
TEST(RtlTableCheckWithoutTaps, TapsSwitchStepsAndFurthestFirstAreRefusedAtLoad) {
  const Topology topo = Topology::parse("torus:4x4");
  const NetworkTables plain = build_tables(find_algorithm("gossip", "hamiltonian-2", topo), topo, {});
  const RtlModelInfo model = rtl_array_model(topo, plain, 1);
  ASSERT_THAT(model.hardware, HasSubstr("TAPS=0, FURTHEST_FIRST=0"));
  auto load = [&](const std::function<void(PortRule&)>& change) {
    NetworkTables t = plain;
    if (change) change(t.routers[5].ports[2]);
    std::vector<std::vector<uint32_t>> images;
    for (const RouterTable& r : t.routers) images.push_back(encode_image(r, topo.num_ports()));
    return run_rtl_model(model, topo, images, {}).failure;
  };
  const std::string refused = "router 5 did not load its table: it needs more than the router was built with";
  EXPECT_EQ(load(nullptr), "");
  EXPECT_THAT(load([](PortRule& p) { p.tap_first = 1; }), HasSubstr(refused));
  EXPECT_THAT(load([](PortRule& p) { p.tap_second = 0; }), HasSubstr(refused));
  EXPECT_THAT(load([](PortRule& p) { p.switch_steps = {3}; }), HasSubstr(refused));
  EXPECT_THAT(load([](PortRule& p) { p.discipline = Discipline::FurthestFirst; }), HasSubstr(refused));
}

TEST(RtlFaults, QueueOverflowIsReported) {
  // The curated line:5 top's queues hold 5 packets. Node 1's port 0 sends once every 15 steps while node 0
  // keeps feeding it: its queue must overflow, and the hardware must say so.
  Topology topo = Topology::parse("line:5");
  NetworkTables t = scheduling::empty_tables(topo, "total-exchange", "test", Discipline::Fifo);
  scheduling::forward_straight(t, topo);
  for (int k = 0; k < 4; ++k) t.routers[0].initial.push_back({0, Packet{0, 4, k, 4}, 1});
  for (int k = 0; k < 4; ++k) t.routers[1].initial.push_back({0, Packet{1, 4, k, 3}, 1});
  t.routers[1].ports[0].send_period = 15;
  t.routers[1].ports[0].send_phase = 14;
  std::vector<std::vector<uint32_t>> images;  // on the curated top: queues of 5
  for (const RouterTable& r : t.routers) images.push_back(encode_image(r, topo.num_ports()));
  EngineResult r = run_rtl_images(topo, images, {});
  EXPECT_THAT(r.failure, HasSubstr("fault"));
  EXPECT_THAT(r.failure, HasSubstr("router(s) 1"));
}

TEST(RtlFaults, RingQueueOverflowIsReported) {
  // The FIFO-only router build (4 ports, ring queues of 4: fr_fifo_queue). Node 0 sends six
  // packets, one a step, through node 1, whose out-port towards node 2 sends once every 15
  // steps: that queue must overflow at the fifth, and the hardware must say so.
  const Topology topo = Topology::parse("torus:4x4");
  NetworkTables t = scheduling::empty_tables(topo, "total-exchange", "test", Discipline::Fifo);
  scheduling::forward_straight(t, topo);
  const int out = topo.port_towards(0, 1), onward = topo.port_towards(1, 2);
  for (int k = 0; k < 6; ++k) t.routers[0].initial.push_back({out, Packet{0, 2, k, 2}, k + 1});
  t.routers[1].ports[static_cast<size_t>(onward)].send_period = 15;
  t.routers[1].ports[static_cast<size_t>(onward)].send_phase = 14;
  const RtlModelInfo array = rtl_array_model(topo, t, 4);
  ASSERT_THAT(array.hardware, HasSubstr("DEPTH=4"));
  ASSERT_THAT(array.hardware, HasSubstr("FURTHEST_FIRST=0"));
  const EngineResult r = run_rtl_model(array, topo, rtl_images(array, topo, t), {});
  EXPECT_THAT(r.failure, HasSubstr("fault"));
  EXPECT_THAT(r.failure, HasSubstr("router(s) 1"));
  // with the slow port sending every step the same packets pass: the overflow was the queue's
  t.routers[1].ports[static_cast<size_t>(onward)].send_period = 1;
  t.routers[1].ports[static_cast<size_t>(onward)].send_phase = 0;
  EXPECT_EQ(run_rtl_model(array, topo, rtl_images(array, topo, t), {}).failure, "");
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

// The router arrays (tb/router_array.h) on every size with a verilated network top: single
// verilated routers wired by the harness give the reference trace, as the top does
// (RtlAgainstRef runs the top there, the arrays elsewhere).
class RtlRouterArray : public ::testing::TestWithParam<Case> {};

TEST_P(RtlRouterArray, TraceIsTheReferenceTrace) {
  const Case& c = GetParam();
  const Topology topo = Topology::parse(c.topology);
  const NetworkTables t = build_tables(find_algorithm(c.collective, c.algorithm, topo), topo, c.model);
  const EngineResult ref = run_ref_engine(topo, t, {});
  const RtlModelInfo array = rtl_array_model(topo, t, ref.max_queue);
  EXPECT_THAT(array.hardware, HasSubstr("fr_router array"));
  const EngineResult rtl = run_rtl_model(array, topo, rtl_images(array, topo, t), {});
  EXPECT_EQ(rtl.failure, "");
  EXPECT_EQ(events_to_csv(rtl.trace), events_to_csv(ref.trace));
  EXPECT_EQ(rtl.max_queue, ref.max_queue);
}

std::vector<Case> cases_with_a_network_top() {
  std::vector<Case> out;
  for (const Case& c : testing_support::verilated_cases({PortModel{true, false}}))
    for (const RtlModelInfo& m : rtl_models())
      if (m.spec == c.topology) out.push_back(c);
  return out;
}
INSTANTIATE_TEST_SUITE_P(Verilated, RtlRouterArray, ::testing::ValuesIn(cases_with_a_network_top()),
                         testing_support::verilated_case_name);

// Sizes no network top was verilated for run on the router arrays, verified, trace for trace
// with the reference engine.
RunResult expect_array_run_matches_ref(const Case& c) {
  RunResult rtl = run(c, "rtl");
  RunResult ref = run(c, "ref");
  EXPECT_TRUE(rtl.ok()) << summary(rtl);
  EXPECT_EQ(rtl.steps(), ref.steps());
  EXPECT_EQ(rtl.trace->csv(), ref.trace->csv());
  EXPECT_THAT(rtl.stats.hardware, HasSubstr("fr_router array"));
  EXPECT_TRUE(rtl.stats.clock_cycles.has_value() && *rtl.stats.clock_cycles >= 2 * rtl.steps());
  return rtl;
}

// hamiltonian-2 needs neither taps nor furthest-first: the build without them runs it.
TEST(RtlAnyNetwork, Torus16x16Gossip) {
  const RunResult r = expect_array_run_matches_ref({"torus:16x16", "gossip", "hamiltonian-2", {}});
  EXPECT_THAT(r.stats.hardware, HasSubstr("TAPS=0, FURTHEST_FIRST=0"));
}
TEST(RtlAnyNetwork, Torus16x16PartialCycles) {  // taps with switch steps
  const RunResult r = expect_array_run_matches_ref({"torus:16x16", "gossip", "partial-cycles", {}});
  EXPECT_THAT(r.stats.hardware, HasSubstr("SWITCH_WORDS=256"));
}
TEST(RtlAnyNetwork, Torus10x10Gossip) { expect_array_run_matches_ref({"torus:10x10", "gossip", "", {}}); }
TEST(RtlAnyNetwork, Torus7x9Gossip) { expect_array_run_matches_ref({"torus:7x9", "gossip", "", {}}); }
TEST(RtlAnyNetwork, Torus6x6x4PartialCycles) { expect_array_run_matches_ref({"torus:6x6x4", "gossip", "partial-cycles", {}}); }
TEST(RtlAnyNetwork, Torus4x4x4x5PartialCycles) {  // 8 ports
  expect_array_run_matches_ref({"torus:4x4x4x5", "gossip", "partial-cycles", {}});
}
TEST(RtlAnyNetwork, Ring9TotalExchange) { expect_array_run_matches_ref({"ring:9", "total-exchange", "", {}}); }
TEST(RtlAnyNetwork, Line40TotalExchange) { expect_array_run_matches_ref({"line:40", "total-exchange", "", {}}); }

// Any graph: hypercube:5 (port k flips bit k), with tables made here -- every node sends a
// packet across each of its ports and one two hops away (port k, then port k+1) -- wired
// from the topology's adjacency, crossing for crossing with the reference engine.
TEST(RtlAnyNetwork, Hypercube5WiredFromItsAdjacency) {
  const Topology cube = Topology::parse("hypercube:5");
  NetworkTables t = scheduling::empty_tables(cube, "total-exchange", "test", Discipline::Fifo);
  const int ports = cube.num_ports();
  for (int i = 0; i < cube.num_nodes(); ++i)
    for (int p = 0; p < ports; ++p) {
      t.routers[static_cast<size_t>(i)].ports[static_cast<size_t>(p)].forward_mask = 1u << ((p + 1) % ports);
      scheduling::add_unicast(t, i, cube.neighbour(i, p), p, 1);
    }
  for (int i = 0; i < cube.num_nodes(); ++i)  // released in step 2, after the one-hop ones
    for (int p = 0; p < ports; ++p)
      scheduling::add_unicast(t, i, cube.neighbour(cube.neighbour(i, p), (p + 1) % ports), p, 2, 2);
  const EngineResult ref = run_ref_engine(cube, t, {});
  const EngineResult rtl = run_rtl_engine(cube, t, {});
  ASSERT_EQ(ref.failure, "");
  EXPECT_EQ(rtl.failure, "");
  EXPECT_EQ(rtl.trace.size(), 32u * 5u * 2u + 32u * 5u);
  EXPECT_EQ(events_to_csv(rtl.trace), events_to_csv(ref.trace));
  EXPECT_THAT(rtl.hardware, HasSubstr("fr_router array (P=5"));
}

TEST(RtlAnyNetwork, TablesNoBuildHoldsAreRefusedInOneLine) {
  // A 5-dimensional torus has 10 ports; no fr_router build has 10.
  const Topology topo = Topology::parse("torus:3x3x3x3x3");
  NetworkTables t = scheduling::empty_tables(topo, "total-exchange", "test", Discipline::Fifo);
  try {
    rtl_array_model(topo, t, 1);
    FAIL() << "no router build has 10 ports";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("no verilated router holds the tables of torus:3x3x3x3x3: they need 10 ports"));
    EXPECT_THAT(e.what(), HasSubstr("built (ports:depth:entries:switches:queues): 2:"));
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
}

TEST(RtlAnyNetwork, QueuesDeeperThanEveryBuildAreRefused) {
  const Topology topo = Topology::parse("ring:9");
  const NetworkTables t = build_tables(find_algorithm("total-exchange", "", topo), topo, {});
  EXPECT_THROW(rtl_array_model(topo, t, 100000), InputError);
}

// `run --threads N`, N >= 3: N-1 threads share each clock edge of a router array (ranges
// of routers, tb/router_array.h): the one-thread run's trace, clock for clock, also with
// more threads than routers and with a waveform (evaluated on one thread).
TEST(RtlAnyNetwork, ThreadsGiveTheOneThreadTraceAndCycles) {
  struct Split {
    Case c;
    int threads;
    bool vcd;
  };
  const std::filesystem::path vcd =
      std::filesystem::temp_directory_path() / ("fixroute_threads_" + std::to_string(::getpid()) + ".vcd");
  for (const Split& split : {Split{{"torus:7x9", "gossip", "", {}}, 3, false},
                             Split{{"torus:6x6x4", "gossip", "partial-cycles", {}}, 4, false},
                             Split{{"line:40", "total-exchange", "", {}}, 9, false},
                             Split{{"ring:9", "total-exchange", "", {}}, 20, false},
                             Split{{"ring:9", "total-exchange", "", {}}, 3, true}}) {
    const RunResult one = run(split.c, "rtl");
    const RunResult many = run(split.c, "rtl", split.threads, split.vcd ? vcd.string() : "");
    const std::string what = split.c.topology + " on " + std::to_string(split.threads) + " threads";
    EXPECT_TRUE(many.ok()) << what << ": " << summary(many);
    EXPECT_THAT(many.stats.hardware, HasSubstr("fr_router array")) << what;
    EXPECT_EQ(many.trace->csv(), one.trace->csv()) << what;
    EXPECT_EQ(many.stats.clock_cycles, one.stats.clock_cycles) << what;
    EXPECT_GT(one.trace->rows(), 0) << what;
  }
  EXPECT_EQ(testing_support::gtkwave_save_file_fault(vcd, 9, 2), "");
  EXPECT_THAT(testing_support::slurp(vcd), HasSubstr("router8"));
  std::filesystem::remove(vcd);
  std::filesystem::remove(std::filesystem::path(vcd).replace_extension(".gtkw"));
}

TEST(RtlAnyNetwork, ArrayVcdNamesEveryRouter) {
  const std::string text = rtl_waveform("ring:5", "total-exchange");
  EXPECT_THAT(text, HasSubstr("$enddefinitions"));
  EXPECT_THAT(text, HasSubstr("router0"));
  EXPECT_THAT(text, HasSubstr("router4"));
  EXPECT_THAT(text, HasSubstr("out_valid"));
}

// line:5 has a network top, verilated without waveform code: a run with --vcd takes the
// router array, the same routers.
TEST(Rtl, VcdOfANetworkTopSizeComesFromItsRouterArray) {
  const std::string text = rtl_waveform("line:5", "total-exchange");
  EXPECT_THAT(text, HasSubstr("$enddefinitions"));
  EXPECT_THAT(text, HasSubstr("router4"));
  EXPECT_THAT(text, Not(HasSubstr("link_valid")));  // fr_grid_top's wires
  RunRequest req;
  req.topology = "line:5";
  req.collective = "total-exchange";
  req.engine = "rtl";
  EXPECT_THAT(run_case(req).stats.hardware, HasSubstr("fr_grid_top"));  // without a waveform: the top
}
