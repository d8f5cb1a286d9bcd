// FaultLinkSc: a test-bench element, not a router: it sits on one link of a network whose
// run injects faults (`--fault`, docs/faults.md) and passes on what the sender drives,
// except what the FaultInjector says is lost there (a dead link, a dropped packet, a stuck
// receiver). The step of a crossing is the sender's step counter, read as it sends.
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

  // describe(data) gives the packet's origin, dest and seq for the injector's record.
  FaultLinkSc(sc_core::sc_module_name name, FaultInjector& faults, int from, int to, std::function<int64_t()> sender_step,
              std::function<void(const Data&, int&, int&, int&)> describe)
      : sc_core::sc_module(name),
        faults_(faults),
        from_(from),
        to_(to),
        sender_step_(std::move(sender_step)),
        describe_(std::move(describe)) {
    SC_HAS_PROCESS(FaultLinkSc);
    SC_METHOD(pass);
    sensitive << in_valid << in_data;
  }

 private:
  void pass() {
    if (!in_valid.read()) {
      passed_ = false;
    } else if (in_valid.event() || in_data.event()) {  // a send: decided once
      int origin = 0, dest = 0, seq = 0;
      describe_(in_data.read(), origin, dest, seq);
      passed_ = faults_.arrives(sender_step_(), from_, to_, origin, dest, seq);
    }
    out_valid.write(passed_);
    out_data.write(in_data.read());
  }

  FaultInjector& faults_;
  const int from_, to_;
  std::function<int64_t()> sender_step_;
  std::function<void(const Data&, int&, int&, int&)> describe_;
  bool passed_ = false;
};

}  // namespace fixroute
