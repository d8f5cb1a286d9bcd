// The rtl engine's broadcast-tree runs: single verilated fr_tree_router models wired into
// the topology by the harness (tb/router_array.h), every table loaded through its own
// configuration port and checked, then one round per clock for the tables' rounds, the
// packets on the links recorded each cycle (docs/rtl.md, "Broadcast-tree router").
#include <memory>

#include "tb/round_array_rtl.h"
#include "tb/router_array.h"
#include "tb/rtl_config_port.h"
#include "rtl_routers.inc"
#include "sw/core/errors.h"
#include "sw/core/faults.h"
#include "sw/kinds/broadcast_trees/engine.h"
#include "sw/kinds/broadcast_trees/tables.h"
#include "sw/kinds/port_rules/tables.h"
#include "sw/topology/topology.h"
#include "tb/broadcast_trees/tree_rtl.h"
#include "tb/verilated_top.h"

namespace fixroute {

namespace {

template <class Model>
class TreeRouterArray : public RoundRouterArray<Model, TreeRtlDriver> {
  using Base = RoundRouterArray<Model, TreeRtlDriver>;

 public:
  TreeRouterArray(const Topology& topology, unsigned origin_bits) : Base(topology, origin_bits), origin_bits_(origin_bits) {}
  void inject(FaultInjector* faults) override { this->set_faults(faults); }
  // What arrives: a packet a fault takes was sent but is not on the link.
  bool link_valid(int node, int port) const override { return this->arrives_from(node, port); }
  int link_origin(int node, int port) const override { return origin_of(this->router(node), static_cast<unsigned>(port)); }
  void tick() override {
    Base::tick();
    this->record_sent([this](const Model& r, int from, int port, int to) {
      this->faults_->arrives(static_cast<int64_t>(r.round), from, to, origin_of(r, static_cast<unsigned>(port)),
                             kBroadcastDest, 0);
    });
  }

 private:
  int origin_of(const Model& r, unsigned port) const {
    return static_cast<int>(bits(r.out_data, port * origin_bits_, origin_bits_));
  }

  const unsigned origin_bits_;
};

using TreeRouterBuild = RoundRouterBuild<TreeRtlDriver>;

const std::vector<TreeRouterBuild>& tree_router_builds() {
  static const std::vector<TreeRouterBuild> builds = {
#define FIXROUTE_RTL_TREE_ROUTER(cls, ports, origins, origin_w, rows)                                     \
  {ports, origins, rows, 0, fmt::format("P={}, ORIGINS={}, ROWS={}", ports, origins, rows),               \
   [](const Topology& t) -> std::unique_ptr<TreeRtlDriver> {                                              \
     return std::make_unique<TreeRouterArray<cls>>(t, origin_w);                                          \
   }},
      FIXROUTE_RTL_TREE_ROUTERS(FIXROUTE_RTL_TREE_ROUTER)
#undef FIXROUTE_RTL_TREE_ROUTER
  };
  return builds;
}

std::vector<std::vector<uint32_t>> tree_images(const Topology& topology, const BroadcastTreeTables& tables) {
  std::vector<std::vector<uint32_t>> images;
  for (int n = 0; n < topology.num_nodes(); ++n) images.push_back(encode_broadcast_tree_image(tables, n));
  return images;
}

TreeRun run_tree_rtl(const Topology& topology, const BroadcastTreeTables& tables, const EngineOptions& options) {
  check_tree_faults(options);
  return run_round_array<TreeClockMonitor, TreeRun, TreeRtlDriver>(
      tree_router_builds(), "fr_tree_router", topology, tables.rounds, tree_images(topology, tables), options, 0,
      [&](TreeRtlDriver& rtl) { rtl.inject(options.faults); });
}

const KindRoutersRegistrar rtl_trees(
    KindRouters::of(kBroadcastTreeKind, "rtl")
        .supporting([](const Topology& topology) {
          return smallest_round_build(tree_router_builds(), topology, 0) != nullptr;
        })
        .taking_faults().at_most(2e7).running(
        [](const Topology& topology, const Tables& t, const EngineOptions& o) {
          return broadcast_tree_output(run_tree_rtl(topology, as_kind<BroadcastTreeTables>(t), o));
        }));

}  // namespace

std::unique_ptr<TreeRtlDriver> load_tree_rtl(const Topology& topology, const BroadcastTreeTables& tables,
                                             const std::string& vcd_path, RunStats& run) {
  return load_round_array(tree_router_builds(), "fr_tree_router", topology, tables.rounds, tree_images(topology, tables),
                          vcd_path, run);
}

}  // namespace fixroute
