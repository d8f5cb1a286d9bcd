// Total exchange on linear arrays and rings (total-exchange paper): every size's measured
// step count against the paper's formula, with a clean scoreboard.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>
#include <vector>

#include "sw/kinds/port_rules/ref_routers.h"
#include "sw/engines/step_threads.h"
#include "sw/schedulers/common.h"
#include "sw/schedulers/port_rules.h"
#include "sw/core/errors.h"
#include "sw/core/formulas.h"
#include "sw/topology/topology.h"
#include "sw/verify/run_case.h"

#include "test_support.h"

using namespace fixroute;
using ::testing::HasSubstr;

namespace {

RunResult run(const std::string& spec, const std::string& algorithm = "", PortModel model = {}) {
  RunRequest req;
  req.topology = spec;
  req.collective = "total-exchange";
  req.algorithm = algorithm;
  req.port_model = model;
  return run_case(req);
}

std::string describe(const RunResult& r) { return summary(r); }

std::string size_name(const ::testing::TestParamInfo<int>& info) { return "n" + std::to_string(info.param); }

std::vector<int> sizes(int from, int to, int step = 1) {
  std::vector<int> v;
  for (int n = from; n <= to; n += step) v.push_back(n);
  return v;
}

}  // namespace

// The formulas themselves, against values worked out by hand from the paper.
TEST(Formulas, HandValues) {
  EXPECT_EQ(formulas::total_exchange_line(2), 1);
  EXPECT_EQ(formulas::total_exchange_line(6), 9);    // Fig. 2: n^2/4
  EXPECT_EQ(formulas::total_exchange_line(12), 36);
  EXPECT_EQ(formulas::total_exchange_line(33), 272);
  EXPECT_EQ(formulas::total_exchange_line_scatterings(3), 5);  // 2 + 1 + 2
  EXPECT_EQ(formulas::total_exchange_line_scatterings(4), 10);  // 3 + 2 + 2 + 3
  EXPECT_EQ(formulas::total_exchange_ring(7), 6);
  EXPECT_EQ(formulas::total_exchange_ring(6), 5);   // (36+4)/8
  EXPECT_EQ(formulas::total_exchange_ring(8), 8);
}

class LineFurthestFirst : public ::testing::TestWithParam<int> {};
TEST_P(LineFurthestFirst, MeetsTheorem1) {
  int n = GetParam();
  RunResult r = run("line:" + std::to_string(n));
  EXPECT_EQ(r.algorithm, "furthest-first");
  EXPECT_TRUE(r.score.clean()) << describe(r);
  EXPECT_EQ(r.score.deliveries, int64_t{n} * (n - 1));
  EXPECT_EQ(r.steps(), formulas::total_exchange_line(n));
  EXPECT_EQ(r.steps(), r.bounds.best()) << "furthest-first is optimal: it meets the bisection bound";
  EXPECT_TRUE(r.ok());
}
INSTANTIATE_TEST_SUITE_P(N2to64, LineFurthestFirst, ::testing::ValuesIn(sizes(2, 64)), size_name);

class LineScatterSequence : public ::testing::TestWithParam<int> {};
TEST_P(LineScatterSequence, MeetsTheBaselineFormula) {
  int n = GetParam();
  RunResult r = run("line:" + std::to_string(n), "scatter-sequence");
  EXPECT_TRUE(r.score.clean()) << describe(r);
  EXPECT_EQ(r.steps(), formulas::total_exchange_line_scatterings(n));
  EXPECT_TRUE(r.ok());
}
INSTANTIATE_TEST_SUITE_P(N2to64, LineScatterSequence, ::testing::ValuesIn(sizes(2, 64)), size_name);

class RingMessageShift : public ::testing::TestWithParam<int> {};
TEST_P(RingMessageShift, MeetsTheorems2And3) {
  int n = GetParam();
  RunResult r = run("ring:" + std::to_string(n));
  EXPECT_EQ(r.algorithm, "message-shift");
  EXPECT_TRUE(r.score.clean()) << describe(r);
  EXPECT_EQ(r.score.deliveries, int64_t{n} * (n - 1));
  EXPECT_EQ(r.steps(), formulas::total_exchange_ring(n));
  EXPECT_EQ(r.steps(), r.bounds.best());
  EXPECT_TRUE(r.ok());
}
INSTANTIATE_TEST_SUITE_P(N3to64, RingMessageShift, ::testing::ValuesIn(sizes(3, 64)), size_name);

class RingPlainShift : public ::testing::TestWithParam<int> {};
TEST_P(RingPlainShift, IsCorrectButSlowerThanTheModifiedShift) {
  int n = GetParam();
  RunResult plain = run("ring:" + std::to_string(n), "plain-shift");
  EXPECT_TRUE(plain.score.clean()) << describe(plain);
  EXPECT_FALSE(plain.formula.has_value());
  EXPECT_TRUE(plain.ok());
  int64_t optimal = run("ring:" + std::to_string(n)).steps();
  EXPECT_GE(plain.steps(), optimal);
  if (n >= 6) {
    EXPECT_GT(plain.steps(), optimal) << "section 4.2: the plain split is suboptimal";
  }
}
INSTANTIATE_TEST_SUITE_P(EvenN4to64, RingPlainShift, ::testing::ValuesIn(sizes(4, 64, 2)), size_name);

TEST(RingPlainShift, ExcessGrowsLinearly) {
  // Section 4.2: "suboptimal by an additive factor of O(n)". Measured excesses over the
  // optimum at n and 2n: the excess must grow with n, at most linearly.
  auto excess = [](int n) {
    return run("ring:" + std::to_string(n), "plain-shift").steps() - run("ring:" + std::to_string(n)).steps();
  };
  int64_t e16 = excess(16), e32 = excess(32), e64 = excess(64);
  EXPECT_GT(e32, e16);
  EXPECT_GT(e64, e32);
  EXPECT_LE(e64, 64);
}

using SlicedCase = std::tuple<std::string, std::string, bool>;  // strings: ctest -N prints them
class TimeSliced : public ::testing::TestWithParam<SlicedCase> {};
std::string sliced_name(const ::testing::TestParamInfo<SlicedCase>& info) {
  return testing_support::test_name(std::get<0>(info.param) + "_" + std::get<1>(info.param) +
                                    (std::get<2>(info.param) ? "_1port" : "_halfduplex"));
}
TEST_P(TimeSliced, HalfDuplexAndOnePortCostAFactorOfTwo) {
  auto [spec, algorithm, one_port] = GetParam();
  PortModel model{one_port, !one_port};
  RunResult full = run(spec, algorithm);
  RunResult sliced = run(spec, algorithm, model);
  EXPECT_TRUE(sliced.score.clean()) << describe(sliced);
  EXPECT_EQ(sliced.steps(), 2 * full.steps());
  EXPECT_TRUE(sliced.ok());
}
INSTANTIATE_TEST_SUITE_P(
    Cases, TimeSliced,
    ::testing::Combine(::testing::Values("line:2", "line:7", "line:12", "line:33"),
                       ::testing::Values("furthest-first", "scatter-sequence"), ::testing::Bool()),
    sliced_name);
INSTANTIATE_TEST_SUITE_P(Rings, TimeSliced,
                         ::testing::Combine(::testing::Values("ring:3", "ring:8", "ring:10", "ring:33"),
                                            ::testing::Values("message-shift"), ::testing::Bool()),
                         sliced_name);

// line:3 worked by hand from section 3 (ids 0..2): in step 1 node 0 sends its furthest
// packet (to 2) right, node 1 sends to 2 and to 0, node 2 sends its furthest (to 0)
// left; in step 2 the rest move one hop. seq = dest - (dest > origin).
TEST(TotalExchangeTrace, Line3ByHand) {
  RunResult r = run("line:3");
  EXPECT_EQ(r.trace->csv(),
            "step,from,to,origin,dest,seq\n"
            "1,0,1,0,2,1\n"
            "1,1,0,1,0,0\n"
            "1,1,2,1,2,1\n"
            "1,2,1,2,0,0\n"
            "2,0,1,0,1,0\n"
            "2,1,0,2,0,0\n"
            "2,1,2,0,2,1\n"
            "2,2,1,2,1,1\n");
}

// ring:4, modified message-shift (section 4.2): even nodes send 2 clockwise and 1
// counterclockwise, odd nodes the reverse; both antipodal pairs fit in two steps.
TEST(TotalExchangeTrace, Ring4ByHand) {
  RunResult r = run("ring:4");
  EXPECT_EQ(r.steps(), 2);
  EXPECT_EQ(r.trace->csv(),
            "step,from,to,origin,dest,seq\n"
            "1,0,1,0,2,1\n"
            "1,0,3,0,3,2\n"
            "1,1,0,1,3,2\n"
            "1,1,2,1,2,1\n"
            "1,2,1,2,1,1\n"
            "1,2,3,2,0,0\n"
            "1,3,0,3,0,0\n"
            "1,3,2,3,1,1\n"
            "2,0,1,0,1,0\n"
            "2,0,3,1,3,2\n"
            "2,1,0,1,0,0\n"
            "2,1,2,0,2,1\n"
            "2,2,1,3,1,1\n"
            "2,2,3,2,3,2\n"
            "2,3,0,2,0,0\n"
            "2,3,2,3,2,2\n");
}

TEST(TotalExchange, TablesFromFilesRunIdentically) {
  namespace fs = std::filesystem;
  Topology topo = Topology::parse("ring:9");
  fs::path dir = fs::temp_directory_path() / ("fixroute_te_" + std::to_string(::getpid()));
  write_tables(build_tables(find_algorithm("total-exchange", "", topo), topo, {}), topo, dir.string());
  RunRequest req;
  req.topology = "ring:9";
  req.collective = "total-exchange";
  req.tables_dir = dir.string();
  RunResult from_files = run_case(req);
  fs::remove_all(dir);
  EXPECT_TRUE(from_files.ok());
  EXPECT_EQ(from_files.trace->csv(), run("ring:9").trace->csv());
}

// Streaming: the ref engine hands each step to the scoreboard (and the trace file) as it
// runs; a run that keeps no trace reaches the same verdict and writes the same file.
TEST(TotalExchange, StreamedRunKeepsNoTraceAndWritesTheSameFile) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("fixroute_stream_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const RunResult kept = run("line:9");
  RunRequest req;
  req.topology = "line:9";
  req.collective = "total-exchange";
  req.keep_trace = false;
  req.trace_path = (dir / "trace.csv").string();
  const RunResult streamed = run_case(req);
  const std::string file = testing_support::slurp(req.trace_path);
  const bool tmp_left = fs::exists(req.trace_path + ".tmp");
  fs::remove_all(dir);
  EXPECT_TRUE(streamed.ok()) << describe(streamed);
  EXPECT_EQ(streamed.trace->rows(), 0);
  EXPECT_EQ(streamed.steps(), kept.steps());
  EXPECT_EQ(streamed.score.crossings, kept.score.crossings);
  EXPECT_EQ(streamed.score.deliveries, kept.score.deliveries);
  EXPECT_EQ(file, kept.trace->csv());
  EXPECT_FALSE(tmp_left);
}

TEST(TotalExchange, AnUnwritableTracePathIsRefusedAndLeavesNothing) {
  RunRequest req;
  req.topology = "line:4";
  req.collective = "total-exchange";
  req.trace_path = "/nonexistent-dir/trace.csv";
  EXPECT_THROW(run_case(req), InputError);
  EXPECT_FALSE(std::filesystem::exists("/nonexistent-dir"));
}

// `run --threads N` (N >= 3): the ref engine splits each step's routers across N-1 threads,
// every range with its own queues; the run must be the one-thread run exactly (trace,
// steps, largest queue, failure), on furthest-first and FIFO queues, taps, 1-port, and a
// packet stranded mid-run.
TEST(RefEngineThreads, SplitRoutersRunExactlyAsOneThread) {
  struct Case {
    const char* spec;
    const char* collective;
    const char* algorithm;
    PortModel model;
  };
  PortModel one_port;
  one_port.one_port = true;
  for (const Case& c : {Case{"line:33", "total-exchange", "furthest-first", {}}, Case{"ring:9", "total-exchange", "", one_port},
                        Case{"torus:8x8", "gossip", "", {}}, Case{"torus:5x7", "gossip", "partial-cycles", {}},
                        Case{"torus:3x3x4", "gossip", "partial-cycles", {}}}) {
    const Topology topo = Topology::parse(c.spec);
    const NetworkTables t = build_tables(find_algorithm(c.collective, c.algorithm, topo), topo, c.model);
    const EngineResult one = run_ref_engine(topo, t, {});
    ASSERT_TRUE(one.failure.empty()) << c.spec << ": " << one.failure;
    for (int threads : {2, 3, 7}) {
      EngineOptions options;
      options.threads = threads;
      const EngineResult split = run_ref_engine(topo, t, options);
      EXPECT_TRUE(split.trace == one.trace) << c.spec << " on " << threads << " threads";
      EXPECT_EQ(split.steps_simulated, one.steps_simulated) << c.spec;
      EXPECT_EQ(split.max_queue, one.max_queue) << c.spec;
      EXPECT_TRUE(split.failure.empty()) << c.spec;
    }
  }
  const Topology line = Topology::parse("line:9");
  NetworkTables t = scheduling::empty_tables(line, "total-exchange", "test", Discipline::Fifo);
  scheduling::forward_straight(t, line);
  t.routers[0].initial.push_back({0, Packet{0, 8, 0, 5}, 1});  // its hops run out at node 5, in the second range
  t.routers[7].initial.push_back({1, Packet{7, 0, 0, 7}, 1});
  const EngineResult one = run_ref_engine(line, t, {});
  EngineOptions options;
  options.threads = 3;
  const EngineResult split = run_ref_engine(line, t, options);
  EXPECT_THAT(one.failure, HasSubstr("node 5 cannot forward"));
  EXPECT_EQ(split.failure, one.failure);
  EXPECT_TRUE(split.trace == one.trace);
}

// The threads the engines split routers on (sw/engines/step_threads.h): every part runs
// once per run(), whether its thread spun or slept waiting for it (some runs take long
// enough for the others to sleep), and a part's exception comes back to the caller, the
// threads still usable after it.
TEST(StepThreads, EveryPartOncePerRunAcrossSleepsAndExceptions) {
  StepThreads threads(3);
  std::vector<int> runs(3, 0);
  for (int r = 0; r < 3000; ++r) {
    threads.run([&](int part) {
      ++runs[static_cast<size_t>(part)];
      if (r % 500 == part) std::this_thread::sleep_for(std::chrono::microseconds(300));  // the others sleep
    });
    ASSERT_EQ(runs, std::vector<int>(3, r + 1)) << "run " << r;
  }
  EXPECT_THROW(threads.run([](int part) {
    if (part == 2) throw InputError("part 2");
  }),
               InputError);
  threads.run([&](int part) { ++runs[static_cast<size_t>(part)]; });
  EXPECT_EQ(runs, std::vector<int>(3, 3001));
}

// RunRequest::on_step (what `fixroute run` shows its progress by) hears every step the
// engine streams, in order, for the port-rule and the combining kinds.
TEST(RunCase, OnStepHearsEveryStep) {
  for (const bool combining : {false, true}) {
    RunRequest req;
    req.topology = combining ? "torus:4x4" : "line:9";
    req.collective = combining ? "gossip" : "total-exchange";
    req.port_model.combining = combining;
    req.keep_trace = false;
    std::vector<int64_t> heard;
    req.on_step = [&heard](int64_t step) { heard.push_back(step); };
    const RunResult r = run_case(req);
    ASSERT_TRUE(r.ok()) << req.topology;
    ASSERT_EQ(static_cast<int64_t>(heard.size()), r.stats.steps_simulated) << req.topology;
    for (size_t k = 0; k < heard.size(); ++k) EXPECT_EQ(heard[k], static_cast<int64_t>(k) + 1) << req.topology;
  }
}
