#include "sw/kinds/port_rules/router_rules.h"

#include <fmt/format.h>

namespace fixroute::router_rules {

std::string stranded_message(int64_t step, int node, const Packet& pkt, int in_port) {
  return fmt::format("step {}: node {} cannot forward packet {}->{} seq {} (arrived on port {}, {} hops left)", step,
                     node, pkt.origin, pkt.dest, pkt.seq, in_port, pkt.hops);
}

}  // namespace fixroute::router_rules
