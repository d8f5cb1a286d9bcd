#include "collectives.h"

#include <fmt/format.h>

#include "algorithm.h"
#include "errors.h"
#include "find_named.h"
#include "sw/topology/topology.h"

namespace fixroute {

int total_exchange_seq(int origin, int dest) { return dest - (dest > origin ? 1 : 0); }

namespace {
Collective circuit(const char* name, const char* summary, bool permutation, bool root) {
  Collective c;
  c.name = name;
  c.summary = summary;
  c.takes_permutation = permutation;
  c.takes_root = root;
  c.demand_size = [](const Topology& t, int) { return DemandSize{t.num_nodes(), 0}; };
  return c;
}
}  // namespace

const std::vector<Collective>& collectives() {
  static const std::vector<Collective> all = {
      {"total-exchange", "every node sends a distinct packet to every other node",
       [](const Topology& t, int) {
         std::vector<DemandPacket> out;
         out.reserve(static_cast<size_t>(t.num_nodes()) * static_cast<size_t>(t.num_nodes() - 1));
         for (int o = 0; o < t.num_nodes(); ++o)
           for (int d = 0; d < t.num_nodes(); ++d)
             if (d != o) out.push_back({o, d, total_exchange_seq(o, d)});
         return out;
       },
       [](const Topology& t, int) {
         const int64_t n = t.num_nodes();
         return DemandSize{n * (n - 1), 0};
       },
       [](const Topology& t, const PortModel& m, int) { return total_exchange_bounds(t, m); }},
      {"gossip", "all-to-all broadcast: every node's packets reach every other node (non-combining)",
       [](const Topology& t, int per_node) {
         std::vector<DemandPacket> out;
         for (int o = 0; o < t.num_nodes(); ++o)
           for (int s = 0; s < per_node; ++s) out.push_back({o, kBroadcastDest, s});
         return out;
       },
       [](const Topology& t, int per_node) { return DemandSize{0, int64_t{t.num_nodes()} * per_node}; },
       [](const Topology& t, const PortModel& m, int per_node) { return gossip_bounds(t, m, per_node); }},
      circuit("permutation", "circuit-switched mesh: every node's message to its image under --permutation", true,
              false),
      circuit("broadcast", "the root's message (--root, default 0) to every node: circuit-switched mesh, summing routers", false, true),
      circuit("fan-in", "circuit-switched mesh: every node's value combined into the root (--root)", false, true),
      circuit("prefix", "node i ends with the combination (sum) of the values of nodes 0..i: circuit-switched mesh, summing routers",
              false, false),
      circuit("data-sum", "summing routers: every node ends with the sum of every node's value", false, false),
      circuit("fft",
              "circuit-switched mesh: the recursive FFT's splitting and perfect-shuffle permutations, level by level",
              false, false),
  };
  return all;
}

const Collective& find_collective(const std::string& name) { return find_named(collectives(), name, "collective"); }

void Collective::check_options(const Problem& problem) const {
  if (takes_permutation && problem.permutation.empty())
    throw InputError(fmt::format("the {} collective needs --permutation (bpc:PI:A, transpose, bit-reversal, "
                                 "perfect-shuffle, bit-complement, omega:FILE, file:FILE, random:SEED)",
                                 name));
  if (!takes_permutation && !problem.permutation.empty())
    throw InputError(fmt::format("--permutation is for the permutation collective, not {}", name));
  const int nodes = problem.topology.num_nodes();
  if (problem.root < 0 || problem.root >= nodes)
    throw InputError(fmt::format("--root {} is not a node of {} (0..{})", problem.root, problem.topology.spec(),
                                 nodes - 1));
}

}  // namespace fixroute
