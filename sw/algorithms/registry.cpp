#include "registry.h"

#include <fmt/format.h>

#include <algorithm>

#include "../collectives.h"
#include "../errors.h"
#include "../topology.h"

namespace fixroute {

std::vector<SweepCase> torus_2d_cases(int max_size, bool a_size_even) {
  std::vector<SweepCase> out;
  const int top = std::min(max_size, 16);
  for (int a = 3; a <= top; ++a)
    for (int b = 3; b <= top; ++b)
      if (!a_size_even || a % 2 == 0 || b % 2 == 0) out.push_back({fmt::format("torus:{}x{}", a, b), {}});
  return out;
}

std::vector<Algorithm>& algorithm_registry() {
  static std::vector<Algorithm> registry;
  return registry;
}

const Algorithm& find_algorithm(const std::string& collective, const std::string& name, const Topology& topology) {
  find_collective(collective);  // an unknown collective is reported as such
  std::vector<std::string> applicable;
  const Algorithm* by_default = nullptr;
  for (const Algorithm& a : algorithm_registry()) {
    if (a.collective != collective) continue;
    std::string why = a.unsupported(topology);
    if (a.name == name) {
      if (!why.empty())
        throw InputError(fmt::format("algorithm '{}' does not run on {}: {}", name, topology.spec(), why));
      return a;
    }
    if (why.empty()) {
      applicable.push_back(a.name);
      if (!by_default && a.is_default(topology)) by_default = &a;
    }
  }
  std::string accepted = applicable.empty() ? "none yet" : fmt::format("{}", fmt::join(applicable, ", "));
  if (name.empty()) {
    if (by_default) return *by_default;
    throw InputError(fmt::format("no algorithm for {} on {}; accepted: {}", collective, topology.spec(), accepted));
  }
  throw InputError(fmt::format("unknown algorithm '{}' for {} on {}; accepted: {}", name, collective,
                               topology.spec(), accepted));
}

NetworkTables build_tables(const Algorithm& algorithm, const Topology& topology, const PortModel& model) {
  NetworkTables tables = algorithm.build(topology);
  apply_port_model(tables, topology, model);
  // Tables list initial packets in release order (hardware walks them with one pointer).
  for (RouterTable& r : tables.routers)
    std::stable_sort(r.initial.begin(), r.initial.end(),
                     [](const InitialPacket& a, const InitialPacket& b) { return a.release < b.release; });
  validate(tables, topology);
  return tables;
}

}  // namespace fixroute
