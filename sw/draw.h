// `fixroute draw`: an SVG picture of the fixed port rules of a 2D torus's tables, each
// closed trail of the rules (a Hamiltonian cycle for hamiltonian-2) in its own colour,
// as the gossip paper's Figure 1 draws them.
#pragma once
#include <string>

#include "tables.h"

namespace fixroute {

class Topology;

// The SVG document. Throws InputError for topologies other than a 2D torus.
std::string draw_port_rules(const Topology& torus, const NetworkTables& tables, const std::string& title);

}  // namespace fixroute
