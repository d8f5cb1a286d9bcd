#include "sw/kinds/port_rules/router_rules.h"

#include <fmt/format.h>

namespace fixroute::router_rules {

std::string stranded_message(int64_t step, int node, const Packet& pkt, int in_port) {
  return fmt::format("step {}: node {} cannot forward packet {}->{} seq {} (arrived on port {}, {} hops left)", step,
                     node, pkt.origin, pkt.dest, pkt.seq, in_port, pkt.hops);
}

std::string watchdog_failure(int64_t step, const std::string& queues) {
  return fmt::format("watchdog: no packet moved for {} steps (step {}); queues: {}", kWatchdogSteps, step, queues);
}

}  // namespace fixroute::router_rules
