// SumRouterSc: the combining router with the sum rule in SystemC (docs/swapped-networks.md,
// "The routers"): a few 64-bit registers, a program of rounds x ports entries (send mask,
// add mask); one round is one clock cycle. At each rising edge it adds what its neighbours
// sent in the last round into the registers that round's entries name, then sends, on each
// port, the sum of the registers the next round's entry names. After the last round it
// sends nothing. It sees only its ports, its program, its round counter and its own input.
#pragma once
#include <systemc>

#include <cstdint>
#include <vector>

#include "systemc/fr_link_wiring_sc.h"

namespace fixroute {

class FaultInjector;
class Topology;
struct CombiningSumTables;

class SumRouterSc : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> reset;
  sc_core::sc_vector<sc_core::sc_in<bool>> in_valid;
  sc_core::sc_vector<sc_core::sc_in<sc_dt::uint64>> in_data;  // a sum
  sc_core::sc_vector<sc_core::sc_out<bool>> out_valid;
  sc_core::sc_vector<sc_core::sc_out<sc_dt::uint64>> out_data;

  // `entries`: rounds x ports words (send mask in bits 0-15, add mask in bits 16-31);
  // `value` the router's input, loaded at reset into the registers of `init`.
  SumRouterSc(sc_core::sc_module_name name, int ports, int registers, uint16_t init, uint16_t result,
              std::vector<uint32_t> entries, uint64_t value);
  uint64_t answer() const;  // the sum of its result registers

  // Its round counter (rounds sent), and an event notified once its outputs hold a round's
  // sends: what a test bench's fault link (systemc/fr_fault_link_sc.h) reads of it.
  size_t round() const { return round_; }
  const sc_core::sc_event& sent() const { return sent_; }

 private:
  void on_clock();
  uint64_t sum(uint32_t mask) const;

  const uint16_t init_, result_;
  const std::vector<uint32_t> entries_;
  const uint64_t value_;
  std::vector<uint64_t> regs_;
  size_t round_ = 0;  // rounds sent
  sc_core::sc_event sent_;
};

// The routers of a topology wired by its adjacency (systemc/fr_link_wiring_sc.h); with
// `faults`, a fault link on every link (a loss recorded as it is sent: the clock monitor
// records every round the tables have).
class SumNetworkSc : public LinkedNetworkSc<SumRouterSc, sc_dt::uint64> {
 public:
  SumNetworkSc(sc_core::sc_module_name name, const Topology& topology, const CombiningSumTables& tables,
               FaultInjector* faults = nullptr);
  uint64_t link_value(int node, int port) const { return link_data(node, port); }
  uint64_t answer(int node) const { return router(node).answer(); }
  int clocks_of_round() const { return 1; }
};

}  // namespace fixroute
