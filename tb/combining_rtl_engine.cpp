// The rtl engine's combining runs: single verilated fr_combining_router models wired into
// the topology by the harness (tb/router_array.h), every table loaded through its own
// configuration port and checked, then one round per clock: the packets on the links are
// recorded each cycle and the stop rule of sw/engines/combining_engine.h is applied to the
// routers' `full` and `learnt` (docs/rtl.md, "Combining router").
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>

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
class CombiningRouterArray : public RouterArray<Model, CombiningRtlDriver> {
  using Base = RouterArray<Model, CombiningRtlDriver>;

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

 protected:
  void global_inputs() override {  // the network's one AND gate: run once every table is loaded
    bool all = true;
    for (const auto& r : this->routers_) all = all && r->table_ok;
    for (auto& r : this->routers_) r->start = all;
  }

 private:
  const unsigned origins_;
};

struct CombiningRouterBuild {
  int ports, origins, rows;
  std::function<std::unique_ptr<CombiningRtlDriver>(const Topology&)> make_array;
  std::string text() const { return fmt::format("P={}, ORIGINS={}, ROWS={}", ports, origins, rows); }
};

const std::vector<CombiningRouterBuild>& combining_router_builds() {
  static const std::vector<CombiningRouterBuild> builds = {
#define FIXROUTE_RTL_COMBINING_ROUTER(cls, ports, origins, rows)                                             \
  {ports, origins, rows, [](const Topology& t) -> std::unique_ptr<CombiningRtlDriver> {                      \
     return std::make_unique<CombiningRouterArray<cls>>(t, origins);                                         \
   }},
      FIXROUTE_RTL_COMBINING_ROUTERS(FIXROUTE_RTL_COMBINING_ROUTER)
#undef FIXROUTE_RTL_COMBINING_ROUTER
  };
  return builds;
}

// The smallest build with the topology's ports and nodes and `rows` rows (0: any);
// nullptr where none is.
const CombiningRouterBuild* combining_build_for(const Topology& topology, int rows) {
  const CombiningRouterBuild* best = nullptr;
  for (const CombiningRouterBuild& b : combining_router_builds())
    if (b.ports >= topology.num_ports() && b.origins >= topology.num_nodes() && b.rows >= rows &&
        (!best || b.origins * b.ports < best->origins * best->ports))
      best = &b;
  return best;
}

CombiningRun run_combining_rtl(const Topology& topology, const CombiningTables& tables, const EngineOptions& options) {
  const CombiningRouterBuild* build = combining_build_for(topology, tables.rounds);
  if (!build) {
    std::vector<std::string> built;
    for (const CombiningRouterBuild& b : combining_router_builds()) built.push_back(b.text());
    throw InputError(fmt::format("no verilated combining router holds {} with {} rows ({} ports, {} nodes); built: {}",
                                 topology.spec(), tables.rounds, topology.num_ports(), topology.num_nodes(),
                                 fmt::join(built, "; ")));
  }
  std::unique_ptr<CombiningRtlDriver> rtl = build->make_array(topology);
  if (!options.vcd_path.empty()) rtl->open_vcd(options.vcd_path);
  std::vector<std::vector<uint32_t>> images;
  for (int n = 0; n < topology.num_nodes(); ++n) images.push_back(encode_combining_image(tables, n));
  CombiningRun run;
  run.hardware = fmt::format("fr_combining_router array ({})", build->text());
  run.overhead_cycles = rtl_reset_and_load(*rtl, images);
  for (int i = 0; i < topology.num_nodes(); ++i)
    if (!rtl->table_ok(i)) {
      run.failure = fmt::format("router {} did not load its table: {}", i, rtl_table_error_name(rtl->table_error(i)));
      return run;
    }
  CombiningClockMonitor monitor(topology, tables.rounds);
  while (!monitor.finished()) {
    rtl->tick();
    monitor.clock_edge(*rtl);
  }
  monitor.finish(run);
  return run;
}

const KindRoutersRegistrar rtl_combining(
    {kCombiningKind, "rtl", [](const Topology& topology) { return combining_build_for(topology, 0) != nullptr; },
     [](const Topology& topology, const Tables& t, const EngineOptions& o) {
       return combining_output(run_combining_rtl(topology, as_kind<CombiningTables>(t), o));
     }});

}  // namespace

}  // namespace fixroute
