// `fixroute draw` of port-rule tables: an SVG picture of the fixed port rules of a torus's
// tables, each closed trail of the rules (a Hamiltonian cycle for hamiltonian-2) in its own
// colour and each tap as an arrow into the node it feeds, as the gossip paper's Figure 1
// draws them. 3D and 4D tori are drawn as panels of their last two dimensions (its Figure 2).
#pragma once
#include <string>

#include "sw/kinds/port_rules/tables.h"

namespace fixroute {

class Topology;

// The SVG document. Throws InputError for topologies other than a torus of 2 to 4
// dimensions.
std::string draw_port_rules(const Topology& torus, const NetworkTables& tables, const std::string& title);

}  // namespace fixroute
