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
      : sc_core::sc_module(name), clk("clk", kClockPeriod), network("network", topology, tables), topology_(topology),
        stop_(tables.rounds) {
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
    stop_.round_ended(0, network.nodes() == 1, false);
    if (!stop_.finished()) sc_core::sc_start();
    run_.overhead_cycles = 1;
    run_.clock_cycles = cycles_;
    run_.cycles_per_step = 1;
    run_.steps_simulated = round_ - 1;
    run_.failure = stop_.failure(round_ - 1);
    return run_;
  }

 private:
  void monitor() {
    if (!running_) return;
    ++cycles_;  // the rising edge before this falling one: round `round_` merged, round_ + 1 sent
    if (round_ > 0) {
      bool all_full = true, any_learnt = false;
      for (int i = 0; i < network.nodes(); ++i) {
        all_full = all_full && network.full(i);
        any_learnt = any_learnt || network.learnt(i);
      }
      stop_.round_ended(round_, all_full, any_learnt);
      if (stop_.finished()) {
        ++round_;
        sc_core::sc_stop();
        return;
      }
    }
    ++round_;
    for (int i = 0; i < network.nodes(); ++i)
      for (int q = 0; q < topology_.num_ports(); ++q)
        if (network.link_valid(i, q))
          run_.trace.push_back({round_, i, q, topology_.neighbour(i, q), network.link_data(i, q).count()});
  }

  const Topology& topology_;
  CombiningStopRule stop_;
  bool running_ = false;
  int64_t cycles_ = 0;
  int64_t round_ = 0;  // the round whose packets are on the links
  CombiningRun run_;
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
