#include "collectives.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "algorithm.h"
#include "errors.h"
#include "find_named.h"
#include "sw/topology/listing_file.h"
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

namespace {

constexpr const char* kFlowsPrefix = "flows:";
constexpr int64_t kMaxFlowsFileBytes = 64 << 20;
constexpr int64_t kMaxFlowPhits = 1 << 20;  // phits a period in all

// Your own traffic: each line `src dst [phits] [slots per period]`, a flow of phits x slots
// phits a period from src to dst.
Collective flows_collective(const std::string& spec) {
  const std::string given = spec.substr(std::string(kFlowsPrefix).size());
  if (given.empty()) throw InputError("flows: needs a FILE (docs/tdm.md, \"Traffic\")");
  const ListingFile listing(given, "bad flows file", kMaxFlowsFileBytes);
  struct Flow {
    int src, dst, phits, line;
  };
  auto flows = std::make_shared<std::vector<Flow>>();
  int64_t total = 0;
  for (const auto& [number, w] : listing.lines()) {
    if (w.size() < 2 || w.size() > 4) listing.fail(number, "expected 'src dst [phits] [slots per period]'");
    const int64_t any = int64_t{1} << 30;
    Flow f{listing.number(number, w[0], 0, any, "node"), listing.number(number, w[1], 0, any, "node"), 1, number};
    if (f.src == f.dst) listing.fail(number, fmt::format("a flow from node {} to itself", f.src));
    const int phits = w.size() > 2 ? listing.number(number, w[2], 1, any, "phits") : 1;
    const int slots = w.size() > 3 ? listing.number(number, w[3], 1, any, "slots per period") : 1;
    total += int64_t{phits} * slots;
    if (total > kMaxFlowPhits) listing.fail(fmt::format("more than {} phits a period", kMaxFlowPhits));
    f.phits = phits * slots;
    flows->push_back(f);
  }
  const std::string file = listing.absolute();
  if (flows->empty()) listing.fail("no flows");
  Collective c;
  c.name = kFlowsPrefix + file;
  c.summary = "your own traffic: flows of phits a period between nodes (TDM routers)";
  c.packets = [flows, given](const Topology& t, int) {
    std::vector<DemandPacket> out;
    std::map<std::pair<int, int>, int> seq;
    for (const Flow& f : *flows) {
      if (f.src >= t.num_nodes() || f.dst >= t.num_nodes())
        throw InputError(fmt::format("bad flows file '{}': line {}: node {} is not a node of {}", given, f.line,
                                     std::max(f.src, f.dst), t.spec()));
      for (int k = 0; k < f.phits; ++k) out.push_back({f.src, f.dst, seq[{f.src, f.dst}]++});
    }
    return out;
  };
  c.demand_size = [total](const Topology&, int) { return DemandSize{total, 0}; };
  return c;
}

}  // namespace

const Collective& find_collective(const std::string& name) {
  if (name.rfind(kFlowsPrefix, 0) != 0) return find_named(collectives(), name, "collective");
  // Read once per file a process names; kept for the process (a run looks it up again).
  static std::mutex lock;
  static std::map<std::string, std::unique_ptr<Collective>> read;
  std::lock_guard<std::mutex> held(lock);
  std::unique_ptr<Collective>& entry = read[name];
  if (!entry) entry = std::make_unique<Collective>(flows_collective(name));
  return *entry;
}

std::string collective_family(const std::string& name) {
  return name.rfind(kFlowsPrefix, 0) == 0 ? std::string("flows") : name;
}

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
