// The benchmarks' scaling plot (sw/report/scaling_plot.*): Google Benchmark JSON read
// into points, and the log-log SVG drawn from them; bench_plot, the program around them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>

#include "sw/core/errors.h"
#include "sw/report/scaling_plot.h"

using ::testing::HasSubstr;
using namespace fixroute;

namespace {

// A trimmed output of `bench_engines --benchmark_repetitions=3 --benchmark_format=json`:
// one case with repetitions and aggregates, one single run in microseconds, one benchmark
// without the routers counter (not plotted).
const char* kResults = R"({
  "context": {"date": "1999-12-31T10:00:00+00:00", "num_cpus": 2},
  "benchmarks": [
    {"name": "BM_Rtl/torus16x16_gossip", "run_name": "BM_Rtl/torus16x16_gossip", "run_type": "iteration",
     "repetitions": 3, "repetition_index": 0, "iterations": 40, "real_time": 15.0, "cpu_time": 14.0,
     "time_unit": "ms", "steps": 128, "routers": 256},
    {"name": "BM_Rtl/torus16x16_gossip", "run_name": "BM_Rtl/torus16x16_gossip", "run_type": "iteration",
     "repetitions": 3, "repetition_index": 1, "iterations": 40, "real_time": 19.0, "cpu_time": 18.0,
     "time_unit": "ms", "steps": 128, "routers": 256},
    {"name": "BM_Rtl/torus16x16_gossip_mean", "run_name": "BM_Rtl/torus16x16_gossip", "run_type": "aggregate",
     "aggregate_name": "mean", "real_time": 17.0, "time_unit": "ms", "steps": 128, "routers": 256},
    {"name": "BM_Rtl/torus16x16_gossip_median", "run_name": "BM_Rtl/torus16x16_gossip", "run_type": "aggregate",
     "aggregate_name": "median", "real_time": 16.0, "time_unit": "ms", "steps": 128, "routers": 256},
    {"name": "BM_RefVerified/torus8x8_gossip/iterations:1/real_time",
     "run_name": "BM_RefVerified/torus8x8_gossip/iterations:1/real_time", "run_type": "iteration",
     "iterations": 1, "real_time": 250.0, "cpu_time": 250.0, "time_unit": "us", "steps": 32, "routers": 64},
    {"name": "BM_Ref/line64", "run_name": "BM_Ref/line64", "run_type": "iteration", "iterations": 60,
     "real_time": 11.8, "cpu_time": 11.8, "time_unit": "ms", "steps": 1024}
  ]
})";

size_t count(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  return static_cast<size_t>(std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

}  // namespace

TEST(ScalingPlot, ReadsTheMedianOrTheOnlyRunOfEveryCaseWithStepsAndRouters) {
  const std::vector<ScalingPoint> points = scaling_points(kResults, "results.json");
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].engine, "rtl (router array)");
  EXPECT_EQ(points[0].work, "torus16x16_gossip");
  EXPECT_DOUBLE_EQ(points[0].router_steps, 128.0 * 256);
  EXPECT_DOUBLE_EQ(points[0].seconds, 0.016);  // the median aggregate, not the mean or a repetition
  EXPECT_EQ(points[1].engine, "ref (verified as it runs)");
  EXPECT_EQ(points[1].work, "torus8x8_gossip");
  EXPECT_DOUBLE_EQ(points[1].seconds, 250e-6);
}

TEST(ScalingPlot, WithoutAnAggregateTakesTheMedianOfTheRepetitions) {
  const std::string json = R"({"benchmarks": [
    {"run_name": "BM_Systemc/torus8x8_gossip", "real_time": 3.0, "time_unit": "ms", "steps": 32, "routers": 64},
    {"run_name": "BM_Systemc/torus8x8_gossip", "real_time": 1.0, "time_unit": "ms", "steps": 32, "routers": 64},
    {"run_name": "BM_Systemc/torus8x8_gossip", "real_time": 9.0, "time_unit": "ms", "steps": 32, "routers": 64}]})";
  const std::vector<ScalingPoint> points = scaling_points(json, "x.json");
  ASSERT_EQ(points.size(), 1u);
  EXPECT_DOUBLE_EQ(points[0].seconds, 0.003);
}

TEST(ScalingPlot, RefusesWhatIsNotABenchmarkOutputInOneLine) {
  for (const char* bad : {"", "not json", "[1, 2]", R"({"context": {}})", R"({"benchmarks": [3]})",
                          R"({"benchmarks": [{"run_name": "a/b", "steps": 1, "routers": 2}]})",
                          R"({"benchmarks": [{"run_name": "a/b", "steps": 1, "routers": 2, "real_time": 1,
                               "time_unit": "fortnights"}]})"}) {
    try {
      scaling_points(bad, "bad.json");
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr("bad.json")) << bad;
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << bad;
    }
  }
  EXPECT_THROW(scaling_svg({}, "nothing"), InputError);
}

TEST(ScalingPlot, NamesTheDateAndMachineOfTheResults) {
  EXPECT_EQ(scaling_context(R"({"context": {"date": "1999-12-31T10:00:00+00:00", "num_cpus": 2, "mhz_per_cpu": 2450},
                                "benchmarks": []})"),
            "1999-12-31, 2 CPUs at 2450 MHz");
  EXPECT_EQ(scaling_context(R"({"benchmarks": []})"), "");
  EXPECT_EQ(scaling_context("not json"), "");
}

TEST(ScalingPlot, DrawsAPointPerCaseOnDecadeAxesAndALinePerEngine) {
  std::vector<ScalingPoint> points = scaling_points(kResults, "results.json");
  points.push_back({"rtl (router array)", "torus32x32_gossip", 256.0 * 1024, 0.09});
  points.push_back({"rtl (router array)", "torus8x8_gossip", 32.0 * 64, 0.001});
  const std::string svg = scaling_svg(points, "scaling <test>", "1999-12-31 & 2 CPUs");
  EXPECT_EQ(count(svg, "<circle cx=[^>]*data-engine="), 4u);
  EXPECT_EQ(count(svg, "data-engine=\"rtl \\(router array\\)\""), 3u);
  EXPECT_EQ(count(svg, "<polyline "), 1u);  // RefVerified has one point: no line
  EXPECT_THAT(svg, HasSubstr("data-work=\"torus16x16_gossip\" data-router-steps=\"32768\" data-seconds=\"0.016\""));
  EXPECT_THAT(svg, HasSubstr("scaling &lt;test&gt;"));
  EXPECT_THAT(svg, HasSubstr(">1999-12-31 &amp; 2 CPUs</text>"));
  // x from 10^3 (2048 router-steps) to 10^6; y from 100 us to 100 ms, a tick per decade.
  EXPECT_THAT(svg, HasSubstr(">10<tspan dy=\"-5\" font-size=\"8\">3</tspan><"));
  EXPECT_THAT(svg, HasSubstr(">10<tspan dy=\"-5\" font-size=\"8\">6</tspan><"));
  EXPECT_EQ(count(svg, "font-size=\"8\">[0-9]+</tspan></text>"), 4u);
  EXPECT_THAT(svg, HasSubstr(">100 µs<"));
  EXPECT_THAT(svg, HasSubstr(">100 ms<"));
  // The engine's points lie on its line in order of work: the polyline's first point is
  // the 8x8 circle's centre.
  const std::smatch first = [&] {
    std::smatch m;
    std::regex_search(svg, m, std::regex("<polyline [^>]*points=\"([0-9.]+),([0-9.]+) "));
    return m;
  }();
  ASSERT_EQ(first.size(), 3u);
  EXPECT_THAT(svg, HasSubstr("<circle cx=\"" + first[1].str() + "\" cy=\"" + first[2].str() +
                             "\" r=\"4\" fill=\"#1f77b4\" data-engine=\"rtl (router array)\" data-work=\"torus8x8_gossip\""));
}
