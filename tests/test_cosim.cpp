// Lockstep co-simulation of the SystemC and RTL networks on every verilated size. Every
// TEST runs in its own process (one SystemC elaboration per process).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cctype>

#include "sw/schedulers/common.h"
#include "sw/schedulers/circuits.h"
#include "sw/core/errors.h"
#include "sw/schedulers/port_rules.h"
#include "sw/topology/topology.h"
#include "sw/kinds/broadcast_trees/engine.h"
#include "sw/kinds/combining/engine.h"
#include "sw/kinds/port_rules/ref_routers.h"
#include "sw/kinds/broadcast_trees/tables.h"
#include "sw/kinds/combining/tables.h"
#include "sw/kinds/combining_sum/engine.h"
#include "sw/kinds/combining_sum/tables.h"
#include "sw/core/algorithm.h"
#include "tb/broadcast_trees/cosim.h"
#include "tb/combining/cosim.h"
#include "tb/combining_sum/cosim.h"
#include "tb/crossbar/cosim.h"
#include "tb/port_rules/cosim.h"
#include "tb/port_rules/rtl_driver.h"
#include "tb/crossbar/xbar_rtl.h"

#include <nlohmann/json.hpp>

#include "test_support.h"
#include "verilated_cases.h"
#include "test_labels.h"

// Every test of this file is a cosimulation.
FIXROUTE_LABEL("cosim");

using namespace fixroute;
using ::testing::HasSubstr;

class Cosim : public ::testing::TestWithParam<testing_support::VerilatedCase> {};

TEST_P(Cosim, SystemcAndRtlAgreeEveryCycle) {
  Topology topo = Topology::parse(GetParam().topology);
  NetworkTables t =
      build_tables(find_algorithm(GetParam().collective, GetParam().algorithm, topo), topo, GetParam().model);
  CosimReport r = run_cosim(topo, t, t);
  EXPECT_TRUE(r.agree) << r.divergence;
  EXPECT_GT(r.crossings, 0);
  EXPECT_GT(r.cycles, 2 * r.steps);
}

INSTANTIATE_TEST_SUITE_P(Verilated, Cosim, ::testing::ValuesIn(testing_support::verilated_cases({PortModel{false, true}})),
                         testing_support::verilated_case_name);

TEST(CosimTorus, StraightLineTablesAgree) {
  Topology topo = Topology::parse("torus:4x4");
  NetworkTables t = scheduling::empty_tables(topo, "total-exchange", "test", Discipline::FurthestFirst);
  scheduling::forward_straight(t, topo);
  for (int i = 0; i < topo.num_nodes(); ++i)
    for (int p = 0; p < topo.num_ports(); ++p) {
      int one = topo.neighbour(i, p), two = topo.neighbour(one, p);
      scheduling::add_unicast(t, i, two, p, 2);
      scheduling::add_unicast(t, i, one, p, 1);
    }
  CosimReport r = run_cosim(topo, t, t);
  EXPECT_TRUE(r.agree) << r.divergence;
  EXPECT_EQ(r.crossings, 16 * 4 * 3);
}

TEST(CosimDivergence, FirstDifferenceIsReported) {
  // The SystemC routers get FIFO queues where the RTL ones are furthest-first: on line:8
  // node 0's first send differs (the FIFO head is its packet to node 1 only if the
  // initial order were nearest-first; make it so).
  Topology topo = Topology::parse("line:8");
  NetworkTables rtl = build_tables(find_algorithm("total-exchange", "furthest-first", topo), topo, {});
  NetworkTables sc = rtl;
  std::reverse(sc.routers[0].initial.begin(), sc.routers[0].initial.end());
  sc.routers[0].ports[0].discipline = Discipline::Fifo;
  CosimReport r = run_cosim(topo, sc, rtl);
  EXPECT_FALSE(r.agree);
  EXPECT_THAT(r.divergence, HasSubstr("cycle 9 (step 1), arc 0->1: SystemC sends packet 0->1 seq 0 hops 1, "
                                      "RTL sends packet 0->7 seq 6 hops 7"));
}

// The crossbar meshes (circuit-switched, issue 6): every verilated size, one collective
// per process.
struct XbarCosimCase {
  std::string mesh, collective, permutation;
};
void PrintTo(const XbarCosimCase& c, std::ostream* os) { *os << c.mesh << " " << c.collective << " " << c.permutation; }
class XbarCosim : public ::testing::TestWithParam<XbarCosimCase> {};

XbarTables xbar_tables_for(const XbarCosimCase& c) {
  const Topology m = Topology::parse(c.mesh);
  const CircuitDemand d = make_circuit_demand(m, c.collective, c.permutation, m.num_nodes() - 1);
  return circuit_tables(find_circuit_algorithm("", m, d), m, d);
}

TEST_P(XbarCosim, SystemcAndRtlAgreeEveryCycle) {
  const Topology m = Topology::parse(GetParam().mesh);
  const XbarTables t = xbar_tables_for(GetParam());
  CosimReport r = run_xbar_cosim(m, t, t);
  EXPECT_TRUE(r.agree) << r.divergence;
  EXPECT_EQ(r.steps, t.steps());
  EXPECT_EQ(r.cycles, static_cast<int64_t>(t.steps()) * t.step_cycles);
  EXPECT_GT(r.crossings, 0);
}

std::vector<XbarCosimCase> xbar_cosim_cases() {
  std::vector<XbarCosimCase> out;
  for (const std::string& mesh : xbar_curated_sizes())
    for (const XbarCosimCase& c : {XbarCosimCase{mesh, "permutation", "random:11"}, XbarCosimCase{mesh, "broadcast", ""},
                                   XbarCosimCase{mesh, "fan-in", ""}, XbarCosimCase{mesh, "prefix", ""},
                                   XbarCosimCase{mesh, "fft", ""}})
      out.push_back(c);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Verilated, XbarCosim, ::testing::ValuesIn(xbar_cosim_cases()),
                         [](const ::testing::TestParamInfo<XbarCosimCase>& param) {
                           std::string name = param.param.mesh.substr(5) + "_" + param.param.collective;
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

TEST(XbarCosimDivergence, FirstDifferenceIsReported) {
  // The SystemC mesh's router 0 does not connect its local input in step 1: its message
  // is missing from the link the RTL puts it on, in the first cycle.
  const XbarCosimCase c{"mesh:4x4", "permutation", "transpose"};
  const Topology m = Topology::parse(c.mesh);
  const XbarTables rtl = xbar_tables_for(c);
  XbarTables sc = rtl;
  size_t step = 0;
  while (rtl.routers[1].settings[step][kLocalPort] == kNoPort) ++step;  // node 1 -> 4 leaves on its S port
  sc.routers[1].settings[step][kLocalPort] = kNoPort;
  CosimReport r = run_xbar_cosim(m, sc, rtl);
  EXPECT_FALSE(r.agree);
  EXPECT_THAT(r.divergence, HasSubstr(fmt::format("cycle {} (routing step {}), link 1->", step * 8 + 1, step + 1)));
  EXPECT_THAT(r.divergence, HasSubstr("SystemC sends nothing, RTL sends message of node 1"));
}

// Sizes outside the curated list co-simulate on the router arrays (tb/router_array.h).
TEST(XbarCosimAnyMesh, Mesh3x5Broadcast) {
  const XbarCosimCase c{"mesh:3x5", "broadcast", ""};
  const Topology m = Topology::parse(c.mesh);
  const XbarTables t = xbar_tables_for(c);
  CosimReport r = run_xbar_cosim(m, t, t);
  EXPECT_TRUE(r.agree) << r.divergence;
  EXPECT_EQ(r.steps, t.steps());
  EXPECT_GT(r.crossings, 0);
}

TEST(CosimAnyNetwork, Torus6x8Gossip) {
  const Topology topo = Topology::parse("torus:6x8");
  const NetworkTables t = build_tables(find_algorithm("gossip", "", topo), topo, {});
  CosimReport r = run_cosim(topo, t, t);
  EXPECT_TRUE(r.agree) << r.divergence;
  EXPECT_GT(r.crossings, 0);
  EXPECT_EQ(r.steps, run_ref_engine(topo, t, {}).steps_simulated);
}

// Routers that take one round per clock (combining, broadcast trees): the SystemC network
// and the verilated router array compared after every rising edge, until the kind's stop
// rule; the rounds and link transfers must be the reference engine's.
struct RoundCosimCase {
  const char* topology;
  const char* algorithm;
  bool combining, one_port, half_duplex;
};

// Printed in test names (`ctest -N`), instead of the struct's bytes.
void PrintTo(const RoundCosimCase& c, std::ostream* os) {
  *os << c.topology << " " << c.algorithm << (c.combining ? " combining" : "") << (c.one_port ? " one-port" : "")
      << (c.half_duplex ? " half-duplex" : "");
}

std::shared_ptr<const Tables> round_tables(const RoundCosimCase& c) {
  const Problem problem{Topology::parse(c.topology), "gossip", PortModel{c.one_port, c.half_duplex, c.combining}, "", 0};
  return find_algorithm(problem, c.algorithm).build(problem);
}

class RoundCosim : public ::testing::TestWithParam<RoundCosimCase> {};

TEST_P(RoundCosim, SystemcAndRtlAgreeEveryRound) {
  const RoundCosimCase& c = GetParam();
  const Topology topo = Topology::parse(c.topology);
  const std::shared_ptr<const Tables> tables = round_tables(c);
  const CosimReport r = run_cosim_of_kind(topo, *tables);
  EXPECT_TRUE(r.agree) << r.divergence;
  RunStats ref;
  int64_t ref_crossings = 0;
  if (c.combining) {
    const CombiningRun run = run_combining_ref(topo, as_kind<CombiningTables>(*tables));
    ref = run;
    ref_crossings = static_cast<int64_t>(run.trace.size());
    EXPECT_EQ(r.cycles, r.steps + 1);  // the edge after the last round shows every router full
  } else {
    const TreeRun run = run_broadcast_trees_ref(topo, as_kind<BroadcastTreeTables>(*tables));
    ref = run;
    ref_crossings = static_cast<int64_t>(run.trace.size());
    EXPECT_EQ(r.cycles, r.steps);
  }
  EXPECT_TRUE(ref.failure.empty()) << ref.failure;
  EXPECT_EQ(r.steps, ref.steps_simulated);
  EXPECT_EQ(r.crossings, ref_crossings);
  EXPECT_GT(r.crossings, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, RoundCosim,
    ::testing::Values(RoundCosimCase{"hypercube:4", "orientation", true, false, true},
                      RoundCosimCase{"torus:4x4", "flooding", true, false, false},
                      RoundCosimCase{"ring:7", "pair-exchange", true, true, false},
                      RoundCosimCase{"mesh:3x4", "gather-scatter", true, true, true},
                      RoundCosimCase{"torus:3x3x3", "dimension-order", true, true, false},
                      RoundCosimCase{"hypercube:5", "necklace", false, false, false},
                      RoundCosimCase{"torus:5x5", "snakes", false, false, false},
                      RoundCosimCase{"torus:3x4", "tree-search", false, false, false},
                      RoundCosimCase{"torus:4x6", "mirrored-snakes", false, false, false}),
    [](const ::testing::TestParamInfo<RoundCosimCase>& param) {
      std::string name = std::string(param.param.topology) + "_" + param.param.algorithm;
      for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return name;
    });

TEST(RoundCosimDivergence, CombiningRouterSendingElsewhereIsNamed) {
  const RoundCosimCase c{"torus:4x4", "flooding", true, false, false};
  const Topology topo = Topology::parse(c.topology);
  const CombiningTables rtl = as_kind<CombiningTables>(*round_tables(c));
  CombiningTables sc = rtl;
  sc.send[static_cast<size_t>(5) * static_cast<size_t>(sc.rounds)] &= static_cast<uint16_t>(~1u);  // router 5, port 0, round 1
  const CosimReport r = run_combining_cosim(topo, sc, rtl);
  EXPECT_FALSE(r.agree);
  EXPECT_THAT(r.divergence, HasSubstr(fmt::format("cycle 1, link 5->{}: SystemC sends nothing, RTL sends a set of 1 origins",
                                                  topo.neighbour(5, 0))));
}

TEST(RoundCosimDivergence, TreeRouterSendingAnotherOriginIsNamed) {
  const RoundCosimCase c{"hypercube:4", "necklace", false, false, false};
  const Topology topo = Topology::parse(c.topology);
  const BroadcastTreeTables rtl = as_kind<BroadcastTreeTables>(*round_tables(c));
  BroadcastTreeTables sc = rtl;
  int port = 0;  // router 0's first send in round 2 of a packet not its own; it sends its own instead
  while (sc.at(0, 2, port) == kNoSend || sc.at(0, 2, port) == 0) ++port;
  const int32_t origin = sc.at(0, 2, port);
  sc.at(0, 2, port) = 0;
  const CosimReport r = run_tree_cosim(topo, sc, rtl);
  EXPECT_FALSE(r.agree);
  EXPECT_THAT(r.divergence, HasSubstr(fmt::format("cycle 2, link 0->{}: SystemC sends the packet of origin 0, RTL sends "
                                                  "the packet of origin {}",
                                                  topo.neighbour(0, port), origin)));
}

TEST(RoundCosimDivergence, TablesNoBuildHoldsAreRefused) {
  const RoundCosimCase c{"torus:17x17", "flooding", true, false, false};  // 289 nodes: the widest build has 256 origins
  const Topology topo = Topology::parse(c.topology);
  EXPECT_THROW(run_cosim_of_kind(topo, *round_tables(c)), InputError);
}

TEST(RoundCosimCli, CombiningAndTreeNetworksAgreeFromTheCommandLine) {
  auto o = testing_support::run_cli(
      "cosim hypercube:4 gossip --combining --ports all-port --duplex half --algorithm orientation --json");
  ASSERT_EQ(o.code, 0) << o.err;
  auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["agree"], true);
  EXPECT_EQ(j["steps"], 4);  // the oriented diameter of Q4
  EXPECT_EQ(j["duplex"], "half");
  o = testing_support::run_cli("cosim hypercube:5 gossip --algorithm necklace");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_THAT(o.out, HasSubstr("SystemC and RTL agree on every link in all 7 cycles (7 steps, 992 transfers)"));
  o = testing_support::run_cli("cosim torus:17x17 gossip --combining");
  EXPECT_EQ(o.code, 2);
  EXPECT_THAT(o.err, HasSubstr("no verilated fr_combining_router holds torus:17x17"));
}

// Summing routers (combining-sum) co-simulated like the other round-per-clock kinds: the
// same rounds and crossings as the ref engine, every link's sum compared each cycle.
// One SystemC simulation per process: a case per test.
class SumCosim : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};  // strings: ctest -N prints them

TEST_P(SumCosim, SystemcAndRtlAgreeEveryRoundAsRefRuns) {
  const auto [spec, collective] = GetParam();
  const Problem problem{Topology::parse(spec), collective, PortModel{}, "", 0};
  const std::shared_ptr<const Tables> tables = find_algorithm(problem, "").build(problem);
  const CosimReport r = run_cosim_of_kind(problem.topology, *tables);
  EXPECT_TRUE(r.agree) << r.divergence;
  const CombiningSumRun ref = run_combining_sum_ref(problem.topology, as_kind<CombiningSumTables>(*tables));
  EXPECT_EQ(r.steps, ref.steps_simulated);
  EXPECT_EQ(r.crossings, static_cast<int64_t>(ref.trace.size()));
  EXPECT_GT(r.crossings, 0);
}

INSTANTIATE_TEST_SUITE_P(Networks, SumCosim,
                         ::testing::Values(std::pair{"bsn:line:2", "broadcast"}, std::pair{"bsn:line:2", "prefix"},
                                           std::pair{"bsn:line:2", "data-sum"}, std::pair{"otis:mesh:2x2", "broadcast"},
                                           std::pair{"otis:mesh:2x2", "prefix"}, std::pair{"otis:mesh:2x2", "data-sum"}),
                         [](const ::testing::TestParamInfo<std::pair<std::string, std::string>>& param) {
                           return testing_support::test_name(param.param.first + "_" + param.param.second);
                         });

TEST(SumCosimCli, AgreesAndJudgesWhatArrivedUnderAFault) {
  auto o = testing_support::run_cli("cosim bsn:line:2 data-sum --json");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out)["agree"], true);
  o = testing_support::run_cli("cosim bsn:line:2 data-sum --json --fault drop:0-1@1");
  EXPECT_EQ(o.code, 1) << o.err;
  const auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["agree"], true);
  EXPECT_EQ(j["scoreboard_clean"], false);
}
