// Injected faults (docs/faults.md): the forms, the injector's one definition of what each
// fault does, every fault kind on every engine (the same trace, losses and verdict as the
// reference engine's), the co-simulation with faults, and the CLI's exit codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sw/core/errors.h"
#include "sw/core/faults.h"
#include "sw/topology/topology.h"
#include "sw/verify/run_case.h"
#include "sw/verify/cosim.h"
#include "sw/core/algorithm.h"
#include "test_support.h"
#include "test_labels.h"

namespace fixroute {
namespace {

using testing_support::run_cli;

bool any_contains(const std::vector<std::string>& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

TEST(FaultForms, ParsesEveryForm) {
  Fault link = parse_fault("link:2-3@5");
  EXPECT_EQ(link.type, FaultType::Link);
  EXPECT_EQ(link.a, 2);
  EXPECT_EQ(link.b, 3);
  EXPECT_EQ(link.step, 5);
  EXPECT_EQ(parse_fault("drop:3-2@1").type, FaultType::Drop);
  Fault stuck = parse_fault("router:7@4");
  EXPECT_EQ(stuck.type, FaultType::Router);
  EXPECT_EQ(stuck.a, 7);
  Fault flip = parse_fault("flip:5:0:3@2");
  EXPECT_EQ(flip.type, FaultType::Flip);
  EXPECT_EQ(flip.in_port, 0);
  EXPECT_EQ(flip.out_port, 3);
  EXPECT_EQ(flip.text, "flip:5:0:3@2");
}

TEST(FaultForms, RefusesWhatIsNotAForm) {
  for (const char* bad : {"", "link:2-3", "link:2-3@0", "router:x@1", "drop:2@3", "flip:1:2@3", "link:-1-2@3",
                          "link:2-3@99999999999999", "stuck:1@2", "link:2-3@1 "})
    EXPECT_THROW(parse_fault(bad), InputError) << bad;
}

TEST(FaultForms, RefusesWhatTheNetworkDoesNotHave) {
  const Topology t = Topology::parse("torus:4x4");
  auto check = [&](const std::vector<std::string>& forms) {
    std::vector<Fault> faults;
    for (const std::string& f : forms) faults.push_back(parse_fault(f));
    check_faults(faults, t);
  };
  EXPECT_NO_THROW(check({"link:0-1@1", "drop:1-0@2", "router:15@1", "flip:3:3:0@1"}));
  EXPECT_THROW(check({"link:0-5@1"}), InputError);   // not linked
  EXPECT_THROW(check({"router:16@1"}), InputError);  // no such node
  EXPECT_THROW(check({"drop:0-16@1"}), InputError);
  EXPECT_THROW(check({"flip:0:4:0@1"}), InputError);  // ports 0..3
  std::vector<std::string> all;
  for (int v = 0; v < 16; ++v) all.push_back("router:" + std::to_string(v) + "@" + std::to_string(v + 1));
  EXPECT_THROW(check(all), InputError);  // nothing would run
}

TEST(FaultInjectorRules, WhatEachFaultTakes) {
  const Topology t = Topology::parse("ring:6");
  FaultInjector f({parse_fault("link:1-2@3"), parse_fault("drop:4-5@2"), parse_fault("router:0@4")}, t);
  EXPECT_FALSE(f.loses(2, 1, 2));  // before its step
  EXPECT_TRUE(f.loses(3, 1, 2));
  EXPECT_TRUE(f.loses(9, 2, 1));   // both ways, from then on
  EXPECT_TRUE(f.loses(2, 4, 5));   // one arc, one step
  EXPECT_FALSE(f.loses(2, 5, 4));
  EXPECT_FALSE(f.loses(3, 4, 5));
  EXPECT_FALSE(f.stuck(0, 3));
  EXPECT_TRUE(f.stuck(0, 4));
  EXPECT_TRUE(f.loses(4, 5, 0));  // sent to a stuck router
  EXPECT_EQ(f.stuck_from(0), 4);
  EXPECT_EQ(f.stuck_from(1), 0);
  EXPECT_FALSE(f.arrives(2, 4, 5, 4, 1, 0));
  EXPECT_TRUE(f.arrives(2, 3, 4, 3, 1, 0));
  const std::vector<std::string> lines = f.injected();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "step 2: packet 4->1 seq 0 dropped on arc 4->5, last seen at node 4 (drop:4-5@2)");
  EXPECT_EQ(lines[1], "step 3: link:1-2@3 took no packet");
  EXPECT_EQ(lines[2], "step 4: router 0 stuck (router:0@4)");
}

TEST(FaultInjectorRules, ListsTheFirstLossesInStepOrderWhateverTheOrderFound) {
  const Topology t = Topology::parse("ring:6");
  FaultInjector f({parse_fault("link:1-2@1")}, t);
  for (int step = 30; step >= 1; --step) f.arrives(step, 2, 1, step, 0, 0);
  const std::vector<std::string> lines = f.injected();
  ASSERT_EQ(lines.size(), 21u);
  EXPECT_EQ(lines[0].rfind("step 1: packet 1->0 seq 0 lost on dead link 1-2", 0), 0u) << lines[0];
  EXPECT_EQ(lines[19].rfind("step 20: ", 0), 0u) << lines[19];
  EXPECT_EQ(lines[20], "... and 10 more lost");
}

// Every fault kind on every engine, for every router kind that takes faults: the run ends,
// fails, names what was lost, and does exactly what the reference engine does under the
// same fault. Port rules: gossip on torus:4x4. The routers that take a round per clock:
// combining (flooding on torus:4x4, all-port full-duplex, 4 rounds) and broadcast trees
// (tree-search on torus:3x4, 3 rounds): what a fault takes is no row of the trace and is
// not merged or stored. Summing routers (data-sum on bsn:ring:4, 8 rounds): a lost sum is no
// row and is not added. Crossbar routers (the transpose on mesh:4x4, 4 routing steps): a
// lost message is delivered nowhere. TDM routers (total exchange on torus:4x4, 16 slots a
// period): a lost phit is no row and never arrives; a stuck router connects nothing.
struct EngineFault {
  std::string kind, engine, fault, expect_error, expect_injected;
  std::vector<std::string> expect_failure;  // what the engine's failure says; none: no failure
};

// Printed in test names (`ctest -N`), instead of the struct's bytes.
void PrintTo(const EngineFault& c, std::ostream* os) { *os << c.kind << " " << c.engine << " " << c.fault; }

RunRequest fault_request(const std::string& kind, const std::string& fault) {
  RunRequest req;
  req.topology = "torus:4x4";
  req.collective = "gossip";
  req.faults = {fault};
  if (kind == "combining") {
    req.port_model.combining = true;
  } else if (kind == "tree") {
    req.topology = "torus:3x4";
    req.algorithm = "tree-search";
  } else if (kind == "sum") {
    req.topology = "bsn:ring:4";
    req.collective = "data-sum";
  } else if (kind == "crossbar") {
    req.topology = "mesh:4x4";
    req.collective = "permutation";
    req.permutation = "transpose";
  } else if (kind == "tdm") {
    req.collective = "total-exchange";
  }
  return req;
}

std::vector<EngineFault> engine_faults() {
  std::vector<EngineFault> cases;
  for (const std::string engine : {"ref", "systemc", "rtl"}) {
    cases.push_back({"ports", engine, "drop:2-3@2", "packet 14->* seq 1 never reached node 3",
                     "step 2: packet 14->* seq 1 dropped on arc 2->3, last seen at node 2 (drop:2-3@2)", {}});
    cases.push_back({"ports", engine, "link:5-6@3", "needed receptions never happened",
                     "step 3: packet 8->* seq 1 lost on dead link 5-6, last seen at node 5 (link:5-6@3)", {}});
    cases.push_back({"ports", engine, "router:5@3", "needed receptions never happened", "step 3: router 5 stuck (router:5@3)",
                     {"watchdog: no packet moved for 64 steps", "router 5 port"}});  // the stuck queues
    cases.push_back({"ports", engine, "flip:5:0:1@2", "a second time",
                     "step 2: router 5 in-port 0 forwarding to out-port 1 flipped (flip:5:0:1@2)", {}});
    cases.push_back({"combining", engine, "drop:0-1@1", "round 1: router 0 did not send on port 2",
                     "step 1: set of 1 origin dropped on arc 0->1, last seen at node 0 (drop:0-1@1)", {}});
    cases.push_back({"combining", engine, "link:2-6@3", "round 3: router 2 did not send on port",
                     "step 3: set of 11 origins lost on dead link 2-6, last seen at node 2 (link:2-6@3)", {}});
    cases.push_back({"combining", engine, "router:5@2", "round 2: router 5 did not send on port 0",
                     "step 2: set of 5 origins lost: sent to stuck router 5, last seen at node 1 (router:5@2)",
                     {"stuck at round 5"}});
    cases.push_back({"tree", engine, "drop:0-1@1", "round 1: router 0 did not send origin 0 on port 2",
                     "step 1: packet 0->* seq 0 dropped on arc 0->1, last seen at node 0 (drop:0-1@1)", {}});
    // the last round's losses are listed too: the tree's run records every round it has
    cases.push_back({"tree", engine, "link:2-6@2", "round 2: router 2 did not send origin 1 on port 0",
                     "step 3: packet 9->* seq 0 lost on dead link 2-6, last seen at node 2 (link:2-6@2)", {}});
    cases.push_back({"tree", engine, "router:5@2", "round 2: router 4 did not send origin 7 on port 2",
                     "step 3: packet 11->* seq 0 lost: sent to stuck router 5, last seen at node 6 (router:5@2)", {}});
    cases.push_back({"sum", engine, "drop:0-1@1", "round 1: node 0 sent nothing on port 0, where its program sends",
                     "step 1: sum dropped on arc 0->1, last seen at node 0 (drop:0-1@1)", {}});
    cases.push_back({"sum", engine, "link:1-2@3", "round 6: node 2 sent nothing on port 1",
                     "step 6: sum lost on dead link 1-2, last seen at node 2 (link:1-2@3)", {}});
    cases.push_back({"sum", engine, "router:2@2", "round 3: node 2 sent nothing on port 0",
                     "step 5: sum lost: sent to stuck router 2, last seen at node 3 (router:2@2)", {}});
    cases.push_back({"crossbar", engine, "drop:6-5@3", "node 6's message never reaches node 9: no circuit delivered it (it stays at node 6)",
                     "step 3: message from node 6 dropped on arc 6->5, last seen at node 6 (drop:6-5@3)", {}});
    cases.push_back({"crossbar", engine, "link:5-6@2", "node 7's message never reaches node 13: no circuit delivered it (it stays at node 7)",
                     "step 4: message from node 7 lost on dead link 5-6, last seen at node 6 (link:5-6@2)", {}});
    cases.push_back({"crossbar", engine, "router:5@2", "node 5's message never goes through a circuit",
                     "step 3: message from node 6 lost: sent to stuck router 5, last seen at node 6 (router:5@2)", {}});
    cases.push_back({"tdm", engine, "drop:0-1@2", "chain 9 (0 -> 10) period 0 never arrives",
                     "step 2: phit 0->10 (chain 9, period 0) dropped on arc 0->1, last seen at node 0 (drop:0-1@2)", {}});
    cases.push_back({"tdm", engine, "link:5-6@7", "chain 65 (4 -> 10) period 0 never arrives",
                     "step 7: phit 5->10 (chain 79, period 0) lost on dead link 5-6, last seen at node 5 (link:5-6@7)", {}});
    cases.push_back({"tdm", engine, "router:5@10", "chain 4 (0 -> 5) period 1 never arrives",
                     "step 10: phit 7->9 (chain 110, period 0) lost: sent to stuck router 5, last seen at node 4 (router:5@10)",
                     {}});
  }
  return cases;
}

std::string engine_fault_name(const ::testing::TestParamInfo<EngineFault>& info) {
  const std::string& e = info.param.engine;
  return info.param.kind + "_" + (e == "ref" ? "Ref" : e == "systemc" ? "Systemc" : "Rtl") + "_" +
         testing_support::test_name(info.param.fault);
}

FIXROUTE_LABEL("systemc", "FaultOnEngine", "_Systemc_");
FIXROUTE_LABEL("rtl", "FaultOnEngine", "_Rtl_");
class FaultOnEngine : public ::testing::TestWithParam<EngineFault> {};

TEST_P(FaultOnEngine, IsCaughtAsOnTheReferenceEngine) {
  const EngineFault& c = GetParam();
  RunRequest req = fault_request(c.kind, c.fault);
  req.engine = "ref";
  const RunResult ref = run_case(req);
  req.engine = c.engine;
  const RunResult r = run_case(req);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(any_contains(r.score.errors, c.expect_error)) << ::testing::PrintToString(r.score.errors);
  EXPECT_TRUE(any_contains(r.stats.injected, c.expect_injected)) << ::testing::PrintToString(r.stats.injected);
  if (c.expect_failure.empty()) {
    EXPECT_EQ(r.stats.failure, "");
  }
  for (const std::string& part : c.expect_failure) EXPECT_NE(r.stats.failure.find(part), std::string::npos) << r.stats.failure;
  // the same fault, the same run: crossings, losses, verdict
  EXPECT_EQ(r.trace->csv(), ref.trace->csv());
  EXPECT_EQ(r.stats.injected, ref.stats.injected);
  EXPECT_EQ(r.score.errors, ref.score.errors);
  EXPECT_EQ(r.stats.failure, ref.stats.failure);
  EXPECT_EQ(r.score.steps, ref.score.steps);
}

INSTANTIATE_TEST_SUITE_P(Kinds, FaultOnEngine, ::testing::ValuesIn(engine_faults()), engine_fault_name);

TEST(CombiningFault, TakesWhatTheTableSendsAndNothingElse) {
  RunRequest req;
  req.topology = "ring:8";
  req.collective = "gossip";
  req.port_model.combining = true;
  req.faults = {"drop:3-4@2"};
  RunResult r = run_case(req);
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.stats.injected.size(), 1u);
  EXPECT_EQ(r.stats.injected[0], "step 2: set of 3 origins dropped on arc 3->4, last seen at node 3 (drop:3-4@2)");
  req.faults = {"drop:3-4@9"};  // after the run's last round (ring:8 floods in 4)
  r = run_case(req);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.stats.injected, std::vector<std::string>{"step 9: drop:3-4@9 not injected: the run ended at step 4"});
}

TEST(RoundFault, FlipIsRefusedOnEveryEngine) {
  for (const char* engine : {"ref", "systemc", "rtl"}) {
    auto r = run_cli(std::string("run torus:4x4 gossip --combining --engine ") + engine + " --fault flip:5:0:1@2");
    EXPECT_EQ(r.code, 2) << engine;
    EXPECT_NE(r.err.find("combining routers have no forward mask to flip"), std::string::npos) << r.err;
    r = run_cli(std::string("run torus:3x4 gossip --algorithm tree-search --engine ") + engine + " --fault flip:5:0:1@2");
    EXPECT_EQ(r.code, 2) << engine;
    EXPECT_NE(r.err.find("broadcast-tree routers have no forward mask to flip"), std::string::npos) << r.err;
  }
  const auto r = run_cli("cosim torus:3x4 gossip --algorithm tree-search --fault flip:5:0:1@2");
  EXPECT_EQ(r.code, 2);
}

TEST(SumAndCrossbarFault, FlipIsRefusedOnEveryEngine) {
  for (const char* engine : {"ref", "systemc", "rtl"}) {
    auto r = run_cli(std::string("run bsn:ring:4 data-sum --engine ") + engine + " --fault flip:5:0:1@2");
    EXPECT_EQ(r.code, 2) << engine;
    EXPECT_NE(r.err.find("summing routers have no forward mask to flip"), std::string::npos) << r.err;
    r = run_cli(std::string("run mesh:4x4 permutation --permutation transpose --engine ") + engine +
                " --fault flip:5:0:1@2");
    EXPECT_EQ(r.code, 2) << engine;
    EXPECT_NE(r.err.find("crossbar routers have no forward mask to flip"), std::string::npos) << r.err;
    r = run_cli(std::string("run torus:4x4 total-exchange --engine ") + engine + " --fault flip:5:0:1@2");
    EXPECT_EQ(r.code, 2) << engine;
    EXPECT_NE(r.err.find("TDM routers have no forward mask to flip"), std::string::npos) << r.err;
  }
  EXPECT_EQ(run_cli("cosim mesh:4x4 permutation --permutation transpose --fault flip:5:0:1@2").code, 2);
  EXPECT_EQ(run_cli("cosim torus:4x4 total-exchange --fault flip:5:0:1@2").code, 2);
}

TEST(FaultOnUnicast, NamesWhereTheLostPacketWasLastSeen) {
  RunRequest req;
  req.topology = "line:8";
  req.collective = "total-exchange";
  req.faults = {"drop:3-4@2"};
  const RunResult r = run_case(req);
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.score.errors.size(), 1u);
  EXPECT_EQ(r.score.errors[0],
            "1 needed receptions never happened (first: packet 2->7 seq 6 never reached node 7 (last seen at node 3, step 1))");
  ASSERT_EQ(r.stats.injected.size(), 1u);
  EXPECT_EQ(r.stats.injected[0], "step 2: packet 2->7 seq 6 dropped on arc 3->4, last seen at node 3 (drop:3-4@2)");
}

TEST(FaultOnCrossbar, AStuckRouterDeliversNothingItsTableConnects) {
  // Transpose on mesh:4x4: node 5 (row 1, column 1) is a fixed point, its message a local
  // circuit; stuck from the first step, the router delivers nothing, not even that.
  RunRequest req = fault_request("crossbar", "router:5@1");
  const RunResult r = run_case(req);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(any_contains(r.score.errors, "node 5's message never goes through a circuit")) << ::testing::PrintToString(r.score.errors);
  req.faults = {"drop:0-1@5"};  // after the last routing step (4)
  EXPECT_TRUE(run_case(req).ok());
}

TEST(FaultWithoutEffect, LeavesTheVerdictAlone) {
  RunRequest req;
  req.topology = "torus:4x4";
  req.collective = "gossip";
  req.faults = {"drop:0-1@50"};  // after the run's last step
  const RunResult r = run_case(req);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.stats.injected, std::vector<std::string>{"step 50: drop:0-1@50 not injected: the run ended at step 8"});
}

struct CosimKindFault {
  std::string kind, fault;
};

// Printed in test names (`ctest -N`), instead of the struct's bytes.
void PrintTo(const CosimKindFault& c, std::ostream* os) { *os << c.kind << " " << c.fault; }

FIXROUTE_LABEL("cosim", "CosimFault");
class CosimFault : public ::testing::TestWithParam<CosimKindFault> {};

TEST_P(CosimFault, BothNetworksTakeTheSameAsTheReferenceEngine) {
  const CosimKindFault& c = GetParam();
  const RunRequest req = fault_request(c.kind, c.fault);  // ref under the same fault: rows, losses, stop
  const RunResult ref = run_case(req);
  const Problem problem{Topology::parse(req.topology), req.collective, req.port_model, req.permutation, 0};
  const auto tables = find_algorithm(problem, req.algorithm).build(problem);
  const CosimReport r = run_cosim_of_kind(problem.topology, *tables, {parse_fault(c.fault)});
  EXPECT_TRUE(r.agree) << r.divergence;
  EXPECT_FALSE(r.injected.empty());
  ASSERT_TRUE(r.arrived);
  EXPECT_EQ(r.arrived->csv(), ref.trace->csv());
  EXPECT_EQ(r.injected, ref.stats.injected);
  if (c.kind == "ports")  // cosim's own watchdog line
    EXPECT_EQ(r.stuck.empty(), ref.stats.failure.empty());
  else
    EXPECT_EQ(r.stuck, ref.stats.failure);
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, CosimFault,
    ::testing::Values(CosimKindFault{"ports", "drop:2-3@2"}, CosimKindFault{"ports", "link:5-6@3"},
                      CosimKindFault{"ports", "router:5@3"}, CosimKindFault{"ports", "flip:5:0:1@2"},
                      CosimKindFault{"combining", "drop:0-1@1"}, CosimKindFault{"combining", "link:2-6@3"},
                      CosimKindFault{"combining", "router:5@2"}, CosimKindFault{"tree", "drop:0-1@1"},
                      CosimKindFault{"tree", "link:2-6@2"}, CosimKindFault{"tree", "router:5@2"},
                      CosimKindFault{"crossbar", "drop:6-5@3"}, CosimKindFault{"crossbar", "link:5-6@2"},
                      CosimKindFault{"crossbar", "router:5@2"}, CosimKindFault{"tdm", "drop:0-1@2"},
                      CosimKindFault{"tdm", "link:5-6@7"}, CosimKindFault{"tdm", "router:5@10"}),
    [](const ::testing::TestParamInfo<CosimKindFault>& param) {
      return param.param.kind + "_" + testing_support::test_name(param.param.fault);
    });

TEST(FaultCli, ExitCodes) {
  auto r = run_cli("run torus:4x4 gossip --fault drop:2-3@2");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.out.find("injected     step 2: packet 14->* seq 1 dropped on arc 2->3"), std::string::npos) << r.out;
  r = run_cli("run torus:4x4 gossip --fault drop:2-3@2 --fault router:1@4 --json");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("\"injected_faults\""), std::string::npos);
  r = run_cli("run torus:4x4 gossip --fault link:0-5@1");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "fixroute: error: --fault 'link:0-5@1': nodes 0 and 5 of torus:4x4 are not linked\n");
  r = run_cli("run torus:4x4 gossip --fault nonsense");
  EXPECT_EQ(r.code, 2);
}

}  // namespace
}  // namespace fixroute
