// The rtl engine's circuit-switched runs: the verilated crossbar mesh loaded through its
// configuration port, run until every router has done its routing steps (under a cycle
// watchdog), with every message delivered at a local output recorded as a circuit and
// every latched fault reported (docs/rtl.md, "Crossbar router").
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "sw/tables/xbar_tables.h"
#include "sw/core/errors.h"
#include "sw/topology/topology.h"
#include "verilated_top.h"
#include "xbar_models.inc"
#include "xbar_rtl.h"

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

}  // namespace

const std::vector<XbarModelInfo>& xbar_models() {
  static const std::vector<XbarModelInfo> models = {
#define FIXROUTE_XBAR_MODEL(spec, cls, rows, cols, mem_words)                                           \
  {spec, rows, cols, mem_words, [](const XbarModelInfo& info) -> std::unique_ptr<XbarRtlDriver> { \
     return std::make_unique<VerilatedXbar<cls>>(info);                                          \
   }},
      FIXROUTE_XBAR_MODELS(FIXROUTE_XBAR_MODEL)
#undef FIXROUTE_XBAR_MODEL
  };
  return models;
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
  constexpr int kMaxRtlStepCycles = 255;  // rtl/fr_xbar_router.v counts a step's cycles in 8 bits
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

XbarRun run_xbar_rtl(const Topology& mesh, const XbarTables& tables, const EngineOptions& options) {
  const XbarModelInfo* m = &require_xbar_model(mesh);
  std::unique_ptr<XbarRtlDriver> rtl = m->make(*m);
  if (!options.vcd_path.empty()) rtl->open_vcd(options.vcd_path);
  const int64_t load_cycles = xbar_rtl_load(*rtl, *m, tables);  // tables checked: the routers run from the next edge
  for (int i = 0; i < mesh.num_nodes(); ++i)
    if (!rtl->table_ok(i)) {
      XbarRun failed;
      failed.overhead_cycles = load_cycles;
      failed.failure = fmt::format("router {} did not load its table: {}", i, rtl_table_error_name(rtl->table_error(i)));
      return failed;
    }
  XbarRun run = xbar_rtl_run_loaded(*rtl, mesh, tables);
  run.overhead_cycles = load_cycles;
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

}  // namespace fixroute
