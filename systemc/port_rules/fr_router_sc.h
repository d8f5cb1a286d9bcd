// RouterSc: the store-and-forward router as a SystemC module, cycle-accurate to the RTL
// router (rtl/port_rules/fr_router.v, docs/rtl.md): it releases one initial packet per cycle, sends
// in the cycle step_go is high, receives in the next one. It sees only its own ports, its
// own table and its own step counter, and applies the same router rules as the reference
// engine (sw/kinds/port_rules/router_rules.h). Queues are unbounded; the largest occupancy is reported.
#pragma once
#include <systemc>

#include <cstdint>
#include <string>
#include <vector>

#include "sw/kinds/port_rules/tables.h"

namespace fixroute {

// A packet on a SystemC link: origin [15:0], dest [31:16] (FFFF = broadcast), seq [47:32],
// hops [63:48], the memory image's 16-bit fields.
constexpr int kMaxSystemcNodes = 0xFFFF;  // node ids 0..0xFFFE fit the 16-bit fields
uint64_t pack_packet(const Packet& p);
Packet unpack_packet(uint64_t word);

class RouterSc : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> reset;    // synchronous: back to the state before start, table kept
  sc_core::sc_in<bool> start;    // begin at step 1 on the next rising edge
  sc_core::sc_in<bool> step_go;  // every router is ready: send in this cycle
  sc_core::sc_out<bool> ready;   // this step's releases are done
  sc_core::sc_out<bool> idle;    // nothing queued, nothing left to release
  sc_core::sc_out<bool> fault;   // sticky: a packet this router cannot forward
  sc_core::sc_vector<sc_core::sc_in<bool>> in_valid;
  sc_core::sc_vector<sc_core::sc_in<uint64_t>> in_data;
  sc_core::sc_vector<sc_core::sc_out<bool>> out_valid;
  sc_core::sc_vector<sc_core::sc_out<uint64_t>> out_data;

  RouterSc(sc_core::sc_module_name name, const RouterTable& table);

  int64_t step() const { return step_; }
  int64_t max_queue() const { return max_queue_; }
  int queue_size(int port) const { return static_cast<int>(queues_[static_cast<size_t>(port)].size()); }
  const std::string& fault_reason() const { return fault_reason_; }

 private:
  void on_clock();
  bool releasing() const;
  void arrive(int in_port, const Packet& packet);
  void push(int port, const Packet& packet);
  // Writes a one-bit output only when it changes: its last value is kept here, so a cycle
  // that changes nothing costs no call into the signal (most cycles for most outputs).
  template <class Driven>
  static void drive(sc_core::sc_out<bool>& out, Driven& driven, bool value) {
    if (static_cast<bool>(driven) == value) return;
    driven = value;
    out.write(value);
  }

  const RouterTable& table_;
  std::vector<std::vector<Packet>> queues_;
  std::vector<uint8_t> valid_driven_;  // out_valid[p]'s value
  bool ready_driven_ = false, idle_driven_ = false, fault_driven_ = false;
  bool running_ = false;
  bool receiving_ = false;
  bool sent_ = false;  // some link register holds a packet
  int64_t step_ = 0;
  size_t release_index_ = 0;
  int64_t max_queue_ = 0;
  std::string fault_reason_;
};

}  // namespace fixroute
