// Every algorithm of every router kind on every topology family, at small sizes, under every
// port model: a run is either refused up front (InputError: the CLI's exit 2) or verified
// (ok, never below its lower bound) -- never accepted and then failed (exit 1).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sw/core/algorithm.h"
#include "sw/core/collectives.h"
#include "sw/core/errors.h"
#include "sw/verify/run_case.h"

namespace fixroute {
namespace {

const std::vector<std::string>& family_specs() {
  static const std::vector<std::string> specs = {
      "line:2",      "line:3",       "line:5",       "ring:3",         "ring:4",          "ring:5",
      "ring:8",      "mesh:2x2",     "mesh:3x4",     "mesh:4x4",     "mesh:2x2x2",   "mesh:2x3x4",     "torus:3x3",      "torus:4x4",       "torus:3x4",
      "torus:3x3x3", "torus:4x4x4",  "hypercube:1",  "hypercube:2",    "hypercube:3",     "hypercube:4",
      "complete:2",  "complete:3",   "complete:4",   "complete:5",     "complete:8",      "bsn:line:2",
      "bsn:line:3",  "bsn:hypercube:3", "bsn:mesh:3x3", "otis:mesh:3x3",  "bsn:ring:4",   "bsn:mesh:2x2", "bsn:hypercube:2", "bsn:complete:3", "otis:line:3",
      "otis:ring:5", "otis:mesh:2x2", "otis:complete:3", "otis:hypercube:3", "otis:torus:3x3",
      "graph:" FIXROUTE_SOURCE_DIR "/tests/graphs/floorplan7.txt",
      "graph:" FIXROUTE_SOURCE_DIR "/tests/graphs/torus4x5_missing_link.txt",
      "otis:graph:" FIXROUTE_SOURCE_DIR "/tests/graphs/floorplan7.txt",
      "bsn:graph:" FIXROUTE_SOURCE_DIR "/tests/graphs/floorplan7.txt"};
  return specs;
}

std::vector<PortModel> port_models() {
  std::vector<PortModel> models;
  for (const char* ports : {"all-port", "1-port"})
    for (const char* duplex : {"full", "half"})
      for (bool combining : {false, true}) models.push_back(PortModel::parse(ports, duplex, combining));
  return models;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const Algorithm& a : algorithm_registry()) names.push_back(a.name + "@" + a.collective);
  return names;
}

// Runs `name` (empty: the default) for `collective` on every family under every port model:
// each case refused (InputError) or verified. Returns how many ran.
int expect_refused_or_verified(const std::string& name, const std::string& family) {
  // Your own traffic (flows:FILE) by the tests' own file; its nodes run to 19, so smaller
  // networks refuse it.
  const std::string collective =
      family == "flows" ? "flows:" FIXROUTE_SOURCE_DIR "/tests/graphs/torus4x5_60_flows.txt" : family;
  const Collective& c = find_collective(collective);
  std::vector<std::string> permutations = {""};
  if (c.takes_permutation) permutations = {"transpose", "random:7", "bit-reversal", "perfect-shuffle", "bit-complement"};
  int ran = 0, refused = 0;
  for (const std::string& spec : family_specs())
    for (const PortModel& model : port_models())
      for (const std::string& permutation : permutations)
        for (int root : c.takes_root ? std::vector<int>{0, 1} : std::vector<int>{0}) {
          RunRequest req;
          req.topology = spec;
          req.collective = collective;
          req.algorithm = name;
          req.port_model = model;
          req.permutation = permutation;
          req.root = root;
          req.max_seconds = 20;  // a case estimated to take longer is refused, as the CLI's --max-time would
          // An exact search's time (the others refuse one).
          req.budget_seconds = name == "tdm-exact" ? 1 : name == "trees-exact" || name == "generic-tree-exact" ? 0.05 : 0;
          const std::string label = spec + " " + model.label() + (model.combining ? " combining" : "") +
                                    (permutation.empty() ? "" : " " + permutation) + " root " + std::to_string(root);
          try {
            const RunResult r = run_case(req);
            ++ran;
            EXPECT_TRUE(r.ok()) << (name.empty() ? r.algorithm + " (the default)" : name) << " on " << label << " was accepted and failed:\n" << summary(r);
            EXPECT_GE(r.steps(), r.bounds.best()) << name << " on " << label;
          } catch (const InputError&) {
            ++refused;
          }
        }
  ::testing::Test::RecordProperty("refused", refused);
  return ran;
}

class EveryFamily : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryFamily, AcceptedRunsVerify) {
  const std::string name = GetParam().substr(0, GetParam().find('@'));
  const std::string collective = GetParam().substr(GetParam().find('@') + 1);
  EXPECT_GT(expect_refused_or_verified(name, collective), 0) << name << " ran on none of the families";
}

// The default (no --algorithm) of every collective: the best algorithm that runs, verified.
TEST(EveryFamilyDefault, EveryCollectivesDefaultIsRefusedOrVerified) {
  for (const Collective& c : collectives())
    EXPECT_GT(expect_refused_or_verified("", c.name), 0) << "no default ran " << c.name;
}

std::string param_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string out;
  for (char ch : info.param) out += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return out;
}

INSTANTIATE_TEST_SUITE_P(Algorithms, EveryFamily, ::testing::ValuesIn(algorithm_names()), param_name);

}  // namespace
}  // namespace fixroute
