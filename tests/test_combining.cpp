// Gossip by combining routers (the all-to-all broadcast paper, first half): every
// algorithm's sweep on the ref engine at its count, the scoreboard's rules (each one
// broken on purpose), the stop rule, the table files and the command line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <tuple>

#include "sw/core/algorithm.h"
#include "sw/core/errors.h"
#include "sw/kinds/combining/engine.h"
#include "sw/report/draw.h"
#include "sw/kinds/combining/tables.h"
#include "sw/topology/topology.h"
#include "sw/kinds/combining/scoreboard.h"
#include "sw/verify/run_case.h"
#include "sweep_support.h"
#include "test_support.h"
#include "test_labels.h"

using ::testing::HasSubstr;
using namespace fixroute;
namespace fs = std::filesystem;
using testing_support::all_errors;

namespace {

PortModel combining(bool one_port, bool half_duplex) { return PortModel{one_port, half_duplex, true}; }

std::shared_ptr<const CombiningTables> build(const std::string& spec, PortModel model, const std::string& algorithm = "") {
  const Problem problem{Topology::parse(spec), "gossip", model, "", 0};
  return std::dynamic_pointer_cast<const CombiningTables>(find_algorithm(problem, algorithm).build(problem));
}

// A clean run of flooding on ring:6 and the same trace scored again after `tamper`.
ScoreboardReport tampered(const std::function<void(std::vector<CombiningEvent>&, CombiningTables&)>& tamper) {
  const Topology ring = Topology::parse("ring:6");
  CombiningTables tables = *build("ring:6", combining(false, false));
  std::vector<CombiningEvent> trace = run_combining_ref(ring, tables).trace;
  EXPECT_TRUE(score_combining(ring, tables, trace).clean());
  tamper(trace, tables);
  return score_combining(ring, tables, trace);
}

}  // namespace

// Every combining algorithm, every sweep case, on the ref engine: clean and at the
// construction's count, never above the paper's.
TEST(Combining, EverySweepCaseRunsAtItsCountOnRef) {
  EXPECT_GT(testing_support::expect_every_sweep_case_at_its_count(kCombiningKind), 800);
}

TEST(Combining, PaperCountsOnNamedCases) {
  auto steps = [](const std::string& spec, PortModel model, const std::string& algorithm) {
    RunRequest req;
    req.topology = spec;
    req.collective = "gossip";
    req.algorithm = algorithm;
    req.port_model = model;
    return run_case(req).steps();
  };
  EXPECT_EQ(steps("ring:5", combining(true, false), "pair-exchange"), 4);  // the paper's figure: 5-cycle in 4 rounds
  EXPECT_EQ(steps("line:8", combining(true, false), "pair-exchange"), 7);
  EXPECT_EQ(steps("line:9", combining(true, false), "pair-exchange"), 9);
  EXPECT_EQ(steps("ring:9", combining(true, false), "pair-exchange"), 6);
  EXPECT_EQ(steps("torus:5x6", combining(true, false), "dimension-order"), 4 + 3);
  EXPECT_EQ(steps("hypercube:7", combining(true, false), "dimension-order"), 7);
  EXPECT_EQ(steps("ring:9", combining(true, true), "pipeline"), 8);
  EXPECT_EQ(steps("torus:6x6", combining(true, true), "pipeline"), 10);
  EXPECT_EQ(steps("line:6", combining(true, true), "alternation"), 10);
  EXPECT_EQ(steps("mesh:4x5", combining(false, false), "flooding"), 7);
  // Oriented hypercubes (Corollary and the paper's figure): Q2 3, Q3 5, Qn n for n >= 4.
  EXPECT_EQ(steps("hypercube:2", combining(false, true), "orientation"), 3);
  EXPECT_EQ(steps("hypercube:3", combining(false, true), "orientation"), 5);
  EXPECT_EQ(steps("hypercube:4", combining(false, true), "orientation"), 4);
  EXPECT_EQ(steps("hypercube:8", combining(false, true), "orientation"), 8);
}

TEST(Combining, DefaultsFollowTheModel) {
  auto name = [](const std::string& spec, PortModel model) {
    return find_algorithm(Problem{Topology::parse(spec), "gossip", model, "", 0}, "").name;
  };
  EXPECT_EQ(name("torus:5x5", combining(false, false)), "flooding");
  EXPECT_EQ(name("mesh:4x4", combining(false, true)), "bipartite-alternation");
  EXPECT_EQ(name("hypercube:5", combining(false, true)), "orientation");
  // The best that runs: orientation's 6 rounds on torus:5x5 against duplex simulation's 2D = 8.
  EXPECT_EQ(name("torus:5x5", combining(false, true)), "orientation");
  EXPECT_EQ(name("ring:7", combining(true, false)), "pair-exchange");
  EXPECT_EQ(name("torus:5x5", combining(true, false)), "dimension-order");
  // Gather-scatter's 2 x 3 rounds on line:7 against alternation's 14.
  EXPECT_EQ(name("line:7", combining(true, true)), "gather-scatter");
  EXPECT_EQ(name("torus:5x5", combining(true, true)), "pipeline");
  EXPECT_EQ(name("mesh:4x4", combining(true, true)), "gather-scatter");
  // Without --combining, gossip stays the non-combining routers' collective.
  EXPECT_NE(find_router_kind(find_algorithm(Problem{Topology::parse("torus:4x4"), "gossip", {}, "", 0}, "").router_kind).name,
            kCombiningKind);
}

TEST(Combining, ModelsAnAlgorithmDoesNotRunAreRefused) {
  const Problem half_line{Topology::parse("line:5"), "gossip", combining(false, true), "", 0};
  EXPECT_THROW(find_algorithm(half_line, "orientation"), InputError);
  const Problem odd_torus{Topology::parse("torus:5x5"), "gossip", combining(false, true), "", 0};
  EXPECT_THROW(find_algorithm(odd_torus, "bipartite-alternation"), InputError);
  const Problem all_port{Topology::parse("ring:6"), "gossip", combining(false, false), "", 0};
  EXPECT_THROW(find_algorithm(all_port, "pair-exchange"), InputError);
  const Problem huge{Topology::parse("torus:256x256"), "gossip", combining(false, true), "", 0};
  EXPECT_THROW(find_algorithm(huge, "orientation"), InputError);
  const Problem total_exchange{Topology::parse("ring:6"), "total-exchange", combining(false, false), "", 0};
  EXPECT_THROW(find_algorithm(total_exchange, ""), InputError);
}

TEST(CombiningScoreboard, CatchesAWrongCount) {
  const ScoreboardReport r = tampered([](auto& trace, auto&) { trace[7].carried += 1; });
  EXPECT_THAT(all_errors(r), HasSubstr("when the round began"));
}

TEST(CombiningScoreboard, CatchesAMissingSend) {
  const ScoreboardReport r = tampered([](auto& trace, auto&) { trace.erase(trace.begin() + 3); });
  EXPECT_THAT(all_errors(r), HasSubstr("which its table names"));
}

TEST(CombiningScoreboard, CatchesASendTheTableDoesNotName) {
  const ScoreboardReport r = tampered([](auto&, auto& tables) { tables.send[2] = 1; });  // router 2 now sends on port 0 only
  EXPECT_THAT(all_errors(r), HasSubstr("which its table does not name"));
}

TEST(CombiningScoreboard, CatchesAWrongNeighbour) {
  const ScoreboardReport r = tampered([](auto& trace, auto&) { trace[0].to = 3; });
  EXPECT_THAT(all_errors(r), HasSubstr("but the port leads to"));
}

TEST(CombiningScoreboard, ChecksOnePortAndHalfDuplex) {
  EXPECT_THAT(all_errors(tampered([](auto&, auto& tables) { tables.port_model.one_port = true; })),
              HasSubstr("sends 2 packets (1-port)"));
  EXPECT_THAT(all_errors(tampered([](auto&, auto& tables) { tables.port_model.half_duplex = true; })),
              HasSubstr("used in both directions (half-duplex)"));
}

TEST(CombiningScoreboard, CatchesAnUnfinishedRunAndMeasuresTheLastLearningRound) {
  const ScoreboardReport r = tampered([](auto& trace, auto&) {
    trace.erase(std::remove_if(trace.begin(), trace.end(), [](const CombiningEvent& e) { return e.step == 3; }), trace.end());
  });
  EXPECT_THAT(all_errors(r), HasSubstr("misses 1 origin(s)"));
  EXPECT_EQ(r.steps, 2);
}

TEST(CombiningEngine, StopsWhenNothingCanChangeAnyMore) {
  const Topology ring = Topology::parse("ring:6");
  CombiningTables tables = empty_combining_tables(ring, 3);
  tables.send[0] = 1;  // router 0 sends once per period of 3 rounds; nothing else moves
  const CombiningRun run = run_combining_ref(ring, tables);
  EXPECT_THAT(run.failure, HasSubstr("stuck at round 4"));
  EXPECT_EQ(run.steps_simulated, 4);
  EXPECT_FALSE(score_combining(ring, tables, run.trace).clean());
}

// The scoreboard online (sw/kinds/combining/scoreboard.h): the ref engine streaming its
// rounds into it keeps no trace and gets the verdict the whole trace gets; rounds handed
// on out of order, and rounds skipped whose table named sends, are errors.
TEST(CombiningScoreboard, StreamedRoundsGetTheWholeTracesVerdict) {
  for (const char* spec : {"torus:4x5", "hypercube:4", "ring:9"}) {
    const Topology topo = Topology::parse(spec);
    const std::shared_ptr<const CombiningTables> t = build(spec, combining(true, false));
    const CombiningRun kept = run_combining_ref(topo, *t);
    const ScoreboardReport whole = score_combining(topo, *t, kept.trace);
    CombiningScoreboard board(topo, *t);
    EngineOptions options;
    options.sink = &board;
    options.keep_trace = false;
    const CombiningRun streamed = run_combining_ref(topo, *t, options);
    EXPECT_TRUE(streamed.trace.empty()) << spec;
    const ScoreboardReport online = board.finish();
    EXPECT_TRUE(online.clean()) << spec << ": " << all_errors(online);
    EXPECT_EQ(online.steps, whole.steps) << spec;
    EXPECT_EQ(online.deliveries, whole.deliveries) << spec;
    EXPECT_EQ(online.crossings, static_cast<int64_t>(kept.trace.size())) << spec;
    EXPECT_EQ(online.steps, streamed.steps_simulated) << spec;
  }
}

TEST(CombiningScoreboard, SkippedAndReorderedRoundsAreErrors) {
  const Topology ring = Topology::parse("ring:6");
  const std::shared_ptr<const CombiningTables> t = build("ring:6", combining(false, false));
  const std::vector<CombiningEvent> trace = run_combining_ref(ring, *t).trace;
  auto rows_of = [&](int64_t step) {
    std::vector<CombiningEvent> rows;
    for (const CombiningEvent& e : trace)
      if (e.step == step) rows.push_back(e);
    return rows;
  };
  CombiningScoreboard skipped(ring, *t);
  skipped.step(1, rows_of(1));
  skipped.step(3, rows_of(3));  // round 2 never handed on: its table-named sends are missing
  const ScoreboardReport a = skipped.finish();
  EXPECT_THAT(all_errors(a), HasSubstr("round 2: router 0 did not send on port 0, which its table names"));
  CombiningScoreboard reordered(ring, *t);
  reordered.step(1, rows_of(1));
  reordered.step(2, rows_of(2));
  reordered.step(1, rows_of(1));
  const ScoreboardReport b = reordered.finish();
  EXPECT_THAT(all_errors(b), HasSubstr("round 1 out of order (after round 2)"));
  EXPECT_THAT(all_errors(b), HasSubstr("node 0 misses"));  // ring:6 flooding needs 3 rounds
}

// gather-scatter names its broadcast's T and, where T reaches the lower bound on t_OAB
// (doubling; the best root's eccentricity, plus one where the furthest nodes need two of
// its neighbours), says T is t_OAB.
TEST(CombiningGatherScatter, ConstructionSaysWhetherTIsTOab) {
  auto construction = [](const std::string& spec) { return build(spec, combining(true, false), "gather-scatter")->construction; };
  EXPECT_THAT(construction("line:7"), HasSubstr("1-port broadcast in 4 rounds = t_OAB"));  // both ends 3 away, one a round late
  EXPECT_THAT(construction("hypercube:5"), HasSubstr("1-port broadcast in 5 rounds = t_OAB"));
  EXPECT_THAT(construction("mesh:8x8"), HasSubstr("1-port broadcast in 8 rounds = t_OAB"));
  EXPECT_THAT(construction("mesh:5x5"), HasSubstr("1-port broadcast in 6 rounds (t_OAB >= 5)"));
}

TEST(CombiningTables, RoundTripInBothFormsAndRefuseTampering) {
  const fs::path dir = testing_support::scratch() / "combining";
  const Topology torus = Topology::parse("torus:3x4");
  const std::shared_ptr<const CombiningTables> t = build("torus:3x4", combining(true, false));
  for (TableForm form : {TableForm::Files, TableForm::Packed}) {
    fs::remove_all(dir);
    write_combining_tables(*t, dir.string(), form);
    const CombiningTables back = load_combining_tables(dir.string());
    EXPECT_EQ(back.send, t->send);
    EXPECT_EQ(back.rounds, t->rounds);
    EXPECT_EQ(back.algorithm, "dimension-order");
    EXPECT_EQ(back.port_model, t->port_model);
  }
  fs::remove_all(dir);
  write_combining_tables(*t, dir.string(), TableForm::Files);
  {
    std::ofstream hex(dir / "router-5.hex", std::ios::app);
    hex << "00000000\n";
  }
  try {
    load_combining_tables(dir.string());
    ADD_FAILURE() << "a tampered image was accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("router-5.hex"));
  }
}

TEST(CombiningEngine, RefusesARunWhoseSetsWouldNotFitInMemory) {
  const Topology big = Topology::parse("torus:512x512");  // 262 144 nodes: 16 GiB of sets
  EXPECT_THROW(check_combining_run_size(big), InputError);
  EXPECT_NO_THROW(check_combining_run_size(Topology::parse("torus:256x256")));  // 1 GiB
  // Whatever the machine has: the sets' own limit.
  testing_support::Outcome o = testing_support::run_cli("run torus:512x512 gossip --combining --max-memory 1T");
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_THAT(o.err, HasSubstr("refused above 4 GiB"));
  // Over the memory said: refused from the estimate, before the tables.
  o = testing_support::run_cli("run torus:512x512 gossip --combining --max-memory 8G");
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_THAT(o.err, HasSubstr("needs at least 24.0 GiB"));
}

TEST(CombiningTables, RefusesAPortWithoutALink) {
  const Topology line = Topology::parse("line:4");
  CombiningTables t = empty_combining_tables(line, 1);
  t.send[0] = 2;  // node 0's port 1 (left) leads off the line
  EXPECT_THROW(validate_combining(t, line, "test tables"), InputError);
}

TEST(CombiningCli, RunsAndRefusesBadModels) {
  testing_support::Outcome o = testing_support::run_cli("run torus:5x5 gossip --combining --ports 1-port --duplex full --json");
  ASSERT_EQ(o.code, 0) << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["router_kind"], "combining");
  EXPECT_EQ(j["algorithm"], "dimension-order");
  EXPECT_EQ(j["steps"], 8);
  EXPECT_EQ(j["combining"], true);
  EXPECT_EQ(j["ok"], true);
  for (const char* bad : {"run line:5 gossip --combining --algorithm pipeline --ports 1-port --duplex half",
                          "run line:5 total-exchange --combining", "run ring:5 gossip --combining --algorithm orientation"}) {
    o = testing_support::run_cli(bad);
    EXPECT_EQ(o.code, 2) << bad << "\n" << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << bad << ": " << o.err;
  }
}

TEST(CombiningCli, TraceFileWrittenAsTheRoundsGo) {
  const std::string path = (testing_support::scratch() / "combining_trace.csv").string();
  testing_support::Outcome o = testing_support::run_cli("run torus:4x5 gossip --combining --ports 1-port --trace " + path);
  ASSERT_EQ(o.code, 0) << o.err;
  const Topology topo = Topology::parse("torus:4x5");
  EXPECT_EQ(testing_support::slurp(path),
            events_to_csv(run_combining_ref(topo, *build("torus:4x5", combining(true, false))).trace));
  EXPECT_FALSE(fs::exists(path + ".tmp"));
}

TEST(CombiningCli, TablesWrittenAndRunFromTheDirectory) {
  const std::string dir = (testing_support::scratch() / "cli_combining").string();
  testing_support::Outcome o = testing_support::run_cli("tables hypercube:5 gossip --combining --duplex half -o " + dir);
  ASSERT_EQ(o.code, 0) << o.err;
  o = testing_support::run_cli("run hypercube:5 gossip --tables " + dir + " --json");
  ASSERT_EQ(o.code, 0) << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["algorithm"], "orientation");
  EXPECT_EQ(j["steps"], 5);
}

// The drawing (sw/report/draw_combining.*): a panel per table row, and an arrow exactly
// for each send the tables name (its round, node and port as data attributes), on lines,
// rings, meshes, tori and hypercubes.
TEST(CombiningDraw, APanelPerRowAndAnArrowPerSend) {
  struct Case {
    const char* spec;
    PortModel model;
    const char* algorithm;
  };
  for (const Case& c : {Case{"torus:4x4", combining(false, false), "flooding"}, Case{"ring:7", combining(true, false), "pair-exchange"},
                        Case{"hypercube:3", combining(true, false), "dimension-order"},
                        Case{"mesh:3x4", combining(true, true), "gather-scatter"}, Case{"line:6", combining(true, true), "alternation"}}) {
    const std::shared_ptr<const CombiningTables> t = build(c.spec, c.model, c.algorithm);
    const Problem problem{Topology::parse(c.spec), "gossip", c.model, "", 0};
    const std::string svg = draw_tables(problem, c.algorithm, *t);
    std::set<std::tuple<int, int, int>> drawn, expected;
    const std::regex send("class=\"send\" data-round=\"(\\d+)\" data-node=\"(\\d+)\" data-port=\"(\\d+)\"");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), send); it != std::sregex_iterator(); ++it)
      drawn.insert({std::stoi((*it)[1]), std::stoi((*it)[2]), std::stoi((*it)[3])});
    for (int r = 1; r <= t->rounds; ++r)
      for (int node = 0; node < t->nodes; ++node)
        for (int port = 0; port < t->ports; ++port)
          if ((t->row(node, r) >> port) & 1) expected.insert({r, node, port});
    EXPECT_EQ(drawn, expected) << c.spec;
    EXPECT_FALSE(expected.empty()) << c.spec;
    size_t panels = 0;
    for (size_t at = svg.find("<g class=\"round\""); at != std::string::npos; at = svg.find("<g class=\"round\"", at + 1)) ++panels;
    EXPECT_EQ(panels, static_cast<size_t>(t->rounds)) << c.spec;
  }
}

TEST(CombiningCli, DrawWritesTheRoundsAndRefusesOtherTopologies) {
  const std::string path = (testing_support::scratch() / "q4_rounds.svg").string();
  testing_support::Outcome o = testing_support::run_cli("draw hypercube:4 gossip --combining --duplex half -o " + path);
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_THAT(testing_support::slurp(path), HasSubstr("hypercube:4 gossip [orientation]"));
  o = testing_support::run_cli("draw torus:3x3x3 gossip --combining -o " + path);
  EXPECT_EQ(o.code, 2);
  EXPECT_THAT(o.err, HasSubstr("draw shows combining tables on lines, rings, 2D meshes and tori and hypercubes, not on torus:3x3x3"));
}

// The SystemC routers against the ref routers: same trace, same count, on one case of
// every algorithm and model (each TEST in its own process: one elaboration each).
struct EngineCase {
  std::string algorithm, spec;
  PortModel model;
};

// Printed in test names (`ctest -N`), instead of the struct's bytes.
void PrintTo(const EngineCase& c, std::ostream* os) { *os << c.algorithm << " " << c.spec << " " << c.model.label(); }

std::vector<EngineCase> engine_cases() {
  return {{"flooding", "torus:4x5", combining(false, false)},
          {"flooding", "hypercube:4", combining(false, false)},
          {"bipartite-alternation", "mesh:3x4", combining(false, true)},
          {"duplex-simulation", "ring:7", combining(false, true)},
          {"orientation", "hypercube:5", combining(false, true)},
          {"orientation", "torus:4x4", combining(false, true)},
          {"gather-scatter", "mesh:4x4", combining(true, true)},
          {"gather-scatter", "ring:8", combining(true, false)},
          {"pair-exchange", "ring:9", combining(true, false)},
          {"pair-exchange", "line:8", combining(true, false)},
          {"dimension-order", "torus:5x6", combining(true, false)},
          {"dimension-order", "hypercube:3", combining(true, false)},
          {"alternation", "line:7", combining(true, true)},
          {"pipeline", "torus:4x4", combining(true, true)}};
}

std::string engine_case_name(const ::testing::TestParamInfo<EngineCase>& info) {
  return testing_support::test_name(info.param.algorithm + "_" + info.param.spec + "_" + info.param.model.ports_name() +
                                    "_" + info.param.model.duplex_name());
}

// `keep_trace` false: as `fixroute run` asks, the engine streams into the online scoreboard.
RunResult run_combining_on(const EngineCase& c, const std::string& engine, bool keep_trace = true, int threads = 1) {
  RunRequest req;
  req.threads = threads;
  req.topology = c.spec;
  req.collective = "gossip";
  req.algorithm = c.algorithm;
  req.engine = engine;
  req.port_model = c.model;
  req.keep_trace = keep_trace;
  return run_case(req);
}

FIXROUTE_LABEL("systemc", "SystemcCombining");
class SystemcCombining : public ::testing::TestWithParam<EngineCase> {};
TEST_P(SystemcCombining, TraceEqualsRef) {
  const RunResult sc = run_combining_on(GetParam(), "systemc");
  const RunResult ref = run_combining_on(GetParam(), "ref");
  EXPECT_TRUE(sc.ok()) << summary(sc);
  EXPECT_EQ(sc.steps(), ref.steps());
  EXPECT_EQ(sc.trace->csv(), ref.trace->csv());
  EXPECT_EQ(sc.stats.clock_cycles, std::optional<int64_t>(sc.steps() + 1));  // one round per clock, and the stop
}
INSTANTIATE_TEST_SUITE_P(Cases, SystemcCombining, ::testing::ValuesIn(engine_cases()), engine_case_name);

FIXROUTE_LABEL("systemc", "SystemcCombiningStreams");
// The hardware engines stream their rounds into the online scoreboard as `fixroute run`
// asks (no trace kept): the verdict and count of the kept run.
TEST(SystemcCombiningStreams, NoTraceKeptAndTheSameVerdict) {
  const EngineCase c = engine_cases()[0];
  const RunResult streamed = run_combining_on(c, "systemc", false);
  EXPECT_TRUE(streamed.ok()) << summary(streamed);
  EXPECT_EQ(streamed.trace->rows(), 0);
  EXPECT_EQ(streamed.steps(), run_combining_on(c, "ref").steps());
  EXPECT_GT(streamed.score.crossings, 0);
}

FIXROUTE_LABEL("rtl", "RtlCombining");
// The verilated fr_combining_router array against the ref routers, on the same cases.
class RtlCombining : public ::testing::TestWithParam<EngineCase> {};
TEST_P(RtlCombining, TraceEqualsRef) {
  const RunResult rtl = run_combining_on(GetParam(), "rtl");
  const RunResult ref = run_combining_on(GetParam(), "ref");
  EXPECT_TRUE(rtl.ok()) << summary(rtl);
  EXPECT_EQ(rtl.steps(), ref.steps());
  EXPECT_EQ(rtl.trace->csv(), ref.trace->csv());
  EXPECT_EQ(rtl.stats.clock_cycles, std::optional<int64_t>(rtl.steps() + 1));  // one round per clock, and the stop
  EXPECT_THAT(rtl.stats.hardware, HasSubstr("fr_combining_router"));
  const RunResult split = run_combining_on(GetParam(), "rtl", true, 3);  // two threads share each clock
  EXPECT_EQ(split.trace->csv(), rtl.trace->csv());
  EXPECT_EQ(split.stats.clock_cycles, rtl.stats.clock_cycles);
}
INSTANTIATE_TEST_SUITE_P(Cases, RtlCombining, ::testing::ValuesIn(engine_cases()), engine_case_name);

FIXROUTE_LABEL("rtl", "RtlCombiningStreams");
TEST(RtlCombiningStreams, NoTraceKeptAndTheSameVerdict) {
  for (const EngineCase& c : engine_cases()) {
    const RunResult streamed = run_combining_on(c, "rtl", false);
    const RunResult kept = run_combining_on(c, "rtl");
    EXPECT_TRUE(streamed.ok()) << c.spec << " " << summary(streamed);
    EXPECT_EQ(streamed.trace->rows(), 0) << c.spec;
    EXPECT_EQ(streamed.steps(), kept.steps()) << c.spec;
    EXPECT_EQ(streamed.score.crossings, kept.trace->rows()) << c.spec;
  }
}

FIXROUTE_LABEL("rtl", "RtlCombiningBuilds");
TEST(RtlCombiningBuilds, ANetworkNoBuildHoldsIsRefused) {
  RunRequest req;
  req.topology = "hypercube:9";  // 512 origins: more than the widest build's set
  req.collective = "gossip";
  req.engine = "rtl";
  req.port_model = combining(false, false);
  EXPECT_THROW(run_case(req), InputError);
}
