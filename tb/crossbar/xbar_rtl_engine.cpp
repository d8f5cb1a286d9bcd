// The rtl engine's circuit-switched runs: the verilated crossbar mesh loaded through its
// configuration port, run until every router has done its routing steps (under a cycle
// watchdog), with every message delivered at a local output recorded as a circuit and
// every latched fault reported (docs/rtl.md, "Crossbar router").
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "sw/kinds/crossbar/tables.h"
#include "sw/core/errors.h"
#include "sw/core/faults.h"
#include "sw/topology/topology.h"
#include "tb/verilated_top.h"
#include "tb/router_array.h"
#include "rtl_routers.inc"
#include "rtl_sizes.inc"
#include "xbar_models.inc"
#include "tb/crossbar/xbar_rtl.h"
#include "tb/rtl_config_port.h"

namespace fixroute {

namespace {

constexpr unsigned kMessageBits = 16;

template <class Model>
class VerilatedXbar : public VerilatedTop<Model, XbarRtlDriver> {
  using VerilatedTop<Model, XbarRtlDriver>::model_;
  using VerilatedTop<Model, XbarRtlDriver>::u;

 public:
  explicit VerilatedXbar(const XbarModelInfo&) {}
  bool done(int node) const override { return bits(model_->done, u(node), 1); }
  int64_t step(int node) const override { return static_cast<int64_t>(bits(model_->step, u(node) * 16, 16)); }
  bool eject_valid(int node) const override { return bits(model_->eject_valid, u(node), 1); }
  int eject_data(int node) const override {
    return static_cast<int>(bits(model_->eject_data, u(node) * kMessageBits, kMessageBits));
  }
  uint32_t fault_word(int node) const override { return static_cast<uint32_t>(bits(model_->fault_word, u(node) * 32, 32)); }
  bool link_valid(int node, int port) const override { return bits(model_->link_valid, u(node * 4 + port), 1); }
  int link_data(int node, int port) const override {
    return static_cast<int>(bits(model_->link_data, u(node * 4 + port) * kMessageBits, kMessageBits));
  }
};

// A mesh of fr_xbar_router builds wired from the topology (router_array.h); the AND of the
// routers' table_ok is start, as in fr_mesh_xbar_top.
template <class Model>
class XbarRouterArray : public RouterArray<Model, XbarRtlDriver> {
  using Array = RouterArray<Model, XbarRtlDriver>;
  using Array::router;
  using Array::routers_;

 public:
  explicit XbarRouterArray(const Topology& mesh) : Array(mesh, kMessageBits) {}
  bool done(int node) const override { return router(node).done; }
  int64_t step(int node) const override { return static_cast<int64_t>(router(node).step); }
  // A stuck router delivers nothing.
  bool eject_valid(int node) const override {
    return router(node).eject_valid && !(faults_ && faults_->stuck(node, step(node) + 1));
  }
  int eject_data(int node) const override { return static_cast<int>(router(node).eject_data); }
  uint32_t fault_word(int node) const override { return static_cast<uint32_t>(router(node).fault_word); }
  bool link_valid(int node, int port) const override { return bits(router(node).out_valid, static_cast<unsigned>(port), 1); }
  int link_data(int node, int port) const override {
    return static_cast<int>(bits(router(node).out_data, static_cast<unsigned>(port) * kMessageBits, kMessageBits));
  }

  void inject(FaultInjector* faults) override { faults_ = faults && faults->any() ? faults : nullptr; }

 private:
  void global_inputs() override {
    bool start = true;
    for (const auto& r : routers_) start = start && r->table_ok;
    for (auto& r : routers_) r->start = start;
  }
  // The message on the sender's link register crosses in the sender's current routing step
  // (a circuit's last hop ends before its step's last cycle).
  bool arrives(const Model& sender, int from, unsigned port, int to) override {
    return !faults_ || faults_->arrives_message(static_cast<int64_t>(sender.step) + 1, from, to,
                                                static_cast<int>(bits(sender.out_data, port * kMessageBits, kMessageBits)));
  }

  FaultInjector* faults_ = nullptr;
};

struct XbarRouterBuild {
  int mem_words;
  std::function<std::unique_ptr<XbarRtlDriver>(const Topology&)> make_array;
};

const std::vector<XbarRouterBuild>& xbar_router_builds() {
  static const std::vector<XbarRouterBuild> builds = {
#define FIXROUTE_RTL_ROUTER(...)
#define FIXROUTE_RTL_XBAR_ROUTER(cls, mem_words) \
  {mem_words, [](const Topology& mesh) -> std::unique_ptr<XbarRtlDriver> { return std::make_unique<XbarRouterArray<cls>>(mesh); }},
      FIXROUTE_RTL_ROUTERS(FIXROUTE_RTL_ROUTER, FIXROUTE_RTL_XBAR_ROUTER)
#undef FIXROUTE_RTL_ROUTER
#undef FIXROUTE_RTL_XBAR_ROUTER
  };
  return builds;
}

// The largest memory image of the tables, in words.
int64_t xbar_image_words(const XbarTables& tables) {
  int64_t words = 0;
  for (const XbarRouterTable& r : tables.routers)
    words = std::max<int64_t>(words, static_cast<int64_t>(encode_xbar_image(tables, r).size()));
  return words;
}

}  // namespace

const std::vector<std::string>& xbar_curated_sizes() {
  static const std::vector<std::string> sizes = {FIXROUTE_XBAR_CURATED_SIZES};
  return sizes;
}

const std::vector<XbarModelInfo>& xbar_models() {
  static const std::vector<XbarModelInfo> models = {
#define FIXROUTE_XBAR_MODEL(spec, cls, rows, cols, mem_words)                                                         \
  {spec, rows, cols, mem_words,                                                                                       \
   [](const XbarModelInfo& info) -> std::unique_ptr<XbarRtlDriver> { return std::make_unique<VerilatedXbar<cls>>(info); }, \
   fmt::format("fr_mesh_xbar_top {} (MEM_WORDS={})", spec, mem_words)},
      FIXROUTE_XBAR_MODELS(FIXROUTE_XBAR_MODEL)
#undef FIXROUTE_XBAR_MODEL
  };
  return models;
}

XbarModelInfo xbar_array_model(const Topology& mesh, const XbarTables& tables) {
  if (mesh.num_nodes() > (1 << kMessageBits))
    throw InputError(fmt::format("{} has {} nodes; the crossbar routers' {}-bit messages name at most {}", mesh.spec(),
                                 mesh.num_nodes(), kMessageBits, 1 << kMessageBits));
  const int64_t words = xbar_image_words(tables);
  const XbarRouterBuild* best = nullptr;
  std::vector<int> built;
  for (const XbarRouterBuild& b : xbar_router_builds()) {
    built.push_back(b.mem_words);
    if (b.mem_words >= words && (!best || b.mem_words < best->mem_words)) best = &b;
  }
  if (!best)
    throw InputError(fmt::format("no verilated crossbar router holds the tables of {}: they need {} words per router; "
                                 "built: {} words (add one to FIXROUTE_RTL_XBAR_BUILDS in rtl/CMakeLists.txt)",
                                 mesh.spec(), words, fmt::join(built, ", ")));
  return {mesh.spec(), mesh.dims()[0], mesh.dims()[1], best->mem_words,
          [make = best->make_array, mesh](const XbarModelInfo&) { return make(mesh); },
          fmt::format("fr_xbar_router array (MEM_WORDS={})", best->mem_words)};
}

XbarModelInfo xbar_model_for(const Topology& mesh, const XbarTables& tables) {
  if (const XbarModelInfo* m = find_xbar_model(mesh); m && xbar_image_words(tables) <= m->mem_words) return *m;
  return xbar_array_model(mesh, tables);
}

const XbarModelInfo* find_xbar_model(const Topology& mesh) {
  for (const XbarModelInfo& m : xbar_models())
    if (m.spec == mesh.spec()) return &m;
  return nullptr;
}

const XbarModelInfo& require_xbar_model(const Topology& mesh) {
  if (const XbarModelInfo* m = find_xbar_model(mesh)) return *m;
  std::vector<std::string> built;
  for (const XbarModelInfo& m : xbar_models()) built.push_back(m.spec);
  throw InputError(fmt::format("no verilated crossbar mesh for {} (verilated: {})", mesh.spec(), fmt::join(built, ", ")));
}

std::string xbar_fault_from_word(uint32_t word, int node) {
  const uint32_t kind = word >> 30;
  const int a = static_cast<int>((word >> 27) & 7u), b = static_cast<int>((word >> 24) & 7u);
  const int port = static_cast<int>((word >> 21) & 7u);
  const int64_t step = word & 0xFFFFu;
  if (kind == 1) return xbar_fault_text(XbarFault::Conflict, step, node, port, a, b);
  if (kind == 2) return xbar_fault_text(XbarFault::Stray, step, node, port);
  return "";
}

int64_t xbar_rtl_load(XbarRtlDriver& rtl, const XbarModelInfo& m, const XbarTables& tables) {
  constexpr int kMaxRtlStepCycles = 255;  // rtl/crossbar/fr_xbar_router.v counts a step's cycles in 8 bits
  if (tables.step_cycles > kMaxRtlStepCycles)
    throw InputError(fmt::format("the tables' steps last {} cycles; the verilated routers count at most {}",
                                 tables.step_cycles, kMaxRtlStepCycles));
  std::vector<std::vector<uint32_t>> images;
  for (const XbarRouterTable& r : tables.routers) {
    images.push_back(encode_xbar_image(tables, r));
    if (static_cast<int>(images.back().size()) > m.mem_words)
      throw InputError(fmt::format("the tables need {} words per router; the verilated {} holds {} ({} routing steps)",
                                   images.back().size(), m.spec, m.mem_words, m.mem_words - 7));
  }
  return rtl_reset_and_load(rtl, images);
}

XbarRun run_xbar_rtl(const Topology& mesh, const XbarTables& circuit_tables, const EngineOptions& options) {
  check_xbar_faults(options);
  FaultInjector* faults = options.faults && options.faults->any() ? options.faults : nullptr;
  XbarTables expanded;  // the routers load every setting into their memories
  const XbarTables& tables = stored_xbar_tables(mesh, circuit_tables, expanded);
  const XbarModelInfo m = needs_router_array(faults, !options.vcd_path.empty()) ? xbar_array_model(mesh, tables)
                                                                               : xbar_model_for(mesh, tables);
  std::unique_ptr<XbarRtlDriver> rtl = m.make(m);
  rtl->inject(faults);
  rtl->set_threads(array_threads(options));  // the load's clocks too
  if (!options.vcd_path.empty()) rtl->open_vcd(options.vcd_path, options.waveform);
  const int64_t load_cycles = xbar_rtl_load(*rtl, m, tables);  // tables checked: the routers run from the next edge
  for (int i = 0; i < mesh.num_nodes(); ++i)
    if (!rtl->table_ok(i)) {
      XbarRun failed;
      failed.overhead_cycles = load_cycles;
      failed.failure = fmt::format("router {} did not load its table: {}", i, rtl_table_error_name(rtl->table_error(i)));
      return failed;
    }
  XbarRun run = xbar_rtl_run_loaded(*rtl, mesh, tables);
  run.overhead_cycles = load_cycles;
  run.hardware = m.hardware;
  return run;
}

XbarRun xbar_rtl_run_loaded(XbarRtlDriver& rtl, const Topology& mesh, const XbarTables& tables) {
  XbarRun run;
  const int nodes = mesh.num_nodes();
  const int64_t budget = static_cast<int64_t>(tables.steps()) * tables.step_cycles + 16;
  int64_t cycles = 0;
  auto all_done = [&] {
    for (int i = 0; i < nodes; ++i)
      if (!rtl.done(i)) return false;
    return true;
  };
  while (!all_done()) {
    if (cycles > budget) {
      run.failure = fmt::format("watchdog: the routers did not finish {} routing steps in {} cycles", tables.steps(), budget);
      break;
    }
    rtl.tick();
    ++cycles;
    for (int i = 0; i < nodes; ++i)
      if (rtl.eject_valid(i)) run.trace.push_back({rtl.step(i) + 1, rtl.eject_data(i), i});
  }
  for (int i = 0; i < nodes; ++i)
    if (std::string f = xbar_fault_from_word(rtl.fault_word(i), i); !f.empty()) run.faults.push_back(f);
  run.clock_cycles = cycles;
  run.cycles_per_step = tables.step_cycles;
  run.steps_simulated = rtl.step(0);
  std::sort(run.trace.begin(), run.trace.end());
  std::sort(run.faults.begin(), run.faults.end());
  return run;
}

namespace {

const KindRoutersRegistrar rtl_crossbars(
    KindRouters::of(kCrossbarKind, "rtl")
        .supporting([](const Topology& t) { return in_curated_sizes(xbar_curated_sizes(), t); })
        .taking_faults().at_most(2e7).running(
        [](const Topology& mesh, const Tables& t, const EngineOptions& o) {
          return crossbar_output(run_xbar_rtl(mesh, as_kind<XbarTables>(t), o));
        }));

}  // namespace

}  // namespace fixroute
