// run_circuit_case: a verified run of the circuit-switched mesh (issue 6): schedule (or
// load) crossbar tables -> an engine's crossbar routers -> the circuit scoreboard -> the
// comparison with the paper's count and the lower bounds.
#include <fmt/format.h>

#include "../sw/circuit/fft.h"
#include "../sw/circuit/registry.h"
#include "../sw/circuit/xbar_tables.h"
#include "../sw/errors.h"
#include "../sw/formulas.h"
#include "../sw/topology.h"
#include "circuit_scoreboard.h"
#include "engines.h"
#include "run_case.h"

namespace fixroute {

namespace {

// Lower bounds on routing steps: a holder can at most double per step (broadcast,
// fan-in, prefix); circuits that share a link need as many steps as share it (permutation).
Bounds circuit_bounds(const Topology& mesh, const XbarTables& t) {
  Bounds b;
  const int64_t doubling = formulas::ceil_log2(mesh.num_nodes());
  if (t.collective == "permutation") {
    std::vector<Circuit> direct;
    for (int x = 0; x < mesh.num_nodes(); ++x) direct.push_back({x, t.permutation[static_cast<size_t>(x)]});
    b.parts.push_back({"link-load", max_link_load(mesh, direct),
                       "the most direct row-column circuits that need one link"});
  } else if (t.collective == "fft") {
    int64_t sum = 0;
    for (const FftPhase& p : fft_phases(mesh, t.algorithm)) {
      std::vector<Circuit> moving;
      for (int x = 0; x < mesh.num_nodes(); ++x) moving.push_back({x, p.dest[static_cast<size_t>(x)]});
      sum += std::max<int64_t>(1, max_link_load(mesh, moving));  // a phase takes a step even without links
    }
    b.parts.push_back({"link-load", sum, "per phase, the most row-column circuits that need one link; phases run in turn"});
  } else {
    b.parts.push_back({"doubling", doubling, "the nodes holding a value at most double per routing step"});
  }
  return b;
}

}  // namespace

RunResult run_circuit_case(const RunRequest& req) {
  const Engine& engine = find_engine(req.engine);
  XbarTables tables;
  std::optional<Topology> parsed;
  if (!req.tables_dir.empty()) {
    tables = load_xbar_tables(req.tables_dir);
    parsed = Topology::parse(tables.topology);
    if (!req.topology.empty() && Topology::parse(req.topology).spec() != tables.topology)
      throw InputError(fmt::format("tables in '{}' are for {}, not {}", req.tables_dir, tables.topology, req.topology));
    if (!req.collective.empty() && req.collective != tables.collective)
      throw InputError(fmt::format("tables in '{}' are for {}, not {}", req.tables_dir, tables.collective, req.collective));
  } else {
    parsed = Topology::parse(req.topology);
    const CircuitDemand demand = make_circuit_demand(*parsed, req.collective, req.permutation, req.root);
    tables = circuit_tables(find_circuit_algorithm(req.algorithm, *parsed, demand), *parsed, demand);
  }
  const Topology& mesh = *parsed;
  if (!engine.run_xbar || !engine.supports_xbar(mesh))
    throw InputError(fmt::format("engine '{}' has no crossbar routers for {}", engine.name, mesh.spec()));

  RunResult r;
  r.circuit_switched = true;
  r.topology = mesh.spec();
  r.collective = tables.collective;
  r.algorithm = tables.algorithm;
  r.engine = engine.name;
  r.nodes = mesh.num_nodes();
  r.construction = tables.construction;
  if (const CircuitAlgorithm* a = registered_circuit_algorithm(tables.algorithm, tables.collective)) {
    r.formula = a->formula(mesh);
    if (a->paper_formula) r.paper_formula = a->paper_formula(mesh);
  }
  r.bounds = circuit_bounds(mesh, tables);
  r.table_bits_max = xbar_table_bits(tables);
  r.table_bits_total = r.table_bits_max * mesh.num_nodes();
  EngineOptions options;
  options.vcd_path = req.vcd_path;
  XbarRun run = engine.run_xbar(mesh, tables, options);
  r.engine_result.failure = run.failure;
  r.engine_result.steps_simulated = run.steps_simulated;
  r.engine_result.clock_cycles = run.clock_cycles;
  r.engine_result.overhead_cycles = run.overhead_cycles;
  r.cycles_per_step = run.cycles_per_step;
  r.faults = run.faults;
  r.score = score_circuits(mesh, tables, run.trace);
  r.packets = r.score.needed;
  r.circuit_trace = std::move(run.trace);
  if (!req.trace_path.empty()) write_circuit_trace(r.circuit_trace, req.trace_path);
  return r;
}

}  // namespace fixroute
