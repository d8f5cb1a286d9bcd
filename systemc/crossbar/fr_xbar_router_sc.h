// XbarRouterSc: the circuit-switched crossbar router in SystemC, cycle for cycle the
// behaviour of rtl/crossbar/fr_xbar_router.v (docs/systemc.md): five inputs S, N, E, W, local;
// per routing step the table connects each input to one output or none; outputs are
// registers, a message moves one router per clock; the local input sends the node id in
// a step's first cycle. Two inputs on one output and a message on an unconnected input
// latch the router's first fault. It sees only its ports, its table and its counters.
#pragma once
#include <systemc>

#include <string>

#include "systemc/fr_fault_link_sc.h"
#include "sw/kinds/crossbar/tables.h"

namespace fixroute {

class XbarRouterSc : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> reset;
  sc_core::sc_vector<sc_core::sc_in<bool>> in_valid;
  sc_core::sc_vector<sc_core::sc_in<int>> in_data;
  sc_core::sc_vector<sc_core::sc_out<bool>> out_valid;
  sc_core::sc_vector<sc_core::sc_out<int>> out_data;
  sc_core::sc_out<bool> eject_valid;
  sc_core::sc_out<int> eject_data;

  XbarRouterSc(sc_core::sc_module_name name, const XbarRouterTable& table, int step_cycles);

  int64_t step() const { return step_; }  // routing steps completed
  bool done() const { return step_ >= static_cast<int64_t>(table_.settings.size()); }
  const std::string& fault() const { return fault_; }  // "" when none

 private:
  void on_clock();

  const XbarRouterTable& table_;
  const int step_cycles_;
  int64_t step_ = 0;
  int cycle_ = 0;
  std::string fault_;
};

// The R x C mesh of XbarRouterSc with its links, as rtl/crossbar/fr_mesh_xbar_top.v. With `faults`
// (docs/faults.md) a FaultLinkSc sits on every link and a stuck router's local output is
// unread; link_valid / link_data stay what the routers send.
class MeshXbarSc : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> reset;

  MeshXbarSc(sc_core::sc_module_name name, const Topology& mesh, const XbarTables& tables,
             FaultInjector* faults = nullptr);

  int nodes() const { return static_cast<int>(routers_.size()); }
  const XbarRouterSc& router(int node) const { return routers_[static_cast<size_t>(node)]; }
  bool eject_valid(int node) const {
    return eject_valid_[static_cast<size_t>(node)].read() && !(faults_ && faults_->stuck(node, router(node).step() + 1));
  }
  int eject_data(int node) const { return eject_data_[static_cast<size_t>(node)].read(); }
  bool link_valid(int node, int port) const { return link_valid_[static_cast<size_t>(node * 4 + port)].read(); }
  int link_data(int node, int port) const { return link_data_[static_cast<size_t>(node * 4 + port)].read(); }
  void trace(sc_core::sc_trace_file* file) const;

 private:
  FaultInjector* faults_;
  sc_core::sc_vector<XbarRouterSc> routers_;
  sc_core::sc_vector<sc_core::sc_signal<bool>> link_valid_;
  sc_core::sc_vector<sc_core::sc_signal<int>> link_data_;
  sc_core::sc_vector<FaultLinkSc<int>> fault_links_;           // with faults: one per link
  sc_core::sc_vector<sc_core::sc_signal<bool>> arrive_valid_;  // with faults: what arrives of each link
  sc_core::sc_vector<sc_core::sc_signal<int>> arrive_data_;
  sc_core::sc_vector<sc_core::sc_signal<bool>> eject_valid_;
  sc_core::sc_vector<sc_core::sc_signal<int>> eject_data_;
  sc_core::sc_signal<bool> no_valid_;  // what a border input sees
  sc_core::sc_signal<int> no_data_;
};

}  // namespace fixroute
