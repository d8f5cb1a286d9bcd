// SystemcBench: a NetworkSc on its own clock with a monitor that records the trace at
// every falling edge (a link holds a packet for exactly one cycle after SEND) and ends
// the run when every router is idle, on a fault, or on the watchdog. Used by the systemc
// engine (one run) and the benchmarks (reset and run again, with sc_pause).
#pragma once
#include <systemc>

#include "sw/engines/ref_engine.h"
#include "systemc/fr_network_sc.h"

namespace fixroute {

class SystemcBench : public sc_core::sc_module {
 public:
  // `faults` (optional): injected into the network; flips change `flippable`, the tables
  // the routers read (the same object as `tables`).
  SystemcBench(sc_core::sc_module_name name, const Topology& topo, const NetworkTables& tables, bool pause_at_end,
               FaultInjector* faults = nullptr, NetworkTables* flippable = nullptr);

  // Runs the network from reset to its end; returns the result with a sorted trace.
  EngineResult run();

  sc_core::sc_clock clk;
  sc_core::sc_signal<bool> reset;
  sc_core::sc_signal<bool> start;
  NetworkSc net;

 private:
  void monitor();

  bool pause_at_end_;
  FaultInjector* faults_;
  NetworkTables* flippable_;
  int clock_node_ = 0;  // a router never stuck: its step counter is the network's
  int64_t flipped_through_ = 0;  // flips of steps up to this one applied
  bool running_ = false;
  EngineResult result_;
  int64_t cycles_ = 0;
  int64_t last_crossing_step_ = 0;
};

}  // namespace fixroute
