#include "cosim.h"

#include <fmt/format.h>

#include <memory>
#include <string>

#include "sw/kinds/tdm/engine.h"
#include "systemc/tdm/fr_tdm_router_sc.h"
#include "tb/round_cosim.h"
#include "tb/tdm/tdm_rtl_engine.h"
#include "tb/tdm/tdm_sc_monitor.h"

namespace fixroute {

namespace {

std::string phit_text(TdmPhit p) { return fmt::format("chain {} of period {}", p.chain, p.period); }

struct TdmCosim {
  using Network = TdmNetworkSc;
  using Driver = TdmRtlDriver;
  using Monitor = TdmScMonitor;
  using Run = TdmRun;
  static std::string router(const Network& sc, const Driver& rtl, int node) {
    const TdmScView view(sc);
    const bool sv = view.eject_valid(node), rv = rtl.eject_valid(node);
    if (sv == rv && (!sv || (view.eject_phit(node).chain == rtl.eject_phit(node).chain &&
                             view.eject_phit(node).period == rtl.eject_phit(node).period)))
      return "";
    return fmt::format("ejects {} in SystemC, {} in RTL", sv ? phit_text(view.eject_phit(node)) : "nothing",
                       rv ? phit_text(rtl.eject_phit(node)) : "nothing");
  }
  static bool same_data(const Network& sc, const Driver& rtl, int node, int port) {
    const TdmPhit s = TdmScView(sc).link_phit(node, port), r = rtl.link_phit(node, port);
    return s.chain == r.chain && s.period == r.period;
  }
  static std::string data(const Network& sc, int node, int port) { return phit_text(TdmScView(sc).link_phit(node, port)); }
  static std::string data(const Driver& rtl, int node, int port) { return phit_text(rtl.link_phit(node, port)); }
  static std::shared_ptr<const Trace> trace(Run run) { return std::make_shared<TdmTrace>(std::move(run.trace)); }
};

}  // namespace

CosimReport run_tdm_cosim(const Topology& topology, const TdmTables& systemc_tables, const TdmTables& rtl_tables,
                          const std::vector<Fault>& faults) {
  return run_round_cosim_of<TdmCosim>(topology, systemc_tables, faults, check_tdm_faults,
                                      [&](RunStats& load) { return load_tdm_rtl(topology, rtl_tables, "", load); });
}

namespace {

const KindCosimRegistrar tdm_cosim({kTdmKind, [](const Topology& topology, const Tables& tables,
                                                 const std::vector<Fault>& faults) {
                                      const TdmTables& t = as_kind<TdmTables>(tables);
                                      return run_tdm_cosim(topology, t, t, faults);
                                    }});

}  // namespace

}  // namespace fixroute
