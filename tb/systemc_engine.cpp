// The `systemc` engine: elaborates a NetworkSc for the topology and tables, runs it on a
// clock until every router is idle, and records the trace from the link signals at each
// falling edge (a link holds a packet for exactly one cycle after SEND). SystemC
// elaborates once per process, so one process runs one simulation (a CLI run is one).
#include <fmt/format.h>

#include <systemc>

#include "../systemc/fr_network_sc.h"
#include "../sw/errors.h"
#include "../sw/topology.h"
#include "engines.h"
#include "systemc_support.h"

namespace fixroute {

namespace {

constexpr int64_t kWatchdogSteps = 64;

class SystemcBench : public sc_core::sc_module {
 public:
  SystemcBench(sc_core::sc_module_name name, const Topology& topo, const NetworkTables& tables)
      : sc_core::sc_module(name), clk("clk", kClockPeriod), start("start", true), net("net", topo, tables) {
    net.clk(clk);
    net.start(start);
    SC_HAS_PROCESS(SystemcBench);
    SC_METHOD(monitor);
    sensitive << clk.negedge_event();
    dont_initialize();
  }

  sc_core::sc_clock clk;
  sc_core::sc_signal<bool> start;
  NetworkSc net;
  EngineResult result;

 private:
  // Falling edge: the link registers show what this cycle's SEND put on them.
  void monitor() {
    ++cycles_;
    const Topology& topo = net.topology();
    bool sent = false;
    for (int i = 0; i < topo.num_nodes(); ++i)
      for (int p = 0; p < topo.num_ports(); ++p) {
        if (!net.link_valid(i, p)) continue;
        Packet pkt = net.link_packet(i, p);
        result.trace.push_back({net.step(i), i, topo.neighbour(i, p), pkt.origin, pkt.dest, pkt.seq});
        sent = true;
        last_crossing_step_ = net.step(i);
      }
    if (sent) return;  // the RECEIVE edge comes next
    const int64_t step = net.step(0);
    std::string faults = net.faults();
    if (!faults.empty()) {
      result.failure = faults;
    } else if (step - last_crossing_step_ > kWatchdogSteps) {
      result.failure = fmt::format("watchdog: no packet moved for {} steps (step {}); queues: {}", kWatchdogSteps, step,
                                   net.queue_report());
    } else if (!net.all_idle()) {
      return;
    }
    result.steps_simulated = step - 1;  // the counter has moved past the last step
    result.clock_cycles = cycles_ - 1;  // the cycle that started the routers is overhead
    result.overhead_cycles = 1;
    sc_core::sc_stop();
  }

  int64_t cycles_ = 0;
  int64_t last_crossing_step_ = 0;
};

EngineResult run_systemc_engine(const Topology& topology, const NetworkTables& tables, const EngineOptions& options) {
  claim_systemc_elaboration();
  SystemcBench bench("bench", topology, tables);
  VcdFile vcd(options.vcd_path);
  if (vcd.file()) {
    sc_core::sc_trace(vcd.file(), bench.clk, "clk");
    bench.net.trace(vcd.file());
  }
  sc_core::sc_start();
  EngineResult r = std::move(bench.result);
  r.max_queue = bench.net.max_queue();
  sort_trace(r.trace);
  return r;
}

EngineRegistrar systemc_registrar({"systemc", "SystemC router modules elaborated from the topology (any size)",
                                   run_systemc_engine, [](const Topology&) { return true; }, true});

}  // namespace

}  // namespace fixroute
