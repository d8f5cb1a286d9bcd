// The systemc engine's circuit-switched runs: a MeshXbarSc on its own clock, a monitor
// at every falling edge recording each delivered message as a circuit, until every
// router has done its routing steps (or the cycle watchdog). One run per process.
#include <fmt/format.h>

#include <systemc>

#include <algorithm>

#include "sw/topology/topology.h"
#include "systemc/crossbar/fr_xbar_router_sc.h"
#include "sw/kinds/crossbar/engine.h"
#include "sw/kinds/crossbar/tables.h"
#include "tb/systemc_support.h"

namespace fixroute {

namespace {

class XbarBench : public sc_core::sc_module {
 public:
  sc_core::sc_clock clk;
  sc_core::sc_signal<bool> reset;
  MeshXbarSc mesh;

  XbarBench(sc_core::sc_module_name name, const Topology& topology, const XbarTables& tables, FaultInjector* faults)
      : sc_core::sc_module(name), clk("clk", kClockPeriod), mesh("mesh", topology, tables, faults), tables_(tables) {
    mesh.clk(clk);
    mesh.reset(reset);
    SC_HAS_PROCESS(XbarBench);
    SC_METHOD(monitor);
    sensitive << clk.negedge_event();
    dont_initialize();
  }

  XbarRun run() {
    reset.write(true);
    sc_core::sc_start(kClockPeriod);  // the reset edge
    reset.write(false);
    running_ = true;
    sc_core::sc_start();
    run_.overhead_cycles = 1;
    run_.clock_cycles = cycles_;
    run_.cycles_per_step = tables_.step_cycles;
    run_.steps_simulated = mesh.router(0).step();
    for (int i = 0; i < mesh.nodes(); ++i)
      if (!mesh.router(i).fault().empty()) run_.faults.push_back(mesh.router(i).fault());
    std::sort(run_.trace.begin(), run_.trace.end());
    std::sort(run_.faults.begin(), run_.faults.end());
    return run_;
  }

 private:
  void monitor() {
    if (!running_) return;
    ++cycles_;  // the rising edge before this falling one was a cycle of the run
    bool all_done = true;
    for (int i = 0; i < mesh.nodes(); ++i) {
      if (mesh.eject_valid(i)) run_.trace.push_back({mesh.router(i).step() + 1, mesh.eject_data(i), i});
      all_done = all_done && mesh.router(i).done();
    }
    if (all_done) {
      sc_core::sc_stop();
      return;
    }
    if (cycles_ > static_cast<int64_t>(tables_.steps()) * tables_.step_cycles + 16) {
      run_.failure = fmt::format("watchdog: the routers did not finish {} routing steps", tables_.steps());
      sc_core::sc_stop();
    }
  }

  const XbarTables& tables_;
  bool running_ = false;
  int64_t cycles_ = 0;
  XbarRun run_;
};

}  // namespace

namespace {

XbarRun run_xbar_systemc(const Topology& topology, const XbarTables& circuit_tables, const EngineOptions& options) {
  check_xbar_faults(options);
  claim_systemc_elaboration();
  XbarTables expanded;  // each router module holds its own settings
  const XbarTables& tables = stored_xbar_tables(topology, circuit_tables, expanded);
  XbarBench bench("xbar_bench", topology, tables, options.faults);
  VcdFile vcd(options.vcd_path);
  if (vcd.file()) {
    sc_core::sc_trace(vcd.file(), bench.clk, "clk");
    bench.mesh.trace(vcd.file());
  }
  return bench.run();
}

const KindRoutersRegistrar systemc_crossbars(
    KindRouters::of(kCrossbarKind, "systemc").taking_faults().at_most(1e7).running(
        [](const Topology& mesh, const Tables& t, const EngineOptions& o) {
          return crossbar_output(run_xbar_systemc(mesh, as_kind<XbarTables>(t), o));
        }));

}  // namespace

}  // namespace fixroute
