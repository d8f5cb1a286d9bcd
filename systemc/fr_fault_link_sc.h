// FaultLinkSc: a test-bench element, not a router: it sits on one link of a network whose
// run injects faults (`--fault`, docs/faults.md) and passes on what the sender drives,
// except what the FaultInjector says is lost there (a dead link, a dropped packet, a stuck
// receiver). The kind's network says, as each packet is sent, whether it arrives (asking
// the injector with the step of the crossing, the sender's counter read as it sends).
#pragma once
#include <systemc>

#include <cstdint>
#include <functional>

#include "sw/core/faults.h"

namespace fixroute {

template <class Data>
class FaultLinkSc : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> in_valid;
  sc_core::sc_in<Data> in_data;
  sc_core::sc_out<bool> out_valid;
  sc_core::sc_out<Data> out_data;

  // arrives(data): whether what is sent now arrives (the injector records a loss).
  FaultLinkSc(sc_core::sc_module_name name, std::function<bool(const Data&)> arrives)
      : sc_core::sc_module(name), arrives_(std::move(arrives)) {
    SC_HAS_PROCESS(FaultLinkSc);
    SC_METHOD(pass);
    sensitive << in_valid << in_data;
  }

 private:
  void pass() {
    if (!in_valid.read()) {
      passed_ = false;
    } else if (in_valid.event() || in_data.event()) {  // a send: decided once
      passed_ = arrives_(in_data.read());
    }
    out_valid.write(passed_);
    out_data.write(in_data.read());
  }

  std::function<bool(const Data&)> arrives_;
  bool passed_ = false;
};

// When a round-per-clock network's fault link notes a loss: with the round the kind's clock
// monitor records. Combining: at the edge the receiver would take it (the monitor stops
// before recording the round sent at the last edge: that round is lost by no one).
// Broadcast trees: as it is sent (the monitor records every round the tables have).
enum class RecordLoss { AtTake, AtSend };

// RoundFaultLinkSc: the same element for networks that take one round per clock: a router
// may send the same data on a link round after round, so the link decides at every send
// the sender announces (`each_send`). `lost(round, data, record)`: whether a fault takes
// what was sent in `round`; with `record`, noted as lost (once, when `when` says).
template <class Data>
class RoundFaultLinkSc : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> in_valid;
  sc_core::sc_in<Data> in_data;
  sc_core::sc_out<bool> out_valid;
  sc_core::sc_out<Data> out_data;

  RoundFaultLinkSc(sc_core::sc_module_name name, const sc_core::sc_event& each_send, std::function<int64_t()> sender_round,
                   std::function<bool(int64_t, const Data&, bool)> lost, RecordLoss when)
      : sc_core::sc_module(name), sender_round_(std::move(sender_round)), lost_(std::move(lost)), when_(when) {
    SC_HAS_PROCESS(RoundFaultLinkSc);
    SC_METHOD(pass);
    sensitive << in_valid << in_data << each_send;
    SC_METHOD(take);
    sensitive << clk.pos();
    dont_initialize();
  }

 private:
  void pass() {
    sent_ = in_valid.read();
    if (sent_) {
      round_ = sender_round_();
      data_ = in_data.read();
    }
    const bool passed = sent_ && !lost_(round_, data_, when_ == RecordLoss::AtSend);
    out_valid.write(passed);
    out_data.write(in_data.read());
  }
  void take() {  // the edge that takes in what was sent
    if (sent_ && when_ == RecordLoss::AtTake) lost_(round_, data_, true);
    sent_ = false;
  }

  std::function<int64_t()> sender_round_;
  std::function<bool(int64_t, const Data&, bool)> lost_;
  const RecordLoss when_;
  bool sent_ = false;
  int64_t round_ = 0;
  Data data_{};
};

}  // namespace fixroute
