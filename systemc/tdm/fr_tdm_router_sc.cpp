#include "systemc/tdm/fr_tdm_router_sc.h"

#include "sw/kinds/tdm/engine.h"
#include "sw/kinds/tdm/tables.h"
#include "sw/topology/topology.h"

namespace fixroute {

TdmRouterSc::TdmRouterSc(sc_core::sc_module_name name, int ports, int period, std::vector<uint8_t> select,
                         std::vector<int32_t> inject, int periods)
    : sc_core::sc_module(name),
      in_valid("in_valid", static_cast<size_t>(ports)),
      in_data("in_data", static_cast<size_t>(ports)),
      out_valid("out_valid", static_cast<size_t>(ports)),
      out_data("out_data", static_cast<size_t>(ports)),
      ports_(ports),
      period_(period),
      periods_(periods),
      select_(std::move(select)),
      inject_(std::move(inject)) {
  SC_HAS_PROCESS(TdmRouterSc);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

void TdmRouterSc::on_clock() {
  if (reset.read()) {
    slot_ = 0;
    period_count_ = 0;
    round_ = 0;
    eject_valid_ = false;
    for (int p = 0; p < ports_; ++p) out_valid[static_cast<size_t>(p)].write(false);
    return;
  }
  const int32_t chain = period_count_ < periods_ ? inject_[static_cast<size_t>(slot_)] : -1;
  const sc_dt::uint64 local = static_cast<uint32_t>(chain) | static_cast<sc_dt::uint64>(period_count_) << 32;
  const uint8_t* row = &select_[static_cast<size_t>(slot_) * static_cast<size_t>(ports_ + 1)];
  auto picked = [&](uint8_t code, sc_dt::uint64& data) {
    if (code == 0) return false;
    if (code == ports_ + 1) {
      data = local;
      return chain >= 0;
    }
    data = in_data[static_cast<size_t>(code - 1)].read();
    return in_valid[static_cast<size_t>(code - 1)].read();
  };
  for (int o = 0; o < ports_; ++o) {
    sc_dt::uint64 data = 0;
    const bool valid = picked(row[o], data);
    out_valid[static_cast<size_t>(o)].write(valid);
    if (valid) out_data[static_cast<size_t>(o)].write(data);
  }
  eject_valid_ = picked(row[ports_], eject_data_);
  ++round_;
  if (++slot_ == period_) {
    slot_ = 0;
    if (period_count_ < periods_) ++period_count_;
  }
  sent_.notify(sc_core::SC_ZERO_TIME);
}

namespace {

// Whether a fault takes the phit `word` (chain | period << 32) sent from -> to in slot
// `round`; with `record`, noted as lost, named by its flow.
RoundLoss<sc_dt::uint64> tdm_loss(const TdmTables& tables, FaultInjector* faults) {
  if (!faults || !faults->any()) return {};
  return [&tables, faults](int64_t round, int from, int to, const sc_dt::uint64& word, bool record) {
    if (!record) return faults->loses(round, from, to);
    return !tdm_phit_arrives(*faults, tables, round, from, to, static_cast<int>(static_cast<uint32_t>(word)),
                             static_cast<int>(word >> 32));
  };
}

}  // namespace

TdmNetworkSc::TdmNetworkSc(sc_core::sc_module_name name, const Topology& topology, const TdmTables& tables,
                           FaultInjector* faults)
    : LinkedNetworkSc(name, topology,
                      [&](const char* n, int node) {
                        const auto first = tables.select.begin() + static_cast<std::ptrdiff_t>(tables.at(node, 0, 0));
                        const auto inject = tables.inject.begin() + static_cast<std::ptrdiff_t>(tables.inject_at(node, 0));
                        return new TdmRouterSc(
                            n, tables.ports, tables.period,
                            {first, first + static_cast<std::ptrdiff_t>(tables.period) * tables.outputs()},
                            {inject, inject + tables.period}, kTdmPeriodsRun);
                      },
                      "link_phit_", tdm_loss(tables, faults), RecordLoss::AtSend),
      faults_(faults && faults->any() ? faults : nullptr) {}

}  // namespace fixroute
