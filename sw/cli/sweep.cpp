#include "sweep.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <fstream>

#include "../../tb/run_case.h"
#include "../algorithms/registry.h"
#include "../../tb/engines.h"
#include "../errors.h"
#include "../topology.h"

namespace fixroute {

int run_sweep(const SweepOptions& opt) {
  struct Row {
    const Algorithm* algorithm;
    SweepCase c;
    std::string engine;
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
        if (e->supports(Topology::parse(c.topology))) rows.push_back({&a, c, e->name});
    }
  if (rows.empty()) throw InputError(fmt::format("no sweep cases for algorithm '{}'", opt.algorithm));

  std::ofstream csv(opt.csv_path);
  if (!csv) throw InputError(fmt::format("cannot write '{}'", opt.csv_path));
  csv << "topology,collective,algorithm,port_model,duplex,engine,steps,formula,lower_bound,max_queue,table_bits,"
         "clock_cycles,ok\n";
  fmt::print("{:<14} {:<15} {:<17} {:<14} {:<6} {:>7} {:>7} {:>7} {:>8}  {}\n", "topology", "collective", "algorithm",
             "ports", "engine", "steps", "formula", "bound", "cycles", "ok");
  int failures = 0;
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    RunRequest req;
    req.topology = row.c.topology;
    req.collective = row.algorithm->collective;
    req.algorithm = row.algorithm->name;
    req.engine = row.engine;
    req.port_model = row.c.port_model;
    RunResult r = run_case(req);
    const bool ok = r.ok();
    failures += ok ? 0 : 1;
    const std::string formula = r.formula ? std::to_string(*r.formula) : "-";
    const std::string cycles = r.engine_result.clock_cycles ? std::to_string(*r.engine_result.clock_cycles) : "-";
    fmt::print("{:<14} {:<15} {:<17} {:<14} {:<6} {:>7} {:>7} {:>7} {:>8}  {}\n", r.topology, r.collective, r.algorithm,
               r.port_model.label(), r.engine, r.steps(), formula, r.bounds.best(), cycles, ok ? "ok" : "FAILED");
    csv << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}\n", r.topology, r.collective, r.algorithm,
                       r.port_model.ports_name(), r.port_model.duplex_name(), r.engine, r.steps(),
                       r.formula ? std::to_string(*r.formula) : "", r.bounds.best(), r.engine_result.max_queue,
                       r.table_bits_max, cycles == "-" ? "" : cycles, ok ? "true" : "false");
    if (opt.progress && ((i + 1) % 25 == 0 || i + 1 == rows.size())) {
      std::fflush(stdout);
      fmt::print(stderr, "sweep: {}/{} cases, {} failed\n", i + 1, rows.size(), failures);
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("\n{} runs in {:.1f} s: {} ok, {} failed; rows written to {}\n", rows.size(), seconds,
             rows.size() - static_cast<size_t>(failures), failures, opt.csv_path);
  return failures == 0 ? 0 : 1;
}

}  // namespace fixroute
