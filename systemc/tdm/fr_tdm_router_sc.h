// TdmRouterSc: the bufferless TDM router in SystemC (docs/tdm.md): a slot table of one
// period, one slot per clock cycle. At each rising edge it connects, for each output (its
// ports, then the local ejection), the input the slot names -- a neighbour's port, the local
// injection, or none -- and puts what that input carries on the output; nothing is stored.
// Its network interface injects the slot's chain, for the first `periods` periods. It sees
// only its ports, its table, its slot counter and its period counter.
#pragma once
#include <systemc>

#include <cstdint>
#include <vector>

#include "sw/core/faults.h"
#include "systemc/fr_link_wiring_sc.h"

namespace fixroute {

class Topology;
struct TdmTables;

class TdmRouterSc : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> reset;
  sc_core::sc_vector<sc_core::sc_in<bool>> in_valid;
  sc_core::sc_vector<sc_core::sc_in<sc_dt::uint64>> in_data;  // a phit: chain | period << 32
  sc_core::sc_vector<sc_core::sc_out<bool>> out_valid;
  sc_core::sc_vector<sc_core::sc_out<sc_dt::uint64>> out_data;

  // `select`: per slot, the input code of each output (ports, then the ejection: 0 idle,
  // 1 + a port, ports + 1 local); `inject`: per slot the chain injected, -1 for none.
  TdmRouterSc(sc_core::sc_module_name name, int ports, int period, std::vector<uint8_t> select,
              std::vector<int32_t> inject, int periods);
  bool eject_valid() const { return eject_valid_; }
  sc_dt::uint64 eject_data() const { return eject_data_; }
  // Slots run, and an event once the outputs hold a slot's phits (fault links read them).
  size_t round() const { return round_; }
  const sc_core::sc_event& sent() const { return sent_; }

 private:
  void on_clock();

  const int ports_, period_, periods_;
  const std::vector<uint8_t> select_;
  const std::vector<int32_t> inject_;
  int slot_ = 0;
  int period_count_ = 0;
  size_t round_ = 0;
  bool eject_valid_ = false;
  sc_dt::uint64 eject_data_ = 0;
  sc_core::sc_event sent_;
};

// The routers of a topology wired by its adjacency (systemc/fr_link_wiring_sc.h).
// With `faults` (docs/faults.md) every link passes through a fault link, and a stuck
// router's ejection is not heard.
class TdmNetworkSc : public LinkedNetworkSc<TdmRouterSc, sc_dt::uint64> {
 public:
  TdmNetworkSc(sc_core::sc_module_name name, const Topology& topology, const TdmTables& tables,
               FaultInjector* faults = nullptr);
  sc_dt::uint64 link_word(int node, int port) const { return link_data(node, port); }
  bool eject_valid(int node) const {
    return router(node).eject_valid() && !(faults_ && faults_->stuck(node, static_cast<int64_t>(router(node).round())));
  }
  sc_dt::uint64 eject_word(int node) const { return router(node).eject_data(); }

 private:
  FaultInjector* faults_;
};

}  // namespace fixroute
