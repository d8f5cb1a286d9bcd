// How the SystemC networks of routers with a valid bit and a data word per port are wired
// by their topology's adjacency: out-port q of router i drives link (i, q); in-port q of
// router i hears link (neighbour(i, q), reverse_port(i, q)) -- or, where `heard_valid` and
// `heard_data` are given, their signal of that link (what a fault link lets through); a
// port without a neighbour hears the constant `idle` signals.
#pragma once
#include <fmt/format.h>

#include <systemc>

#include <cstdint>
#include <functional>
#include <string>

#include "systemc/fr_fault_link_sc.h"

#include "sw/topology/topology.h"

namespace fixroute {

template <class Router, class Data>
void wire_links_sc(const Topology& topology, sc_core::sc_vector<Router>& routers,
                   sc_core::sc_vector<sc_core::sc_signal<bool>>& link_valid,
                   sc_core::sc_vector<sc_core::sc_signal<Data>>& link_data, sc_core::sc_signal<bool>& idle_valid,
                   sc_core::sc_signal<Data>& idle_data,
                   sc_core::sc_vector<sc_core::sc_signal<bool>>* heard_valid = nullptr,
                   sc_core::sc_vector<sc_core::sc_signal<Data>>* heard_data = nullptr) {
  auto& in_valid = heard_valid ? *heard_valid : link_valid;
  auto& in_data = heard_data ? *heard_data : link_data;
  const size_t ports = static_cast<size_t>(topology.num_ports());
  auto link = [&](int node, int port) { return static_cast<size_t>(node) * ports + static_cast<size_t>(port); };
  for (int i = 0; i < topology.num_nodes(); ++i) {
    Router& r = routers[static_cast<size_t>(i)];
    for (int q = 0; q < topology.num_ports(); ++q) {
      r.out_valid[static_cast<size_t>(q)](link_valid[link(i, q)]);
      r.out_data[static_cast<size_t>(q)](link_data[link(i, q)]);
      const int nbr = topology.neighbour(i, q);
      if (nbr < 0) {
        r.in_valid[static_cast<size_t>(q)](idle_valid);
        r.in_data[static_cast<size_t>(q)](idle_data);
      } else {
        const size_t theirs = link(nbr, topology.reverse_port(i, q));
        r.in_valid[static_cast<size_t>(q)](in_valid[theirs]);
        r.in_data[static_cast<size_t>(q)](in_data[theirs]);
      }
    }
  }
}

// Whether a fault takes what router `from` sent to `to` in `round` (docs/faults.md); with
// `record`, noted as lost (FaultInjector::arrives and its kin).
template <class Data>
using RoundLoss = std::function<bool(int64_t round, int from, int to, const Data& sent, bool record)>;

// A RoundFaultLinkSc on every link of a network of routers that take one round per clock
// (each router announces its sends with sent() and counts them in round()): link l's
// receiver hears heard_valid[l] / heard_data[l], what the fault lets through.
template <class Router, class Data>
void init_round_fault_links(const Topology& topology, sc_core::sc_vector<Router>& routers,
                            sc_core::sc_vector<RoundFaultLinkSc<Data>>& fault_links, sc_core::sc_in<bool>& clk,
                            sc_core::sc_vector<sc_core::sc_signal<bool>>& link_valid,
                            sc_core::sc_vector<sc_core::sc_signal<Data>>& link_data,
                            sc_core::sc_vector<sc_core::sc_signal<bool>>& heard_valid,
                            sc_core::sc_vector<sc_core::sc_signal<Data>>& heard_data, const RoundLoss<Data>& lost,
                            RecordLoss when) {
  const size_t ports = static_cast<size_t>(topology.num_ports());
  fault_links.init(link_valid.size(), [&](const char* nm, size_t l) {
    const int from = static_cast<int>(l / ports);
    const int to = topology.neighbour(from, static_cast<int>(l % ports));
    const Router& sender = routers[static_cast<size_t>(from)];
    auto* link = new RoundFaultLinkSc<Data>(
        nm, sender.sent(), [&sender] { return static_cast<int64_t>(sender.round()); },
        [lost, from, to](int64_t round, const Data& data, bool record) { return lost(round, from, to, data, record); },
        when);
    link->clk(clk);
    link->in_valid(link_valid[l]);
    link->in_data(link_data[l]);
    link->out_valid(heard_valid[l]);
    link->out_data(heard_data[l]);
    return link;
  });
}

// A network of routers of one kind wired by wire_links_sc: clock and reset to every router,
// the links as signals the harness reads. `make(name, node)` builds router `node`;
// `data_label` names the links' data in waveforms. With `lost` (routers that take a round
// per clock, under injected faults) every link passes through a RoundFaultLinkSc and
// link_valid/link_data tell what arrived.
template <class Router, class Data>
class LinkedNetworkSc : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> reset;

  template <class Make>
  LinkedNetworkSc(sc_core::sc_module_name name, const Topology& topology, Make make, const char* data_label,
                  const RoundLoss<Data>& lost = nullptr, RecordLoss when = RecordLoss::AtTake)
      : sc_core::sc_module(name),
        ports_(static_cast<size_t>(topology.num_ports())),
        data_label_(data_label),
        routers_("router", static_cast<size_t>(topology.num_nodes()),
                 [&](const char* n, size_t i) { return make(n, static_cast<int>(i)); }),
        link_valid_("link_valid", static_cast<size_t>(topology.num_nodes()) * ports_),
        link_data_("link_data", static_cast<size_t>(topology.num_nodes()) * ports_),
        faulted_(static_cast<bool>(lost)),
        fault_links_("fault_link"),
        arrive_valid_("arrive_valid", faulted_ ? link_valid_.size() : 0),
        arrive_data_("arrive_data", faulted_ ? link_data_.size() : 0) {
    for (Router& r : routers_) {
      r.clk(clk);
      r.reset(reset);
    }
    if (!faulted_) {
      wire_links_sc(topology, routers_, link_valid_, link_data_, no_valid_, no_data_);
      return;
    }
    init_round_fault_links(topology, routers_, fault_links_, clk, link_valid_, link_data_, arrive_valid_, arrive_data_, lost,
                           when);
    wire_links_sc(topology, routers_, link_valid_, link_data_, no_valid_, no_data_, &arrive_valid_, &arrive_data_);
  }

  bool link_valid(int node, int port) const { return (faulted_ ? arrive_valid_ : link_valid_)[link(node, port)].read(); }
  Data link_data(int node, int port) const { return (faulted_ ? arrive_data_ : link_data_)[link(node, port)].read(); }
  const Router& router(int node) const { return routers_[static_cast<size_t>(node)]; }
  void trace(sc_core::sc_trace_file* file) const {
    for (size_t i = 0; i < link_valid_.size(); ++i) {
      const std::string at = fmt::format("{}_{}", i / ports_, i % ports_);
      sc_core::sc_trace(file, link_valid_[i], "link_valid_" + at);
      sc_core::sc_trace(file, link_data_[i], data_label_ + at);
    }
  }

 private:
  size_t link(int node, int port) const { return static_cast<size_t>(node) * ports_ + static_cast<size_t>(port); }
  const size_t ports_;
  const std::string data_label_;
  sc_core::sc_vector<Router> routers_;
  sc_core::sc_vector<sc_core::sc_signal<bool>> link_valid_;
  sc_core::sc_vector<sc_core::sc_signal<Data>> link_data_;
  sc_core::sc_signal<bool> no_valid_;  // what a border input sees
  sc_core::sc_signal<Data> no_data_;
  const bool faulted_;
  sc_core::sc_vector<RoundFaultLinkSc<Data>> fault_links_;
  sc_core::sc_vector<sc_core::sc_signal<bool>> arrive_valid_;  // with faults: what arrives of each link
  sc_core::sc_vector<sc_core::sc_signal<Data>> arrive_data_;
};

}  // namespace fixroute
