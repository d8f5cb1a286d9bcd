// `fixroute draw mesh:RxC <circuit collective>`: one SVG panel per routing step, each
// with the circuits that step's crossbar settings set up, drawn along their row-column
// paths on the mesh (the circuit-switched mesh paper's Figure 1).
#pragma once
#include <string>

namespace fixroute {

class Topology;
struct XbarTables;

// The SVG document. Circuits are traced through the tables from each router whose local
// input is connected, so the picture shows what the routers are programmed to do.
std::string draw_circuit_steps(const Topology& mesh, const XbarTables& tables, const std::string& title);

}  // namespace fixroute
