// The rtl engine's runs of TDM routers: single verilated fr_tdm_router models wired into the
// topology by the harness (tb/router_array.h), every table loaded through its own
// configuration port and checked, then one slot per clock: the links and ejections recorded
// at every edge for the run's slots (TdmClockMonitor, sw/kinds/tdm/engine.h; docs/tdm.md).
#include "tb/tdm/tdm_rtl_engine.h"

#include <fmt/format.h>

#include <memory>

#include "rtl_routers.inc"
#include "sw/core/errors.h"
#include "sw/kinds/tdm/tables.h"
#include "sw/topology/topology.h"
#include "tb/round_array_rtl.h"
#include "tb/router_array.h"
#include "tb/verilated_top.h"

namespace fixroute {

namespace {

// The most routers the harness wires into one array (a TDM router holds no state per node
// of the network, so a build is not what limits it).
constexpr int kMaxTdmArrayNodes = 1 << 16;

template <class Model, int kChainBits, int kPeriodBits>
class TdmRouterArray : public RoundRouterArray<Model, TdmRtlDriver> {
  using Base = RoundRouterArray<Model, TdmRtlDriver>;
  static constexpr unsigned kPhitBits = kChainBits + kPeriodBits;

 public:
  explicit TdmRouterArray(const Topology& topology) : Base(topology, kPhitBits) {
    for (int i = 0; i < topology.num_nodes(); ++i) this->router(i).periods = kTdmPeriodsRun;
  }
  void inject(FaultInjector* faults) override {
    EngineOptions options;
    options.faults = faults;
    check_tdm_faults(options);
    this->set_faults(faults);
  }
  bool link_valid(int node, int port) const override { return this->arrives_from(node, port); }
  TdmPhit link_phit(int node, int port) const override {
    return phit(this->router(node).out_data, static_cast<unsigned>(port) * kPhitBits);
  }
  bool eject_valid(int node) const override {
    const Model& r = this->router(node);
    return r.eject_valid && !(this->faults_ && this->faults_->stuck(node, static_cast<int64_t>(r.round)));
  }
  void tick() override {
    Base::tick();
    this->record_sent([this](const Model& r, int from, int port, int to) {
      const TdmPhit p = phit(r.out_data, static_cast<unsigned>(port) * kPhitBits);
      tdm_phit_arrives(*this->faults_, this->tables(), static_cast<int64_t>(r.round), from, to, p.chain, p.period);
    });
  }
  TdmPhit eject_phit(int node) const override { return phit(this->router(node).eject_data, 0); }

 private:
  template <class Word>
  static TdmPhit phit(const Word& data, unsigned lsb) {
    return {static_cast<int>(bits(data, lsb, kChainBits)), static_cast<int>(bits(data, lsb + kChainBits, kPeriodBits))};
  }
};

// One verilated build, with the chain numbers its phits carry.
struct TdmRouterBuild {
  RoundRouterBuild<TdmRtlDriver> build;
  int chain_bits;
};

const std::vector<TdmRouterBuild>& tdm_router_builds() {
  static const std::vector<TdmRouterBuild> builds = {
#define FIXROUTE_RTL_TDM_ROUTER(cls, ports, rows, chain_bits, period_bits)                                         \
  {{ports, kMaxTdmArrayNodes, rows, 0, fmt::format("P={}, ROWS={}, CHAIN_W={}", ports, rows, chain_bits),          \
    [](const Topology& t) -> std::unique_ptr<TdmRtlDriver> {                                                       \
      return std::make_unique<TdmRouterArray<cls, chain_bits, period_bits>>(t);                                    \
    }},                                                                                                            \
   chain_bits},
      FIXROUTE_RTL_TDM_ROUTERS(FIXROUTE_RTL_TDM_ROUTER)
#undef FIXROUTE_RTL_TDM_ROUTER
  };
  return builds;
}

std::vector<RoundRouterBuild<TdmRtlDriver>> round_builds(size_t chains) {
  std::vector<RoundRouterBuild<TdmRtlDriver>> out;
  for (const TdmRouterBuild& b : tdm_router_builds())
    if (chains < (size_t{1} << b.chain_bits)) out.push_back(b.build);
  return out;
}

std::vector<std::vector<uint32_t>> tdm_images(const Topology& topology, const TdmTables& tables) {
  std::vector<std::vector<uint32_t>> images;
  for (int n = 0; n < topology.num_nodes(); ++n) images.push_back(encode_tdm_image(tables, n));
  return images;
}

// Refuses chains beyond every build's numbers, naming them.
void check_chain_numbers(const TdmTables& tables) {
  int most = 0;
  for (const TdmRouterBuild& b : tdm_router_builds()) most = std::max(most, b.chain_bits);
  if (tables.chains.size() >= (size_t{1} << most))
    throw InputError(fmt::format("the verilated fr_tdm_router numbers at most {} chains; these tables have {}",
                                 (size_t{1} << most) - 1, tables.chains.size()));
}

// The build is chosen by the period (its rows); the run lasts the tables' run slots.
TdmRun run_tdm_rtl(const Topology& topology, const TdmTables& tables, const EngineOptions& options) {
  check_tdm_faults(options);
  check_chain_numbers(tables);
  TdmRun run;
  std::unique_ptr<TdmRtlDriver> rtl =
      load_round_array(round_builds(tables.chains.size()), "fr_tdm_router", topology, tables.period,
                       tdm_images(topology, tables), options.vcd_path, run, 0, options.waveform);
  if (!rtl) return run;
  rtl->set_tables(tables);
  rtl->inject(options.faults);
  rtl->set_threads(array_threads(options));
  TdmClockMonitor monitor(topology, tables.rounds);
  while (!monitor.finished()) {
    rtl->tick();
    monitor.clock_edge(*rtl);
  }
  monitor.finish(run);
  return run;
}

const KindRoutersRegistrar rtl_tdm(
    KindRouters::of(kTdmKind, "rtl")
        .taking_faults()
        .supporting([](const Topology& topology) {
          return smallest_round_build(round_builds(0), topology, 0) != nullptr;
        })
        .at_most(2e7)
        .running([](const Topology& topology, const Tables& t, const EngineOptions& o) {
          return engine_output<TdmTrace>(run_tdm_rtl(topology, as_kind<TdmTables>(t), o));
        }));

}  // namespace

std::unique_ptr<TdmRtlDriver> load_tdm_rtl(const Topology& topology, const TdmTables& tables,
                                           const std::string& vcd_path, RunStats& run) {
  check_chain_numbers(tables);
  const std::vector<RoundRouterBuild<TdmRtlDriver>> builds = round_builds(tables.chains.size());
  std::unique_ptr<TdmRtlDriver> rtl =
      load_round_array(builds, "fr_tdm_router", topology, tables.period, tdm_images(topology, tables), vcd_path, run);
  if (rtl) rtl->set_tables(tables);
  return rtl;
}

}  // namespace fixroute
