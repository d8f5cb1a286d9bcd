// Broadcast by recursive halving on a rectangle of the mesh (circuit-switched mesh paper,
// section 5.1), shared by broadcast, fan-in (its mirror image) and prefix (a broadcast
// per level).
#pragma once
#include <vector>

#include "sw/kinds/crossbar/circuit.h"

namespace fixroute {

class Topology;

struct Rectangle {
  int row0 = 0, rows = 1, col0 = 0, cols = 1;
};

// Adds to steps[first], steps[first + 1], ... the circuits that broadcast from `holder`
// over `area`: along the holder's row, then down every column at once. On a line of n
// nodes the holder sends to the far end of the other half, then both halves recurse:
// ceil(log2 n) steps. Returns the steps used: ceil(log2 cols) + ceil(log2 rows).
int broadcast_by_halving(const Topology& mesh, int holder, const Rectangle& area, size_t first,
                         std::vector<std::vector<Circuit>>& steps);

}  // namespace fixroute
