#include "systemc/crossbar/fr_xbar_router_sc.h"

#include <fmt/format.h>

#include "sw/core/faults.h"
#include "sw/kinds/crossbar/engine.h"
#include "sw/topology/topology.h"

namespace fixroute {

XbarRouterSc::XbarRouterSc(sc_core::sc_module_name name, const XbarRouterTable& table, int step_cycles)
    : sc_core::sc_module(name),
      in_valid("in_valid", 4),
      in_data("in_data", 4),
      out_valid("out_valid", 4),
      out_data("out_data", 4),
      table_(table),
      step_cycles_(step_cycles) {
  SC_HAS_PROCESS(XbarRouterSc);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

void XbarRouterSc::on_clock() {
  if (reset.read() || done()) {
    for (int p = 0; p < 4; ++p) {
      out_valid[static_cast<size_t>(p)].write(false);
      out_data[static_cast<size_t>(p)].write(0);
    }
    eject_valid.write(false);
    eject_data.write(0);
    if (reset.read()) {
      step_ = 0;
      cycle_ = 0;
      fault_.clear();
    }
    return;
  }
  const XbarSetting& sel = table_.settings[static_cast<size_t>(step_)];
  bool valid[kCrossbarPorts];
  int data[kCrossbarPorts];
  for (int i = 0; i < 4; ++i) {
    valid[i] = in_valid[static_cast<size_t>(i)].read();
    data[i] = in_data[static_cast<size_t>(i)].read();
  }
  valid[kLocalPort] = cycle_ == 0 && sel[kLocalPort] != kNoPort;
  data[kLocalPort] = table_.node;
  std::string conflict, stray;
  for (int out = 0; out < kCrossbarPorts; ++out) {
    int first = -1, second = -1, carried = -1;  // the lowest connected input carrying a message wins
    for (int in = 0; in < kCrossbarPorts; ++in) {
      if (sel[static_cast<size_t>(in)] != out) continue;
      if (first < 0) first = in;
      else if (second < 0) second = in;
      if (valid[in] && carried < 0) carried = in;
    }
    if (second >= 0 && conflict.empty())
      conflict = xbar_fault_text(XbarFault::Conflict, step_ + 1, table_.node, out, first, second);
    const bool v = carried >= 0;
    const int d = v ? data[carried] : 0;
    if (out == kLocalPort) {
      eject_valid.write(v);
      eject_data.write(d);
    } else {
      out_valid[static_cast<size_t>(out)].write(v);
      out_data[static_cast<size_t>(out)].write(d);
    }
  }
  for (int in = 3; in >= 0; --in)
    if (valid[in] && sel[static_cast<size_t>(in)] == kNoPort)
      stray = xbar_fault_text(XbarFault::Stray, step_ + 1, table_.node, in);
  if (fault_.empty()) fault_ = (!conflict.empty() && cycle_ == 0) ? conflict : stray;
  if (++cycle_ >= step_cycles_) {
    cycle_ = 0;
    ++step_;
  }
}

MeshXbarSc::MeshXbarSc(sc_core::sc_module_name name, const Topology& mesh, const XbarTables& tables, FaultInjector* faults)
    : sc_core::sc_module(name),
      faults_(faults && faults->any() ? faults : nullptr),
      routers_("router", static_cast<size_t>(mesh.num_nodes()),
               [&](const char* n, size_t i) { return new XbarRouterSc(n, tables.routers[i], tables.step_cycles); }),
      link_valid_("link_valid", static_cast<size_t>(mesh.num_nodes()) * 4),
      link_data_("link_data", static_cast<size_t>(mesh.num_nodes()) * 4),
      fault_links_("fault_link"),
      arrive_valid_("arrive_valid", faults_ ? link_valid_.size() : 0),
      arrive_data_("arrive_data", faults_ ? link_data_.size() : 0),
      eject_valid_("eject_valid", static_cast<size_t>(mesh.num_nodes())),
      eject_data_("eject_data", static_cast<size_t>(mesh.num_nodes())) {
  // What a receiver hears of link l: the sender's signals, or what its fault link lets through.
  auto& heard_valid = faults_ ? arrive_valid_ : link_valid_;
  auto& heard_data = faults_ ? arrive_data_ : link_data_;
  if (faults_) {
    fault_links_.init(link_valid_.size(), [&](const char* nm, size_t l) {
      const int from = static_cast<int>(l / 4), to = mesh.neighbour(from, static_cast<int>(l % 4));
      const XbarRouterSc& sender = routers_[static_cast<size_t>(from)];
      // a message carries its source; it crosses in the sender's current routing step
      auto* link = new FaultLinkSc<int>(nm, [this, &sender, from, to](const int& source) {
        return faults_->arrives_message(sender.step() + 1, from, to, source);
      });
      link->in_valid(link_valid_[l]);
      link->in_data(link_data_[l]);
      link->out_valid(arrive_valid_[l]);
      link->out_data(arrive_data_[l]);
      return link;
    });
  }
  for (int i = 0; i < mesh.num_nodes(); ++i) {
    XbarRouterSc& r = routers_[static_cast<size_t>(i)];
    r.clk(clk);
    r.reset(reset);
    r.eject_valid(eject_valid_[static_cast<size_t>(i)]);
    r.eject_data(eject_data_[static_cast<size_t>(i)]);
    for (int q = 0; q < 4; ++q) {
      const size_t own = static_cast<size_t>(i * 4 + q);
      r.out_valid[static_cast<size_t>(q)](link_valid_[own]);
      r.out_data[static_cast<size_t>(q)](link_data_[own]);
      const int nbr = mesh.neighbour(i, q);
      if (nbr < 0) {
        r.in_valid[static_cast<size_t>(q)](no_valid_);
        r.in_data[static_cast<size_t>(q)](no_data_);
      } else {  // what the neighbour sends back across this link, on its port q^1
        const size_t theirs = static_cast<size_t>(nbr * 4 + (q ^ 1));
        r.in_valid[static_cast<size_t>(q)](heard_valid[theirs]);
        r.in_data[static_cast<size_t>(q)](heard_data[theirs]);
      }
    }
  }
}

void MeshXbarSc::trace(sc_core::sc_trace_file* file) const {
  for (size_t i = 0; i < link_valid_.size(); ++i) {
    sc_core::sc_trace(file, link_valid_[i], fmt::format("link_valid_{}_{}", i / 4, i % 4));
    sc_core::sc_trace(file, link_data_[i], fmt::format("link_data_{}_{}", i / 4, i % 4));
  }
  for (size_t i = 0; i < eject_valid_.size(); ++i) {
    sc_core::sc_trace(file, eject_valid_[i], fmt::format("eject_valid_{}", i));
    sc_core::sc_trace(file, eject_data_[i], fmt::format("eject_data_{}", i));
  }
}

}  // namespace fixroute
