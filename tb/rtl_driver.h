// RtlDriver: one verilated network top behind a plain interface, so the rtl engine and
// the SystemC co-simulation drive any verilated size the same way. Implemented once, as
// a template over the Verilator model class, in rtl_engine.cpp.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sw/tables/port_rule_tables.h"

namespace fixroute {

class Topology;

// What every verilated top shares: a clock, a reset and the configuration port that
// writes each router's table memory (packet routers here, crossbars in xbar_rtl.h).
class RtlConfigPort {
 public:
  virtual ~RtlConfigPort() = default;
  // Inputs take effect at the next tick(); outputs reflect the last one.
  virtual void tick() = 0;  // one clock cycle
  virtual void set_reset(bool on) = 0;
  virtual void set_config(int node, bool write, uint32_t addr, uint32_t data, bool done) = 0;
  virtual bool table_ok(int node) const = 0;
  virtual int table_error(int node) const = 0;
  virtual void open_vcd(const std::string& path) = 0;
};

class RtlDriver : public RtlConfigPort {
 public:
  virtual bool step_go() const = 0;
  virtual bool idle(int node) const = 0;
  virtual bool fault(int node) const = 0;
  virtual int64_t step(int node) const = 0;
  virtual int queue_count(int node, int port) const = 0;
  virtual bool link_valid(int node, int port) const = 0;
  virtual Packet link_packet(int node, int port) const = 0;  // dest -1 for a broadcast copy
};

// One verilated network top (rtl/CMakeLists.txt decides which exist).
struct RtlModelInfo {
  std::string spec;  // canonical topology spec
  int ports;
  int nodes;
  int depth;      // packets per output queue
  int mem_words;  // table memory per router
  int field_w;    // bits of origin, dest, seq and hops in a packet
  std::function<std::unique_ptr<RtlDriver>(const RtlModelInfo&)> make;
};

const std::vector<RtlModelInfo>& rtl_models();
// Throws InputError listing the built sizes when `topology` has none.
const RtlModelInfo& find_rtl_model(const Topology& topology);

// The memory images of `tables` for `model`; throws InputError when they do not fit it.
std::vector<std::vector<uint32_t>> rtl_images(const RtlModelInfo& model, const Topology& topology,
                                              const NetworkTables& tables);

// Resets and writes every image through the configuration port, then pulses cfg_done.
// Returns the cycles it took; afterwards the routers start on the next tick.
int64_t rtl_reset_and_load(RtlConfigPort& rtl, const std::vector<std::vector<uint32_t>>& images);

// Why router `node` refused its table ("checksum mismatch", ...), from its error code.
const char* rtl_table_error_name(int code);

}  // namespace fixroute
