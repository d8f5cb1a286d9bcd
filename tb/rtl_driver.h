// RtlDriver: one verilated network top behind a plain interface, so the rtl engine and
// the SystemC co-simulation drive any verilated size the same way. Implemented once, as
// a template over the Verilator model class, in rtl_engine.cpp.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sw/core/faults.h"
#include "sw/core/router_kind.h"
#include "sw/kinds/port_rules/tables.h"

namespace fixroute {

class Topology;
class FaultInjector;

// What every verilated top shares: a clock, a reset and the configuration port that
// writes each router's table memory (packet routers here, crossbars in xbar_rtl.h).
class RtlConfigPort {
 public:
  virtual ~RtlConfigPort() = default;
  // Inputs take effect at the next tick(); outputs reflect the last one.
  virtual void tick() = 0;  // one clock cycle
  virtual void set_reset(bool on) = 0;
  // One configuration port shared by every router (the network tops): `node` selects the
  // router that takes the write. With a port per router (config_port_per_router()), the
  // call drives router `node`'s own port and every router can take a word in one cycle.
  virtual void set_config(int node, bool write, uint32_t addr, uint32_t data, bool done) = 0;
  virtual bool config_port_per_router() const { return false; }
  virtual bool table_ok(int node) const = 0;
  virtual int table_error(int node) const = 0;
  virtual void open_vcd(const std::string& path, const WaveformLimits& limits) = 0;
  // Splits each clock's evaluation across `threads` threads from the next tick() on, where
  // the harness wires single routers (router arrays, `run --threads`); a network top is one
  // model and evaluates on the calling thread whatever is asked.
  virtual void set_threads(int /*threads*/) {}
};

// The threads a router array's clocks may share in a run with these options
// (RtlConfigPort::set_threads): EngineOptions::threads, one where faults are injected (the
// harness's fault hooks count on one thread).
inline int array_threads(const EngineOptions& options) {
  return options.faults && options.faults->any() ? 1 : options.threads;
}

class RtlDriver : public RtlConfigPort {
 public:
  virtual bool step_go() const = 0;
  virtual bool idle(int node) const = 0;
  virtual bool fault(int node) const = 0;
  virtual int64_t step(int node) const = 0;
  virtual int queue_count(int node, int port) const = 0;
  virtual bool link_valid(int node, int port) const = 0;
  virtual Packet link_packet(int node, int port) const = 0;  // dest -1 for a broadcast copy
  // Fault injection (docs/faults.md): where the harness wires the links (router arrays),
  // it passes on only what `faults` lets arrive, holds a stuck router's step_go low, and
  // flips a table bit by back-door. False for tops wired in Verilog.
  virtual bool takes_faults() const { return false; }
  virtual void inject(FaultInjector* /*faults*/) {}
  virtual void flip_forward_bit(int /*node*/, int /*in_port*/, int /*out_port*/) {}
};

// The sizes a verilated fr_router was built with (its Verilog parameters).
struct RtlRouterSizes {
  int depth;         // DEPTH: packets per output queue
  int addr_w;        // ADDR_W: the configuration port takes images of up to 2^addr_w words
  int entry_words;   // ENTRY_WORDS: initial packets the table holds
  int switch_words;  // SWITCH_WORDS: tap switch steps per port the table holds; 0: TAPS=0, no taps
  bool furthest_first;  // FURTHEST_FIRST: queues that pop furthest-first (else FIFO only)
  int field_w;       // FIELD_W: bits of origin, dest, seq and hops in a packet
  std::string text() const;  // "DEPTH=4, ENTRY_WORDS=8, ..." as the Verilog parameters
};

// Verilated hardware for one network: a curated network top of one size (rtl/CMakeLists.txt
// decides which exist), or an array of single routers of one build wired for the topology.
struct RtlModelInfo {
  std::string spec;  // canonical topology spec
  int ports;
  int nodes;
  RtlRouterSizes sizes;
  std::function<std::unique_ptr<RtlDriver>(const RtlModelInfo&)> make;
  std::string hardware;  // what runs: the top, or the router build of the array
};

// The curated sizes: where the sweep and the test suites run rtl (rtl/CMakeLists.txt).
const std::vector<std::string>& rtl_curated_sizes();
// Whether `topology` is one of `sizes`: what a kind's rtl routers support in the sweep (a
// run takes any network its builds hold).
bool in_curated_sizes(const std::vector<std::string>& sizes, const Topology& topology);

// The verilated network tops.
const std::vector<RtlModelInfo>& rtl_models();
// The curated top of `topology`; throws InputError listing the built sizes when it has none.
const RtlModelInfo& find_rtl_model(const Topology& topology);

// One verilated fr_router build (rtl/CMakeLists.txt FIXROUTE_RTL_ROUTER_BUILDS).
struct RtlRouterBuild {
  int ports;
  RtlRouterSizes sizes;
  std::function<std::unique_ptr<RtlDriver>(const RtlModelInfo&, const Topology&)> make_array;
};
const std::vector<RtlRouterBuild>& rtl_router_builds();

// The array of the smallest router build that holds `tables` on `topology` (ports equal;
// images, initial packets and switch steps within its memories; fields within its width;
// queues within its depth: `depth` packets, the largest queue a run of the tables needs). InputError saying what the tables
// need and what is built when none does.
RtlModelInfo rtl_array_model(const Topology& topology, const NetworkTables& tables, int64_t depth);
// The hardware `tables` run on: the curated top of the topology's size when they fit it,
// else rtl_array_model with the depth a reference run of the tables shows.
// With faults: always an array (its harness injects them), its depth from a reference run
// of the same faults.
RtlModelInfo rtl_model_for(const Topology& topology, const NetworkTables& tables, const FaultInjector* faults = nullptr);

// The memory images of `tables` for `model`; throws InputError when they do not fit it.
std::vector<std::vector<uint32_t>> rtl_images(const RtlModelInfo& model, const Topology& topology,
                                              const NetworkTables& tables);

// Resets and writes every image through the configuration port, then pulses cfg_done.
// Returns the cycles it took; afterwards the routers start on the next tick.
int64_t rtl_reset_and_load(RtlConfigPort& rtl, const std::vector<std::vector<uint32_t>>& images);

// Why router `node` refused its table ("checksum mismatch", ...), from its error code.
const char* rtl_table_error_name(int code);

}  // namespace fixroute
