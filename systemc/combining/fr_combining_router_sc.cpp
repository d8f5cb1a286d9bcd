#include "systemc/combining/fr_combining_router_sc.h"

#include <fmt/format.h>

#include "sw/kinds/combining/tables.h"
#include "systemc/fr_link_wiring_sc.h"
#include "sw/topology/topology.h"

namespace fixroute {

int OriginSet::count() const {
  int c = 0;
  for (uint64_t w : words) c += __builtin_popcountll(w);
  return c;
}

std::ostream& operator<<(std::ostream& out, const OriginSet& s) {
  for (auto it = s.words.rbegin(); it != s.words.rend(); ++it) out << fmt::format("{:016x}", *it);
  return out;
}

void sc_trace(sc_core::sc_trace_file*, const OriginSet&, const std::string&) {}

CombiningRouterSc::CombiningRouterSc(sc_core::sc_module_name name, int node, int nodes, int ports,
                                     std::vector<uint16_t> rows)
    : sc_core::sc_module(name),
      in_valid("in_valid", static_cast<size_t>(ports)),
      in_data("in_data", static_cast<size_t>(ports)),
      out_valid("out_valid", static_cast<size_t>(ports)),
      out_data("out_data", static_cast<size_t>(ports)),
      node_(node),
      nodes_(nodes),
      rows_(std::move(rows)) {
  SC_HAS_PROCESS(CombiningRouterSc);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

void CombiningRouterSc::on_clock() {
  const size_t ports = in_valid.size();
  if (reset.read()) {
    known_.words.assign((static_cast<size_t>(nodes_) + 63) / 64, 0);
    known_.words[static_cast<size_t>(node_) / 64] |= 1ull << (node_ % 64);
    round_ = 0;
    for (size_t p = 0; p < ports; ++p) out_valid[p].write(false);
    full.write(nodes_ == 1);
    learnt.write(false);
    known_count.write(1);
    return;
  }
  // What the neighbours sent in the last round joins the set...
  const int before = known_.count();
  for (size_t p = 0; p < ports; ++p)
    if (in_valid[p].read()) {
      const OriginSet& in = in_data[p].read();
      for (size_t w = 0; w < known_.words.size() && w < in.words.size(); ++w) known_.words[w] |= in.words[w];
    }
  const int after = known_.count();
  learnt.write(after != before);
  full.write(after == nodes_);
  known_count.write(after);
  // ...and the whole set goes out on the ports of the next round's row.
  const unsigned row = rows_[static_cast<size_t>(round_ % static_cast<int64_t>(rows_.size()))];
  ++round_;
  for (size_t p = 0; p < ports; ++p) {
    const bool send = (row >> p) & 1u;
    out_valid[p].write(send);
    if (send) out_data[p].write(known_);
  }
  sent_.notify(sc_core::SC_ZERO_TIME);  // once the writes are seen
}

CombiningNetworkSc::CombiningNetworkSc(sc_core::sc_module_name name, const Topology& topology,
                                       const CombiningTables& tables, FaultInjector* faults)
    : sc_core::sc_module(name),
      nodes_(topology.num_nodes()),
      ports_(topology.num_ports()),
      routers_("router", static_cast<size_t>(nodes_),
               [&](const char* n, size_t i) {
                 return new CombiningRouterSc(n, static_cast<int>(i), tables.nodes, tables.ports,
                                              tables.router_rows(static_cast<int>(i)));
               }),
      link_valid_("link_valid", static_cast<size_t>(nodes_) * static_cast<size_t>(ports_)),
      link_data_("link_data", static_cast<size_t>(nodes_) * static_cast<size_t>(ports_)),
      full_("full", static_cast<size_t>(nodes_)),
      learnt_("learnt", static_cast<size_t>(nodes_)),
      known_count_("known_count", static_cast<size_t>(nodes_)),
      faults_(faults && faults->any() ? faults : nullptr),
      fault_links_("fault_link"),
      arrive_valid_("arrive_valid", faults_ ? link_valid_.size() : 0),
      arrive_data_("arrive_data", faults_ ? link_data_.size() : 0) {
  for (int i = 0; i < nodes_; ++i) {
    CombiningRouterSc& r = routers_[static_cast<size_t>(i)];
    r.clk(clk);
    r.reset(reset);
    r.full(full_[static_cast<size_t>(i)]);
    r.learnt(learnt_[static_cast<size_t>(i)]);
    r.known_count(known_count_[static_cast<size_t>(i)]);
  }
  if (!faults_) {
    wire_links_sc(topology, routers_, link_valid_, link_data_, no_valid_, no_data_);
    return;
  }
  init_round_fault_links<CombiningRouterSc, OriginSet>(
      topology, routers_, fault_links_, clk, link_valid_, link_data_, arrive_valid_, arrive_data_,
      [faults = faults_](int64_t round, int from, int to, const OriginSet& set, bool record) {
        return record ? !faults->arrives_set(round, from, to, set.count()) : faults->loses(round, from, to);
      },
      RecordLoss::AtTake);
  wire_links_sc(topology, routers_, link_valid_, link_data_, no_valid_, no_data_, &arrive_valid_, &arrive_data_);
}

void CombiningNetworkSc::trace(sc_core::sc_trace_file* file) const {
  for (size_t i = 0; i < link_valid_.size(); ++i)
    sc_core::sc_trace(file, link_valid_[i], fmt::format("link_valid_{}_{}", i / static_cast<size_t>(ports_), i % static_cast<size_t>(ports_)));
  for (size_t i = 0; i < known_count_.size(); ++i) {
    sc_core::sc_trace(file, known_count_[i], fmt::format("known_count_{}", i));
    sc_core::sc_trace(file, full_[i], fmt::format("full_{}", i));
  }
}

}  // namespace fixroute
