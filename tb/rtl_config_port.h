// What every verilated top and router array shares, whatever its kind: a clock, a reset and
// the configuration port that writes each router's table memory; loading images through it;
// the curated sizes a kind's rtl routers take in the sweep.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sw/core/faults.h"
#include "sw/core/router_kind.h"

namespace fixroute {

class Topology;
struct WaveformLimits;

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

// The network tops have neither the harness's fault hooks (their links are wired in
// Verilog) nor waveform code (rtl/CMakeLists.txt): a run with faults or a waveform takes the
// router array of the same routers.
inline bool needs_router_array(const FaultInjector* faults, bool waveform) {
  return waveform || (faults && faults->any());
}

// Whether `topology` is one of `sizes`: what a kind's rtl routers support in the sweep (a
// run takes any network its builds hold).
bool in_curated_sizes(const std::vector<std::string>& sizes, const Topology& topology);

// Resets and writes every image through the configuration port, then pulses cfg_done.
// Returns the cycles it took; afterwards the routers start on the next tick.
int64_t rtl_reset_and_load(RtlConfigPort& rtl, const std::vector<std::vector<uint32_t>>& images);

// Why router `node` refused its table ("checksum mismatch", ...), from its error code.
const char* rtl_table_error_name(int code);

}  // namespace fixroute
