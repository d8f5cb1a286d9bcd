// The scoreboard of the summing routers (combining-sum tables; docs/swapped-networks.md,
// "The scoreboard"): every packet sent where and when the router's program says, carrying
// the sum its program names of what the router held as the round began (the scoreboard
// keeps every router's registers itself, from the trace); nothing the program names left
// unsent; and every router's answer -- as the routers reported it and as the trace implies --
// equal to a direct computation from the input values: the root's value (broadcast), the
// sum of nodes 0..i (prefix), the sum of all (data-sum).
#pragma once
#include <cstdint>
#include <vector>

#include "sw/core/router_kind.h"
#include "sw/kinds/combining_sum/engine.h"

namespace fixroute {

class Topology;
struct CombiningSumTables;

ScoreboardReport score_combining_sum(const Topology& topology, const CombiningSumTables& tables,
                                     const std::vector<SumEvent>& trace, const std::vector<uint64_t>& answers);

// What node i must end with for `tables`' collective, from the input values alone.
std::vector<uint64_t> expected_sum_answers(const CombiningSumTables& tables);

// Lower bounds (docs/swapped-networks.md): broadcast the root's eccentricity; data sum the
// diameter; prefix sum the eccentricities of node 0 (every answer needs its value) and of
// the last node (its answer needs every value).
Bounds combining_sum_bounds(const CombiningSumTables& tables, const Topology& topology);

}  // namespace fixroute
