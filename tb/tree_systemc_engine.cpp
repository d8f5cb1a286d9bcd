// The systemc engine's broadcast-tree runs: a TreeNetworkSc on its own clock and a monitor
// at every falling edge recording the packets each router put on its links, one round per
// clock, for the tables' rounds (sw/engines/broadcast_tree_engine.h). One run per process.
#include <systemc>

#include "sw/engines/broadcast_tree_engine.h"
#include "sw/tables/broadcast_tree_tables.h"
#include "sw/topology/topology.h"
#include "systemc/fr_tree_router_sc.h"
#include "systemc_support.h"

namespace fixroute {

namespace {

class TreeBench : public sc_core::sc_module {
 public:
  sc_core::sc_clock clk;
  sc_core::sc_signal<bool> reset;
  TreeNetworkSc network;

  TreeBench(sc_core::sc_module_name name, const Topology& topology, const BroadcastTreeTables& tables)
      : sc_core::sc_module(name), clk("clk", kClockPeriod), network("network", topology, tables),
        monitor_(topology, tables.rounds) {
    network.clk(clk);
    network.reset(reset);
    SC_HAS_PROCESS(TreeBench);
    SC_METHOD(monitor);
    sensitive << clk.negedge_event();
    dont_initialize();
  }

  TreeRun run() {
    reset.write(true);
    sc_core::sc_start(kClockPeriod);  // the reset edge
    reset.write(false);
    running_ = true;
    if (!monitor_.finished()) sc_core::sc_start();
    TreeRun run;
    run.overhead_cycles = 1;
    monitor_.finish(run);
    return run;
  }

 private:
  void monitor() {  // at each falling edge: what the rising edge before it sent
    if (!running_) return;
    monitor_.clock_edge(network);
    if (monitor_.finished()) sc_core::sc_stop();
  }

  TreeClockMonitor monitor_;
  bool running_ = false;
};

const KindRoutersRegistrar systemc_trees({kBroadcastTreeKind, "systemc", [](const Topology&) { return true; },
                                          [](const Topology& topology, const Tables& t, const EngineOptions& options) {
                                            claim_systemc_elaboration();
                                            TreeBench bench("tree_bench", topology, as_kind<BroadcastTreeTables>(t));
                                            VcdFile vcd(options.vcd_path);
                                            if (vcd.file()) {
                                              sc_core::sc_trace(vcd.file(), bench.clk, "clk");
                                              bench.network.trace(vcd.file());
                                            }
                                            return broadcast_tree_output(bench.run());
                                          }});

}  // namespace

}  // namespace fixroute
