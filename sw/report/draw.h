// `fixroute draw`: an SVG picture of the fixed port rules of a torus's tables, each
// closed trail of the rules (a Hamiltonian cycle for hamiltonian-2) in its own colour and
// each tap as an arrow into the node it feeds, as the gossip paper's Figure 1 draws them.
// 3D and 4D tori are drawn as panels of their last two dimensions (its Figure 2).
#pragma once
#include <string>

#include "sw/kinds/port_rules/tables.h"

namespace fixroute {

class Topology;
struct Problem;
struct Tables;

// The SVG document. Throws InputError for topologies other than a torus of 2 to 4
// dimensions.
std::string draw_port_rules(const Topology& torus, const NetworkTables& tables, const std::string& title);

// What `fixroute draw` writes for an algorithm's tables: one panel per routing step for
// crossbar tables (draw_steps.h), the generic tree of broadcast-tree tables (draw_trees.h),
// the port rules of a torus otherwise; titled with the case.
// Throws InputError where the tables are of neither kind or the topology is not drawable.
std::string draw_tables(const Problem& problem, const std::string& algorithm, const Tables& tables);

}  // namespace fixroute
