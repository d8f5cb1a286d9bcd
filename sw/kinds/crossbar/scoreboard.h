// The circuit scoreboard: checks any engine's circuit trace (step, source, destination)
// against the demand the tables record (docs/timing-model.md: "no circuit shares a link"). The
// routers carry a message's source id; what a message holds is the nodes' business, and
// is modelled here, per collective, by one rule each (docs/circuit-switching.md):
//   permutation  messages move; a node sends the message it has held longest (its own
//                first); at the end every message is at its destination, delivered by a
//                circuit (a fixed point x -> x by a local one, through the crossbar).
//   broadcast    a node that holds the root's message since an earlier step sends a
//                copy; nobody receives it twice; at the end everybody holds it.
//   fan-in       a node sends everything it has combined so far and keeps nothing; at
//                the end the root holds every node's value exactly once.
//   prefix       a node sends the value it received last in the current phase (a relay)
//                or, having received none, its running combination; the receiver
//                combines what it gets and remembers it for relaying. At the end node i
//                holds the values of nodes 0..i exactly once each.
//   fft          per phase of sw/schedulers/circuit/fft.h, every node sends the point it held when
//                the phase began, once, to the phase's image of its node (a fixed point
//                by a local circuit).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sw/kinds/crossbar/engine.h"
#include "sw/kinds/port_rules/scoreboard.h"

namespace fixroute {

class Topology;
struct XbarTables;

// `steps` is the last routing step that delivered a message; `needed`/`deliveries`
// count messages (permutation), receptions (broadcast), values reaching the root (fan-in)
// or nodes with their prefix (prefix); `crossings` counts circuits.
ScoreboardReport score_circuits(const Topology& mesh, const XbarTables& tables, const std::vector<CircuitEvent>& trace);

}  // namespace fixroute
