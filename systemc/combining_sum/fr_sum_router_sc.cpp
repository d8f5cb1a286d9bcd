#include "systemc/combining_sum/fr_sum_router_sc.h"

#include "sw/core/faults.h"
#include "sw/kinds/combining_sum/engine.h"
#include "sw/kinds/combining_sum/tables.h"
#include "sw/topology/topology.h"

namespace fixroute {

SumRouterSc::SumRouterSc(sc_core::sc_module_name name, int ports, int registers, uint16_t init, uint16_t result,
                         std::vector<uint32_t> entries, uint64_t value)
    : sc_core::sc_module(name),
      in_valid("in_valid", static_cast<size_t>(ports)),
      in_data("in_data", static_cast<size_t>(ports)),
      out_valid("out_valid", static_cast<size_t>(ports)),
      out_data("out_data", static_cast<size_t>(ports)),
      init_(init),
      result_(result),
      entries_(std::move(entries)),
      value_(value),
      regs_(static_cast<size_t>(registers)) {
  SC_HAS_PROCESS(SumRouterSc);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

uint64_t SumRouterSc::sum(uint32_t mask) const {
  uint64_t s = 0;
  for (size_t r = 0; r < regs_.size(); ++r)
    if ((mask >> r) & 1u) s += regs_[r];
  return s;
}

uint64_t SumRouterSc::answer() const { return sum(result_); }

void SumRouterSc::on_clock() {
  const size_t ports = in_valid.size();
  const size_t rounds = entries_.size() / ports;
  if (reset.read()) {
    for (size_t r = 0; r < regs_.size(); ++r) regs_[r] = (init_ >> r) & 1u ? value_ : 0;
    round_ = 0;
    for (size_t p = 0; p < ports; ++p) out_valid[p].write(false);
    return;
  }
  // What the neighbours sent in the last round is added where that round's entries say...
  if (round_ > 0)
    for (size_t p = 0; p < ports; ++p)
      if (in_valid[p].read()) {
        const uint32_t add = entries_[(round_ - 1) * ports + p] >> 16;
        const uint64_t v = in_data[p].read();
        for (size_t r = 0; r < regs_.size(); ++r)
          if ((add >> r) & 1u) regs_[r] += v;
      }
  // ...and the next round's entries say what goes out on each port.
  const bool rounds_left = round_ < rounds;
  for (size_t p = 0; p < ports; ++p) {
    const uint32_t send = rounds_left ? entries_[round_ * ports + p] & 0xFFFFu : 0;
    out_valid[p].write(send != 0);
    if (send) out_data[p].write(sum(send));
  }
  if (rounds_left) ++round_;
  sent_.notify(sc_core::SC_ZERO_TIME);  // once the writes are seen
}

SumNetworkSc::SumNetworkSc(sc_core::sc_module_name name, const Topology& topology, const CombiningSumTables& tables,
                           FaultInjector* faults)
    : LinkedNetworkSc(
          name, topology,
          [&](const char* n, int node) {
            const auto first = tables.entries.begin() + static_cast<std::ptrdiff_t>(tables.at(node, 1, 0));
            return new SumRouterSc(n, tables.ports, tables.registers, tables.init[static_cast<size_t>(node)],
                                   tables.result[static_cast<size_t>(node)],
                                   {first, first + static_cast<std::ptrdiff_t>(tables.rounds) * tables.ports},
                                   sum_input_value(node));
          },
          "link_value_",
          faults && faults->any()
              ? RoundLoss<sc_dt::uint64>([faults](int64_t round, int from, int to, const sc_dt::uint64&, bool record) {
                  return record ? !faults->arrives_sum(round, from, to) : faults->loses(round, from, to);
                })
              : RoundLoss<sc_dt::uint64>(),
          RecordLoss::AtSend) {}

}  // namespace fixroute
