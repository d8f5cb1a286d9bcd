#include "sw/kinds/tdm/bounds.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <utility>

#include "sw/core/collectives.h"
#include "sw/core/errors.h"
#include "sw/kinds/tdm/link_load_lp.h"

#include "sw/topology/topology.h"

namespace fixroute {

namespace {
int64_t ceil_div(int64_t a, int64_t b) { return b <= 0 ? 0 : (a + b - 1) / b; }
Bounds compute_bounds(const Topology& topology, const std::vector<TdmFlow>& flows);

// Whether the network's automorphisms take any directed link to any other.
bool arc_transitive(const Topology& t) {
  switch (t.kind()) {
    case TopologyKind::Ring:
    case TopologyKind::Hypercube:
    case TopologyKind::Complete:
      return true;
    case TopologyKind::Torus:
      return std::all_of(t.dims().begin(), t.dims().end(), [&](int d) { return d == t.dims()[0]; });
    default:
      return false;
  }
}
}  // namespace

std::vector<TdmFlow> total_exchange_flows(const Topology& topology) {
  std::vector<TdmFlow> flows;
  const int n = topology.num_nodes();
  flows.reserve(static_cast<size_t>(n) * static_cast<size_t>(n - 1));
  for (int s = 0; s < n; ++s)
    for (int d = 0; d < n; ++d)
      if (d != s) flows.push_back({s, d, 1});
  return flows;
}

std::vector<TdmFlow> tdm_demand_flows(const Topology& topology, const std::string& collective) {
  const Collective& c = find_collective(collective);
  if (!c.packets) throw InputError(fmt::format("{} is no demand of packets the TDM routers carry", c.name));
  std::map<std::pair<int, int>, int> phits;
  for (const DemandPacket& d : c.packets(topology, 1)) {
    if (d.dest == kBroadcastDest)
      throw InputError(fmt::format("{} broadcasts; the TDM routers carry unicast flows", c.name));
    ++phits[{d.origin, d.dest}];
  }
  std::vector<TdmFlow> flows;
  flows.reserve(phits.size());
  for (const auto& [pair, count] : phits) flows.push_back({pair.first, pair.second, count});
  return flows;
}

Bounds tdm_period_bounds(const Topology& topology, const std::vector<TdmFlow>& flows) {
  // A run asks twice (its scheduler, then its report): the last answer is kept, the linear
  // program being the dear part.
  // Keyed by the links themselves: a graph file rewritten under one name is another network.
  std::vector<int> links;
  links.reserve(static_cast<size_t>(topology.num_nodes()) * static_cast<size_t>(topology.num_ports()));
  for (int v = 0; v < topology.num_nodes(); ++v)
    for (int p = 0; p < topology.num_ports(); ++p) links.push_back(topology.neighbour(v, p));
  static std::mutex kept_mutex;
  static std::vector<int> kept_links;
  static std::vector<TdmFlow> kept_flows;
  static Bounds kept;
  {
    const std::lock_guard<std::mutex> lock(kept_mutex);
    if (kept_links == links && kept_flows == flows && !kept.parts.empty()) return kept;
  }
  Bounds b = compute_bounds(topology, flows);
  const std::lock_guard<std::mutex> lock(kept_mutex);
  kept_links = std::move(links);
  kept_flows = flows;
  kept = b;
  return b;
}

namespace {

Bounds compute_bounds(const Topology& topology, const std::vector<TdmFlow>& flows) {
  Bounds b;
  const int n = topology.num_nodes();
  std::vector<int64_t> out(static_cast<size_t>(n), 0), in(static_cast<size_t>(n), 0);
  std::vector<std::vector<const TdmFlow*>> by_source(static_cast<size_t>(n));
  for (const TdmFlow& f : flows) {
    out[static_cast<size_t>(f.src)] += f.phits;
    in[static_cast<size_t>(f.dst)] += f.phits;
    by_source[static_cast<size_t>(f.src)].push_back(&f);
  }
  const auto busiest_out = std::max_element(out.begin(), out.end()), busiest_in = std::max_element(in.begin(), in.end());
  if (busiest_out != out.end()) {
    b.parts.push_back({"injection", *busiest_out,
                       fmt::format("node {} injects {} phit(s) a period, one a slot", busiest_out - out.begin(), *busiest_out)});
    b.parts.push_back({"ejection", *busiest_in,
                       fmt::format("node {} ejects {} phit(s) a period, one a slot", busiest_in - in.begin(), *busiest_in)});
  }
  // Link load: every phit crosses at least its distance of directed links.
  int64_t hops = 0;
  for (int s = 0; s < n; ++s) {
    if (by_source[static_cast<size_t>(s)].empty()) continue;
    const std::vector<int> d = topology.distances_from(s);
    for (const TdmFlow* f : by_source[static_cast<size_t>(s)]) hops += int64_t{d[static_cast<size_t>(f->dst)]} * f->phits;
  }
  const int64_t arcs = topology.num_arcs();
  b.parts.push_back({"link load", ceil_div(hops, arcs),
                     fmt::format("{} phit-hops a period on shortest paths over {} directed links", hops, arcs)});
  // The busiest link however the flows split among their shortest paths: listed where it
  // says more than the average. Not solved where it cannot: total exchange on a network
  // whose symmetries take any directed link to any other (rings, square tori, hypercubes,
  // complete graphs) -- averaging an optimal split over them loads every link alike -- nor
  // on meshes, where the dimension-ordered split loads no link above the bisection bound
  // (docs/tdm.md, "tdm-dimension-order"), so the optimum cannot say more than the cut.
  const bool uniform_demand = flows.size() == static_cast<size_t>(n) * static_cast<size_t>(n - 1) &&
                              std::all_of(flows.begin(), flows.end(), [&](const TdmFlow& f) { return f.phits == flows[0].phits; });
  if (!(uniform_demand && (arc_transitive(topology) || topology.kind() == TopologyKind::Mesh)))
    if (std::optional<LowerBound> lp = shortest_path_link_load_lp(topology, flows); lp && lp->steps > ceil_div(hops, arcs))
      b.parts.push_back(*lp);
  // Shortest paths and a period equal to every node's injections and ejections (each node
  // then injects and ejects in every slot): the ejection slots' residues and the injection
  // slots' are both every residue once per node, so the phits' hops + 1 must sum to a
  // multiple of the period; where they do not, the period is one more at least. A bound
  // on the schedules that route on shortest paths -- every TDM scheduler here does.
  int64_t phits = 0;
  for (const TdmFlow& f : flows) phits += f.phits;
  if (busiest_out != out.end()) {
    const int64_t b_io = *busiest_out;
    const bool saturated = b_io > 0 && std::all_of(out.begin(), out.end(), [&](int64_t v) { return v == b_io; }) &&
                           std::all_of(in.begin(), in.end(), [&](int64_t v) { return v == b_io; });
    if (saturated && ceil_div(hops, arcs) <= b_io && (hops + phits) % b_io != 0)
      b.parts.push_back({"shortest-path residue", b_io + 1,
                         fmt::format("a period of {} fills every injection and ejection slot, which needs the {} "
                                     "phits' hops + 1 ({}) to be a multiple of it (shortest paths)",
                                     b_io, phits, hops + phits)});
  }
  // Bisection: for total exchange, |A||B| phits each way across the cut's links.
  const Cut cut = topology.bisection_cut();
  if (flows.size() == static_cast<size_t>(n) * static_cast<size_t>(n - 1) && cut.links > 0 &&
      std::all_of(flows.begin(), flows.end(), [](const TdmFlow& f) { return f.phits == 1; })) {
    const int64_t crossings = cut.side_a * cut.side_b;
    b.parts.push_back({"bisection", ceil_div(crossings, cut.links),
                       fmt::format("{} phits each way across a cut of {} link(s)", crossings, cut.links)});
  }
  return b;
}

}  // namespace

}  // namespace fixroute
