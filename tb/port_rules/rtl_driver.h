// RtlDriver: one verilated port-rule network (a curated top or a router array) behind a plain
// interface, so the rtl engine and the co-simulation drive any verilated size the same way.
// Implemented once, as a template over the Verilator model class, in rtl_engine.cpp.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sw/core/faults.h"
#include "sw/engines/trace.h"
#include "sw/kinds/port_rules/tables.h"
#include "tb/rtl_config_port.h"

namespace fixroute {

class Topology;
class FaultInjector;

class RtlDriver : public RtlConfigPort {
 public:
  virtual bool step_go() const = 0;
  virtual bool idle(int node) const = 0;
  virtual bool fault(int node) const = 0;
  virtual int64_t step(int node) const = 0;
  virtual int queue_count(int node, int port) const = 0;
  virtual bool link_valid(int node, int port) const = 0;
  virtual Packet link_packet(int node, int port) const = 0;  // dest -1 for a broadcast copy
  // The same, a whole network or router at a time (a router array reads its routers
  // directly instead of a call per port): the largest queue count of any port, and the
  // ports of `node` whose link holds a packet, as bits.
  virtual int max_queue_count(int nodes, int ports) const {
    int most = 0;
    for (int i = 0; i < nodes; ++i)
      for (int p = 0; p < ports; ++p) most = std::max(most, queue_count(i, p));
    return most;
  }
  virtual uint64_t valid_links(int node, int ports) const {
    uint64_t valid = 0;
    for (int p = 0; p < ports; ++p)
      if (link_valid(node, p)) valid |= uint64_t{1} << p;
    return valid;
  }
  // A SEND cycle's crossings, appended to `out` in trace order: router by router (those a
  // fault holds stuck skipped), each one's valid links in `send_order` (its ports by
  // neighbour). Stops at the first router that is not at `step` and returns it, else -1.
  // After the RECEIVE cycle: whether every router is idle, the faulty ones appended to
  // `faulty`. Defined in rtl_engine.cpp, once for any driver (these calls) and once for
  // a router array (its routers read directly).
  virtual int append_crossings(int64_t step, const Topology& topology, const std::vector<uint32_t>& send_order,
                               const FaultInjector* faults, std::vector<TraceEvent>& out) const;
  virtual bool idle_and_faults(int nodes, std::vector<int>& faulty) const;
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
// With faults or a waveform: an array (needs_router_array), its depth from a reference run
// of the same faults.
RtlModelInfo rtl_model_for(const Topology& topology, const NetworkTables& tables, const FaultInjector* faults = nullptr,
                           bool waveform = false);

// The memory images of `tables` for `model`; throws InputError when they do not fit it.
std::vector<std::vector<uint32_t>> rtl_images(const RtlModelInfo& model, const Topology& topology,
                                              const NetworkTables& tables);



}  // namespace fixroute
