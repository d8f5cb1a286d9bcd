// The `crossbar` router kind: circuit-switched routers whose crossbars are set per routing
// step (sw/kinds/crossbar/tables.h; the circuit-switched row-column mesh paper). Its file
// form, table sizes, lower bounds and scoreboard, and its routers on the ref engine; the
// SystemC and RTL routers register from tb/.
#include <fmt/format.h>

#include "sw/core/algorithm.h"
#include "sw/kinds/crossbar/draw.h"
#include "sw/schedulers/circuit/fft.h"
#include "sw/kinds/crossbar/engine.h"
#include "sw/kinds/crossbar/tables.h"
#include "sw/core/formulas.h"
#include "sw/topology/topology.h"
#include "sw/kinds/crossbar/scoreboard.h"

namespace fixroute {

EngineOutput crossbar_output(XbarRun run) { return engine_output<CircuitTrace>(std::move(run)); }

namespace {

// Lower bounds on routing steps: a holder can at most double per step (broadcast,
// fan-in, prefix); circuits that share a link need as many steps as share it (permutation).
Bounds circuit_bounds(const Topology& mesh, const XbarTables& t) {
  Bounds b;
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
    b.parts.push_back({"doubling", formulas::ceil_log2(mesh.num_nodes()),
                       "the nodes holding a value at most double per routing step"});
  }
  return b;
}

const RouterKindRegistrar crossbar_kind([] {
  RouterKind k;
  k.name = kCrossbarKind;
  k.summary = "circuit-switched routers: a 5x5 crossbar set per routing step (time-dependent)";
  k.switching = "circuit";
  k.needs_algorithm = false;  // tables may name a scheduler this build does not have
  k.write = [](const Tables& t, const Topology&, const std::string& dir, TableForm form) {
    write_xbar_tables(as_kind<XbarTables>(t), dir, form);
  };
  // Tables that keep their circuits store every router's settings before they are written
  // (mesh:1024x1024 transpose: 2^30 settings): the settings and their images.
  k.write_bytes = [](const Tables& t, const Topology& mesh) {
    const XbarTables& x = as_kind<XbarTables>(t);
    return x.circuits ? int64_t{mesh.num_nodes()} * x.steps() * static_cast<int64_t>(sizeof(XbarSetting)) * 2 : int64_t{0};
  };
  k.load = [](const std::string& dir) -> std::shared_ptr<const Tables> {
    return std::make_shared<XbarTables>(load_xbar_tables(dir));
  };
  k.table_bits = [](const Tables& t, const Topology& mesh) {
    return std::vector<int64_t>(static_cast<size_t>(mesh.num_nodes()), xbar_table_bits(as_kind<XbarTables>(t)));
  };
  k.bounds = [](const Tables& t, const Topology& mesh, int) { return circuit_bounds(mesh, as_kind<XbarTables>(t)); };
  // A delivery row per message at the least; the tables, by far the most, are the schedule's.
  k.run_bytes = [](const Topology&, const DemandSize& demand, bool) {
    return demand.packets() * static_cast<int64_t>(sizeof(CircuitEvent));
  };
  k.score = [](const Tables& t, const Topology& mesh, int, const Trace& trace) {
    return score_circuits(mesh, as_kind<XbarTables>(t), as_kind<CircuitTrace>(trace).events);
  };
  k.draw = [](const Problem& problem, const Tables& t, const std::string& title) {
    const XbarTables& x = as_kind<XbarTables>(t);
    const std::string permutation = problem.permutation.empty() ? "" : " " + problem.permutation;
    return draw_circuit_steps(problem.topology, x, fmt::format("{}{}: {} routing steps", title, permutation, x.steps()));
  };
  return k;
}());

const KindRoutersRegistrar crossbar_ref_routers(KindRouters::of(kCrossbarKind, "ref").taking_faults().at_most(3e8).running(
    [](const Topology& mesh, const Tables& t, const EngineOptions& options) {
      return crossbar_output(run_xbar_ref(mesh, as_kind<XbarTables>(t), options));
    }));

}  // namespace
}  // namespace fixroute
