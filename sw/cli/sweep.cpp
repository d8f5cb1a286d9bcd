#include "sweep.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <fstream>

#include "../../tb/run_case.h"
#include "../algorithms/registry.h"
#include "../errors.h"

namespace fixroute {

int run_sweep(const SweepOptions& opt) {
  struct Row {
    const Algorithm* algorithm;
    SweepCase c;
  };
  std::vector<Row> rows;
  for (const Algorithm& a : algorithm_registry()) {
    if (!opt.algorithm.empty() && a.name != opt.algorithm) continue;
    for (const SweepCase& c : a.sweep(opt.max_size)) rows.push_back({&a, c});
  }
  if (rows.empty()) throw InputError(fmt::format("no sweep cases for algorithm '{}'", opt.algorithm));

  std::ofstream csv(opt.csv_path);
  if (!csv) throw InputError(fmt::format("cannot write '{}'", opt.csv_path));
  csv << "topology,collective,algorithm,port_model,duplex,engine,steps,formula,lower_bound,max_queue,table_bits,ok\n";
  fmt::print("{:<14} {:<15} {:<17} {:<14} {:>7} {:>7} {:>7}  {}\n", "topology", "collective", "algorithm", "ports",
             "steps", "formula", "bound", "ok");
  int failures = 0;
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    RunRequest req;
    req.topology = row.c.topology;
    req.collective = row.algorithm->collective;
    req.algorithm = row.algorithm->name;
    req.engine = opt.engine;
    req.port_model = row.c.port_model;
    RunResult r = run_case(req);
    const bool ok = r.ok();
    failures += ok ? 0 : 1;
    const std::string formula = r.formula ? std::to_string(*r.formula) : "-";
    fmt::print("{:<14} {:<15} {:<17} {:<14} {:>7} {:>7} {:>7}  {}\n", r.topology, r.collective, r.algorithm,
               r.port_model.label(), r.steps(), formula, r.bounds.best(), ok ? "ok" : "FAILED");
    csv << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", r.topology, r.collective, r.algorithm,
                       r.port_model.ports_name(), r.port_model.duplex_name(), r.engine, r.steps(),
                       r.formula ? std::to_string(*r.formula) : "", r.bounds.best(), r.engine_result.max_queue,
                       r.table_bits_max, ok ? "true" : "false");
    if (opt.progress && ((i + 1) % 25 == 0 || i + 1 == rows.size())) {
      std::fflush(stdout);
      fmt::print(stderr, "sweep: {}/{} cases, {} failed\n", i + 1, rows.size(), failures);
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("\n{} cases on engine {} in {:.1f} s: {} ok, {} failed; rows written to {}\n", rows.size(), opt.engine,
             seconds, rows.size() - static_cast<size_t>(failures), failures, opt.csv_path);
  return failures == 0 ? 0 : 1;
}

}  // namespace fixroute
