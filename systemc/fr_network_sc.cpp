#include "fr_network_sc.h"

#include <fmt/format.h>

#include "sw/topology/topology.h"

namespace fixroute {

NetworkSc::NetworkSc(sc_core::sc_module_name name, const Topology& topology, const NetworkTables& tables)
    : sc_core::sc_module(name),
      topology_(topology),
      routers_("router"),
      link_valid_("link_valid", static_cast<size_t>(topology.num_nodes() * topology.num_ports())),
      link_data_("link_data", static_cast<size_t>(topology.num_nodes() * topology.num_ports())),
      ready_("ready", static_cast<size_t>(topology.num_nodes())),
      idle_("idle", static_cast<size_t>(topology.num_nodes())),
      fault_("fault", static_cast<size_t>(topology.num_nodes())) {
  routers_.init(static_cast<size_t>(topology.num_nodes()), [&](const char* nm, size_t i) {
    return new RouterSc(nm, tables.routers[i]);
  });
  for (int i = 0; i < topology.num_nodes(); ++i) {
    RouterSc& r = routers_[static_cast<size_t>(i)];
    r.clk(clk);
    r.reset(reset);
    r.start(start);
    r.step_go(step_go_);
    r.ready(ready_[static_cast<size_t>(i)]);
    r.idle(idle_[static_cast<size_t>(i)]);
    r.fault(fault_[static_cast<size_t>(i)]);
    for (int p = 0; p < topology.num_ports(); ++p) {
      r.out_valid[static_cast<size_t>(p)](link_valid_[link(i, p)]);
      r.out_data[static_cast<size_t>(p)](link_data_[link(i, p)]);
      int from = topology.neighbour(i, p);
      if (from < 0) {
        r.in_valid[static_cast<size_t>(p)](no_valid_);
        r.in_data[static_cast<size_t>(p)](no_data_);
      } else {
        size_t l = link(from, topology.reverse_port(i, p));
        r.in_valid[static_cast<size_t>(p)](link_valid_[l]);
        r.in_data[static_cast<size_t>(p)](link_data_[l]);
      }
    }
  }
  SC_HAS_PROCESS(NetworkSc);
  SC_METHOD(compute_go);
  for (auto& r : ready_) sensitive << r;
}

size_t NetworkSc::link(int node, int port) const {
  return static_cast<size_t>(node) * static_cast<size_t>(topology_.num_ports()) + static_cast<size_t>(port);
}

void NetworkSc::compute_go() {
  bool all = true;
  for (const auto& r : ready_) all = all && r.read();
  step_go_.write(all);
}

bool NetworkSc::link_valid(int node, int port) const { return link_valid_[link(node, port)].read(); }

Packet NetworkSc::link_packet(int node, int port) const { return unpack_packet(link_data_[link(node, port)].read()); }

bool NetworkSc::all_idle() const {
  for (const auto& s : idle_)
    if (!s.read()) return false;
  return true;
}

std::string NetworkSc::faults() const {
  std::string out;
  for (const RouterSc& r : routers_)
    if (!r.fault_reason().empty()) out += (out.empty() ? "" : "; ") + r.fault_reason();
  return out;
}

std::string NetworkSc::queue_report() const {
  std::string out;
  for (int i = 0; i < topology_.num_nodes(); ++i)
    for (int p = 0; p < topology_.num_ports(); ++p)
      if (int c = routers_[static_cast<size_t>(i)].queue_size(p))
        out += fmt::format("{}router {} port {}: {}", out.empty() ? "" : ", ", i, p, c);
  return out.empty() ? "all empty" : out;
}

int64_t NetworkSc::max_queue() const {
  int64_t m = 0;
  for (const RouterSc& r : routers_) m = std::max(m, r.max_queue());
  return m;
}

void NetworkSc::trace(sc_core::sc_trace_file* file) const {
  sc_core::sc_trace(file, step_go_, "step_go");
  for (int i = 0; i < topology_.num_nodes(); ++i) {
    sc_core::sc_trace(file, ready_[static_cast<size_t>(i)], fmt::format("router{}.ready", i));
    for (int p = 0; p < topology_.num_ports(); ++p) {
      sc_core::sc_trace(file, link_valid_[link(i, p)], fmt::format("router{}.out{}_valid", i, p));
      sc_core::sc_trace(file, link_data_[link(i, p)], fmt::format("router{}.out{}_data", i, p));
    }
  }
}

}  // namespace fixroute
