// The systemc engine against the reference engine. Every TEST runs in its own process
// (tests/CMakeLists.txt, fixroute_declare_tests), as SystemC's one elaboration per process requires.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sw/schedulers/common.h"
#include "sw/topology/topology.h"
#include "sw/core/router_kind.h"
#include "sw/verify/run_case.h"

#include "test_support.h"
#include "test_labels.h"

// Every test of this file runs the systemc engine.
FIXROUTE_LABEL("systemc");

using namespace fixroute;
using ::testing::HasSubstr;

namespace {

RunResult run(const std::string& spec, const std::string& engine, const std::string& algorithm = "",
              PortModel model = {}, const std::string& vcd = "") {
  RunRequest req;
  req.topology = spec;
  req.collective = "total-exchange";
  req.algorithm = algorithm;
  req.engine = engine;
  req.port_model = model;
  req.vcd_path = vcd;
  return run_case(req);
}

void expect_same_as_ref(const std::string& spec, const std::string& algorithm = "", PortModel model = {}) {
  RunResult sc = run(spec, "systemc", algorithm, model);
  RunResult ref = run(spec, "ref", algorithm, model);
  EXPECT_TRUE(sc.ok()) << summary(sc);
  EXPECT_EQ(sc.steps(), ref.steps());
  EXPECT_EQ(sc.trace->csv(), ref.trace->csv());
  EXPECT_EQ(sc.stats.max_queue, ref.stats.max_queue);
}

std::vector<std::string> specs() {
  std::vector<std::string> out;
  for (int n = 2; n <= 32; ++n) out.push_back("line:" + std::to_string(n));
  for (int n = 3; n <= 32; ++n) out.push_back("ring:" + std::to_string(n));
  return out;
}

std::string spec_name(const ::testing::TestParamInfo<std::string>& info) { return testing_support::test_name(info.param); }

}  // namespace

class SystemcSweep : public ::testing::TestWithParam<std::string> {};
TEST_P(SystemcSweep, TraceEqualsRef) { expect_same_as_ref(GetParam()); }
INSTANTIATE_TEST_SUITE_P(LineAndRing, SystemcSweep, ::testing::ValuesIn(specs()), spec_name);

// Gossip on tori: (algorithm, topology).
class SystemcGossip : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};
TEST_P(SystemcGossip, TraceEqualsRef) {
  RunRequest req;
  req.algorithm = GetParam().first;
  req.topology = GetParam().second;
  req.collective = "gossip";
  RunResult ref = run_case(req);
  req.engine = "systemc";
  RunResult sc = run_case(req);
  EXPECT_TRUE(sc.ok()) << summary(sc);
  EXPECT_EQ(sc.trace->csv(), ref.trace->csv());
}
std::vector<std::pair<std::string, std::string>> gossip_cases() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* t : {"torus:3x3", "torus:3x8", "torus:5x7", "torus:6x6", "torus:9x4", "torus:10x10", "torus:16x16"})
    out.push_back({"hamiltonian-2", t});
  for (const char* t : {"torus:4x3", "torus:4x5", "torus:7x6", "torus:10x11", "torus:3x3", "torus:5x5", "torus:9x3"})
    out.push_back({"hamiltonian-2-paper", t});
  for (const char* t : {"torus:4x3", "torus:4x9", "torus:8x5", "torus:8x16", "torus:6x5", "torus:10x7", "torus:14x9",
                        "torus:3x3x5", "torus:6x3x4", "torus:6x6x6", "torus:4x4x4x5", "torus:5x5", "torus:9x7",
                        "torus:3x11", "torus:3x8", "torus:7x10"})
    out.push_back({"partial-cycles", t});
  return out;
}
std::string gossip_case_name(const ::testing::TestParamInfo<std::pair<std::string, std::string>>& p) {
  return testing_support::test_name(p.param.first + "_" + p.param.second);
}
INSTANTIATE_TEST_SUITE_P(Tori, SystemcGossip, ::testing::ValuesIn(gossip_cases()), gossip_case_name);

TEST(Systemc, Line33MeetsTheIssueTarget) {
  RunResult r = run("line:33", "systemc");
  EXPECT_EQ(r.steps(), 272);
  EXPECT_TRUE(r.ok());
  ASSERT_TRUE(r.stats.clock_cycles.has_value());
  EXPECT_EQ(*r.stats.clock_cycles, 576) << "cycle-accurate to the RTL router (docs/rtl.md)";
}

TEST(Systemc, Ring10TraceEqualsRef) { expect_same_as_ref("ring:10"); }
TEST(Systemc, ScatterSequenceHalfDuplex) { expect_same_as_ref("line:12", "scatter-sequence", PortModel{false, true}); }
TEST(Systemc, PlainShiftOnePort) { expect_same_as_ref("ring:12", "plain-shift", PortModel{true, false}); }
TEST(Systemc, LargeRingWithoutRebuild) { expect_same_as_ref("ring:64"); }

TEST(Systemc, StrandedPacketIsAFault) {
  Topology topo = Topology::parse("line:5");
  NetworkTables t = scheduling::empty_tables(topo, "total-exchange", "test", Discipline::Fifo);
  scheduling::forward_straight(t, topo);
  t.routers[0].initial.push_back({0, Packet{0, 3, 0, 1}, 1});  // one hop short of node 3
  const EngineOutput r = run_on_engine(find_engine("systemc"), topo, t, {});
  EXPECT_THAT(r.stats.failure, HasSubstr("step 1: node 1 cannot forward packet 0->3"));
}

TEST(Systemc, VcdIsWritten) {
  std::filesystem::path vcd = std::filesystem::temp_directory_path() / ("fixroute_sc_" + std::to_string(::getpid()) + ".vcd");
  EXPECT_TRUE(run("ring:4", "systemc", "", {}, vcd.string()).ok());
  std::string text = testing_support::slurp(vcd);
  EXPECT_THAT(text, HasSubstr("$enddefinitions"));
  EXPECT_THAT(text, HasSubstr("step_go"));
  EXPECT_EQ(testing_support::gtkwave_save_file_fault(vcd, 4, 2), "");
  std::filesystem::remove(vcd);
  std::filesystem::remove(std::filesystem::path(vcd).replace_extension(".gtkw"));
}

// The systemc engine streams: each step goes to the scoreboard and the trace file as the
// monitor reads the links; a run that keeps no trace reaches the ref engine's verdict and
// writes its trace file row for row.
TEST(Systemc, StreamedRunKeepsNoTraceAndWritesTheRefTrace) {
  const RunResult ref = run("ring:9", "ref");
  ASSERT_TRUE(ref.ok());
  const std::filesystem::path dir = testing_support::scratch();
  RunRequest req;
  req.topology = "ring:9";
  req.collective = "total-exchange";
  req.engine = "systemc";
  req.keep_trace = false;
  req.trace_path = (dir / "trace.csv").string();
  const RunResult streamed = run_case(req);
  const std::string file = testing_support::slurp(req.trace_path);
  EXPECT_TRUE(streamed.ok()) << summary(streamed);
  EXPECT_EQ(streamed.trace->rows(), 0);
  EXPECT_EQ(streamed.steps(), ref.steps());
  EXPECT_EQ(streamed.score.crossings, ref.score.crossings);
  EXPECT_EQ(file, ref.trace->csv());
}

TEST(Systemc, SecondRunInOneProcessIsRefusedClearly) {
  EXPECT_TRUE(run("line:3", "systemc").ok());
  try {
    run("line:3", "systemc");
    FAIL() << "a second SystemC elaboration was allowed";
  } catch (const std::logic_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("once per process"));
  }
}
