// SystemcBench: a NetworkSc on its own clock with a monitor that reads the links at every
// falling edge (a link holds a packet for exactly one cycle after SEND), hands each step's
// crossings on as the run goes (a PacketSink, the trace, or both) and ends the run when
// every router is idle, on a fault, or on the watchdog. Used by the systemc
// engine (one run) and the benchmarks (reset and run again, with sc_pause).
#pragma once
#include <optional>
#include <systemc>

#include "sw/kinds/port_rules/ref_routers.h"
#include "systemc/port_rules/fr_network_sc.h"

namespace fixroute {

class SystemcBench : public sc_core::sc_module {
 public:
  // `faults` (optional): injected into the network; flips change `flippable`, the tables
  // the routers read (the same object as `tables`).
  SystemcBench(sc_core::sc_module_name name, const Topology& topo, const NetworkTables& tables, bool pause_at_end,
               FaultInjector* faults = nullptr, NetworkTables* flippable = nullptr);

  // Runs the network from reset to its end. Each step's crossings go to the options' sink
  // as they happen; the result keeps the whole sorted trace when asked or without a sink
  // (StepRecorder).
  EngineResult run(const EngineOptions& options = {});

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
  std::optional<StepRecorder<TraceEvent>> recorder_;  // the running run's
  std::vector<TraceEvent> crossings_;  // this cycle's
  int64_t cycles_ = 0;
  int64_t last_crossing_step_ = 0;
};

}  // namespace fixroute
