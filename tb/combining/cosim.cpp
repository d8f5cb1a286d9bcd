#include "cosim.h"

#include <fmt/format.h>

#include <memory>
#include <string>

#include "sw/kinds/combining/engine.h"
#include "systemc/combining/fr_combining_router_sc.h"
#include "tb/combining/combining_rtl.h"
#include "tb/round_cosim.h"

namespace fixroute {

namespace {

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

}  // namespace

CosimReport run_combining_cosim(const Topology& topology, const CombiningTables& systemc_tables,
                                const CombiningTables& rtl_tables, const std::vector<Fault>& faults) {
  check_combining_run_size(topology);
  return run_round_cosim_of<CombiningCosim>(topology, systemc_tables, faults, check_combining_faults, [&](RunStats& load) {
    return load_combining_rtl(topology, rtl_tables, "", load);
  });
}

namespace {

const KindCosimRegistrar combining_cosim({kCombiningKind, [](const Topology& topology, const Tables& tables,
                                                             const std::vector<Fault>& faults) {
                                            const CombiningTables& t = as_kind<CombiningTables>(tables);
                                            return run_combining_cosim(topology, t, t, faults);
                                          }});

}  // namespace

}  // namespace fixroute
