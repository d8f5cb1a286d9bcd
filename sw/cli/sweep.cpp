#include "sweep.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "child_run.h"
#include "sw/core/algorithm.h"
#include "sw/core/errors.h"
#include "sw/core/partial_output.h"
#include "sw/topology/topology.h"
#include "sw/verify/run_case.h"

namespace fixroute {

namespace {

// A CSV field as RFC 4180 writes it: quoted where it holds a comma or a quote
// (permutations such as bpc:1,3,2,0:1010).
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string text(const nlohmann::json& v) { return v.is_null() ? "" : v.dump(); }
std::string shown(const nlohmann::json& v) { return v.is_null() ? std::string("-") : v.dump(); }

}  // namespace

int run_sweep(const SweepOptions& opt) {
  struct Row {
    const Algorithm* algorithm;
    SweepCase c;
    const Engine* engine;
  };
  std::vector<const Engine*> engines;
  if (opt.engines.empty()) {
    for (const Engine& e : engine_registry()) engines.push_back(&e);
  } else {
    for (const std::string& name : opt.engines) engines.push_back(&find_engine(name));
  }
  std::vector<Row> rows;
  for (const Engine* e : engines)
    for (const Algorithm& a : algorithm_registry()) {
      if (!opt.algorithm.empty() && a.name != opt.algorithm) continue;
      for (const SweepCase& c : a.sweep(opt.max_size))
        if (engine_runs(*e, a.router_kind, Topology::parse(c.topology))) rows.push_back({&a, c, e});
    }
  if (rows.empty()) throw InputError(fmt::format("no sweep cases for algorithm '{}'", opt.algorithm));

  // Written to PATH.tmp and renamed when every row is in: an interrupted sweep leaves no
  // half-written results.
  PartialOutput csv_file(opt.csv_path);
  std::ofstream csv(csv_file.temp());
  if (!csv) throw InputError(fmt::format("cannot write '{}'", opt.csv_path));
  csv << "topology,collective,algorithm,port_model,duplex,engine,steps,formula,paper_formula,lower_bound,max_queue,"
         "table_bits,clock_cycles,ok,permutation,meets_paper,combining,buffers\n";
  const char* layout = "{:<14} {:<15} {:<21} {:<24} {:<8} {:>7} {:>7} {:>7} {:>7} {:>8}  {:<6} {}\n";
  fmt::print(layout, "topology", "collective", "algorithm", "ports", "engine", "steps", "formula", "paper", "bound",
             "cycles", "ok", "paper");
  int failures = 0;
  std::vector<std::string> above_paper;
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    RunRequest req;
    req.topology = row.c.topology;
    req.collective = row.algorithm->collective;
    req.algorithm = row.algorithm->name;
    req.engine = row.engine->name;
    req.port_model = row.c.port_model;
    req.permutation = row.c.permutation;
    req.keep_trace = false;
    const nlohmann::json r = run_reported(req);
    const bool ok = r["ok"].get<bool>();
    failures += ok ? 0 : 1;
    const nlohmann::json& meets = r["meets_paper"];
    if (meets.is_boolean() && !meets.get<bool>())
      above_paper.push_back(fmt::format("{} {} [{}] on {}: {} steps, the paper's theorem {}",
                                        r["topology"].get<std::string>(), r["collective"].get<std::string>(),
                                        r["algorithm"].get<std::string>(), r["engine"].get<std::string>(),
                                        shown(r["steps"]),
                                        shown(r["paper_formula"].is_null() ? r["formula"] : r["paper_formula"])));
    const bool circuit = r["switching"] == "circuit";
    fmt::print(layout, r["topology"].get<std::string>(), r["collective"].get<std::string>(),
               r["algorithm"].get<std::string>(), circuit ? "circuit" : row.c.port_model.label(),
               r["engine"].get<std::string>(), shown(r["steps"]), shown(r["formula"]), shown(r["paper_formula"]),
               shown(r["lower_bound"]), shown(r["clock_cycles"]), ok ? "ok" : "FAILED",
               meets.is_null() ? "-" : meets.get<bool>() ? "meets" : "ABOVE");
    csv << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", r["topology"].get<std::string>(),
                       r["collective"].get<std::string>(), r["algorithm"].get<std::string>(),
                       r["port_model"].get<std::string>(), r["duplex"].get<std::string>(),
                       r["engine"].get<std::string>(), text(r["steps"]), text(r["formula"]),
                       text(r["paper_formula"]), text(r["lower_bound"]), text(r["max_queue"]),
                       text(r["table_bits_per_router"]), text(r["clock_cycles"]), ok ? "true" : "false",
                       csv_field(row.c.permutation), text(meets), row.c.port_model.combining ? "true" : "false",
                       text(r["buffers"]));
    if (opt.progress && ((i + 1) % 25 == 0 || i + 1 == rows.size())) {
      std::fflush(stdout);
      fmt::print(stderr, "sweep: {}/{} runs, {} failed\n", i + 1, rows.size(), failures);
    }
  }
  csv.close();
  if (!csv) throw InputError(fmt::format("cannot write '{}'", opt.csv_path));
  csv_file.commit();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("\n{} runs in {:.1f} s: {} ok, {} failed; rows written to {}\n", rows.size(), seconds,
             rows.size() - static_cast<size_t>(failures), failures, opt.csv_path);
  fmt::print("{} row(s) above the paper's theorem{}\n", above_paper.size(), above_paper.empty() ? "" : ":");
  for (const std::string& line : above_paper) fmt::print("  {}\n", line);
  return failures == 0 ? 0 : 1;
}

}  // namespace fixroute
