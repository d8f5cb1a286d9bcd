// `fixroute draw` of broadcast-tree tables (the all-to-all broadcast paper, second half):
// the generic tree B(*) every router's rows translate, rooted at node 0 -- on a 2D torus
// as arcs on the grid coloured by round (its Figure "Two different TADBTs in T(7,7)"), on a
// hypercube as the table of rounds by directions with the node each arc enters (its
// necklace table of Q_6).
#pragma once
#include <string>

namespace fixroute {

class Topology;
struct BroadcastTreeTables;

// The SVG document. Throws InputError where the tables have no generic tree or the
// topology is neither a 2D torus nor a hypercube.
std::string draw_generic_tree(const Topology& topology, const BroadcastTreeTables& tables, const std::string& title);

}  // namespace fixroute
