// Runs too large for the machine, refused up front (sw/verify/run_size.h, RouterKind::run_bytes).
#include <gtest/gtest.h>

#include <filesystem>

#include <string>

#include "sw/core/collectives.h"
#include "sw/core/errors.h"
#include "sw/core/router_kind.h"
#include "sw/topology/topology.h"
#include "sw/verify/run_case.h"
#include "sw/verify/run_size.h"
#include "sw/kinds/port_rules/scoreboard.h"
#include "test_support.h"
#include "test_labels.h"

namespace fixroute {
namespace {

using testing_support::run_cli;
using testing_support::scratch;

TEST(RunSize, ParsesMemorySizes) {
  EXPECT_EQ(parse_memory_size("1000000"), 1000000);
  EXPECT_EQ(parse_memory_size("64k"), 64 << 10);
  EXPECT_EQ(parse_memory_size("512M"), int64_t{512} << 20);
  EXPECT_EQ(parse_memory_size("512MB"), int64_t{512} << 20);
  EXPECT_EQ(parse_memory_size("4G"), int64_t{4} << 30);
  EXPECT_EQ(parse_memory_size("1.5GiB"), int64_t{3} << 29);
  EXPECT_EQ(parse_memory_size("2t"), int64_t{2} << 40);
  for (const char* bad : {"", "G", ".", ".5G", "12X", "1.2.3G", "0", "0.1", "-5G", "4 G", "1e3", "4GG"})
    EXPECT_THROW(parse_memory_size(bad), InputError) << bad;
  // More digits than a double holds (found by fuzz_cli): refused as too large, not thrown past.
  EXPECT_THROW(parse_memory_size(std::string(400, '5') + "M"), InputError);
  EXPECT_THROW(parse_memory_size(std::string(400, '5') + ".5"), InputError);
}

TEST(RunSize, FormatsBytes) {
  EXPECT_EQ(format_bytes(900), "900 B");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(3.0 * (1 << 30)), "3.0 GiB");
}

TEST(RunSize, DemandSizesMatchTheDemand) {
  for (const char* spec : {"line:6", "torus:4x5", "hypercube:3"}) {
    const Topology t = Topology::parse(spec);
    for (const char* name : {"total-exchange", "gossip"})
      for (int per_node : {1, 2}) {
        const Collective& c = find_collective(name);
        const std::vector<DemandPacket> packets = c.packets(t, per_node);
        const DemandSize size = c.demand_size(t, per_node);
        int64_t broadcast = 0;
        for (const DemandPacket& p : packets) broadcast += p.dest == kBroadcastDest ? 1 : 0;
        EXPECT_EQ(size.broadcast, broadcast) << spec << " " << name;
        EXPECT_EQ(size.unicast, static_cast<int64_t>(packets.size()) - broadcast) << spec << " " << name;
      }
  }
}

TEST(RunSize, EveryKindCountsWhatItsRunsHold) {
  const Topology t = Topology::parse("torus:32x32");
  const DemandSize gossip = find_collective("gossip").demand_size(t, 2);
  for (const RouterKind& k : router_kind_registry()) {
    ASSERT_TRUE(k.run_bytes) << k.name;
    EXPECT_GT(k.run_bytes(t, gossip, false), 0) << k.name;
    EXPECT_GE(k.run_bytes(t, gossip, true), k.run_bytes(t, gossip, false)) << k.name;
  }
  const RouterKind& port_rules = find_router_kind(kPortRulesKind);
  // A bit per node per broadcast packet, at the least; a kept trace adds a row per reception.
  EXPECT_GE(port_rules.run_bytes(t, gossip, false), 1024 * 2048 / 8);
  EXPECT_GE(port_rules.run_bytes(t, gossip, true) - port_rules.run_bytes(t, gossip, false),
            gossip.receptions(1024) * 24);
  EXPECT_EQ(packet_scoreboard_held_bytes(1024, gossip), 2048 * 16 * 8);
}

TEST(RunSize, RefusesBeforeBuilding) {
  RunRequest req;
  req.topology = "torus:8x8";
  req.collective = "gossip";
  req.max_memory = 1024;
  try {
    run_case(req);
    FAIL() << "a run over --max-memory ran";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("torus:8x8 gossip on the ref engine needs at least"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("more than 1.0 KiB (--max-memory)"), std::string::npos) << e.what();
  }
  req.max_memory = int64_t{1} << 30;
  EXPECT_TRUE(run_case(req).ok());
  // Loaded tables are held to the same limit.
  const std::string dir = testing::TempDir() + "/run_size_tables";
  ASSERT_EQ(run_cli("tables line:6 total-exchange -o " + dir).code, 0);
  req.topology.clear();
  req.collective.clear();
  req.tables_dir = dir;
  req.max_memory = 100;
  EXPECT_THROW(run_case(req), InputError);
  req.max_memory = 0;  // the machine's available memory
  EXPECT_TRUE(run_case(req).ok());
}

TEST(RunSize, CliRefusesWithTheEstimate) {
  // 2^20 nodes, 2^21 broadcast packets: 256 GiB of held bits; refused at once, nothing built.
  auto r = run_cli("run torus:1024x1024 gossip --max-memory 64G");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "fixroute: error: torus:1024x1024 gossip on the ref engine needs at least 256.3 GiB to run and verify, "
            "more than 64.0 GiB (--max-memory); refused before building it\n");
  r = run_cli("run torus:9x9 gossip --algorithm snakes --max-memory 1k");
  EXPECT_EQ(r.code, 2) << r.err;
  r = run_cli("run hypercube:4 gossip --combining --max-memory 100");
  EXPECT_EQ(r.code, 2) << r.err;
  r = run_cli("run torus:4x4 gossip --max-memory 12X");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "fixroute: error: --max-memory '12X': expected a size such as 4G, 512M, 1.5GiB or a byte count\n");
  r = run_cli("run torus:4x4 gossip --max-memory " + std::string(400, '5') + "M");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("expected a size such as 4G"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli("run torus:4x4 gossip --max-memory 1G").code, 0);
}

TEST(RunTime, ParsesDurations) {
  EXPECT_EQ(parse_duration("90"), 90);
  EXPECT_EQ(parse_duration("90s"), 90);
  EXPECT_EQ(parse_duration("15m"), 900);
  EXPECT_EQ(parse_duration("2min"), 120);
  EXPECT_EQ(parse_duration("1.5h"), 5400);
  for (const char* bad : {"", "0", "-5", "5x", "1.2.3s", "h", "5 s"}) EXPECT_THROW(parse_duration(bad), InputError) << bad;
  EXPECT_THROW(parse_duration(std::string(400, '9') + "m"), InputError);  // beyond a double
  EXPECT_EQ(format_seconds(42), "42 s");
  EXPECT_EQ(format_seconds(210), "3.5 min");
  EXPECT_EQ(format_seconds(7560), "2.1 h");
}

TEST(RunTime, LeastTimeIsRouterStepsOverTheTopRate) {
  EXPECT_DOUBLE_EQ(least_run_seconds(262144.0 * 1024, 5e7), 262144.0 * 1024 / 5e7);
  EXPECT_EQ(least_run_seconds(1e9, 0), 0);  // no rate, no estimate
  EXPECT_NO_THROW(check_run_time("a run", 5, 0, "how"));  // no limit
  EXPECT_NO_THROW(check_run_time("a run", 5, 5, "how"));
  EXPECT_THROW(check_run_time("a run", 5.1, 5, "how"), InputError);
  // Every engine's routers of every kind have a rate (a new kind or engine must say its own).
  for (const KindRouters& r : kind_routers_registry()) EXPECT_GT(r.top_router_steps_per_second, 0) << r.kind << " " << r.engine;
}

TEST(RunTime, CliRefusesARunEstimatedLongerThanMaxTime) {
  // line:1024 total exchange: 262 144 steps (the formula) x 1024 routers at the ref port-rule
  // routers' top rate, 60 M router-steps/s: at least 4.5 s (it measures 8.7-9.5 s; docs/benchmarks.md).
  auto r = run_cli("run line:1024 total-exchange --max-time 4s");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "fixroute: error: line:1024 total-exchange on the ref engine takes at least 4.5 s (262144 steps by the "
            "formula x 1024 routers at 60 M router-steps/s, above the fastest these routers ran), more than --max-time "
            "4 s; refused before building it\n");
  // on two threads, which share each step's routers, at least half that (it measures 4.5 s)
  r = run_cli("run line:1024 total-exchange --max-time 2s --threads 2");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "fixroute: error: line:1024 total-exchange on the ref engine takes at least 2.2 s (262144 steps by the "
            "formula x 1024 routers at 60 M router-steps/s on each of 2 threads, above the fastest these routers ran), "
            "more than --max-time 2 s; refused before building it\n");
  r = run_cli("run torus:16x16 gossip --engine systemc --max-time 0.001");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("on the systemc engine takes at least"), std::string::npos) << r.err;
  r = run_cli("run torus:4x4 gossip --max-time 12X");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "fixroute: error: --max-time '12X': expected a duration such as 90, 90s, 15m or 1.5h\n");
  EXPECT_EQ(run_cli("run torus:4x4 gossip --max-time 1m").code, 0);
}

FIXROUTE_LABEL("cosim", "RunSize", "CosimRefusesWithTheEstimate");
TEST(RunSize, CosimRefusesWithTheEstimate) {
  auto r = run_cli("cosim torus:128x128 gossip --max-memory 1G");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "fixroute: error: co-simulating torus:128x128 gossip needs at least 32.1 GiB to run and verify, more than "
            "1.0 GiB (--max-memory); refused before building it\n");
  EXPECT_EQ(run_cli("cosim torus:4x4 gossip --max-memory 2X").code, 2);
  EXPECT_EQ(run_cli("cosim torus:4x4 gossip --max-memory 1G").code, 0);
}

// Crossbar tables that keep their circuits store every router's settings to be written
// (RouterKind::write_bytes): `tables -o` refuses, before writing anything, what does not fit.
TEST(RunSize, TablesRefusesAWriteThatDoesNotFit) {
  // mesh:256x256 transpose: 65 536 routers x 256 routing steps, 20-byte settings and their images.
  const std::string dir = (scratch() / "too_large_tables").string();
  auto r = run_cli("tables mesh:256x256 permutation --permutation transpose --max-memory 1M -o " + dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "fixroute: error: writing the tables of mesh:256x256 permutation needs at least 640.0 MiB, more than 1.0 MiB "
            "(--max-memory); refused before writing anything\n");
  EXPECT_FALSE(std::filesystem::exists(dir));
  r = run_cli("tables mesh:4x4 permutation --permutation transpose --max-memory 1M -o " + dir);  // stored settings
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/network.json"));
}

}  // namespace
}  // namespace fixroute
