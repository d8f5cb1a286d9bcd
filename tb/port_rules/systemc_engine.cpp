// The `systemc` engine and its port-rule routers: elaborates a NetworkSc for the topology
// and tables and runs it once (SystemcBench). SystemC elaborates once per process, so one
// process runs one simulation (a CLI run is one). Its crossbar routers register from
// xbar_systemc_engine.cpp.
#include <fmt/format.h>

#include <optional>
#include <systemc>

#include "sw/core/errors.h"
#include "sw/core/faults.h"
#include "sw/core/router_kind.h"
#include "sw/topology/topology.h"
#include "sw/kinds/port_rules/ref_routers.h"
#include "sw/kinds/port_rules/tables.h"
#include "tb/port_rules/systemc_bench.h"
#include "tb/systemc_support.h"

namespace fixroute {

namespace {

EngineResult run_systemc_engine(const Topology& topology, const NetworkTables& tables, const EngineOptions& options) {
  if (topology.num_nodes() > kMaxSystemcNodes)
    throw InputError(fmt::format("the systemc routers carry 16-bit node ids: at most {} nodes, {} has {}",
                                 kMaxSystemcNodes, topology.spec(), topology.num_nodes()));
  claim_systemc_elaboration();
  FaultInjector* faults = options.faults && options.faults->any() ? options.faults : nullptr;
  // A flipped table bit changes a router's table mid-run: the routers read a copy.
  std::optional<NetworkTables> flippable;
  if (faults && faults->has_flips()) flippable = tables;
  SystemcBench bench("bench", topology, flippable ? *flippable : tables, false, faults, flippable ? &*flippable : nullptr);
  VcdFile vcd(options.vcd_path);
  if (vcd.file()) {
    sc_core::sc_trace(vcd.file(), bench.clk, "clk");
    bench.net.trace(vcd.file());
  }
  EngineResult r = bench.run(options);
  r.overhead_cycles = *r.overhead_cycles + 1;  // the reset edge
  return r;
}

const KindRoutersRegistrar systemc_port_rules(
    KindRouters::of(kPortRulesKind, "systemc").taking_faults().streaming().at_most(1e7).running(
        [](const Topology& topology, const Tables& t, const EngineOptions& o) {
          return port_rules_output(
              run_systemc_engine(topology, as_kind<NetworkTables>(t), o));
        }));

}  // namespace

}  // namespace fixroute
