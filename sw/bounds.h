// Lower bounds on step counts (DESIGN.md: bisection and diameter for total exchange,
// the per-node bound for 1-port). One function per collective.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "port_model.h"

namespace fixroute {

class Topology;

struct LowerBound {
  std::string name;  // "bisection", "diameter", ...
  int64_t steps = 0;
  std::string reason;
};

struct Bounds {
  std::vector<LowerBound> parts;
  int64_t best() const;  // the largest, i.e. the tightest
};

Bounds total_exchange_bounds(const Topology& topology, const PortModel& model);

}  // namespace fixroute
