// The sweep's CSV rows (sw/report/sweep_table.*) and the HTML report drawn from them
// (sw/report/sweep_report.*). The report of a real sweep is parsed and checked against its
// CSV by tests/python/check_report.py.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "sw/core/errors.h"
#include "sw/report/sweep_junit.h"
#include "sw/report/sweep_report.h"
#include "sw/report/sweep_table.h"

using ::testing::HasSubstr;
using namespace fixroute;

namespace {

SweepRow row(const std::string& topology, const std::string& engine, int64_t steps) {
  SweepRow r;
  r.topology = topology;
  r.collective = "gossip";
  r.algorithm = "hamiltonian-2";
  r.port_model = "all-port";
  r.duplex = "full";
  r.engine = engine;
  r.steps = steps;
  r.formula = steps;
  r.lower_bound = steps - 1;
  r.ok = true;
  return r;
}

size_t count(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  return static_cast<size_t>(std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

}  // namespace

TEST(SweepTable, RowsRoundTripThroughTheirCsvLine) {
  SweepRow r = row("mesh:4x4", "ref", 5);
  r.collective = "permutation";
  r.algorithm = "bpc-self-schedule";
  r.permutation = "bpc:1,3,2,0:1010";
  r.paper_formula = 4;
  r.meets_paper = false;
  r.max_queue = 2;
  r.table_bits = 96;
  r.clock_cycles = 6;
  r.buffers = 0;
  const std::string line = sweep_csv_line(r);
  EXPECT_THAT(line, HasSubstr(",\"bpc:1,3,2,0:1010\","));
  EXPECT_EQ(csv_fields(line).size(), csv_fields(sweep_csv_header()).size());
  const SweepRow back = parse_sweep_csv_line(line, "here");
  EXPECT_EQ(sweep_csv_line(back), line);
  EXPECT_EQ(back.permutation, r.permutation);
  EXPECT_EQ(back.meets_paper, std::optional<bool>(false));
  EXPECT_EQ(back.paper_formula, std::optional<int64_t>(4));
  SweepRow bare = row("line:4", "rtl", 3);
  bare.formula.reset();
  bare.lower_bound.reset();
  EXPECT_EQ(parse_sweep_csv_line(sweep_csv_line(bare), "here").formula, std::nullopt);
  EXPECT_EQ(csv_field("say \"hi\", twice"), "\"say \"\"hi\"\", twice\"");
}

TEST(SweepTable, MalformedLinesAreRefusedNamingWhere) {
  const std::string good = sweep_csv_line(row("ring:5", "ref", 4));
  EXPECT_THROW(parse_sweep_csv_line(good + ",extra", "f.csv line 3"), InputError);
  try {
    parse_sweep_csv_line(std::regex_replace(good, std::regex(",ref,4,"), ",ref,four,"), "f.csv line 3");
    FAIL() << "a non-integer step count was accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("f.csv line 3: steps 'four' is not an integer"));
  }
  EXPECT_THROW(parse_sweep_csv_line(std::regex_replace(good, std::regex(",true,"), ",yes,"), "x"), InputError);
}

TEST(SweepReport, APointPerRowAndTheFlaggedRowsMarked) {
  std::vector<SweepRow> rows;
  for (const char* engine : {"ref", "systemc", "rtl"}) {
    rows.push_back(row("torus:4x4", engine, 8));
    rows.push_back(row("torus:6x6", engine, 18));
  }
  rows[5].ok = false;  // rtl on torus:6x6: failed, and a different count
  rows[5].steps = 19;
  rows.push_back(row("torus:8x8", "ref", 33));
  rows.back().paper_formula = 32;
  rows.back().meets_paper = false;
  rows.back().seconds = 2.5;
  SweepRow other = row("line:8", "ref", 7);
  other.collective = "total-exchange";
  other.algorithm = "message-shift";
  other.seconds = 0.25;
  rows.push_back(other);
  SweepRow no_count = row("line:9", "ref", 0);
  no_count.collective = "total-exchange";
  no_count.algorithm = "message-shift";
  no_count.steps.reset();
  no_count.ok = false;
  rows.push_back(no_count);

  const std::string html = sweep_report_html(rows, {{"torus:4x4 gossip", "drawings/a.svg"}});
  EXPECT_EQ(count(html, "<svg [^>]*class=\"plot\""), 2u) << "one plot per collective, algorithm and ports";
  EXPECT_EQ(count(html, "<circle class=\"point"), rows.size() - 1) << "a point per row with a step count";
  EXPECT_EQ(count(html, "<circle class=\"point above\""), 1u);
  EXPECT_EQ(count(html, "<circle class=\"point failed\""), 1u);
  EXPECT_THAT(html, HasSubstr("data-topology=\"torus:8x8\" data-engine=\"ref\" data-permutation=\"\" data-steps=\"33\""));
  EXPECT_THAT(html, HasSubstr("class=\"series theorem\""));
  EXPECT_THAT(html, HasSubstr("class=\"series bound\""));
  // ref and rtl both ran torus:4x4 and torus:6x6; they agree on one (rtl failed the other).
  EXPECT_THAT(html, HasSubstr("data-both=\"2\" data-agree=\"1\""));
  EXPECT_THAT(html, HasSubstr("data-both=\"5\" data-agree=\"4\""));  // ref with itself: 5 cases, 4 verified
  EXPECT_THAT(html, HasSubstr("9 rows on 3 engine(s) (ref, systemc, rtl): 7 verified"));
  // The slowest first; the flagged rows listed; the drawing linked.
  EXPECT_LT(html.find("<td>2.500</td>"), html.find("<td>0.250</td>"));
  EXPECT_EQ(count(html, "<tr><td class=\"name\">torus:8x8</td><td class=\"name\">hamiltonian-2</td>"), 1u);
  EXPECT_THAT(html, HasSubstr("<a href=\"drawings/a.svg\">torus:4x4 gossip</a>"));
}

TEST(SweepReport, SaysWhatIsMissingRatherThanDrawingNothing) {
  const std::string html = sweep_report_html({row("ring:6", "ref", 3)}, {});
  EXPECT_THAT(html, HasSubstr("No run times were recorded"));
  EXPECT_THAT(html, HasSubstr("Every row meets the paper's theorem"));
  EXPECT_THAT(html, HasSubstr("None: no swept algorithm has a drawable small case."));
}

TEST(SweepJunit, AFailedRowCarriesItsErrorsEscaped) {
  fixroute::SweepRow ok, failed;
  ok.topology = "ring:8";
  ok.collective = failed.collective = "gossip";
  ok.algorithm = failed.algorithm = "tree-search";
  ok.port_model = failed.port_model = "all-port";
  ok.duplex = failed.duplex = "full";
  ok.engine = failed.engine = "ref";
  ok.ok = true;
  ok.steps = ok.formula = 4;
  failed.topology = "ring:9";
  failed.steps = 7;
  failed.formula = 5;
  failed.failure = {"node 3 misses <2> origin(s) & more"};
  const std::string xml = fixroute::sweep_junit_xml({ok, failed});
  EXPECT_THAT(xml, ::testing::HasSubstr("<testsuite name=\"gossip.tree-search\" tests=\"2\" failures=\"1\""));
  EXPECT_THAT(xml, ::testing::HasSubstr("name=\"ring:9 all-port full ref\""));
  EXPECT_THAT(xml, ::testing::HasSubstr("<failure message=\"7 steps, formula 5: node 3 misses &lt;2&gt; origin(s) &amp; more\""));
  EXPECT_EQ(xml.find("<2>"), std::string::npos);
}
