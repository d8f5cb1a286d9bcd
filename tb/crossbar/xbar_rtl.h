// The verilated crossbar meshes (rtl/crossbar/fr_mesh_xbar_top.v) behind a plain interface, for
// the rtl engine's circuit-switched runs and the SystemC co-simulation.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sw/kinds/crossbar/engine.h"
#include "sw/kinds/port_rules/ref_routers.h"
#include "tb/rtl_config_port.h"

namespace fixroute {

class FaultInjector;
class Topology;
struct XbarTables;

class XbarRtlDriver : public RtlConfigPort {
 public:
  virtual bool done(int node) const = 0;
  virtual int64_t step(int node) const = 0;  // routing steps completed
  virtual bool eject_valid(int node) const = 0;
  virtual int eject_data(int node) const = 0;
  virtual uint32_t fault_word(int node) const = 0;
  virtual bool link_valid(int node, int port) const = 0;
  virtual int link_data(int node, int port) const = 0;
  // Faults (docs/faults.md) applied by the wiring from the next clock on: a message a fault
  // takes is sent but does not reach the next router, a stuck router's input is cut and its
  // local output unread (sw/kinds/crossbar/engine.h). Only router arrays wire in C++ (runs
  // under faults pick one: xbar_array_model); the mesh tops ignore it.
  virtual void inject(FaultInjector* /*faults*/) {}
};

// A curated verilated crossbar mesh, or an array of single crossbar routers of one build
// wired for the mesh (router_array.h).
struct XbarModelInfo {
  std::string spec;
  int rows, cols, mem_words;
  std::function<std::unique_ptr<XbarRtlDriver>(const XbarModelInfo&)> make;
  std::string hardware;  // what runs: the mesh top, or the router build of the array
};

// The curated meshes: where the sweep and the test suites run rtl (rtl/CMakeLists.txt).
const std::vector<std::string>& xbar_curated_sizes();

// The verilated mesh tops.
const std::vector<XbarModelInfo>& xbar_models();
const XbarModelInfo* find_xbar_model(const Topology& mesh);  // nullptr when not built
// The curated model for `mesh`, or InputError naming the verilated sizes.
const XbarModelInfo& require_xbar_model(const Topology& mesh);
// The array of the smallest crossbar router build whose memory holds the tables (what runs
// under injected faults: its links are wired in C++), or InputError saying what they need
// and what is built.
XbarModelInfo xbar_array_model(const Topology& mesh, const XbarTables& tables);
// The curated mesh of that size when the tables fit its memory, else xbar_array_model.
XbarModelInfo xbar_model_for(const Topology& mesh, const XbarTables& tables);

// A router's fault word ({kind, a, b, port, step}) in xbar_fault_text's words; "" for none.
std::string xbar_fault_from_word(uint32_t word, int node);

// Resets, loads every router's image through the configuration port and returns the
// cycles it took; throws InputError when a table does not fit the model's memory.
int64_t xbar_rtl_load(XbarRtlDriver& rtl, const XbarModelInfo& model, const XbarTables& tables);

XbarRun run_xbar_rtl(const Topology& mesh, const XbarTables& tables, const EngineOptions& options);

// The run part of run_xbar_rtl on a mesh whose tables xbar_rtl_load has loaded (and whose
// table_ok was checked): every routing step, under the cycle watchdog (bench/ times it).
XbarRun xbar_rtl_run_loaded(XbarRtlDriver& rtl, const Topology& mesh, const XbarTables& tables);

}  // namespace fixroute
