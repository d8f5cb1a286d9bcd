#include "run_case.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "../sw/algorithms/registry.h"
#include "../sw/circuit/registry.h"
#include "../sw/circuit/xbar_tables.h"
#include "../sw/collectives.h"
#include "../sw/errors.h"
#include "../sw/topology.h"
#include "engines.h"

namespace fixroute {

bool RunResult::ok() const {
  return score.clean() && engine_result.failure.empty() && faults.empty() && (!formula || *formula == score.steps);
}

RunResult run_case(const RunRequest& req) {
  if (req.tables_dir.empty() ? is_circuit_collective(req.collective) : is_xbar_table_dir(req.tables_dir))
    return run_circuit_case(req);
  const Engine& engine = find_engine(req.engine);
  NetworkTables tables;
  if (!req.tables_dir.empty()) {
    tables = load_tables(req.tables_dir);
    if (!req.topology.empty() && Topology::parse(req.topology).spec() != tables.topology)
      throw InputError(fmt::format("tables in '{}' are for {}, not {}", req.tables_dir, tables.topology, req.topology));
    if (!req.collective.empty() && req.collective != tables.collective)
      throw InputError(fmt::format("tables in '{}' are for {}, not {}", req.tables_dir, tables.collective, req.collective));
  }
  const Topology topology = Topology::parse(req.tables_dir.empty() ? req.topology : tables.topology);
  const std::string collective_name = req.tables_dir.empty() ? req.collective : tables.collective;
  const Collective& collective = find_collective(collective_name);
  const Algorithm& algorithm =
      find_algorithm(collective.name, req.tables_dir.empty() ? req.algorithm : tables.algorithm, topology);
  const PortModel model = req.tables_dir.empty() ? req.port_model : tables.port_model;
  if (req.tables_dir.empty()) tables = build_tables(algorithm, topology, model);

  RunResult r;
  r.topology = topology.spec();
  r.collective = collective.name;
  r.algorithm = algorithm.name;
  r.engine = engine.name;
  r.port_model = model;
  r.nodes = topology.num_nodes();
  r.formula = algorithm.formula(topology, model);
  if (algorithm.paper_formula) r.paper_formula = algorithm.paper_formula(topology);
  r.construction = tables.construction;
  r.packets_per_node = algorithm.packets_per_node;
  r.bounds = collective.lower_bounds(topology, model, r.packets_per_node);
  for (const RouterTable& rt : tables.routers) {
    int64_t bits = table_bits(rt, topology.num_ports());
    r.table_bits_max = std::max(r.table_bits_max, bits);
    r.table_bits_total += bits;
  }
  const std::vector<Packet> demand = collective.packets(topology, r.packets_per_node);
  r.packets = static_cast<int64_t>(demand.size());
  EngineOptions options;
  options.vcd_path = req.vcd_path;
  r.engine_result = engine.run(topology, tables, options);
  r.score = score_trace(topology, model, demand, r.engine_result.trace);
  if (!req.trace_path.empty()) write_trace(r.engine_result.trace, req.trace_path);
  return r;
}

nlohmann::json to_json(const RunResult& r) {
  using nlohmann::json;
  json bounds = json::object();
  for (const LowerBound& b : r.bounds.parts) bounds[b.name] = b.steps;
  auto optional_int = [](const std::optional<int64_t>& v) { return v ? json(*v) : json(nullptr); };
  return json{{"topology", r.topology},
              {"collective", r.collective},
              {"algorithm", r.algorithm},
              {"engine", r.engine},
              {"port_model", r.port_model.ports_name()},
              {"duplex", r.port_model.duplex_name()},
              {"nodes", r.nodes},
              {"packets", r.packets},
              {"steps", r.steps()},
              {"formula", optional_int(r.formula)},
              {"paper_formula", optional_int(r.paper_formula)},
              {"construction", r.construction.empty() ? json(nullptr) : json(r.construction)},
              {"packets_per_node", r.packets_per_node},
              {"lower_bound", r.bounds.best()},
              {"lower_bounds", bounds},
              {"ok", r.ok()},
              {"scoreboard_clean", r.score.clean()},
              {"needed", r.score.needed},
              {"deliveries", r.score.deliveries},
              {"crossings", r.score.crossings},
              {"errors", r.score.errors},
              {"error_count", r.score.error_count},
              {"engine_failure", r.engine_result.failure.empty() ? json(nullptr) : json(r.engine_result.failure)},
              {"steps_simulated", r.engine_result.steps_simulated},
              {"max_queue", r.engine_result.max_queue},
              {"clock_cycles", optional_int(r.engine_result.clock_cycles)},
              {"overhead_cycles", optional_int(r.engine_result.overhead_cycles)},
              {"table_bits_per_router", r.table_bits_max},
              {"table_bits_total", r.table_bits_total},
              {"switching", r.circuit_switched ? "circuit" : "packet"},
              {"cycles_per_step", optional_int(r.cycles_per_step)},
              {"faults", r.faults}};
}

std::string summary(const RunResult& r) {
  std::string out = fmt::format("{} {} [{}] on engine {} ({})\n", r.topology, r.collective, r.algorithm, r.engine,
                                r.circuit_switched ? "circuit-switched" : r.port_model.label());
  out += fmt::format("  steps        {}\n", r.steps());
  out += fmt::format("  formula      {}\n", r.formula ? std::to_string(*r.formula) : std::string("none stated"));
  if (r.paper_formula) out += fmt::format("  paper        {} (the paper's theorem for its own construction)\n", *r.paper_formula);
  if (!r.construction.empty()) out += fmt::format("  construction {}\n", r.construction);
  out += fmt::format("  lower bound  {}", r.bounds.best());
  for (const LowerBound& b : r.bounds.parts) out += fmt::format("  ({} {}: {})", b.name, b.steps, b.reason);
  out += "\n";
  out += fmt::format("  scoreboard   {} ({} of {} {}, {} {})\n",
                     r.score.clean() ? "clean" : fmt::format("{} error(s)", r.score.error_count), r.score.deliveries,
                     r.score.needed, r.circuit_switched ? "needed" : "receptions", r.score.crossings,
                     r.circuit_switched ? "circuits" : "arc crossings");
  for (const std::string& e : r.score.errors) out += "    " + e + "\n";
  if (!r.engine_result.failure.empty()) out += "  engine       " + r.engine_result.failure + "\n";
  for (const std::string& f : r.faults) out += "  fault        " + f + "\n";
  if (!r.circuit_switched) out += fmt::format("  max queue    {}\n", r.engine_result.max_queue);
  out += fmt::format("  table        {} bits per router (largest), {} in all\n", r.table_bits_max, r.table_bits_total);
  if (r.engine_result.clock_cycles)
    out += fmt::format("  clock cycles {} (+{} reset/load){}\n", *r.engine_result.clock_cycles,
                       r.engine_result.overhead_cycles.value_or(0),
                       r.cycles_per_step ? fmt::format(", {} per routing step", *r.cycles_per_step) : "");
  out += fmt::format("  result       {}\n", r.ok() ? "ok" : "FAILED");
  return out;
}

}  // namespace fixroute
