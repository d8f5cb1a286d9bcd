// The rtl engine's combining runs: single verilated fr_combining_router models wired into
// the topology by the harness (tb/router_array.h), every table loaded through its own
// configuration port and checked, then one round per clock: the packets on the links are
// recorded each cycle and the stop rule of sw/engines/combining_engine.h is applied to the
// routers' `full` and `learnt` (docs/rtl.md, "Combining router").
#include <memory>

#include "round_array_rtl.h"
#include "router_array.h"
#include "rtl_driver.h"
#include "rtl_routers.inc"
#include "sw/core/errors.h"
#include "sw/engines/combining_engine.h"
#include "sw/tables/combining_tables.h"
#include "sw/topology/topology.h"
#include "verilated_top.h"

namespace fixroute {

namespace {

// What the harness reads of a network of combining routers.
class CombiningRtlDriver : public RtlConfigPort {
 public:
  virtual bool full(int node) const = 0;
  virtual bool learnt(int node) const = 0;
  virtual bool link_valid(int node, int port) const = 0;
  virtual int link_count(int node, int port) const = 0;  // origins in the set on the link
};

template <class Model>
class CombiningRouterArray : public RoundRouterArray<Model, CombiningRtlDriver> {
  using Base = RoundRouterArray<Model, CombiningRtlDriver>;

 public:
  CombiningRouterArray(const Topology& topology, unsigned origins) : Base(topology, origins), origins_(origins) {}
  bool full(int node) const override { return this->router(node).full; }
  bool learnt(int node) const override { return this->router(node).learnt; }
  bool link_valid(int node, int port) const override {
    return bits(this->router(node).out_valid, static_cast<unsigned>(port), 1);
  }
  int link_count(int node, int port) const override {
    int count = 0;
    for (unsigned b = 0; b < origins_; b += 32)
      count += __builtin_popcountll(bits(this->router(node).out_data, static_cast<unsigned>(port) * origins_ + b, 32));
    return count;
  }

 private:
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

CombiningRun run_combining_rtl(const Topology& topology, const CombiningTables& tables, const EngineOptions& options) {
  std::vector<std::vector<uint32_t>> images;
  for (int n = 0; n < topology.num_nodes(); ++n) images.push_back(encode_combining_image(tables, n));
  return run_round_array<CombiningClockMonitor, CombiningRun>(combining_router_builds(), "fr_combining_router", topology, tables.rounds, images, options);
}

const KindRoutersRegistrar rtl_combining(
    {kCombiningKind, "rtl", [](const Topology& topology) { return smallest_round_build(combining_router_builds(), topology, 0) != nullptr; },
     [](const Topology& topology, const Tables& t, const EngineOptions& o) {
       return combining_output(run_combining_rtl(topology, as_kind<CombiningTables>(t), o));
     }});

}  // namespace

}  // namespace fixroute
