#include "cosim.h"

#include <fmt/format.h>

#include <memory>
#include <string>

#include "sw/kinds/combining_sum/engine.h"
#include "systemc/combining_sum/fr_sum_router_sc.h"
#include "tb/combining_sum/sum_rtl_engine.h"
#include "tb/round_cosim.h"

namespace fixroute {

namespace {

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

CosimReport run_sum_cosim(const Topology& topology, const CombiningSumTables& systemc_tables,
                          const CombiningSumTables& rtl_tables, const std::vector<Fault>& faults) {
  return run_round_cosim_of<SumCosim>(topology, systemc_tables, faults, check_sum_faults,
                                      [&](RunStats& load) { return load_sum_rtl(topology, rtl_tables, "", load); });
}

namespace {

const KindCosimRegistrar sum_cosim({kCombiningSumKind, [](const Topology& topology, const Tables& tables,
                                                          const std::vector<Fault>& faults) {
                                      const CombiningSumTables& t = as_kind<CombiningSumTables>(tables);
                                      return run_sum_cosim(topology, t, t, faults);
                                    }});

}  // namespace

}  // namespace fixroute
