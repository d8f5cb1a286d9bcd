#include "sw/core/version.h"
#include "table4.h"

#include <fmt/format.h>

#include <iostream>
#include <stdexcept>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "child_run.h"
#include "sw/core/algorithm.h"
#include "sw/core/router_kind.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace {

// A column of Table 4 (or beyond it): the network family, its bases in growing size, and
// the paper's closed forms (N the node count) for broadcast, prefix sum and data sum.
struct Family {
  const char* name;
  const char* forms;  // "-": the paper states none
  std::vector<std::string> (*bases)(int max_nodes);
  const char* prefix;  // "bsn:" or "otis:"
};

// Bases of n nodes while the swapped network (2 n^2 nodes for BSN, n^2 for OTIS) fits.
template <class Spec>
std::vector<std::string> growing(int first, int max_nodes, int copies, Spec spec) {
  std::vector<std::string> out;
  for (int k = first;; ++k) {
    const std::string base = spec(k);
    const int64_t n = Topology::parse(base).num_nodes();
    if (copies * n * n > max_nodes) break;
    out.push_back(base);
  }
  return out;
}

std::string line(int n) { return fmt::format("line:{}", n); }
std::string ring(int n) { return fmt::format("ring:{}", n); }
std::string square(int k) { return fmt::format("mesh:{}x{}", k, k); }
std::string complete(int n) { return fmt::format("complete:{}", n); }
std::string cube(int d) { return fmt::format("hypercube:{}", d); }

const Family kFamilies[] = {
    {"OTIS-Mesh", "4 N^(1/4) - 3 / 8 N^(1/4) - 6 / 8 N^(1/4) - 7", [](int m) { return growing(2, m, 1, square); }, "otis:"},
    {"BSN-Array", "sqrt(2N) / 2 sqrt(2N) - 1 / (3/2) sqrt(2N) - 1", [](int m) { return growing(2, m, 2, line); }, "bsn:"},
    {"BSN-Mesh", "2 (8N)^(1/4) - 2 / 4 (8N)^(1/4) - 5 / 3 (8N)^(1/4) - 4", [](int m) { return growing(2, m, 2, square); }, "bsn:"},
    {"BSN-Complete", "4 / 7 / 5", [](int m) { return growing(2, m, 2, complete); }, "bsn:"},
    {"BSN-Hypercube", "2 D + 2 / - / - (beyond the paper)", [](int m) { return growing(1, m, 2, cube); }, "bsn:"},
    {"BSN-Ring", "2 D + 2 / - / - (beyond the paper)", [](int m) { return growing(3, m, 2, ring); }, "bsn:"},
};

const char* const kOperations[] = {"broadcast", "prefix", "data-sum"};

}  // namespace

// The router kind the table's algorithms produce tables for (the summing routers).
static const std::string& data_sum_router_kind() {
  for (const Algorithm& a : algorithm_registry())
    if (a.collective == "data-sum") return a.router_kind;
  throw std::logic_error("no algorithm for data-sum is registered");
}

int run_table4(const Table4Options& options) {
  nlohmann::json rows = nlohmann::json::array();
  int failures = 0;
  const char* layout = "{:<14} {:<22} {:>6}  {:<14} {:<14} {:<14} {}\n";
  if (!options.json) {
    fmt::print("Table 4 of the biswapped-network paper, measured: rounds of the summing routers on the {} engine,\n"
               "each run checked by the scoreboard; the paper's closed form in parentheses (- where it states none).\n\n",
               options.engine);
  }
  for (const Family& family : kFamilies) {
    const std::vector<std::string> bases = family.bases(options.max_nodes);
    if (bases.empty()) continue;
    if (!options.json) {
      fmt::print("{} -- paper: broadcast / prefix / data sum = {}\n", family.name, family.forms);
      fmt::print(layout, "network", "spec", "N", "broadcast", "prefix", "data sum", "lower bound (bc/prefix/sum)");
    }
    for (const std::string& base : bases) {
      const std::string spec = family.prefix + base;
      if (!engine_runs(find_engine(options.engine), data_sum_router_kind(), Topology::parse(spec))) {
        if (!options.json) fmt::print("{:<14} {:<22} not run: the {} engine has no build that holds it\n", family.name, spec, options.engine);
        continue;
      }
      nlohmann::json row = {{"network", family.name}, {"spec", spec}};
      std::vector<std::string> cells, bounds;
      for (const char* op : kOperations) {
        RunRequest req;
        req.topology = spec;
        req.collective = op;
        req.engine = options.engine;
        req.keep_trace = false;
        const nlohmann::json r = run_reported(req);
        const bool ok = r["ok"].get<bool>();
        failures += ok ? 0 : 1;
        row["nodes"] = r["nodes"];
        row[op] = {{"steps", r["steps"]}, {"paper", r["paper_formula"]}, {"lower_bound", r["lower_bound"]}, {"ok", ok}};
        cells.push_back(fmt::format("{} ({}){}", shown(r["steps"]), shown(r["paper_formula"]), ok ? "" : " FAILED"));
        bounds.push_back(shown(r["lower_bound"]));
      }
      if (!options.json)
        fmt::print(layout, family.name, spec, row["nodes"].get<int>(), cells[0], cells[1], cells[2],
                   fmt::format("{} / {} / {}", bounds[0], bounds[1], bounds[2]));
      rows.push_back(std::move(row));
    }
    if (!options.json) fmt::print("\n");
  }
  if (options.json) {
    std::cout << stamped("fixroute-table4", nlohmann::json{{"engine", options.engine}, {"max_nodes", options.max_nodes}, {"rows", rows}})
                     .dump()
              << "\n";
  } else {
    fmt::print("{} runs, {} failed\n", rows.size() * 3, failures);
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace fixroute
