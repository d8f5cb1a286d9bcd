#include "cosim.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <systemc>

#include "sw/topology/topology.h"
#include "systemc/crossbar/fr_xbar_router_sc.h"
#include "tb/cosim.h"
#include "tb/crossbar/xbar_rtl.h"
#include "tb/rtl_config_port.h"
#include "tb/systemc_support.h"

namespace fixroute {

namespace {

// The crossbar meshes: both load the tables, the SystemC mesh takes its reset edge while
// the RTL (already reset and loaded through its configuration port) holds; from then on
// every link and every local output is compared at each falling edge.
class XbarCosimBench : public sc_core::sc_module {
 public:
  // `sc_faults`: the SystemC mesh's injector (the RTL array has its own, already injected).
  XbarCosimBench(sc_core::sc_module_name name, const Topology& mesh, const XbarTables& sc_tables,
                 std::unique_ptr<XbarRtlDriver> rtl, int64_t max_cycles, FaultInjector* sc_faults)
      : sc_core::sc_module(name),
        clk("clk", kClockPeriod),
        reset("reset", true),
        net("systemc_mesh", mesh, sc_tables, sc_faults),
        hw("rtl_mesh", std::move(rtl)),
        mesh_(mesh),
        max_cycles_(max_cycles) {
    net.clk(clk);
    net.reset(reset);
    hw.clk(clk);
    hw.hold(reset);
    SC_HAS_PROCESS(XbarCosimBench);
    SC_METHOD(compare);
    sensitive << clk.negedge_event();
    dont_initialize();
  }

  CosimReport run() {
    sc_core::sc_start(kClockPeriod);  // the SystemC reset edge
    reset.write(false);
    sc_core::sc_start();
    if (report.divergence.empty()) {  // same messages on every cycle: the latched faults too
      for (int i = 0; i < mesh_.num_nodes() && report.divergence.empty(); ++i) {
        const std::string sc_fault = net.router(i).fault(), rtl_fault = xbar_fault_from_word(hw.rtl().fault_word(i), i);
        if (sc_fault != rtl_fault)
          report.divergence = fmt::format("router {} fault: SystemC '{}', RTL '{}'", i, sc_fault.empty() ? "none" : sc_fault,
                                          rtl_fault.empty() ? "none" : rtl_fault);
      }
      report.agree = report.divergence.empty();
    }
    std::sort(delivered_.begin(), delivered_.end());
    report.arrived = std::make_shared<CircuitTrace>(std::move(delivered_));
    return report;
  }

  sc_core::sc_clock clk;
  sc_core::sc_signal<bool> reset;
  MeshXbarSc net;
  RtlModule<XbarRtlDriver> hw;
  CosimReport report;

 private:
  void compare() {
    if (reset.read()) return;
    ++report.cycles;
    const XbarRtlDriver& rtl = hw.rtl();
    auto message = [](bool valid, int data) { return valid ? fmt::format("message of node {}", data) : std::string("nothing"); };
    for (int i = 0; i < mesh_.num_nodes(); ++i) {
      const int64_t step = net.router(i).step() + 1;
      if (rtl.step(i) + 1 != step)
        return stop(fmt::format("cycle {}: router {} is in routing step {} in SystemC, {} in RTL", report.cycles, i, step,
                                rtl.step(i) + 1));
      for (int p = 0; p < mesh_.num_ports(); ++p) {
        if (mesh_.neighbour(i, p) < 0) continue;
        const bool sv = net.link_valid(i, p), rv = rtl.link_valid(i, p);
        const int sd = sv ? net.link_data(i, p) : 0, rd = rv ? rtl.link_data(i, p) : 0;
        if (sv && rv) ++report.crossings;
        if (sv == rv && sd == rd) continue;
        return stop(fmt::format("cycle {} (routing step {}), link {}->{}: SystemC sends {}, RTL sends {}", report.cycles,
                                step, i, mesh_.neighbour(i, p), message(sv, sd), message(rv, rd)));
      }
      const bool se = net.eject_valid(i), re = rtl.eject_valid(i);
      const int sd = se ? net.eject_data(i) : 0, rd = re ? rtl.eject_data(i) : 0;
      if (se != re || sd != rd)
        return stop(fmt::format("cycle {} (routing step {}), router {} local output: SystemC delivers {}, RTL delivers {}",
                                report.cycles, step, i, message(se, sd), message(re, rd)));
      if (se) delivered_.push_back({step, sd, i});
    }
    bool sc_done = true, rtl_done = true;
    for (int i = 0; i < mesh_.num_nodes(); ++i) {
      sc_done = sc_done && net.router(i).done();
      rtl_done = rtl_done && rtl.done(i);
    }
    if (sc_done != rtl_done) return stop(fmt::format("cycle {}: the {} mesh finished first", report.cycles, sc_done ? "SystemC" : "RTL"));
    if (sc_done) {
      report.steps = net.router(0).step();
      sc_core::sc_stop();
    } else if (report.cycles > max_cycles_) {
      stop(fmt::format("no end after {} cycles", max_cycles_));
    }
  }
  void stop(std::string why) {
    report.divergence = std::move(why);
    report.steps = net.router(0).step();
    sc_core::sc_stop();
  }

  const Topology& mesh_;
  const int64_t max_cycles_;
  std::vector<CircuitEvent> delivered_;  // what both delivered, for the scoreboard
};

}  // namespace

CosimReport run_xbar_cosim(const Topology& mesh, const XbarTables& systemc_circuits, const XbarTables& rtl_circuits,
                           const std::vector<Fault>& faults) {
  claim_systemc_elaboration();
  CosimFaults injectors(faults, mesh, check_xbar_faults);
  XbarTables systemc_expanded, rtl_expanded;  // both sides load every router's settings
  const XbarTables& systemc_tables = stored_xbar_tables(mesh, systemc_circuits, systemc_expanded);
  const XbarTables& rtl_tables = stored_xbar_tables(mesh, rtl_circuits, rtl_expanded);
  const XbarModelInfo model = needs_router_array(injectors.rtl(), false) ? xbar_array_model(mesh, rtl_tables)
                                                                         : xbar_model_for(mesh, rtl_tables);
  std::unique_ptr<XbarRtlDriver> rtl = model.make(model);
  xbar_rtl_load(*rtl, model, rtl_tables);
  rtl->inject(injectors.rtl());
  for (int i = 0; i < mesh.num_nodes(); ++i)
    if (!rtl->table_ok(i)) {
      CosimReport failed;
      failed.divergence = fmt::format("RTL router {} did not load its table: {}", i, rtl_table_error_name(rtl->table_error(i)));
      return failed;
    }
  const int64_t budget = static_cast<int64_t>(std::max(systemc_tables.steps(), rtl_tables.steps())) *
                             std::max(systemc_tables.step_cycles, rtl_tables.step_cycles) + 16;
  XbarCosimBench bench("xbar_cosim", mesh, systemc_tables, std::move(rtl), budget, injectors.systemc());
  CosimReport report = bench.run();
  injectors.record(report);
  return report;
}

namespace {

const KindCosimRegistrar crossbar_cosim({kCrossbarKind, [](const Topology& topology, const Tables& tables,
                                                           const std::vector<Fault>& faults) {
                                           const XbarTables& t = as_kind<XbarTables>(tables);
                                           return run_xbar_cosim(topology, t, t, faults);
                                         }});

}  // namespace

}  // namespace fixroute
