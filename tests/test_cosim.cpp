// Lockstep co-simulation of the SystemC and RTL networks on every verilated size. Every
// TEST runs in its own process (one SystemC elaboration per process).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sw/algorithms/common.h"
#include "sw/algorithms/registry.h"
#include "sw/topology.h"
#include "tb/cosim.h"
#include "tb/rtl_driver.h"

#include "tests/verilated_cases.h"

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
