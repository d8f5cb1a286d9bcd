#include "engines.h"

#include <fmt/format.h>

#include "../sw/errors.h"

namespace fixroute {

std::vector<Engine>& engine_registry() {
  static std::vector<Engine> registry = {
      {"ref", "C++ step model, the golden reference", run_ref_engine, [](const Topology&) { return true; }, false,
       [](const Topology& t, const XbarTables& x, const EngineOptions&) { return run_xbar_ref(t, x); },
       [](const Topology&) { return true; }},
  };
  return registry;
}

const Engine& find_engine(const std::string& name) {
  std::string accepted;
  for (const Engine& e : engine_registry()) {
    if (e.name == name) return e;
    accepted += (accepted.empty() ? "" : ", ") + e.name;
  }
  throw InputError(fmt::format("unknown engine '{}'; accepted: {}", name, accepted));
}

}  // namespace fixroute
