// The combining scoreboard: checks any engine's combining trace (step, node, port, to,
// carried) against the tables, the port model and the rule of combining (the all-to-all
// broadcast paper, "SF switching with packet combining"; docs/combining.md):
//   - every router sends, in each round up to the last one traced, on exactly the ports
//     its table's row names, each packet to the neighbour across that port;
//   - a packet carries the sender's whole set as it stood when the round began: the
//     scoreboard keeps every node's set itself and compares the counts;
//   - 1-port: a node sends at most one packet and receives at most one per round;
//     half-duplex: a link carries packets one way per round;
//   - at the end every node holds every origin.
// `steps` is the last round in which some node learnt an origin; `needed` counts the
// N(N-1) (node, origin) pairs to learn, `deliveries` those learnt; `crossings` the rows.
#pragma once
#include <vector>

#include "sw/core/router_kind.h"
#include "sw/engines/combining_engine.h"

namespace fixroute {

class Topology;
struct CombiningTables;

ScoreboardReport score_combining(const Topology& topology, const CombiningTables& tables,
                                 const std::vector<CombiningEvent>& trace);

}  // namespace fixroute
