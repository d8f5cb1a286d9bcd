#include "port_rules.h"

#include <algorithm>

#include "sw/topology/topology.h"

namespace fixroute {

std::function<std::shared_ptr<const Tables>(const Problem&)> port_rules_build(
    std::function<NetworkTables(const Topology&)> builder) {
  return [builder = std::move(builder)](const Problem& p) -> std::shared_ptr<const Tables> {
    auto tables = std::make_shared<NetworkTables>(builder(p.topology));
    apply_port_model(*tables, p.topology, p.port_model);
    // Tables list initial packets in release order (hardware walks them with one pointer).
    const auto by_release = [](const InitialPacket& a, const InitialPacket& b) { return a.release < b.release; };
    for (RouterTable& r : tables->routers)  // most are in order already (stable_sort would allocate anyway)
      if (!std::is_sorted(r.initial.begin(), r.initial.end(), by_release))
        std::stable_sort(r.initial.begin(), r.initial.end(), by_release);
    validate(*tables, p.topology);
    return tables;
  };
}

std::function<std::string(const Problem&)> on_topology(std::function<std::string(const Topology&)> rule) {
  return [rule = std::move(rule)](const Problem& p) {
    if (std::string why = port_model_refusal(p.topology, p.port_model); !why.empty()) return why;
    return rule(p.topology);
  };
}

std::function<std::optional<int64_t>(const Problem&)> all_port_only(std::function<int64_t(const Topology&)> formula) {
  return [formula = std::move(formula)](const Problem& p) -> std::optional<int64_t> {
    if (!p.port_model.is_default()) return std::nullopt;
    return formula(p.topology);
  };
}

const Algorithm& find_algorithm(const std::string& collective, const std::string& name, const Topology& topology) {
  return find_algorithm(Problem{topology, collective, {}, "", 0}, name);
}

NetworkTables build_tables(const Algorithm& algorithm, const Topology& topology, const PortModel& model) {
  return as_kind<NetworkTables>(*algorithm.build(Problem{topology, algorithm.collective, model, "", 0}));
}

}  // namespace fixroute
