#include "engines.h"

#include <fmt/format.h>

#include "../sw/errors.h"

namespace fixroute {

const std::vector<std::string>& engine_names() {
  static const std::vector<std::string> names = {"ref", "systemc", "rtl"};
  return names;
}

std::vector<Engine>& engine_registry() {
  static std::vector<Engine> registry = {
      {"ref", "C++ step model, the golden reference", run_ref_engine, [](const Topology&) { return true; }},
  };
  return registry;
}

const Engine& find_engine(const std::string& name) {
  for (const Engine& e : engine_registry())
    if (e.name == name) return e;
  for (const std::string& known : engine_names())
    if (known == name) {
      std::string built;
      for (const Engine& e : engine_registry()) built += (built.empty() ? "" : ", ") + e.name;
      throw InputError(fmt::format("engine '{}' is not part of this build; built: {}", name, built));
    }
  throw InputError(fmt::format("unknown engine '{}'; accepted: {}", name, fmt::join(engine_names(), ", ")));
}

}  // namespace fixroute
