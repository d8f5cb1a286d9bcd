// Lockstep co-simulation of the routers that take one round per clock (combining,
// broadcast-tree and summing networks, docs/cosim.md): the SystemC network on its clock and the
// verilated router array, both loaded with the same tables; after every rising edge the
// array takes its own clock edge and the two are compared router by router (combining
// routers' `full` and `learnt`) and link by link (valid, and the set or the origin carried).
// The kind's clock monitor, fed the SystemC side, decides when the run is over.
// Each kind gives its bench a Kind description (tb/<kind>/cosim.cpp).
#pragma once
#include <fmt/format.h>

#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "round_bench_sc.h"
#include "sw/core/faults.h"
#include "sw/topology/topology.h"
#include "systemc_support.h"
#include "tb/cosim.h"

namespace fixroute {

// Kind: the SystemC Network and RTL Driver types, the Monitor and its Run, and
//   static std::shared_ptr<const Trace> trace(Run)                    -- what arrived
//   static std::string router(const Network&, const Driver&, int node)   -- "" if alike
//   static bool same_data(const Network&, const Driver&, int node, int port)
//   static std::string data(const Network&, int node, int port) / data(const Driver&, ...)
template <class Kind>
class RoundCosimBench : public sc_core::sc_module {
 public:
  using Network = typename Kind::Network;
  using Driver = typename Kind::Driver;
  sc_core::sc_clock clk;
  sc_core::sc_signal<bool> reset;
  Network network;

  // `faults` (where the kind takes them): the SystemC network's; the array has its own.
  template <class Tables>
  RoundCosimBench(sc_core::sc_module_name name, const Topology& topology, const Tables& tables,
                  std::unique_ptr<Driver> rtl, FaultInjector* faults)
      : sc_core::sc_module(name), clk("clk", kClockPeriod),
        network(make_round_network<Network>("network", topology, tables, faults)),
        topology_(topology), rtl_(std::move(rtl)),
        monitor_(make_clock_monitor<typename Kind::Monitor>(topology, tables.rounds, EngineOptions{})) {
    network.clk(clk);
    network.reset(reset);
    SC_HAS_PROCESS(RoundCosimBench);
    SC_METHOD(compare);
    sensitive << clk.negedge_event();
    dont_initialize();
  }

  CosimReport run() {
    reset.write(true);
    sc_core::sc_start(kClockPeriod);  // the SystemC reset edge; the array was reset as it loaded
    reset.write(false);
    running_ = true;
    if (!monitor_.finished()) sc_core::sc_start();
    typename Kind::Run run;
    monitor_.finish(run);
    report_.steps = run.steps_simulated;
    report_.crossings = static_cast<int64_t>(run.trace.size());  // the transfers of the rounds the monitor recorded
    report_.agree = report_.divergence.empty();
    report_.stuck = run.failure;
    report_.arrived = Kind::trace(std::move(run));
    return report_;
  }

 private:
  // At each falling edge: the rising edge before it, taken by both networks.
  void compare() {
    if (!running_) return;
    rtl_->tick();
    ++report_.cycles;
    for (int i = 0; i < topology_.num_nodes(); ++i) {
      if (std::string d = Kind::router(network, *rtl_, i); !d.empty())
        return stop(fmt::format("cycle {}, router {}: {}", report_.cycles, i, d));
      for (int q = 0; q < topology_.num_ports(); ++q) {
        const int to = topology_.neighbour(i, q);
        if (to < 0) continue;
        const bool sv = network.link_valid(i, q), rv = rtl_->link_valid(i, q);
        if (sv == rv && (!sv || Kind::same_data(network, *rtl_, i, q))) continue;
        return stop(fmt::format("cycle {}, link {}->{}: SystemC sends {}, RTL sends {}", report_.cycles, i, to,
                                sv ? Kind::data(network, i, q) : "nothing", rv ? Kind::data(*rtl_, i, q) : "nothing"));
      }
    }
    monitor_.clock_edge(network);
    if (monitor_.finished()) sc_core::sc_stop();
  }
  void stop(std::string why) {
    report_.divergence = std::move(why);
    sc_core::sc_stop();
  }

  const Topology& topology_;
  std::unique_ptr<Driver> rtl_;
  typename Kind::Monitor monitor_;
  CosimReport report_;
  bool running_ = false;
};

// `sc_faults` (where the kind takes faults): the SystemC network's injector; the array
// was given its own.
template <class Kind, class Tables>
CosimReport run_round_cosim(const Topology& topology, const Tables& tables, std::unique_ptr<typename Kind::Driver> rtl,
                            const RunStats& load, FaultInjector* sc_faults = nullptr) {
  if (!rtl) {
    CosimReport failed;
    failed.divergence = "RTL " + load.failure;
    return failed;
  }
  RoundCosimBench<Kind> bench("round_cosim", topology, tables, std::move(rtl), sc_faults);
  return bench.run();
}

// The co-simulation of Kind's networks under `faults` (none: a plain one): an injector per
// network, each recording what its faults took; the two must take the same. `check`
// refuses the faults the kind does not take, before anything is elaborated or loaded.
template <class Kind, class Tables>
CosimReport run_round_cosim_of(const Topology& topology, const Tables& systemc_tables, const std::vector<Fault>& faults,
                               void (*check)(const EngineOptions&),
                               const std::function<std::unique_ptr<typename Kind::Driver>(RunStats&)>& load_rtl) {
  CosimFaults injectors(faults, topology, check);
  claim_systemc_elaboration();
  RunStats load;
  std::unique_ptr<typename Kind::Driver> rtl = load_rtl(load);
  if (rtl && injectors.any()) rtl->inject(injectors.rtl());
  CosimReport report = run_round_cosim<Kind>(topology, systemc_tables, std::move(rtl), load, injectors.systemc());
  injectors.record(report);
  return report;
}

}  // namespace fixroute
