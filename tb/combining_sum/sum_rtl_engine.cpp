// The rtl engine's runs of summing routers: single verilated fr_sum_router models wired
// into the topology by the harness (tb/router_array.h), every table loaded through its own
// configuration port and checked, each router's input value on its `value` pins, then one
// round per tick -- the clocks of a round, one per register of the table: the links
// recorded after every round for the tables' rounds and the answers read one round later
// (SumClockMonitor, sw/kinds/combining_sum/engine.h; docs/rtl.md, "Summing router").
#include <memory>

#include "tb/combining_sum/sum_rtl_engine.h"

#include "tb/round_array_rtl.h"
#include "tb/router_array.h"
#include "tb/rtl_config_port.h"
#include "rtl_routers.inc"
#include "sw/core/faults.h"
#include "sw/kinds/combining_sum/engine.h"
#include "sw/kinds/combining_sum/tables.h"
#include "sw/topology/topology.h"
#include "tb/verilated_top.h"

namespace fixroute {

namespace {

constexpr unsigned kSumLinkBits = 64;
// The most routers the harness wires into one array (a summing router's size does not grow
// with the network, so a build is not what limits it).
constexpr int kMaxSumArrayNodes = 1 << 16;

uint64_t low_high(uint64_t low, uint64_t high) { return low | high << 32; }

template <class Model>
class SumRouterArray : public RoundRouterArray<Model, SumRtlDriver> {
  using Base = RoundRouterArray<Model, SumRtlDriver>;

 public:
  explicit SumRouterArray(const Topology& topology) : Base(topology, kSumLinkBits) {
    for (int i = 0; i < topology.num_nodes(); ++i) this->router(i).value = sum_input_value(i);
  }
  void inject(FaultInjector* faults) override { this->set_faults(faults); }
  // What arrives: a sum a fault takes was sent but is not on the link.
  bool link_valid(int node, int port) const override { return this->arrives_from(node, port); }
  // One clock while the routers are not running (reset, load); else the clocks of a round:
  // until the routers, all in step, say the next clock starts one.
  void tick() override {
    clocks_of_round_ = 0;
    do {
      Base::tick();
      ++clocks_of_round_;
    } while (this->router(0).mid_round);
    this->record_sent([this](const Model& r, int from, int, int to) {
      this->faults_->arrives_sum(static_cast<int64_t>(r.round), from, to);
    });
  }
  uint64_t link_value(int node, int port) const override {
    const auto& data = this->router(node).out_data;
    const unsigned lsb = static_cast<unsigned>(port) * kSumLinkBits;
    return low_high(bits(data, lsb, 32), bits(data, lsb + 32, 32));
  }
  uint64_t answer(int node) const override { return this->router(node).answer; }
  int clocks_of_round() const override { return clocks_of_round_; }

 private:
  int clocks_of_round_ = 0;
};

using SumRouterBuild = RoundRouterBuild<SumRtlDriver>;

const std::vector<SumRouterBuild>& sum_router_builds() {
  static const std::vector<SumRouterBuild> builds = {
#define FIXROUTE_RTL_SUM_ROUTER(cls, ports, regs, rows)                                                \
  {ports, kMaxSumArrayNodes, rows, regs, fmt::format("P={}, REGS={}, ROWS={}", ports, regs, rows),     \
   [](const Topology& t) -> std::unique_ptr<SumRtlDriver> { return std::make_unique<SumRouterArray<cls>>(t); }},
      FIXROUTE_RTL_SUM_ROUTERS(FIXROUTE_RTL_SUM_ROUTER)
#undef FIXROUTE_RTL_SUM_ROUTER
  };
  return builds;
}

std::vector<std::vector<uint32_t>> sum_images(const Topology& topology, const CombiningSumTables& tables) {
  std::vector<std::vector<uint32_t>> images;
  for (int n = 0; n < topology.num_nodes(); ++n) images.push_back(encode_combining_sum_image(tables, n));
  return images;
}

CombiningSumRun run_sum_rtl(const Topology& topology, const CombiningSumTables& tables, const EngineOptions& options) {
  check_sum_faults(options);
  return run_sum_rtl_images(topology, tables.rounds, tables.registers, sum_images(topology, tables), options);
}

const KindRoutersRegistrar rtl_sums(
    KindRouters::of(kCombiningSumKind, "rtl")
        .supporting([](const Topology& topology) {
          return smallest_round_build(sum_router_builds(), topology, 0) != nullptr;
        })
        .taking_faults().at_most(2e7).running(
        [](const Topology& topology, const Tables& t, const EngineOptions& o) {
          return combining_sum_output(run_sum_rtl(topology, as_kind<CombiningSumTables>(t), o));
        }));

}  // namespace

std::unique_ptr<SumRtlDriver> load_sum_rtl(const Topology& topology, const CombiningSumTables& tables,
                                           const std::string& vcd_path, RunStats& run) {
  return load_round_array(sum_router_builds(), "fr_sum_router", topology, tables.rounds, sum_images(topology, tables),
                          vcd_path, run, tables.registers);
}

CombiningSumRun run_sum_rtl_images(const Topology& topology, int rounds, int registers,
                                   const std::vector<std::vector<uint32_t>>& images, const EngineOptions& options) {
  return run_round_array<SumClockMonitor, CombiningSumRun, SumRtlDriver>(
      sum_router_builds(), "fr_sum_router", topology, rounds, images, options, registers,
      [&](SumRtlDriver& rtl) { rtl.inject(options.faults); });
}

}  // namespace fixroute
