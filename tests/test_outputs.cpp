// Every kind of output path a user can give (docs/cli.md, "Output files"): a new path or a
// regular file is replaced whole; `-` is standard output; a device, FIFO or socket is
// written straight through and never replaced; a symlink is followed. And the one-line
// refusals of paths that cannot be written, options that would be ignored, and the
// version.
#include <gmock/gmock.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "sw/core/version.h"
#include "test_support.h"
#include "test_labels.h"

using ::testing::HasSubstr;
using ::testing::StartsWith;
namespace fs = std::filesystem;

namespace {

using fixroute::testing_support::Outcome;
using fixroute::testing_support::run_cli;
using fixroute::testing_support::scratch;
using fixroute::testing_support::slurp;

constexpr const char* kRun = "run ring:8 total-exchange --quiet";

bool is_char_device(const char* path) {
  struct stat st {};
  return ::lstat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

// The trace of kRun written to an ordinary file: what every other path kind must carry.
std::string reference_trace() {
  const fs::path file = scratch() / "reference.csv";
  const Outcome o = run_cli(std::string(kRun) + " --trace " + file.string());
  EXPECT_EQ(o.code, 0) << o.err;
  return slurp(file);
}

void expect_refused(const std::string& args, const std::string& message) {
  const Outcome o = run_cli(args);
  EXPECT_EQ(o.code, 2) << args << "\n" << o.out << o.err;
  EXPECT_THAT(o.err, HasSubstr(message)) << args;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << "one line: " << o.err;
}

}  // namespace

TEST(Outputs, DevNullStaysACharacterDevice) {
  ASSERT_TRUE(is_char_device("/dev/null"));
  EXPECT_EQ(run_cli(std::string(kRun) + " --trace /dev/null").code, 0);
  EXPECT_EQ(run_cli("draw torus:4x4 gossip -o /dev/null").code, 0);
  EXPECT_EQ(run_cli("sweep --engine ref --algorithm message-shift --max-size 6 --no-report --quiet --csv /dev/null").code, 0);
  EXPECT_TRUE(is_char_device("/dev/null"));
  EXPECT_TRUE(fs::is_empty(scratch()) || !fs::exists("/dev/null.tmp"));
}

TEST(Outputs, DevFullIsRefusedWithTheSystemsReasonAndStaysADevice) {
  ASSERT_TRUE(is_char_device("/dev/full"));
  expect_refused(std::string(kRun) + " --trace /dev/full", "cannot write trace '/dev/full': No space left on device");
  expect_refused("draw torus:4x4 gossip -o /dev/full", "No space left on device");
  EXPECT_TRUE(is_char_device("/dev/full"));
}

TEST(Outputs, FifoIsWrittenStraightThrough) {
  const std::string expected = reference_trace();
  const fs::path fifo = scratch() / "trace.fifo";
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string read;
  std::thread reader([&] { read = slurp(fifo); });  // opens when the writer does
  const Outcome o = run_cli(std::string(kRun) + " --trace " + fifo.string());
  reader.join();
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(read, expected);
  EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST(Outputs, SymlinkIsFollowedAndItsTargetReplacedWhole) {
  const std::string expected = reference_trace();
  const fs::path target = scratch() / "target.csv", link = scratch() / "link.csv";
  std::ofstream(target) << "old\n";
  fs::remove(link);
  fs::create_symlink(target.filename(), link);  // relative, as users make them
  ASSERT_EQ(run_cli(std::string(kRun) + " --trace " + link.string()).code, 0);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(slurp(target), expected);
  // A dangling link: its target is created.
  fs::remove(target);
  ASSERT_EQ(run_cli(std::string(kRun) + " --trace " + link.string()).code, 0);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(slurp(target), expected);
}

TEST(Outputs, DashIsStandardOutputAndTheReportGoesToStderr) {
  const std::string expected = reference_trace();
  Outcome o = run_cli(std::string(kRun) + " --trace -");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out, expected);
  EXPECT_THAT(o.err, HasSubstr("result       ok"));
  o = run_cli("draw torus:4x4 gossip -o -");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_THAT(o.out, HasSubstr("<svg"));
  EXPECT_THAT(o.out, HasSubstr("</svg>"));
  o = run_cli("sweep --engine ref --algorithm message-shift --max-size 6 --no-report --quiet --csv -");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_THAT(o.out, StartsWith("topology,collective,algorithm,"));
  EXPECT_THAT(o.out, HasSubstr("ring:6,total-exchange,message-shift,"));
  EXPECT_THAT(o.err, HasSubstr("runs in"));  // the table on stderr
}

TEST(Outputs, ARegularFileIsReplacedWholeAndNoTemporaryStays) {
  const fs::path file = scratch() / "whole.csv";
  std::ofstream(file) << "an older trace\n";
  ASSERT_EQ(run_cli(std::string(kRun) + " --trace " + file.string()).code, 0);
  EXPECT_EQ(slurp(file), reference_trace());
  EXPECT_FALSE(fs::exists(file.string() + ".tmp"));
}

TEST(Outputs, UnwritablePathsAreRefusedUpFrontWithTheReason) {
  const fs::path dir = scratch() / "a-directory";
  fs::create_directories(dir);
  expect_refused(std::string(kRun) + " --trace " + dir.string(), "it is a directory; name a file");
  expect_refused(std::string(kRun) + " --trace " + dir.string() + "/", "it is a directory; name a file");
  expect_refused(std::string(kRun) + " --trace " + (scratch() / "no-such-dir" / "t.csv").string(), "no such directory");
  expect_refused(std::string(kRun) + " --trace " + (scratch() / std::string(300, 'x')).string(), "File name too long");
  expect_refused(std::string(kRun) + " --trace " + (scratch() / "new-dir/").string(), "names a directory");
  expect_refused("draw torus:4x4 gossip -o " + dir.string(), "it is a directory");
  expect_refused("tables ring:8 total-exchange -o /dev/null", "not a directory");
  EXPECT_TRUE(is_char_device("/dev/null"));
}

TEST(Outputs, SweepRefusesAnUnwritableReportBeforeItRuns) {
  const Outcome o = run_cli("sweep --engine ref --max-size 6 --quiet --csv " + (scratch() / "s.csv").string() +
                            " --report /proc/fixroute-report");
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  EXPECT_THAT(o.err, HasSubstr("cannot make the report directory '/proc/fixroute-report'"));
  EXPECT_EQ(o.out, "") << "no row ran";
}

TEST(Outputs, IgnoredOptionsAreRefused) {
  expect_refused(std::string(kRun) + " --vcd " + (scratch() / "w.vcd").string(), "the ref engine writes no waveform");
  expect_refused("run ring:8 total-exchange --root 3", "--root: the total-exchange collective has no root");
  const fs::path tables = scratch() / "tables-ring8";
  ASSERT_EQ(run_cli("tables ring:8 total-exchange -o " + tables.string()).code, 0);
  expect_refused("run ring:8 total-exchange --algorithm plain-shift --tables " + tables.string(),
                 "the tables in '" + tables.string() + "' were built by message-shift");
  EXPECT_EQ(run_cli("run ring:8 total-exchange --algorithm message-shift --tables " + tables.string()).code, 0);
}

TEST(Outputs, AFaultAfterTheRunEndedIsSaidNotInjected) {
  const Outcome o = run_cli(std::string(kRun) + " --fault router:0@99999999999 --json");
  ASSERT_EQ(o.code, 0) << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  ASSERT_EQ(j["injected_faults"].size(), 1u) << o.out;
  EXPECT_THAT(j["injected_faults"][0].get<std::string>(), HasSubstr("not injected: the run ended at step 8"));
}

TEST(Outputs, VersionOfTheToolAndOfEveryJsonDocument) {
  Outcome o = run_cli("--version");
  EXPECT_EQ(o.code, 0);
  EXPECT_THAT(o.out, HasSubstr(fixroute::fixroute_version()));
  o = run_cli(std::string(kRun) + " --json");
  nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["format"], "fixroute-run");
  EXPECT_EQ(j["format_version"], fixroute::kJsonFormatVersion);
  EXPECT_EQ(j["fixroute_version"], fixroute::fixroute_version());
  o = run_cli("bound ring:8 total-exchange --json");
  EXPECT_EQ(nlohmann::json::parse(o.out)["format"], "fixroute-bound");
}

TEST(Outputs, TheDefaultIsTheBestAlgorithmThatRuns) {
  // Odd tori, half-duplex combining: orientation (8 rounds on torus:7x9) beats duplex simulation (10).
  Outcome o = run_cli("run torus:7x9 gossip --combining --duplex half --quiet --json");
  ASSERT_EQ(o.code, 0) << o.err;
  nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["algorithm"], "orientation");
  EXPECT_EQ(j["steps"], 8);
  // complete:5 is not bipartite: the default is refused by nobody and verified.
  o = run_cli("run complete:5 gossip --combining --duplex half --quiet --json");
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(o.out)["ok"], true);
}

TEST(Outputs, RunConfigFileWithCommandLineOverrides) {
  const fs::path config = scratch() / "case.json", trace = scratch() / "case.csv";
  std::ofstream(config) << R"({"topology": "ring:8", "collective": "total-exchange", "ports": "1-port", "trace": ")"
                        << trace.string() << R"(", "fault": ["drop:0-1@50"], "quiet": true, "json": true})";
  Outcome o = run_cli("run --config " + config.string());
  ASSERT_EQ(o.code, 0) << o.err;
  nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["topology"], "ring:8");
  EXPECT_EQ(j["port_model"], "1-port");
  EXPECT_EQ(j["injected_faults"].size(), 1u);
  EXPECT_TRUE(fs::exists(trace));
  o = run_cli("run ring:6 --config " + config.string() + " --ports all-port");  // the line wins
  ASSERT_EQ(o.code, 0) << o.err;
  j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["topology"], "ring:6");
  EXPECT_EQ(j["port_model"], "all-port");
  std::ofstream(config) << R"({"topology": "ring:8", "collective": "total-exchange", "bogus": 1})";
  expect_refused("run --config " + config.string(), "--config: unknown option \"bogus\"; accepted: topology, collective,");
  expect_refused("run --config " + (scratch() / "none.json").string(), "No such file or directory");
  std::ofstream(config) << "topology = ring:8";
  expect_refused("run --config " + config.string(), "is not JSON");
  expect_refused("run --config /dev/zero", "--config: '/dev/zero' is not a regular file");
}

// The JUnit file a sweep writes, read by Python's XML parser: a suite per algorithm, a
// case per CSV row, a failed row's errors in its <failure>.
TEST(Outputs, SweepJunitParsesAndHasACasePerRow) {
  const fs::path xml = scratch() / "sweep.xml", csv = scratch() / "sweep.csv";
  const Outcome o = run_cli("sweep --engine ref --algorithm message-shift --max-size 8 --no-report --quiet --csv " +
                            csv.string() + " --junit " + xml.string());
  ASSERT_EQ(o.code, 0) << o.err;
  const std::string rows = slurp(csv);
  const long cases = std::count(rows.begin(), rows.end(), '\n') - 1;
  const std::string check = fmt::format(
      "python3 -c \"import xml.etree.ElementTree as E; r=E.parse('{}').getroot(); "
      "c=r.findall('testsuite/testcase'); assert r.tag=='testsuites' and len(c)=={} and int(r.get('tests'))=={}, len(c); "
      "assert all(x.get('classname')=='total-exchange.message-shift' and x.get('name') for x in c); "
      "assert r.get('failures')=='0' and not r.findall('.//failure')\"",
      xml.string(), cases, cases);
  EXPECT_EQ(std::system(check.c_str()), 0) << slurp(xml);
}

TEST(Outputs, OutputsPastMaxOutputAreRefusedUpFrontOrWhenTheyPassIt) {
  // A trace of torus:32x32 gossip has at least 2 x 1024 x 1023 rows: refused before running.
  const fs::path trace = scratch() / "big.csv";
  expect_refused("run torus:32x32 gossip --quiet --max-output 1M --trace " + trace.string(),
                 "trace '" + trace.string() + "' would need at least");
  EXPECT_FALSE(fs::exists(trace));
  // A drawing: nodes x panels x 100 bytes.
  expect_refused("draw torus:64x64 gossip --max-output 100k -o " + (scratch() / "d.svg").string(),
                 "would need at least 400.0 KiB");
  // Counted as written: the estimate passes, the file does not.
  const fs::path svg = scratch() / "small.svg";
  expect_refused("draw torus:4x4 gossip --max-output 2k -o " + svg.string(), "it passed --max-output (2048 bytes)");
  EXPECT_FALSE(fs::exists(svg));
  EXPECT_FALSE(fs::exists(svg.string() + ".tmp"));
}

FIXROUTE_LABEL("rtl", "OutputsRtlWaveform");
// Waveforms of the verilated routers: FST read back by GTKWave's own fst2vcd, a window of
// clock cycles, the save file beside the dump with relative paths, a dump past
// --max-output refused with nothing kept.
TEST(OutputsRtlWaveform, FstWindowAndLimit) {
  const fs::path fst = scratch() / "w.fst", vcd = scratch() / "w.vcd";
  Outcome o = run_cli("run torus:4x4 gossip --engine rtl --quiet --vcd " + fst.string());
  ASSERT_EQ(o.code, 0) << o.err;
  const std::string back = scratch() / "back.vcd";
  ASSERT_EQ(std::system(("fst2vcd " + fst.string() + " > " + back + " 2>/dev/null").c_str()), 0);
  const std::string text = slurp(back);
  EXPECT_THAT(text, HasSubstr("$enddefinitions"));
  EXPECT_THAT(text, HasSubstr("router15"));  // the router array, though torus:4x4 has a network top
  EXPECT_THAT(slurp(scratch() / "w.gtkw"), StartsWith("[dumpfile] \"w.fst\"\n[savefile] \"w.gtkw\"\n"));

  o = run_cli("run torus:4x4 gossip --engine rtl --quiet --vcd " + vcd.string() + " --vcd-from 10 --vcd-to 12");
  ASSERT_EQ(o.code, 0) << o.err;
  const std::string window = slurp(vcd);
  std::vector<long> times;
  for (size_t at = window.find("\n#"); at != std::string::npos; at = window.find("\n#", at + 1))
    times.push_back(std::stol(window.substr(at + 2)));
  EXPECT_EQ(times, (std::vector<long>{20, 21, 22, 23, 24, 25}));

  expect_refused("run torus:4x4 gossip --engine systemc --quiet --vcd " + vcd.string() + " --vcd-from 3",
                 "the systemc engine's waveform has no window");
  expect_refused("run torus:4x4 gossip --engine rtl --quiet --vcd-from 3", "give --vcd FILE");
  const fs::path big = scratch() / "big.vcd";
  expect_refused("run torus:8x8 gossip --engine rtl --quiet --max-output 200k --vcd " + big.string(),
                 "it passed --max-output 200.0 KiB; nothing kept");
  EXPECT_FALSE(fs::exists(big));
  EXPECT_FALSE(fs::exists(big.string() + ".tmp.vcd"));
}

TEST(Outputs, MessagesNameWhatWasAskedAndStayShort) {
  // No --algorithm: the default's refusal is said as the default's, with what runs there.
  expect_refused("run torus:32x32x32 gossip", "no algorithm runs gossip on torus:32x32x32 (all-port/full): the paper's "
                                              "algorithm hamiltonian-2 does not run there");
  // A 5000-character spec is cut in the message.
  std::string spec = "torus:";
  for (int i = 0; i < 2500; ++i) spec += "4x";
  spec += "y";
  const Outcome o = run_cli("run " + spec + " gossip");
  EXPECT_EQ(o.code, 2);
  EXPECT_LT(o.err.size(), 600u) << o.err.size();
  EXPECT_THAT(o.err, HasSubstr("... (5007 characters)"));
  // A permutation file that is a directory.
  expect_refused("run mesh:4x4 permutation --permutation file:" + scratch().string(),
                 "is a directory, not a permutation file");
  // --help lists every topology family; draw's what each kind draws on.
  EXPECT_THAT(run_cli("run --help").out, HasSubstr("complete:N, bsn:BASE, otis:BASE"));
  EXPECT_THAT(run_cli("draw --help").out, HasSubstr("combining rounds (lines, rings, 2D meshes and tori, hypercubes)"));
}

FIXROUTE_LABEL("cosim", "OutputsCosim");
TEST(OutputsCosim, JsonHasOkAndItsFormatWithoutFaults) {
  const Outcome o = run_cli("cosim ring:8 total-exchange --json");
  ASSERT_EQ(o.code, 0) << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["format"], "fixroute-cosim");
}
