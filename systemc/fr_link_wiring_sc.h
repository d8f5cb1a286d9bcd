// How the SystemC networks of routers with a valid bit and a data word per port are wired
// by their topology's adjacency: out-port q of router i drives link (i, q); in-port q of
// router i hears link (neighbour(i, q), reverse_port(i, q)); a port without a neighbour
// hears the constant `idle` signals.
#pragma once
#include <systemc>

#include "sw/topology/topology.h"

namespace fixroute {

template <class Router, class Data>
void wire_links_sc(const Topology& topology, sc_core::sc_vector<Router>& routers,
                   sc_core::sc_vector<sc_core::sc_signal<bool>>& link_valid,
                   sc_core::sc_vector<sc_core::sc_signal<Data>>& link_data, sc_core::sc_signal<bool>& idle_valid,
                   sc_core::sc_signal<Data>& idle_data) {
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
        r.in_valid[static_cast<size_t>(q)](link_valid[theirs]);
        r.in_data[static_cast<size_t>(q)](link_data[theirs]);
      }
    }
  }
}

}  // namespace fixroute
