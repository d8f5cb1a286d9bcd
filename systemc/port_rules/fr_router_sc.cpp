#include "systemc/port_rules/fr_router_sc.h"

#include <algorithm>

#include "sw/kinds/port_rules/router_rules.h"

namespace fixroute {

uint64_t pack_packet(const Packet& p) {
  uint64_t dest = p.dest == kBroadcastDest ? 0xFFFFu : static_cast<uint64_t>(p.dest);
  return static_cast<uint64_t>(p.origin) | (dest << 16) | (static_cast<uint64_t>(p.seq) << 32) |
         (static_cast<uint64_t>(p.hops) << 48);
}

Packet unpack_packet(uint64_t w) {
  int dest = static_cast<int>((w >> 16) & 0xFFFF);
  return {static_cast<int>(w & 0xFFFF), dest == 0xFFFF ? kBroadcastDest : dest, static_cast<int>((w >> 32) & 0xFFFF),
          static_cast<int>((w >> 48) & 0xFFFF)};
}

RouterSc::RouterSc(sc_core::sc_module_name name, const RouterTable& table)
    : sc_core::sc_module(name),
      in_valid("in_valid", table.ports.size()),
      in_data("in_data", table.ports.size()),
      out_valid("out_valid", table.ports.size()),
      out_data("out_data", table.ports.size()),
      table_(table),
      queues_(table.ports.size()),
      valid_driven_(table.ports.size(), 0) {
  SC_HAS_PROCESS(RouterSc);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

bool RouterSc::releasing() const {
  return running_ && !receiving_ && release_index_ < table_.initial.size() &&
         table_.initial[release_index_].release == step_;
}

void RouterSc::push(int port, const Packet& packet) {
  std::vector<Packet>& q = queues_[static_cast<size_t>(port)];
  q.push_back(packet);
  max_queue_ = std::max<int64_t>(max_queue_, static_cast<int64_t>(q.size()));
}

void RouterSc::arrive(int in_port, const Packet& pkt) {
  auto push_copy = [this](int out, const Packet& copy) { push(out, copy); };
  if (router_rules::handle_arrival(pkt, table_.node, table_.ports, in_port, step_, push_copy) ==
          router_rules::Arrival::Stranded &&
      fault_reason_.empty())
    fault_reason_ = router_rules::stranded_message(step_, table_.node, pkt, in_port);
}

void RouterSc::on_clock() {
  const size_t ports = queues_.size();
  if (reset.read()) {
    for (std::vector<Packet>& q : queues_) q.clear();
    for (size_t p = 0; p < ports; ++p) drive(out_valid[p], valid_driven_[p], false);
    running_ = receiving_ = sent_ = false;
    step_ = 0;
    release_index_ = 0;
    max_queue_ = 0;
    fault_reason_.clear();
  } else if (!running_) {
    if (start.read()) {
      running_ = true;
      step_ = 1;
    }
  } else if (releasing()) {
    const InitialPacket& ip = table_.initial[release_index_++];
    push(ip.out_port, ip.packet);
  } else if (!receiving_ && step_go.read()) {  // SEND
    sent_ = false;
    for (size_t p = 0; p < ports; ++p) {
      std::vector<Packet>& q = queues_[p];
      const PortRule& rule = table_.ports[p];
      bool send = !q.empty() && router_rules::may_send(rule, step_);
      drive(out_valid[p], valid_driven_[p], send);
      if (!send) continue;
      size_t pick = router_rules::pick_next(q, rule.discipline);
      out_data[p].write(pack_packet(q[pick]));
      q.erase(q.begin() + static_cast<std::ptrdiff_t>(pick));
      sent_ = true;
    }
    receiving_ = true;
  } else if (receiving_) {  // RECEIVE, in in-port order
    for (size_t q = 0; q < ports; ++q)
      if (in_valid[q].read()) arrive(static_cast<int>(q), unpack_packet(in_data[q].read()));
    for (size_t p = 0; p < ports; ++p) drive(out_valid[p], valid_driven_[p], false);
    sent_ = false;
    receiving_ = false;
    ++step_;
  }
  bool empty = std::all_of(queues_.begin(), queues_.end(), [](const std::vector<Packet>& q) { return q.empty(); });
  drive(ready, ready_driven_, running_ && !receiving_ && !releasing());
  drive(idle, idle_driven_, running_ && !receiving_ && release_index_ == table_.initial.size() && empty && !sent_);
  drive(fault, fault_driven_, !fault_reason_.empty());
}

}  // namespace fixroute
