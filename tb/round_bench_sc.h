// The SystemC bench of the routers that take one round per clock (combining and
// broadcast-tree networks): the network on its own clock, the reset edge, then a monitor at
// every falling edge handing the network to the kind's clock monitor (what the rising edge
// before it did) until the monitor says the run is over. One run per process.
#pragma once
#include <systemc>

#include <type_traits>

#include "sw/core/router_kind.h"
#include "sw/topology/topology.h"
#include "systemc_support.h"

namespace fixroute {

// The bench's network: given the run's faults where it takes them (a constructor with a
// FaultInjector*), the kinds that take none built without.
template <class Network, class Tables>
Network make_round_network(const char* name, const Topology& topology, const Tables& tables, FaultInjector* faults) {
  if constexpr (std::is_constructible_v<Network, const char*, const Topology&, const Tables&, FaultInjector*>)
    return Network(name, topology, tables, faults);
  else
    return Network(name, topology, tables);
}

// Network(name, topology, tables[, faults]); Monitor (make_clock_monitor) with clock_edge(network),
// finished() and finish(run).
template <class Network, class Monitor, class Run>
class RoundBench : public sc_core::sc_module {
 public:
  sc_core::sc_clock clk;
  sc_core::sc_signal<bool> reset;
  Network network;

  template <class Tables>
  RoundBench(sc_core::sc_module_name name, const Topology& topology, const Tables& tables, const EngineOptions& options)
      : sc_core::sc_module(name), clk("clk", kClockPeriod), network(make_round_network<Network>("network", topology, tables, options.faults)),
        monitor_(make_clock_monitor<Monitor>(topology, tables.rounds, options)) {
    network.clk(clk);
    network.reset(reset);
    SC_HAS_PROCESS(RoundBench);
    SC_METHOD(monitor);
    sensitive << clk.negedge_event();
    dont_initialize();
  }

  Run run() {
    reset.write(true);
    sc_core::sc_start(kClockPeriod);  // the reset edge
    reset.write(false);
    running_ = true;
    if (!monitor_.finished()) sc_core::sc_start();
    Run run;
    run.overhead_cycles = 1;
    monitor_.finish(run);
    return run;
  }

 private:
  void monitor() {  // at each falling edge: what the rising edge before it did
    if (!running_) return;
    monitor_.clock_edge(network);
    if (monitor_.finished()) sc_core::sc_stop();
  }

  Monitor monitor_;
  bool running_ = false;
};

// One run of `tables` on a RoundBench, with the waveform where asked.
template <class Network, class Monitor, class Run, class Tables>
Run run_round_bench(const Topology& topology, const Tables& tables, const EngineOptions& options) {
  claim_systemc_elaboration();
  RoundBench<Network, Monitor, Run> bench("bench", topology, tables, options);
  VcdFile vcd(options.vcd_path);
  if (vcd.file()) {
    sc_core::sc_trace(vcd.file(), bench.clk, "clk");
    bench.network.trace(vcd.file());
  }
  return bench.run();
}

}  // namespace fixroute
