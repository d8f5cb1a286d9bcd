// Lockstep co-simulation of the routers that take one round per clock (combining,
// broadcast-tree and summing networks, docs/cosim.md): the SystemC network on its clock and the
// verilated router array, both loaded with the same tables; after every rising edge the
// array takes its own clock edge and the two are compared router by router (combining
// routers' `full` and `learnt`) and link by link (valid, and the set or the origin carried).
// The kind's clock monitor, fed the SystemC side, decides when the run is over.
#include <fmt/format.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>

#include "tb/combining/combining_rtl.h"
#include "cosim.h"
#include "sw/kinds/broadcast_trees/engine.h"
#include "sw/kinds/combining/engine.h"
#include "sw/kinds/broadcast_trees/tables.h"
#include "sw/kinds/combining/tables.h"
#include "sw/topology/topology.h"
#include "systemc/combining/fr_combining_router_sc.h"
#include "systemc/broadcast_trees/fr_tree_router_sc.h"
#include "round_bench_sc.h"
#include "sw/core/faults.h"
#include "systemc_support.h"
#include "tb/broadcast_trees/tree_rtl.h"
#include "tb/combining_sum/sum_rtl_engine.h"
#include "systemc/combining_sum/fr_sum_router_sc.h"
#include "sw/kinds/combining_sum/engine.h"
#include "sw/kinds/combining_sum/tables.h"

namespace fixroute {

namespace {

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

struct CombiningCosim {
  using Network = CombiningNetworkSc;
  using Driver = CombiningRtlDriver;
  using Monitor = CombiningClockMonitor;
  using Run = CombiningRun;
  static std::string router(const Network& sc, const Driver& rtl, int node) {
    auto yes_no = [](bool b) { return b ? "high" : "low"; };
    if (sc.full(node) != rtl.full(node))
      return fmt::format("full is {} in SystemC, {} in RTL", yes_no(sc.full(node)), yes_no(rtl.full(node)));
    if (sc.learnt(node) != rtl.learnt(node))
      return fmt::format("learnt is {} in SystemC, {} in RTL", yes_no(sc.learnt(node)), yes_no(rtl.learnt(node)));
    return "";
  }
  static bool same_data(const Network& sc, const Driver& rtl, int node, int port) {
    const std::vector<uint64_t>& words = sc.link_data(node, port).words;
    for (size_t w = 0; w < words.size(); ++w)
      if (words[w] != rtl.link_word(node, port, static_cast<int>(w))) return false;
    return true;
  }
  static std::string data(const Network& sc, int node, int port) {
    return fmt::format("a set of {} origins", sc.link_count(node, port));
  }
  static std::string data(const Driver& rtl, int node, int port) {
    return fmt::format("a set of {} origins", rtl.link_count(node, port));
  }
  static std::shared_ptr<const Trace> trace(Run run) { return std::make_shared<CombiningTrace>(std::move(run.trace)); }
};

struct TreeCosim {
  using Network = TreeNetworkSc;
  using Driver = TreeRtlDriver;
  using Monitor = TreeClockMonitor;
  using Run = TreeRun;
  static std::string router(const Network&, const Driver&, int) { return ""; }
  static bool same_data(const Network& sc, const Driver& rtl, int node, int port) {
    return sc.link_origin(node, port) == rtl.link_origin(node, port);
  }
  template <class Side>
  static std::string data(const Side& side, int node, int port) {
    return fmt::format("the packet of origin {}", side.link_origin(node, port));
  }
  static std::shared_ptr<const Trace> trace(Run run) { return std::make_shared<BroadcastTreeTrace>(std::move(run.trace)); }
};

struct SumCosim {
  using Network = SumNetworkSc;
  using Driver = SumRtlDriver;
  using Monitor = SumClockMonitor;
  using Run = CombiningSumRun;
  static std::string router(const Network&, const Driver&, int) { return ""; }
  static bool same_data(const Network& sc, const Driver& rtl, int node, int port) {
    return sc.link_value(node, port) == rtl.link_value(node, port);
  }
  template <class Side>
  static std::string data(const Side& side, int node, int port) {
    return fmt::format("the sum {:#x}", side.link_value(node, port));
  }
  // The answers the routers reported when the run ended, beside the sums that crossed.
  static std::shared_ptr<const Trace> trace(Run run) {
    return std::make_shared<CombiningSumTrace>(std::move(run.trace), std::move(run.answers));
  }
};

}  // namespace

namespace {

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

}  // namespace

CosimReport run_combining_cosim(const Topology& topology, const CombiningTables& systemc_tables,
                                const CombiningTables& rtl_tables, const std::vector<Fault>& faults) {
  check_combining_run_size(topology);
  return run_round_cosim_of<CombiningCosim>(topology, systemc_tables, faults, check_combining_faults, [&](RunStats& load) {
    return load_combining_rtl(topology, rtl_tables, "", load);
  });
}

CosimReport run_sum_cosim(const Topology& topology, const CombiningSumTables& systemc_tables,
                          const CombiningSumTables& rtl_tables, const std::vector<Fault>& faults) {
  return run_round_cosim_of<SumCosim>(topology, systemc_tables, faults, check_sum_faults,
                                      [&](RunStats& load) { return load_sum_rtl(topology, rtl_tables, "", load); });
}

CosimReport run_tree_cosim(const Topology& topology, const BroadcastTreeTables& systemc_tables,
                           const BroadcastTreeTables& rtl_tables, const std::vector<Fault>& faults) {
  return run_round_cosim_of<TreeCosim>(topology, systemc_tables, faults, check_tree_faults,
                                       [&](RunStats& load) { return load_tree_rtl(topology, rtl_tables, "", load); });
}

namespace {

const KindCosimRegistrar combining_cosim({kCombiningKind, [](const Topology& topology, const Tables& tables,
                                                             const std::vector<Fault>& faults) {
                                            const CombiningTables& t = as_kind<CombiningTables>(tables);
                                            return run_combining_cosim(topology, t, t, faults);
                                          }});
const KindCosimRegistrar sum_cosim({kCombiningSumKind, [](const Topology& topology, const Tables& tables,
                                                          const std::vector<Fault>& faults) {
                                      const CombiningSumTables& t = as_kind<CombiningSumTables>(tables);
                                      return run_sum_cosim(topology, t, t, faults);
                                    }});
const KindCosimRegistrar tree_cosim({kBroadcastTreeKind, [](const Topology& topology, const Tables& tables,
                                                           const std::vector<Fault>& faults) {
                                       const BroadcastTreeTables& t = as_kind<BroadcastTreeTables>(tables);
                                       return run_tree_cosim(topology, t, t, faults);
                                     }});

}  // namespace

}  // namespace fixroute
