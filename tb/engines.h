// The engines a run can use, by name (DESIGN.md "Three engines, one trace"). `ref` is
// listed here; the hardware engines register from the files that drive them.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "../sw/circuit/xbar_engine.h"
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
  // The circuit-switched crossbar routers of this engine (sw/circuit/), where it has them.
  std::function<XbarRun(const Topology&, const XbarTables&, const EngineOptions&)> run_xbar = nullptr;
  std::function<bool(const Topology&)> supports_xbar = nullptr;
};

std::vector<Engine>& engine_registry();

// The SystemC crossbar mesh (tb/xbar_systemc_engine.cpp), registered with the systemc engine.
XbarRun run_xbar_systemc(const Topology& topology, const XbarTables& tables, const EngineOptions& options);
// Throws InputError for an unknown engine, naming the registered ones.
const Engine& find_engine(const std::string& name);

struct EngineRegistrar {
  explicit EngineRegistrar(Engine e) { engine_registry().push_back(std::move(e)); }
};

}  // namespace fixroute
