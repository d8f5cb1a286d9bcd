// The rtl engine's combining runs: single verilated fr_combining_router models wired into
// the topology by the harness (tb/router_array.h), every table loaded through its own
// configuration port and checked, then one round per clock: the packets on the links are
// recorded each cycle and the stop rule of sw/kinds/combining/engine.h is applied to the
// routers' `full` and `learnt` (docs/rtl.md, "Combining router").
#include <memory>

#include "tb/combining/combining_rtl.h"
#include "tb/round_array_rtl.h"
#include "tb/router_array.h"
#include "tb/rtl_config_port.h"
#include "rtl_routers.inc"
#include "sw/core/errors.h"
#include "sw/core/faults.h"
#include "sw/kinds/combining/engine.h"
#include "sw/kinds/combining/tables.h"
#include "sw/topology/topology.h"
#include "tb/verilated_top.h"

namespace fixroute {

namespace {

template <class Model>
class CombiningRouterArray : public RoundRouterArray<Model, CombiningRtlDriver> {
  using Base = RoundRouterArray<Model, CombiningRtlDriver>;

 public:
  CombiningRouterArray(const Topology& topology, unsigned origins) : Base(topology, origins), origins_(origins) {}
  void inject(FaultInjector* faults) override { this->set_faults(faults); }
  bool full(int node) const override { return this->router(node).full; }
  bool learnt(int node) const override { return this->router(node).learnt; }
  // What arrives: a set a fault takes was sent but is not on the link.
  bool link_valid(int node, int port) const override {
    return bits(this->router(node).out_valid, static_cast<unsigned>(port), 1) &&
           this->reaches(node, port, static_cast<int64_t>(this->router(node).round));
  }
  int link_count(int node, int port) const override { return set_count(this->router(node), static_cast<unsigned>(port)); }
  uint64_t link_word(int node, int port, int w) const override {
    uint64_t word = 0;
    for (unsigned half = 0; half < 2; ++half) {
      const unsigned b = static_cast<unsigned>(w) * 64 + half * 32;
      if (b < origins_) word |= bits(this->router(node).out_data, static_cast<unsigned>(port) * origins_ + b, 32) << (half * 32);
    }
    return word;
  }

 private:
  // The sender's set reaches node `to` unless a fault takes it (recorded), as the ref engine decides.
  bool arrives(const Model& sender, int from, unsigned port, int to) override {
    return !this->faults_ ||
           this->faults_->arrives_set(static_cast<int64_t>(sender.round), from, to, set_count(sender, port));
  }
  int set_count(const Model& r, unsigned port) const {
    int count = 0;
    for (unsigned b = 0; b < origins_; b += 32) count += __builtin_popcountll(bits(r.out_data, port * origins_ + b, 32));
    return count;
  }

  const unsigned origins_;
};

using CombiningRouterBuild = RoundRouterBuild<CombiningRtlDriver>;

const std::vector<CombiningRouterBuild>& combining_router_builds() {
  static const std::vector<CombiningRouterBuild> builds = {
#define FIXROUTE_RTL_COMBINING_ROUTER(cls, ports, origins, rows)                                             \
  {ports, origins, rows, 0, fmt::format("P={}, ORIGINS={}, ROWS={}", ports, origins, rows),                \
   [](const Topology& t) -> std::unique_ptr<CombiningRtlDriver> {                                            \
     return std::make_unique<CombiningRouterArray<cls>>(t, origins);                                         \
   }},
      FIXROUTE_RTL_COMBINING_ROUTERS(FIXROUTE_RTL_COMBINING_ROUTER)
#undef FIXROUTE_RTL_COMBINING_ROUTER
  };
  return builds;
}

std::vector<std::vector<uint32_t>> combining_images(const Topology& topology, const CombiningTables& tables) {
  std::vector<std::vector<uint32_t>> images;
  for (int n = 0; n < topology.num_nodes(); ++n) images.push_back(encode_combining_image(tables, n));
  return images;
}

CombiningRun run_combining_rtl(const Topology& topology, const CombiningTables& tables, const EngineOptions& options) {
  check_combining_faults(options);
  return run_round_array<CombiningClockMonitor, CombiningRun, CombiningRtlDriver>(
      combining_router_builds(), "fr_combining_router", topology, tables.rounds, combining_images(topology, tables),
      options, 0, [&](CombiningRtlDriver& rtl) { rtl.inject(options.faults); });
}

const KindRoutersRegistrar rtl_combining(
    KindRouters::of(kCombiningKind, "rtl")
        .supporting([](const Topology& topology) {
          return smallest_round_build(combining_router_builds(), topology, 0) != nullptr;
        })
        .taking_faults().streaming().at_most(2e7).running(
        [](const Topology& topology, const Tables& t, const EngineOptions& o) {
          return combining_output(run_combining_rtl(topology, as_kind<CombiningTables>(t), o), StepRecorder<CombiningEvent>::streams(o));
        }));

}  // namespace

std::unique_ptr<CombiningRtlDriver> load_combining_rtl(const Topology& topology, const CombiningTables& tables,
                                                       const std::string& vcd_path, RunStats& run) {
  return load_round_array(combining_router_builds(), "fr_combining_router", topology, tables.rounds,
                          combining_images(topology, tables), vcd_path, run);
}

}  // namespace fixroute
