#include "collectives.h"

#include <fmt/format.h>

#include "errors.h"
#include "topology.h"

namespace fixroute {

int total_exchange_seq(int origin, int dest) { return dest - (dest > origin ? 1 : 0); }

const std::vector<Collective>& collectives() {
  static const std::vector<Collective> all = {
      {"total-exchange", "every node sends a distinct packet to every other node",
       [](const Topology& t, int) {
         std::vector<Packet> out;
         out.reserve(static_cast<size_t>(t.num_nodes()) * static_cast<size_t>(t.num_nodes() - 1));
         for (int o = 0; o < t.num_nodes(); ++o)
           for (int d = 0; d < t.num_nodes(); ++d)
             if (d != o) out.push_back({o, d, total_exchange_seq(o, d), 0});
         return out;
       },
       [](const Topology& t, const PortModel& m, int) { return total_exchange_bounds(t, m); }},
      {"gossip", "all-to-all broadcast: every node's packets reach every other node (non-combining)",
       [](const Topology& t, int per_node) {
         std::vector<Packet> out;
         for (int o = 0; o < t.num_nodes(); ++o)
           for (int s = 0; s < per_node; ++s) out.push_back({o, kBroadcastDest, s, 0});
         return out;
       },
       [](const Topology& t, const PortModel& m, int per_node) { return gossip_bounds(t, m, per_node); }},
  };
  return all;
}

const Collective& find_collective(const std::string& name) {
  std::string names;
  for (const Collective& c : collectives()) {
    if (c.name == name) return c;
    names += (names.empty() ? "" : ", ") + c.name;
  }
  throw InputError(fmt::format("unknown collective '{}'; accepted: {}", name, names));
}

}  // namespace fixroute
