#include "cosim.h"

#include <fmt/format.h>

#include <memory>
#include <systemc>

#include "../systemc/fr_network_sc.h"
#include "../sw/topology.h"
#include "rtl_driver.h"
#include "systemc_support.h"

namespace fixroute {

namespace {

constexpr int64_t kMaxCycles = int64_t{1} << 26;

std::string describe(bool valid, const Packet& p) {
  if (!valid) return "nothing";
  return fmt::format("packet {}->{} seq {} hops {}", p.origin, p.dest, p.seq, p.hops);
}

// The verilated network as an sc_module: one model clock cycle per rising edge.
class RtlModule : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  RtlModule(sc_core::sc_module_name name, std::unique_ptr<RtlDriver> rtl) : sc_core::sc_module(name), rtl_(std::move(rtl)) {
    SC_HAS_PROCESS(RtlModule);
    SC_METHOD(on_clock);
    sensitive << clk.pos();
    dont_initialize();
  }
  const RtlDriver& rtl() const { return *rtl_; }

 private:
  void on_clock() { rtl_->tick(); }
  std::unique_ptr<RtlDriver> rtl_;
};

class CosimBench : public sc_core::sc_module {
 public:
  CosimBench(sc_core::sc_module_name name, const Topology& topo, const NetworkTables& sc_tables,
             std::unique_ptr<RtlDriver> rtl)
      : sc_core::sc_module(name),
        clk("clk", kClockPeriod),
        reset("reset", false),
        start("start", true),
        net("systemc_net", topo, sc_tables),
        hw("rtl_net", std::move(rtl)),
        topo_(topo) {
    net.clk(clk);
    net.reset(reset);
    net.start(start);
    hw.clk(clk);
    SC_HAS_PROCESS(CosimBench);
    SC_METHOD(compare);
    sensitive << clk.negedge_event();
    dont_initialize();
  }

  sc_core::sc_clock clk;
  sc_core::sc_signal<bool> reset;
  sc_core::sc_signal<bool> start;
  NetworkSc net;
  RtlModule hw;
  CosimReport report;

 private:
  // Falling edge: both networks have taken the same rising edge; compare every link.
  void compare() {
    ++report.cycles;
    const RtlDriver& rtl = hw.rtl();
    for (int i = 0; i < topo_.num_nodes(); ++i)
      for (int p = 0; p < topo_.num_ports(); ++p) {
        bool sv = net.link_valid(i, p), rv = rtl.link_valid(i, p);
        Packet sp = sv ? net.link_packet(i, p) : Packet{}, rp = rv ? rtl.link_packet(i, p) : Packet{};
        if (sv && rv) ++report.crossings;
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
      report.steps = net.step(0) - 1;
      sc_core::sc_stop();
    } else if (report.cycles > kMaxCycles) {
      stop(fmt::format("no end after {} cycles", kMaxCycles));
    }
  }
  void stop(std::string why) {
    report.divergence = std::move(why);
    report.steps = net.step(0);
    sc_core::sc_stop();
  }

  const Topology& topo_;
};

}  // namespace

CosimReport run_cosim(const Topology& topology, const NetworkTables& systemc_tables, const NetworkTables& rtl_tables) {
  claim_systemc_elaboration();
  const RtlModelInfo& model = find_rtl_model(topology);
  std::unique_ptr<RtlDriver> rtl = model.make(model);
  rtl_reset_and_load(*rtl, rtl_images(model, topology, rtl_tables));
  for (int i = 0; i < topology.num_nodes(); ++i)
    if (!rtl->table_ok(i)) {
      CosimReport failed;
      failed.divergence = fmt::format("RTL router {} did not load its table: {}", i, rtl_table_error_name(rtl->table_error(i)));
      return failed;
    }
  // The RTL routers start on the next rising edge, as the SystemC ones (start is high).
  CosimBench bench("cosim", topology, systemc_tables, std::move(rtl));
  sc_core::sc_start();
  return bench.report;
}

}  // namespace fixroute
