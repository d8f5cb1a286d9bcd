// The store-and-forward schedulers' side of the algorithm registry (core/algorithm.h):
// how a port-rule builder becomes an Algorithm's `build`, and typed access to the tables
// for the tests, the drawing and the tools.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "sw/core/algorithm.h"
#include "sw/topology/port_model.h"
#include "sw/kinds/port_rules/tables.h"

namespace fixroute {

class Topology;

// An Algorithm's `build` from a builder of all-port full-duplex tables: the problem's port
// model applied (apply_port_model), initial packets in release order, validated.
std::function<std::shared_ptr<const Tables>(const Problem&)> port_rules_build(
    std::function<NetworkTables(const Topology&)> builder);

// Adapters from the topology-only rules most port-rule schedulers state (the port model
// checked first: port_model_refusal).
std::function<std::string(const Problem&)> on_topology(std::function<std::string(const Topology&)> rule);
// A formula stated for the all-port full-duplex routers only (nullopt under other models).
std::function<std::optional<int64_t>(const Problem&)> all_port_only(std::function<int64_t(const Topology&)> formula);

// The algorithm `name` (empty: the default) for a store-and-forward collective on `topology`
// with default options; throws InputError as find_algorithm does.
const Algorithm& find_algorithm(const std::string& collective, const std::string& name, const Topology& topology);

// The port-rule tables of `algorithm` for `topology` under `model` (validated).
NetworkTables build_tables(const Algorithm& algorithm, const Topology& topology, const PortModel& model);

}  // namespace fixroute
