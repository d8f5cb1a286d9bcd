// Collectives: what must reach whom. One list for every router kind; the scoreboards check
// runs against the demand, the algorithms (core/algorithm.h) say how to meet it.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "sw/core/router_kind.h"
#include "sw/verify/bounds.h"

namespace fixroute {

class Topology;
struct Problem;

// One unit of a store-and-forward collective's demand: `origin`'s `seq`-th packet, needed by
// `dest`, or by every node but `origin` when `dest` is kBroadcastDest. Each router kind
// carries it in its own packet form.
constexpr int kBroadcastDest = -1;
struct DemandPacket {
  int origin = 0;
  int dest = 0;
  int seq = 0;
};

struct Collective {
  std::string name;
  std::string summary;
  // Store-and-forward collectives: the packets when every node starts with `per_node`
  // packets of its own (gossip; total exchange ignores it). A unicast packet is needed by its dest; a broadcast one (dest -1) by every
  // node but its origin. Null for the circuit-switched ones, whose demand the crossbar
  // tables record (sw/schedulers/circuits.h).
  std::function<std::vector<DemandPacket>(const Topology&, int per_node)> packets;
  // How many packets `packets` makes, without making them (every collective: the circuit
  // ones, a message per node).
  std::function<DemandSize(const Topology&, int per_node)> demand_size;
  std::function<Bounds(const Topology&, const PortModel&, int per_node)> lower_bounds;
  bool takes_permutation = false;  // --permutation (required)
  bool takes_root = false;         // --root
  // Throws InputError for options the collective does not take, lacks or cannot use.
  void check_options(const Problem& problem) const;
};

const std::vector<Collective>& collectives();
// Throws InputError naming the accepted collectives. "flows:FILE" is your own traffic, read
// from FILE (docs/tdm.md, "Traffic"): InputError for a file that cannot be read or parsed.
const Collective& find_collective(const std::string& name);
// The name algorithms register for: the collective's, or "flows" for every flows:FILE
// (without reading the file).
std::string collective_family(const std::string& name);

// Total exchange numbers the packets of an origin by destination, skipping itself:
// seq = dest - (dest > origin).
int total_exchange_seq(int origin, int dest);

}  // namespace fixroute
