// The broadcast-tree scoreboard: checks any engine's broadcast-tree trace (step, node, port,
// to, origin) against the tables, the port model and the collective (all-to-all broadcast
// without combining; the all-to-all broadcast paper, "All-port full-duplex model";
// docs/broadcast-trees.md):
//   - in every round of the tables, each router sends on a port exactly when its row names
//     an origin the router held when the round began, that origin, to the neighbour across
//     the port (a row naming a packet the router does not hold is the tables' error);
//   - 1-port: a node sends at most one packet and receives at most one per round;
//     half-duplex: a link carries packets one way per round;
//   - at the end every node holds every origin.
// The arc a packet uses in a round is the row's port, one origin per port per round: the N
// broadcast trees are time-arc-disjoint by the table's shape, and the scoreboard's
// conformance check is what makes the trace show it.
// `steps` is the last round in which some node received an origin it lacked; `buffers` the
// most packets one router held at once that had arrived before the previous round and were
// still to be sent (the paper's auxiliary buffers; a router's own packet not counted).
#pragma once
#include <cstdint>
#include <vector>

#include "sw/core/router_kind.h"
#include "sw/kinds/broadcast_trees/engine.h"

namespace fixroute {

class Topology;
struct BroadcastTreeTables;

// Bytes it holds: the round each node received, and last sent, each origin.
int64_t broadcast_tree_scoreboard_bytes(int64_t nodes);

ScoreboardReport score_broadcast_trees(const Topology& topology, const BroadcastTreeTables& tables,
                                       const std::vector<TreeEvent>& trace);

}  // namespace fixroute
