#include "sweep.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unistd.h>

#include "../../tb/run_case.h"
#include "../algorithms/registry.h"
#include "../circuit/registry.h"
#include "../../tb/engines.h"
#include "../errors.h"
#include "../topology.h"

namespace fixroute {

namespace {

// `fixroute run ... --json` in a child process of this same executable, for engines that
// run once per process. Returns its JSON report.
nlohmann::json run_in_child(const RunRequest& req) {
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (len <= 0) throw std::runtime_error("cannot find this executable to run a child process");
  self[len] = '\0';
  std::string cmd = fmt::format("'{}' run {} {} --algorithm {} --engine {} --ports {} --duplex {} --json", self,
                                req.topology, req.collective, req.algorithm, req.engine, req.port_model.ports_name(),
                                req.port_model.duplex_name());
  if (!req.permutation.empty()) cmd += " --permutation " + req.permutation;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot start: " + cmd);
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof(buf), pipe)) out.append(buf, n);
  int status = pclose(pipe);
  try {
    return nlohmann::json::parse(out);
  } catch (const nlohmann::json::exception&) {
    throw std::runtime_error(fmt::format("child run failed (status {}): {}", status, cmd));
  }
}

std::string text(const nlohmann::json& v) { return v.is_null() ? "" : v.dump(); }

}  // namespace

int run_sweep(const SweepOptions& opt) {
  struct Row {
    std::string name, collective;
    SweepCase c;
    const Engine* engine;
    std::string permutation;  // circuit-switched rows: the --permutation value
    bool circuit = false;
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
        if (e->supports(Topology::parse(c.topology))) rows.push_back({a.name, a.collective, c, e, "", false});
    }
  // Circuit-switched meshes: sides up to 16 (or --max-size), the hardware's curated sizes.
  const int max_side = std::min(opt.max_size, 16);
  for (const Engine* e : engines)
    for (const CircuitAlgorithm& a : circuit_algorithm_registry()) {
      if ((!opt.algorithm.empty() && a.name != opt.algorithm) || !e->run_xbar) continue;
      for (const auto& [mesh, permutation] : a.sweep(max_side))
        if (e->supports_xbar(Topology::parse(mesh)))
          rows.push_back({a.name, a.collective, SweepCase{mesh, PortModel{}}, e, permutation, true});
    }
  if (rows.empty()) throw InputError(fmt::format("no sweep cases for algorithm '{}'", opt.algorithm));

  std::ofstream csv(opt.csv_path);
  if (!csv) throw InputError(fmt::format("cannot write '{}'", opt.csv_path));
  csv << "topology,collective,algorithm,port_model,duplex,engine,steps,formula,paper_formula,lower_bound,max_queue,"
         "table_bits,clock_cycles,ok,permutation\n";
  const char* layout = "{:<14} {:<15} {:<17} {:<14} {:<8} {:>7} {:>7} {:>7} {:>7} {:>8}  {}\n";
  fmt::print(layout, "topology", "collective", "algorithm", "ports", "engine", "steps", "formula", "paper", "bound",
             "cycles", "ok");
  int failures = 0;
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    RunRequest req;
    req.topology = row.c.topology;
    req.collective = row.collective;
    req.algorithm = row.name;
    req.engine = row.engine->name;
    req.port_model = row.c.port_model;
    req.permutation = row.permutation;
    const nlohmann::json r = row.engine->one_run_per_process ? run_in_child(req) : to_json(run_case(req));
    const bool ok = r["ok"].get<bool>();
    failures += ok ? 0 : 1;
    auto shown = [](const nlohmann::json& v) { return v.is_null() ? std::string("-") : v.dump(); };
    fmt::print(layout, r["topology"].get<std::string>(), r["collective"].get<std::string>(),
               r["algorithm"].get<std::string>(), row.circuit ? "circuit" : row.c.port_model.label(),
               r["engine"].get<std::string>(),
               shown(r["steps"]), shown(r["formula"]), shown(r["paper_formula"]), shown(r["lower_bound"]),
               shown(r["clock_cycles"]), ok ? "ok" : "FAILED");
    csv << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", r["topology"].get<std::string>(),
                       r["collective"].get<std::string>(), r["algorithm"].get<std::string>(),
                       r["port_model"].get<std::string>(), r["duplex"].get<std::string>(),
                       r["engine"].get<std::string>(), text(r["steps"]), text(r["formula"]),
                       text(r["paper_formula"]), text(r["lower_bound"]),
                       text(r["max_queue"]), text(r["table_bits_per_router"]), text(r["clock_cycles"]),
                       ok ? "true" : "false", row.permutation);
    if (opt.progress && ((i + 1) % 25 == 0 || i + 1 == rows.size())) {
      std::fflush(stdout);
      fmt::print(stderr, "sweep: {}/{} runs, {} failed\n", i + 1, rows.size(), failures);
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("\n{} runs in {:.1f} s: {} ok, {} failed; rows written to {}\n", rows.size(), seconds,
             rows.size() - static_cast<size_t>(failures), failures, opt.csv_path);
  return failures == 0 ? 0 : 1;
}

}  // namespace fixroute
