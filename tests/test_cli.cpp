// The command line as users and CI call it: exit codes, one-line errors, JSON fields.
#include <gmock/gmock.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "test_support.h"
#include "test_labels.h"

using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

using fixroute::testing_support::Outcome;
using fixroute::testing_support::run_cli;
using fixroute::testing_support::scratch;
using fixroute::testing_support::slurp;

void expect_bad_input(const std::string& args, const std::string& message) {
  Outcome o = run_cli(args);
  EXPECT_EQ(o.code, 2) << args << "\n" << o.out << o.err;
  EXPECT_THAT(o.err, HasSubstr(message)) << args;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << "one line: " << o.err;
}

}  // namespace

TEST(Cli, Line12JsonMeetsTheFormula) {
  Outcome o = run_cli("run line:12 total-exchange --engine ref --json");
  ASSERT_EQ(o.code, 0) << o.err;
  nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["topology"], "line:12");
  EXPECT_EQ(j["collective"], "total-exchange");
  EXPECT_EQ(j["algorithm"], "furthest-first");
  EXPECT_EQ(j["engine"], "ref");
  EXPECT_EQ(j["steps"], 36);
  EXPECT_EQ(j["formula"], 36);
  EXPECT_EQ(j["lower_bound"], 36);
  EXPECT_EQ(j["ok"], true);
}

// --exact runs the collective's exact search: trees-exact for gossip without combining,
// tdm-exact for TDM traffic; one line where the collective has none.
TEST(Cli, ExactNamesTheCollectivesSearch) {
  for (const auto& [args, algorithm, steps] : {std::make_tuple("run mesh:2x9 gossip --exact --json", "trees-exact", 9),
                                               std::make_tuple("run mesh:3x3 total-exchange --exact --json", "tdm-exact", 8)}) {
    Outcome o = run_cli(args);
    ASSERT_EQ(o.code, 0) << args << "\n" << o.err;
    nlohmann::json j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["algorithm"], algorithm) << args;
    EXPECT_EQ(j["steps"], steps) << args;
    EXPECT_EQ(j["optimal"], "proven") << args;
  }
  expect_bad_input("run mesh:3x3 gossip --combining --exact", "--exact: no exact search for gossip");
  expect_bad_input("run mesh:3x3 gossip --ports 1-port", "--algorithm trees-exact");  // no Hamiltonian cycle
}

TEST(Cli, HumanSummaryAndTrace) {
  fs::path trace = scratch() / "ring7.csv";
  Outcome o = run_cli("run ring:7 total-exchange --trace " + trace.string());
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_THAT(o.out, HasSubstr("steps        6"));
  EXPECT_THAT(o.out, HasSubstr("result       ok"));
  std::string csv = slurp(trace);
  EXPECT_EQ(csv.rfind("step,from,to,origin,dest,seq\n", 0), 0u);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 7 * (1 + 2 + 3) * 2);  // header + hops of all packets
}

TEST(Cli, PlainShiftHasNoFormula) {
  Outcome o = run_cli("run ring:8 total-exchange --algorithm plain-shift --json");
  ASSERT_EQ(o.code, 0) << o.err;
  nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_TRUE(j["formula"].is_null());
  EXPECT_GT(j["steps"].get<int>(), 8);
}

TEST(Cli, HalfDuplexDoublesTheSteps) {
  Outcome o = run_cli("run line:12 total-exchange --duplex half --json");
  ASSERT_EQ(o.code, 0) << o.err;
  nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["steps"], 72);
  EXPECT_EQ(j["duplex"], "half");
  EXPECT_EQ(j["ok"], true);
}

TEST(Cli, BadInputExitsTwoWithOneLine) {
  expect_bad_input("run ring:0 total-exchange", "bad topology 'ring:0'");
  expect_bad_input("run torus:4x total-exchange", "bad topology 'torus:4x'");
  expect_bad_input("run mesh:-3x2 total-exchange", "bad topology 'mesh:-3x2'");
  expect_bad_input("run foo:3 total-exchange", "unknown kind 'foo'");
  expect_bad_input("run line:abc total-exchange", "'abc' is not a whole number");
  expect_bad_input("run line:5000000 total-exchange", "more than 4194304 nodes");
  expect_bad_input("run line:4 all-to-nowhere", "unknown collective 'all-to-nowhere'; accepted: total-exchange, gossip");
  expect_bad_input("run line:4 total-exchange --algorithm nope", "unknown algorithm 'nope'");
  expect_bad_input("run line:4 total-exchange --algorithm message-shift", "does not run on line:4");
  expect_bad_input("run ring:5 total-exchange --algorithm plain-shift", "needs an even ring");
  expect_bad_input("run line:4 total-exchange --engine warp", "unknown engine 'warp'");
  expect_bad_input("run line:4 total-exchange --duplex quarter", "bad duplex 'quarter'");
  expect_bad_input("run line:4 total-exchange --ports 3-port", "bad port model '3-port'");
  expect_bad_input("run line:4", "run needs TOPOLOGY COLLECTIVE");
  expect_bad_input("frobnicate", "frobnicate");
  expect_bad_input("run line:4 total-exchange --tables /nonexistent/dir", "cannot read");
}

TEST(Cli, TablesWriteRunAndRefuseCorruption) {
  fs::path dir = scratch() / "tables-ring6";
  Outcome w = run_cli("tables ring:6 total-exchange -o " + dir.string());
  ASSERT_EQ(w.code, 0) << w.err;
  EXPECT_TRUE(fs::exists(dir / "network.json"));
  EXPECT_TRUE(fs::exists(dir / "router-5.hex"));
  Outcome r = run_cli("run ring:6 total-exchange --json --tables " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["steps"], 5);
  expect_bad_input("run ring:8 total-exchange --tables " + dir.string(), "are for ring:6, not ring:8");
  { std::ofstream(dir / "router-3.hex", std::ios::app) << "00000000\n"; }
  expect_bad_input("run ring:6 total-exchange --tables " + dir.string(), "router-3.hex");
}

// --threads 2 checks on a second thread, 3 and more also split the routers: the same
// verdict, the same trace file byte for byte; 0 and more than 64 are refused.
TEST(Cli, ThreadsGiveTheSameVerdictAndTrace) {
  for (const std::string run : {"run torus:6x6 gossip", "run line:9 total-exchange", "run ring:8 total-exchange --ports 1-port"}) {
    const fs::path one = scratch() / "threads1.csv", more = scratch() / "threads_more.csv";
    Outcome a = run_cli(run + " --json --trace " + one.string());
    ASSERT_EQ(a.code, 0) << a.err;
    for (const char* threads : {"2", "3", "5"}) {
      Outcome b = run_cli(run + " --json --threads " + threads + " --trace " + more.string());
      ASSERT_EQ(b.code, 0) << b.err;
      EXPECT_EQ(a.out, b.out) << run << " --threads " << threads;
      EXPECT_EQ(slurp(one), slurp(more)) << run << " --threads " << threads;
    }
    EXPECT_GT(slurp(one).size(), 100u);
  }
  expect_bad_input("run line:4 total-exchange --threads 65", "--threads");
  expect_bad_input("run line:4 total-exchange --threads 0", "--threads");
}

TEST(Cli, Bound) {
  Outcome o = run_cli("bound ring:10 total-exchange --json");
  ASSERT_EQ(o.code, 0) << o.err;
  nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["lower_bound"], 13);  // ceil(99/8)
  EXPECT_EQ(j["bisection_width"], 2);
  EXPECT_EQ(j["diameter"], 5);
}

TEST(Cli, GossipBesideTheorem1) {
  Outcome o = run_cli("run torus:5x7 gossip --algorithm hamiltonian-2 --json");
  ASSERT_EQ(o.code, 0) << o.err;
  nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["steps"], 17);
  EXPECT_EQ(j["paper_formula"], 18);
  EXPECT_EQ(j["lower_bound"], 17);
  EXPECT_EQ(j["construction"], "square-switching");
  EXPECT_EQ(j["packets_per_node"], 2);
  EXPECT_EQ(j["ok"], true);
  Outcome b = run_cli("bound torus:6x6 gossip --packets 2 --json");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(nlohmann::json::parse(b.out)["lower_bound"], 18);
  expect_bad_input("run ring:8 gossip --algorithm hamiltonian-2", "needs a 2D torus");
  fs::path svg = scratch() / "t66.svg";
  Outcome d = run_cli("draw torus:6x6 gossip -o " + svg.string());
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_THAT(slurp(svg), HasSubstr("torus:6x6 gossip [hamiltonian-2] (paper-zigzag)"));
  expect_bad_input("draw ring:6 total-exchange -o " + svg.string(), "draw takes a torus:AxB[xC[xD]] topology");
}

FIXROUTE_LABEL("slow", "Cli", "SmallSweepWritesCsvAndPasses");
TEST(Cli, SmallSweepWritesCsvAndPasses) {
  fs::path csv = scratch() / "sweep.csv";
  Outcome o = run_cli("sweep --max-size 8 --quiet --csv " + csv.string());
  ASSERT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_THAT(o.out, HasSubstr("0 failed"));
  std::string rows = slurp(csv);
  EXPECT_THAT(rows, HasSubstr("line:8,total-exchange,furthest-first,all-port,full,ref,16,16,,16,"));
  EXPECT_THAT(rows, HasSubstr("ring:7,total-exchange,message-shift,all-port,full,ref,6,6,,6,"));
  EXPECT_THAT(rows, HasSubstr("ring:7,total-exchange,message-shift,all-port,half,ref,12,12,,12,"));
  EXPECT_THAT(rows, HasSubstr("torus:5x7,gossip,hamiltonian-2,all-port,full,systemc,17,17,18,17,1,960,38,true"));
}

// A permutation with commas is one quoted CSV field; no .tmp file is left behind.
TEST(Cli, SweepCsvQuotesAPermutationWithCommas) {
  fs::path csv = scratch() / "bpc.csv";
  Outcome o = run_cli("sweep --max-size 4 --quiet --engine ref --algorithm bpc-self-schedule --csv " + csv.string());
  ASSERT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_THAT(slurp(csv), HasSubstr(",true,\"bpc:1,3,2,0:1010\",true,false,,\n"));
  EXPECT_FALSE(fs::exists(csv.string() + ".tmp"));
}

// `ok` is the construction's own count; `meets_paper` compares with the paper's theorem.
TEST(Cli, MeetsPaperSaysWhereAConstructionStaysAboveThePaper) {
  // beyond the sizes the pattern catalogue covers (odd first sizes up to 21 x 24): transposed
  Outcome above = run_cli("run torus:9x26 gossip --algorithm partial-cycles --json");
  ASSERT_EQ(above.code, 0) << above.err;
  nlohmann::json a = nlohmann::json::parse(above.out);
  EXPECT_EQ(a["ok"], true);
  EXPECT_EQ(a["steps"], 72);
  EXPECT_EQ(a["paper_formula"], 64);
  EXPECT_EQ(a["meets_paper"], false);
  Outcome at = run_cli("run torus:8x8 gossip --algorithm partial-cycles --json");
  ASSERT_EQ(at.code, 0) << at.err;
  EXPECT_EQ(nlohmann::json::parse(at.out)["meets_paper"], true);
  Outcome none = run_cli("run ring:8 total-exchange --algorithm plain-shift --json");
  ASSERT_EQ(none.code, 0) << none.err;
  EXPECT_TRUE(nlohmann::json::parse(none.out)["meets_paper"].is_null()) << "the paper states no count";
  Outcome early = run_cli("run torus:8x8 gossip --algorithm partial-cycles-early --json");
  ASSERT_EQ(early.code, 0) << early.err;
  nlohmann::json e = nlohmann::json::parse(early.out);
  EXPECT_EQ(e["paper_formula"], 21) << "the paper's Theorem 2, not the construction's count";
  EXPECT_EQ(e["steps"], 20);
  EXPECT_EQ(e["meets_paper"], true);
}

FIXROUTE_LABEL("slow", "LargeNetwork");
// Beyond 32768 nodes `tables` writes the packed form; a 262144-node network is built,
// written, loaded and run on the ref engine end to end, verified.
TEST(LargeNetwork, QuarterMillionNodesRunFromPackedTables) {
  const fs::path dir = scratch() / "mesh512";
  auto o = run_cli("tables mesh:512x512 broadcast -o " + dir.string());
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_THAT(o.out, HasSubstr("262144 crossbar tables"));
  EXPECT_THAT(o.out, HasSubstr("packed form"));
  EXPECT_TRUE(fs::exists(dir / "tables.bin"));
  o = run_cli("run mesh:512x512 broadcast --tables " + dir.string() + " --json");
  ASSERT_EQ(o.code, 0) << o.err;
  const auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["steps"], 18);  // measured: log2(262144) routing steps
  EXPECT_EQ(j["deliveries"], 262143);
  EXPECT_EQ(j["ok"], true);
}

TEST(LargeNetwork, MillionNodeGossipTablesAreWrittenAndItsRunRefusedUpFront) {
  const fs::path dir = scratch() / "torus1024";
  auto o = run_cli("tables torus:1024x1024 gossip -o " + dir.string());
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_THAT(o.out, HasSubstr("1048576 port-rules tables"));
  const auto manifest = nlohmann::json::parse(std::ifstream(dir / "network.json"));
  EXPECT_EQ(manifest["form"], "packed");
  EXPECT_EQ(manifest["packed"]["routers"], 1048576);
  // checking it would take a bit per node per packet: 2 packets per node, 256 GiB; refused
  // from the estimate before the tables are built, or by the scoreboard's own limit.
  expect_bad_input("run torus:1024x1024 gossip --max-memory 64G", "needs at least 256.3 GiB");
  expect_bad_input("run torus:1024x1024 gossip --max-memory 1T", "needs 262144 MiB");
}

// Sweeps on a cluster: shards run apart merge to exactly the CSV of one unsharded sweep.
TEST(SweepShards, MergeToTheUnshardedCsv) {
  const std::string sweep = "sweep --engine ref --max-size 6 --quiet";
  ASSERT_EQ(run_cli(sweep + " --csv whole.csv").code, 0);
  for (int k = 1; k <= 3; ++k)
    ASSERT_EQ(run_cli(fmt::format("{} --shard {}/3 --csv s{}.csv", sweep, k, k)).code, 0);
  const std::string shard2 = slurp(scratch() / "s2.csv");
  EXPECT_EQ(shard2.rfind("sweep_row,topology,collective,", 0), 0u) << shard2.substr(0, 80);
  EXPECT_NE(shard2.find("\n1/"), std::string::npos) << "shard 2 of 3 starts at row 1";
  EXPECT_FALSE(fs::exists(scratch() / "shard-report")) << "a shard writes no report";
  expect_bad_input("sweep --shard 1/3 --report shard-report", "--shard excludes --report");
  Outcome m = run_cli("sweep --merge s3.csv s1.csv s2.csv --csv merged.csv --report merged-report");
  ASSERT_EQ(m.code, 0) << m.err;
  EXPECT_EQ(slurp(scratch() / "merged.csv"), slurp(scratch() / "whole.csv"));
  // The merged report times its slowest runs from the shards' seconds column.
  const std::string html = slurp(scratch() / "merged-report" / "index.html");
  EXPECT_THAT(html, HasSubstr("<table class=\"slowest\">"));
  EXPECT_THAT(m.out, HasSubstr("the report to merged-report/index.html"));
  expect_bad_input("sweep --merge s1.csv s3.csv --csv bad.csv", "a shard is missing");
  expect_bad_input("sweep --merge s1.csv s1.csv s2.csv s3.csv --csv bad.csv", "appears twice");
  expect_bad_input("sweep --merge whole.csv --csv bad.csv", "is not a shard of a sweep");
  expect_bad_input("sweep --shard 0/3", "--shard '0/3': expected K/N with 1 <= K <= N");
  expect_bad_input("sweep --shard 2/x", "expected K/N");
  EXPECT_FALSE(fs::exists(scratch() / "bad.csv"));
}

// Progress on stderr: plain lines into a log, one line redrawn in place on a terminal
// (a pseudo-terminal from `script`, util-linux).
TEST(SweepProgress, PlainLinesOffATerminalOneRedrawnLineOnIt) {
  const std::string sweep = "sweep --engine ref --max-size 4 --algorithm hamiltonian-2 --no-report --csv p.csv";
  const Outcome plain = run_cli(sweep);
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_THAT(plain.err, HasSubstr("sweep: 4/4 runs, 0 failed, 0 s elapsed\n"));
  EXPECT_EQ(plain.err.find('\r'), std::string::npos);
  const std::string cmd = fmt::format("cd {} && script -qec '{} {}' /dev/null > tty.out 2>&1", scratch().string(),
                                      FIXROUTE_BIN, sweep);
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string tty = slurp(scratch() / "tty.out");
  EXPECT_THAT(tty, HasSubstr("\r\033[Ksweep: 1/4 runs, 0 failed, 0 s elapsed, about"));
  EXPECT_THAT(tty, HasSubstr("\r\033[Ktorus:3x4"));  // the line cleared before a row is printed
  const Outcome quiet = run_cli(sweep + " --quiet");
  EXPECT_EQ(quiet.err, "");
}

// scripts/slurm-sweep.sh submits the shards as an array and the merge after them; here a
// stand-in sbatch runs each job at once (tests/fake_sbatch.sh).
TEST(SweepShards, SlurmScriptSubmitsShardsAndMerge) {
  ASSERT_EQ(run_cli("sweep --engine ref --max-size 6 --quiet --csv whole.csv").code, 0);
  const fs::path out = scratch() / "slurm";
  const std::string cmd = fmt::format(
      "FIXROUTE={} SBATCH={}/tests/fake_sbatch.sh FAKE_SBATCH_LOG={}/jobs {}/scripts/slurm-sweep.sh 4 {} --engine ref "
      "--max-size 6 > {}/submit.out 2>&1",
      FIXROUTE_BIN, FIXROUTE_SOURCE_DIR, scratch().string(), FIXROUTE_SOURCE_DIR, out.string(), scratch().string());
  ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(scratch() / "submit.out");
  EXPECT_THAT(slurp(scratch() / "submit.out"), HasSubstr("array 1-4"));
  EXPECT_EQ(slurp(out / "results.csv"), slurp(scratch() / "whole.csv")) << slurp(out / "merge.log");
  const std::string jobs = slurp(scratch() / "jobs");
  EXPECT_THAT(jobs, HasSubstr("--shard $SLURM_ARRAY_TASK_ID/4"));
  EXPECT_THAT(jobs, HasSubstr("sweep --merge shard-1.csv shard-2.csv shard-3.csv shard-4.csv --csv results.csv"));
}

// A run past FIXROUTE_PROGRESS_AFTER seconds shows the step it reached on stderr (plain
// lines: stderr is not a terminal here); --quiet shows none; stdout is the result alone.
TEST(Cli, RunShowsItsProgress) {
  setenv("FIXROUTE_PROGRESS_AFTER", "0", 1);
  Outcome o = run_cli("run line:9 total-exchange --json");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_THAT(o.err, ::testing::StartsWith("run line:9 total-exchange: step 1, 0 s elapsed\n"));
  EXPECT_EQ(nlohmann::json::parse(o.out)["ok"], true);
  o = run_cli("run torus:4x4 gossip --combining --quiet");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.err, "");
  unsetenv("FIXROUTE_PROGRESS_AFTER");
  o = run_cli("run line:9 total-exchange");
  EXPECT_EQ(o.err, "");  // done within the second
}

// On a terminal the run's progress line is cleared before the result is printed (it was
// left glued to the result's first line); in a log the sweep's progress line comes at
// most every 30 s and at the end, not every 25 runs.
TEST(RunProgress, ClearedBeforeTheResultAndThrottledByTimeInLogs) {
  const std::string cmd = fmt::format(
      "cd {} && FIXROUTE_PROGRESS_AFTER=0 script -qec '{} run line:9 total-exchange' /dev/null > run-tty.out 2>&1",
      scratch().string(), FIXROUTE_BIN);
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string tty = slurp(scratch() / "run-tty.out");
  EXPECT_THAT(tty, HasSubstr("\r\033[Kline:9 total-exchange [furthest-first]")) << tty;
  const Outcome sweep = run_cli("sweep --engine ref --max-size 6 --no-report --csv many.csv");
  ASSERT_EQ(sweep.code, 0) << sweep.err;
  const std::string rows = slurp(scratch() / "many.csv");
  ASSERT_GT(std::count(rows.begin(), rows.end(), '\n'), 100);
  EXPECT_EQ(std::count(sweep.err.begin(), sweep.err.end(), '\n'), 1) << sweep.err;  // the closing line alone
}
