// The engines a run can use, by name (DESIGN.md "Three engines, one trace"). `ref` is
// always built; hardware engines register here from the files that drive them.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "../sw/ref_engine.h"

namespace fixroute {

struct Engine {
  std::string name;
  std::string summary;
  std::function<EngineResult(const Topology&, const NetworkTables&, const EngineOptions&)> run;
  // Whether this build can run `topology` (hardware engines have curated sizes).
  std::function<bool(const Topology&)> supports = [](const Topology&) { return true; };
  // SystemC elaborates once per process: callers running many cases (the sweep) must give
  // each run of such an engine its own process.
  bool one_run_per_process = false;
};

// Every engine name the command line accepts, built into this binary or not.
const std::vector<std::string>& engine_names();
std::vector<Engine>& engine_registry();
// Throws InputError for an unknown engine or one this build does not include.
const Engine& find_engine(const std::string& name);

struct EngineRegistrar {
  explicit EngineRegistrar(Engine e) { engine_registry().push_back(std::move(e)); }
};

}  // namespace fixroute
