// NetworkSc: a network of RouterSc elaborated at run time from any topology spec and its
// tables (no rebuild per size). Links are sc_signals wired by the topology's ports: the
// in-port q of router i reads what neighbour(i, q) sends on its port back to i. The
// network adds only that wiring and step_go = AND of the routers' ready signals.
#pragma once
#include <systemc>

#include <memory>
#include <string>
#include <vector>

#include "sw/kinds/port_rules/tables.h"
#include "sw/engines/trace.h"
#include "systemc/fr_fault_link_sc.h"
#include "systemc/port_rules/fr_router_sc.h"

namespace fixroute {

class Topology;

class NetworkSc : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> reset;
  sc_core::sc_in<bool> start;

  // `faults` (optional): every link passes through a FaultLinkSc and a stuck router's
  // step_go is held low from its stuck step on; the links as read here are what arrives.
  NetworkSc(sc_core::sc_module_name name, const Topology& topology, const NetworkTables& tables,
            FaultInjector* faults = nullptr);

  const Topology& topology() const { return topology_; }
  bool link_valid(int node, int port) const;
  Packet link_packet(int node, int port) const;
  bool all_idle() const;
  std::string faults() const;  // "" when no router reports a fault
  std::string queue_report() const;
  int64_t max_queue() const;
  int64_t step(int node) const { return routers_[static_cast<size_t>(node)].step(); }
  void trace(sc_core::sc_trace_file* file) const;

 private:
  void compute_go();
  void gate_stuck();
  size_t link(int node, int port) const;

  const Topology& topology_;
  sc_core::sc_vector<RouterSc> routers_;
  sc_core::sc_vector<sc_core::sc_signal<bool>> link_valid_;
  sc_core::sc_vector<sc_core::sc_signal<uint64_t>> link_data_;
  sc_core::sc_vector<sc_core::sc_signal<bool>> ready_, idle_, fault_;
  sc_core::sc_signal<bool> step_go_;
  // With faults: what arrives of each link (the FaultLinkSc's output), a step_go per router.
  FaultInjector* faults_ = nullptr;
  sc_core::sc_vector<FaultLinkSc<uint64_t>> fault_links_;
  sc_core::sc_vector<sc_core::sc_signal<bool>> arrive_valid_;
  sc_core::sc_vector<sc_core::sc_signal<uint64_t>> arrive_data_;
  sc_core::sc_vector<sc_core::sc_signal<bool>> router_go_;
  sc_core::sc_signal<bool> no_valid_;     // what an unconnected in-port sees
  sc_core::sc_signal<uint64_t> no_data_;
};

}  // namespace fixroute
