// The cases the RTL and co-simulation suites run: every registered algorithm on every
// curated size it runs on, plus, on lines and rings, the given time-sliced port models.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "sw/schedulers/port_rules.h"
#include "sw/core/errors.h"
#include "sw/topology/topology.h"
#include "tb/port_rules/rtl_driver.h"
#include "test_support.h"

namespace fixroute::testing_support {

struct VerilatedCase {
  std::string topology, collective, algorithm;
  PortModel model;
};

inline void PrintTo(const VerilatedCase& c, std::ostream* os) {
  *os << c.topology << " " << c.collective << " " << c.algorithm << " " << c.model.label();
}

inline std::vector<VerilatedCase> verilated_cases(const std::vector<PortModel>& sliced_models) {
  std::vector<VerilatedCase> out;
  for (const std::string& spec : rtl_curated_sizes()) {
    Topology topo = Topology::parse(spec);
    const bool sliceable = topo.kind() == TopologyKind::Line || topo.kind() == TopologyKind::Ring;
    for (const Algorithm& a : algorithm_registry()) {
      if (a.router_kind != kPortRulesKind || !a.unsupported(Problem{topo, a.collective, {}, "", 0}).empty()) continue;
      try {  // the shape fits; whether the construction finishes is found by building it
        build_tables(a, topo, {});
      } catch (const InputError&) {
        continue;
      }
      out.push_back({spec, a.collective, a.name, {}});
      if (sliceable)
        for (const PortModel& pm : sliced_models) out.push_back({spec, a.collective, a.name, pm});
    }
  }
  return out;
}

inline std::string verilated_case_name(const ::testing::TestParamInfo<VerilatedCase>& info) {
  return test_name(info.param.topology + "_" + info.param.algorithm + "_" + info.param.model.label());
}

}  // namespace fixroute::testing_support
