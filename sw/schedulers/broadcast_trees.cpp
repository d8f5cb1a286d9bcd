#include "broadcast_trees.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "sw/core/formulas.h"
#include "sw/topology/topology.h"

namespace fixroute {

int generic_tree_height(const std::vector<GenericArc>& arcs) {
  int h = 0;
  for (const GenericArc& a : arcs) h = std::max(h, a.level);
  return h;
}

std::string generic_tree_defect(const Topology& topology, const std::vector<GenericArc>& arcs) {
  const int nodes = topology.num_nodes();
  std::vector<int> informed(static_cast<size_t>(nodes), -1);
  informed[0] = 0;
  for (const GenericArc& a : arcs) {
    if (a.to <= 0 || a.to >= nodes || a.from < 0 || a.from >= nodes || a.port < 0 || a.port >= topology.num_ports() ||
        topology.neighbour(a.from, a.port) != a.to || a.level < 1)
      return fmt::format("arc {} -> {} (round {}, port {}) is not an arc of {}", a.from, a.to, a.level, a.port, topology.spec());
    if (informed[static_cast<size_t>(a.to)] >= 0) return fmt::format("node {} is entered twice", a.to);
    informed[static_cast<size_t>(a.to)] = a.level;
  }
  for (int v = 1; v < nodes; ++v)
    if (informed[static_cast<size_t>(v)] < 0) return fmt::format("node {} is not in the tree", v);
  std::vector<std::vector<int>> ports_of_level(static_cast<size_t>(generic_tree_height(arcs)) + 1);
  for (const GenericArc& a : arcs) {
    if (informed[static_cast<size_t>(a.from)] >= a.level)
      return fmt::format("arc {} -> {} in round {} leaves a node informed only in round {}", a.from, a.to, a.level,
                         informed[static_cast<size_t>(a.from)]);
    std::vector<int>& used = ports_of_level[static_cast<size_t>(a.level)];
    if (std::find(used.begin(), used.end(), a.port) != used.end())
      return fmt::format("round {} has two arcs of direction {} (the lemma wants distinct directions)", a.level,
                         topology.port_name(a.port));
    used.push_back(a.port);
  }
  return "";
}

int generic_tree_buffers(const std::vector<GenericArc>& arcs, int nodes) {
  std::vector<int> arrival(static_cast<size_t>(nodes), 0), last_send(static_cast<size_t>(nodes), 0);
  for (const GenericArc& a : arcs) {
    arrival[static_cast<size_t>(a.to)] = a.level;
    last_send[static_cast<size_t>(a.from)] = std::max(last_send[static_cast<size_t>(a.from)], a.level);
  }
  std::vector<int> waiting(static_cast<size_t>(generic_tree_height(arcs)) + 2, 0);
  for (int v = 1; v < nodes; ++v)
    if (last_send[static_cast<size_t>(v)] > arrival[static_cast<size_t>(v)] + 1) {
      ++waiting[static_cast<size_t>(arrival[static_cast<size_t>(v)] + 1)];
      --waiting[static_cast<size_t>(last_send[static_cast<size_t>(v)])];
    }
  int most = 0, now = 0;
  for (int w : waiting) most = std::max(most, now += w);
  return most;
}

Algorithm broadcast_tree_algorithm(const std::string& name, const std::string& summary) {
  Algorithm a;
  a.name = name;
  a.collective = "gossip";
  a.router_kind = kBroadcastTreeKind;
  a.summary = summary;
  return a;
}

std::optional<int64_t> mesh_gossip_paper_rounds(const Problem& p) {
  if (p.topology.kind() != TopologyKind::Mesh || p.topology.dims().size() != 2 || p.port_model.half_duplex ||
      p.port_model.one_port)
    return std::nullopt;
  return formulas::tadbt_rounds(p.topology.num_nodes(), 2);
}

std::optional<int64_t> promised_tree_buffers(const Problem& p) {
  if (p.topology.kind() != TopologyKind::Torus) return std::nullopt;
  if (p.topology.dims().size() == 2) return 3;
  if (p.topology.dims().size() == 3) return 60;
  return std::nullopt;
}

std::string all_port_full_refusal(const PortModel& model) {
  if (model.one_port || model.half_duplex) return fmt::format("its trees are for all-port full-duplex routers, not {}", model.label());
  return "";
}

std::shared_ptr<const Tables> generic_tree_tables(const Problem& problem, const std::string& algorithm,
                                                  const std::string& construction, std::vector<GenericArc> arcs) {
  const std::string defect = generic_tree_defect(problem.topology, arcs);
  if (!defect.empty())
    throw std::logic_error(fmt::format("{} built a bad generic tree on {}: {}", algorithm, problem.topology.spec(), defect));
  BroadcastTreeTables t = empty_broadcast_tree_tables(problem.topology, std::max(1, generic_tree_height(arcs)));
  t.construction = construction;
  fill_from_generic(t, problem.topology, std::move(arcs));
  return finish_broadcast_tree_tables(std::move(t), problem, algorithm);
}

std::shared_ptr<const Tables> finish_broadcast_tree_tables(BroadcastTreeTables tables, const Problem& problem,
                                                           const std::string& algorithm) {
  tables.algorithm = algorithm;
  tables.port_model = problem.port_model;
  validate_broadcast_trees(tables, problem.topology, fmt::format("the {} tables", algorithm));
  return std::make_shared<BroadcastTreeTables>(std::move(tables));
}

}  // namespace fixroute
