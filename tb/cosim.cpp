#include "cosim.h"

#include <fmt/format.h>

#include <memory>
#include <optional>
#include <systemc>

#include "systemc/port_rules/fr_network_sc.h"
#include "sw/core/errors.h"
#include "sw/kinds/port_rules/router_rules.h"
#include "sw/kinds/broadcast_trees/tables.h"
#include "sw/kinds/combining/tables.h"
#include "sw/topology/topology.h"
#include "systemc/crossbar/fr_xbar_router_sc.h"
#include "rtl_driver.h"
#include "systemc_support.h"
#include "tb/crossbar/xbar_rtl.h"

namespace fixroute {

namespace {

constexpr int64_t kMaxCycles = int64_t{1} << 26;
constexpr int64_t kWatchdogSteps = 64;  // with faults: steps without a crossing, as the engines' watchdogs

std::string describe(bool valid, const Packet& p) {
  if (!valid) return "nothing";
  return fmt::format("packet {}->{} seq {} hops {}", p.origin, p.dest, p.seq, p.hops);
}

// A verilated network as an sc_module: one model clock cycle per rising edge on which
// `hold` is low (the SystemC side's reset edge is not a cycle of the loaded RTL).
template <class Driver>
class RtlModule : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> hold;
  RtlModule(sc_core::sc_module_name name, std::unique_ptr<Driver> rtl) : sc_core::sc_module(name), rtl_(std::move(rtl)) {
    SC_HAS_PROCESS(RtlModule);
    SC_METHOD(on_clock);
    sensitive << clk.pos();
    dont_initialize();
  }
  const Driver& rtl() const { return *rtl_; }

 private:
  void on_clock() {
    if (!hold.read()) rtl_->tick();
  }
  std::unique_ptr<Driver> rtl_;
};

class CosimBench : public sc_core::sc_module {
 public:
  // With faults: `sc_faults` drive the SystemC network, `rtl_faults` (already injected)
  // the RTL one; flips change `flippable` (the SystemC routers' tables) and the RTL's by back-door.
  CosimBench(sc_core::sc_module_name name, const Topology& topo, const NetworkTables& sc_tables,
             std::unique_ptr<RtlDriver> rtl, FaultInjector* sc_faults = nullptr, RtlDriver* rtl_flips = nullptr,
             NetworkTables* flippable = nullptr)
      : sc_core::sc_module(name),
        clk("clk", kClockPeriod),
        reset("reset", false),
        start("start", true),
        net("systemc_net", topo, sc_tables, sc_faults),
        hw("rtl_net", std::move(rtl)),
        topo_(topo),
        faults_(sc_faults),
        rtl_flips_(rtl_flips),
        flippable_(flippable) {
    if (faults_) clock_node_ = faults_->never_stuck_node();
    net.clk(clk);
    net.reset(reset);
    net.start(start);
    hw.clk(clk);
    hw.hold(reset);
    SC_HAS_PROCESS(CosimBench);
    SC_METHOD(compare);
    sensitive << clk.negedge_event();
    dont_initialize();
  }

  sc_core::sc_clock clk;
  sc_core::sc_signal<bool> reset;
  sc_core::sc_signal<bool> start;
  NetworkSc net;
  RtlModule<RtlDriver> hw;
  CosimReport report;

 private:
  // Falling edge: both networks have taken the same rising edge; compare every link.
  void compare() {
    ++report.cycles;
    const RtlDriver& rtl = hw.rtl();
    const int64_t step = net.step(clock_node_);
    if (faults_ && step > flipped_through_) {  // flips due, before the step's RECEIVE cycle
      flipped_through_ = step;
      for (const Fault& f : faults_->flips_at(step)) {
        if (flippable_) router_rules::apply_flip(*flippable_, f);
        if (rtl_flips_) rtl_flips_->flip_forward_bit(f.a, f.in_port, f.out_port);
      }
    }
    for (int i = 0; i < topo_.num_nodes(); ++i)
      for (int p = 0; p < topo_.num_ports(); ++p) {
        bool sv = net.link_valid(i, p), rv = rtl.link_valid(i, p);
        Packet sp = sv ? net.link_packet(i, p) : Packet{}, rp = rv ? rtl.link_packet(i, p) : Packet{};
        if (sv && rv) {
          ++report.crossings;
          report.trace.push_back({net.step(i), i, topo_.neighbour(i, p), sp.origin, sp.dest, sp.seq});
          last_crossing_step_ = net.step(i);
        }
        if (sv == rv && (!sv || sp == rp)) continue;
        stop(fmt::format("cycle {} (step {}), arc {}->{}: SystemC sends {}, RTL sends {}", report.cycles, net.step(i), i,
                         topo_.neighbour(i, p), describe(sv, sp), describe(rv, rp)));
        return;
      }
    bool rtl_idle = true;
    for (int i = 0; i < topo_.num_nodes(); ++i) rtl_idle = rtl_idle && rtl.idle(i);
    const bool sc_idle = net.all_idle();
    if (sc_idle != rtl_idle) {
      stop(fmt::format("cycle {}: the {} network finished first", report.cycles, sc_idle ? "SystemC" : "RTL"));
    } else if (sc_idle) {
      report.agree = true;
      report.steps = net.step(clock_node_) - 1;
      sc_core::sc_stop();
    } else if (faults_ && step - last_crossing_step_ > kWatchdogSteps) {  // both stuck alike (a stuck router)
      report.agree = true;
      report.stuck = fmt::format("watchdog: no packet moved for {} steps (step {}); queues: {}", kWatchdogSteps, step,
                                 net.queue_report());
      report.steps = step - 1;
      sc_core::sc_stop();
    } else if (report.cycles > kMaxCycles) {
      stop(fmt::format("no end after {} cycles", kMaxCycles));
    }
  }
  void stop(std::string why) {
    report.divergence = std::move(why);
    report.steps = net.step(clock_node_);
    sc_core::sc_stop();
  }

  const Topology& topo_;
  FaultInjector* faults_;
  RtlDriver* rtl_flips_;
  NetworkTables* flippable_;
  int clock_node_ = 0;  // a router never stuck
  int64_t flipped_through_ = 0;
  int64_t last_crossing_step_ = 0;
};

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
  // Under faults the RTL is a router array: its links are wired in C++, where faults act.
  const XbarModelInfo model = injectors.any() ? xbar_array_model(mesh, rtl_tables) : xbar_model_for(mesh, rtl_tables);
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

CosimReport run_cosim(const Topology& topology, const NetworkTables& systemc_tables, const NetworkTables& rtl_tables,
                      const std::vector<Fault>& faults) {
  claim_systemc_elaboration();
  CosimFaults injectors(faults, topology);
  std::optional<NetworkTables> flippable;
  if (injectors.any() && injectors.systemc()->has_flips()) flippable = systemc_tables;
  const RtlModelInfo model = rtl_model_for(topology, rtl_tables, injectors.rtl());
  std::unique_ptr<RtlDriver> rtl = model.make(model);
  rtl_reset_and_load(*rtl, rtl_images(model, topology, rtl_tables));
  for (int i = 0; i < topology.num_nodes(); ++i)
    if (!rtl->table_ok(i)) {
      CosimReport failed;
      failed.divergence = fmt::format("RTL router {} did not load its table: {}", i, rtl_table_error_name(rtl->table_error(i)));
      return failed;
    }
  RtlDriver* rtl_side = rtl.get();
  if (injectors.any()) rtl->inject(injectors.rtl());
  // The RTL routers start on the next rising edge, as the SystemC ones (start is high).
  CosimBench bench("cosim", topology, flippable ? *flippable : systemc_tables, std::move(rtl), injectors.systemc(),
                   injectors.any() ? rtl_side : nullptr, flippable ? &*flippable : nullptr);
  sc_core::sc_start();
  CosimReport report = std::move(bench.report);
  sort_trace(report.trace);
  if (injectors.any()) {
    injectors.record(report);
    report.arrived = std::make_shared<PacketTrace>(report.trace);
  }
  return report;
}

CosimFaults::CosimFaults(const std::vector<Fault>& faults, const Topology& topology, void (*check)(const EngineOptions&)) {
  if (faults.empty()) return;
  systemc_.emplace(faults, topology);
  rtl_.emplace(faults, topology);
  if (check) {
    EngineOptions options;
    options.faults = &*systemc_;
    check(options);
  }
}

void CosimFaults::record(CosimReport& report) const {
  if (!systemc_) return;
  report.injected = systemc_->injected();
  if (report.divergence.empty() && report.injected != rtl_->injected()) {
    report.agree = false;
    report.divergence = "the faults took different packets in SystemC and RTL";
  }
}

namespace {

const KindCosimRegistrar port_rules_cosim({kPortRulesKind, [](const Topology& topology, const Tables& tables,
                                                              const std::vector<Fault>& faults) {
                                             const NetworkTables& t = as_kind<NetworkTables>(tables);
                                             return run_cosim(topology, t, t, faults);
                                           }});
const KindCosimRegistrar crossbar_cosim({kCrossbarKind, [](const Topology& topology, const Tables& tables,
                                                           const std::vector<Fault>& faults) {
                                           const XbarTables& t = as_kind<XbarTables>(tables);
                                           return run_xbar_cosim(topology, t, t, faults);
                                         }});

}  // namespace

}  // namespace fixroute
