#include "cosim.h"

#include <fmt/format.h>

#include <memory>
#include <optional>
#include <systemc>

#include "sw/kinds/port_rules/router_rules.h"
#include "sw/topology/topology.h"
#include "systemc/port_rules/fr_network_sc.h"
#include "tb/cosim.h"
#include "tb/port_rules/rtl_driver.h"
#include "tb/systemc_support.h"

namespace fixroute {

namespace {

constexpr int64_t kMaxCycles = int64_t{1} << 26;

std::string describe(bool valid, const Packet& p) {
  if (!valid) return "nothing";
  return fmt::format("packet {}->{} seq {} hops {}", p.origin, p.dest, p.seq, p.hops);
}

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
    } else if (faults_ && router_rules::watchdog_fires(step, last_crossing_step_)) {  // both stuck alike (a stuck router)
      report.agree = true;
      report.stuck = router_rules::watchdog_failure(step, net.queue_report());
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

}  // namespace

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

namespace {

const KindCosimRegistrar port_rules_cosim({kPortRulesKind, [](const Topology& topology, const Tables& tables,
                                                              const std::vector<Fault>& faults) {
                                             const NetworkTables& t = as_kind<NetworkTables>(tables);
                                             return run_cosim(topology, t, t, faults);
                                           }});

}  // namespace

}  // namespace fixroute
