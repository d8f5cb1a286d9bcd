// The systemc engine's combining runs: a CombiningNetworkSc on its own clock, a monitor at
// every falling edge recording the packets each router put on its links (one round per
// clock) and applying the stop rule of sw/engines/combining_engine.h to the routers'
// `full` and `learnt`. One run per process.
#include <fmt/format.h>

#include <systemc>

#include "sw/engines/combining_engine.h"
#include "sw/tables/combining_tables.h"
#include "sw/topology/topology.h"
#include "systemc/fr_combining_router_sc.h"
#include "systemc_support.h"

namespace fixroute {

namespace {

class CombiningBench : public sc_core::sc_module {
 public:
  sc_core::sc_clock clk;
  sc_core::sc_signal<bool> reset;
  CombiningNetworkSc network;

  CombiningBench(sc_core::sc_module_name name, const Topology& topology, const CombiningTables& tables)
      : sc_core::sc_module(name), clk("clk", kClockPeriod), network("network", topology, tables),
        monitor_(topology, tables.rounds) {
    network.clk(clk);
    network.reset(reset);
    SC_HAS_PROCESS(CombiningBench);
    SC_METHOD(monitor);
    sensitive << clk.negedge_event();
    dont_initialize();
  }

  CombiningRun run() {
    reset.write(true);
    sc_core::sc_start(kClockPeriod);  // the reset edge
    reset.write(false);
    running_ = true;
    if (!monitor_.finished()) sc_core::sc_start();
    CombiningRun run;
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

  CombiningClockMonitor monitor_;
  bool running_ = false;
};

CombiningRun run_combining_systemc(const Topology& topology, const CombiningTables& tables, const EngineOptions& options) {
  check_combining_run_size(topology);
  claim_systemc_elaboration();
  CombiningBench bench("combining_bench", topology, tables);
  VcdFile vcd(options.vcd_path);
  if (vcd.file()) {
    sc_core::sc_trace(vcd.file(), bench.clk, "clk");
    bench.network.trace(vcd.file());
  }
  return bench.run();
}

const KindRoutersRegistrar systemc_combining({kCombiningKind, "systemc", [](const Topology&) { return true; },
                                              [](const Topology& topology, const Tables& t, const EngineOptions& o) {
                                                return combining_output(
                                                    run_combining_systemc(topology, as_kind<CombiningTables>(t), o));
                                              }});

}  // namespace

}  // namespace fixroute
