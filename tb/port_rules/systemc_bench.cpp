#include "tb/port_rules/systemc_bench.h"

#include <fmt/format.h>

#include "sw/kinds/port_rules/link_step.h"
#include "sw/kinds/port_rules/router_rules.h"
#include "sw/topology/topology.h"
#include "tb/systemc_support.h"

namespace fixroute {


SystemcBench::SystemcBench(sc_core::sc_module_name name, const Topology& topo, const NetworkTables& tables,
                           bool pause_at_end, FaultInjector* faults, NetworkTables* flippable)
    : sc_core::sc_module(name),
      clk("clk", kClockPeriod),
      reset("reset", true),
      start("start", false),
      net("net", topo, tables, faults),
      pause_at_end_(pause_at_end),
      faults_(faults && faults->any() ? faults : nullptr),
      flippable_(flippable) {
  if (faults_) clock_node_ = faults_->never_stuck_node();
  net.clk(clk);
  net.reset(reset);
  net.start(start);
  SC_HAS_PROCESS(SystemcBench);
  SC_METHOD(monitor);
  sensitive << clk.negedge_event();
  dont_initialize();
}

EngineResult SystemcBench::run(const EngineOptions& options) {
  result_ = EngineResult{};
  recorder_.emplace(options);
  result_.streamed = recorder_->streamed();
  cycles_ = 0;
  last_crossing_step_ = 0;
  flipped_through_ = 0;
  running_ = false;
  reset.write(true);
  start.write(false);
  sc_core::sc_start(2 * kClockPeriod);  // a reset edge
  reset.write(false);
  start.write(true);
  running_ = true;
  sc_core::sc_start();  // until the monitor pauses or stops the simulation
  EngineResult r = std::move(result_);
  r.trace = recorder_->take_trace();
  r.max_queue = net.max_queue();
  return r;
}

void SystemcBench::monitor() {
  if (!running_) return;
  ++cycles_;
  if (faults_ && flippable_ && net.step(clock_node_) > flipped_through_) {  // before the step's RECEIVE cycle
    flipped_through_ = net.step(clock_node_);
    for (const Fault& f : faults_->flips_at(flipped_through_))
      router_rules::apply_flip(*flippable_, f);
  }
  const Topology& topo = net.topology();
  crossings_.clear();
  for (int i = 0; i < topo.num_nodes(); ++i)
    for (int p = 0; p < topo.num_ports(); ++p) {
      if (!net.link_valid(i, p)) continue;
      append_crossing(crossings_, net.step(i), i, topo.neighbour(i, p), net.link_packet(i, p));
      last_crossing_step_ = net.step(i);
    }
  if (!crossings_.empty()) {  // a SEND cycle; its RECEIVE edge comes next
    sort_trace(crossings_);
    recorder_->record_steps(crossings_);  // every sender of a cycle is at the network's step; by step all the same
    return;
  }
  const int64_t step = net.step(clock_node_);
  if (step == 0) return;  // the start edge has not come yet
  std::string faults = net.faults();
  if (!faults.empty()) {
    result_.failure = faults;
  } else if (router_rules::watchdog_fires(step, last_crossing_step_)) {
    result_.failure = router_rules::watchdog_failure(step, net.queue_report());
  } else if (!net.all_idle()) {
    return;
  }
  result_.steps_simulated = step - 1;  // the counter has moved past the last step
  result_.clock_cycles = cycles_ - 1;  // the cycle that started the routers is overhead
  result_.overhead_cycles = 1;
  running_ = false;
  if (pause_at_end_) {
    sc_core::sc_pause();
  } else {
    sc_core::sc_stop();
  }
}

}  // namespace fixroute
