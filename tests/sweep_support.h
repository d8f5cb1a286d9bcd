// Helpers shared by the suites that score runs: a scoreboard's errors as text (every
// scoreboard suite), and the ref-engine sweep of a kind's algorithms (combining, broadcast
// trees, combining sums).
#pragma once
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "sw/core/algorithm.h"
#include "sw/core/router_kind.h"
#include "sw/verify/run_case.h"

namespace fixroute::testing_support {

// A scoreboard's errors, one a line (for a failing expectation's message).
inline std::string all_errors(const ScoreboardReport& report) {
  std::string out;
  for (const std::string& e : report.errors) out += e + "\n";
  return out;
}

// Every sweep case (up to 64 nodes) of every algorithm of `router_kind`, run on the ref
// engine: clean, at the construction's count, never above the paper's, never below the
// lower bound, every needed reception made. Returns how many cases ran.
inline int expect_every_sweep_case_at_its_count(const std::string& router_kind) {
  int cases = 0;
  for (const Algorithm& a : algorithm_registry()) {
    if (a.router_kind != router_kind) continue;
    for (const SweepCase& c : a.sweep(64)) {
      RunRequest req;
      req.topology = c.topology;
      req.collective = c.collective.empty() ? a.collective : c.collective;
      req.algorithm = a.name;
      req.port_model = c.port_model;
      const RunResult r = run_case(req);
      ++cases;
      const std::string label = a.name + " " + c.topology + " " + c.port_model.label();
      EXPECT_TRUE(r.ok()) << label << ": " << summary(r);
      EXPECT_NE(r.meets_paper(), std::optional<bool>(false)) << label;
      EXPECT_GE(r.steps(), r.bounds.best()) << label;
      EXPECT_EQ(r.score.deliveries, r.score.needed) << label;
    }
  }
  return cases;
}

}  // namespace fixroute::testing_support
