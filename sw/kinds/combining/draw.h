// `fixroute draw TOPOLOGY gossip --combining`: the combining tables as one SVG panel per
// round of their period (the rows repeat), each send of that round an arrow from the node
// to the neighbour across the port its row names, coloured by port (docs/combining.md,
// "Drawings").
#pragma once
#include <string>

namespace fixroute {

class Topology;
struct CombiningTables;

// The SVG document, on lines, rings, 2D meshes and tori (nodes at their coordinates) and
// hypercubes (high bits down, low bits across); InputError on other topologies.
std::string draw_combining_rounds(const Topology& topology, const CombiningTables& tables, const std::string& title);

}  // namespace fixroute
