#include "systemc/port_rules/fr_network_sc.h"

#include <fmt/format.h>

#include "sw/topology/topology.h"

namespace fixroute {

NetworkSc::NetworkSc(sc_core::sc_module_name name, const Topology& topology, const NetworkTables& tables,
                     FaultInjector* faults)
    : sc_core::sc_module(name),
      topology_(topology),
      routers_("router"),
      link_valid_("link_valid", static_cast<size_t>(topology.num_nodes() * topology.num_ports())),
      link_data_("link_data", static_cast<size_t>(topology.num_nodes() * topology.num_ports())),
      ready_("ready", static_cast<size_t>(topology.num_nodes())),
      idle_("idle", static_cast<size_t>(topology.num_nodes())),
      fault_("fault", static_cast<size_t>(topology.num_nodes())),
      faults_(faults && faults->any() ? faults : nullptr),
      fault_links_("fault_link"),
      arrive_valid_("arrive_valid", faults_ ? link_valid_.size() : 0),
      arrive_data_("arrive_data", faults_ ? link_data_.size() : 0),
      router_go_("router_go", faults_ ? static_cast<size_t>(topology.num_nodes()) : 0) {
  routers_.init(static_cast<size_t>(topology.num_nodes()), [&](const char* nm, size_t i) {
    return new RouterSc(nm, tables.routers[i]);
  });
  if (faults_)
    fault_links_.init(link_valid_.size(), [&](const char* nm, size_t l) {
      const int from = static_cast<int>(l / static_cast<size_t>(topology.num_ports()));
      const int to = topology.neighbour(from, static_cast<int>(l % static_cast<size_t>(topology.num_ports())));
      auto* fl = new FaultLinkSc<uint64_t>(nm, [this, from, to](const uint64_t& word) {
        const Packet p = unpack_packet(word);
        return faults_->arrives(routers_[static_cast<size_t>(from)].step(), from, to, p.origin, p.dest, p.seq);
      });
      fl->in_valid(link_valid_[l]);
      fl->in_data(link_data_[l]);
      fl->out_valid(arrive_valid_[l]);
      fl->out_data(arrive_data_[l]);
      return fl;
    });
  for (int i = 0; i < topology.num_nodes(); ++i) {
    RouterSc& r = routers_[static_cast<size_t>(i)];
    r.clk(clk);
    r.reset(reset);
    r.start(start);
    r.step_go(faults_ ? router_go_[static_cast<size_t>(i)] : step_go_);
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
        r.in_valid[static_cast<size_t>(p)](faults_ ? arrive_valid_[l] : link_valid_[l]);
        r.in_data[static_cast<size_t>(p)](faults_ ? arrive_data_[l] : link_data_[l]);
      }
    }
  }
  SC_HAS_PROCESS(NetworkSc);
  SC_METHOD(compute_go);
  for (auto& r : ready_) sensitive << r;
  if (faults_) {
    SC_METHOD(gate_stuck);
    sensitive << step_go_;
  }
}

// A stuck router never sees step_go again from its stuck step on: it keeps its queues and
// takes nothing in (it receives only after it sends).
void NetworkSc::gate_stuck() {
  for (size_t i = 0; i < router_go_.size(); ++i)
    router_go_[i].write(step_go_.read() && !faults_->stuck(static_cast<int>(i), routers_[i].step()));
}

size_t NetworkSc::link(int node, int port) const {
  return static_cast<size_t>(node) * static_cast<size_t>(topology_.num_ports()) + static_cast<size_t>(port);
}

void NetworkSc::compute_go() {
  bool all = true;
  for (const auto& r : ready_) all = all && r.read();
  step_go_.write(all);
}

bool NetworkSc::link_valid(int node, int port) const {
  return (faults_ ? arrive_valid_ : link_valid_)[link(node, port)].read();
}

Packet NetworkSc::link_packet(int node, int port) const {
  return unpack_packet((faults_ ? arrive_data_ : link_data_)[link(node, port)].read());
}

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
