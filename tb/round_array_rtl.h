// What the rtl engine's runs of routers that take one round per clock share (combining and
// broadcast-tree router arrays): picking the smallest verilated build that holds a
// network, loading every table through its configuration port and checking it, then one
// clock per round handed to the kind's clock monitor until it says the run is over.
#pragma once
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rtl_driver.h"
#include "sw/core/errors.h"
#include "sw/core/router_kind.h"
#include "sw/topology/topology.h"

namespace fixroute {

// One verilated build of a router: its ports, the origins it holds, its table rows.
template <class Driver>
struct RoundRouterBuild {
  int ports, origins, rows;
  std::function<std::unique_ptr<Driver>(const Topology&)> make_array;
  std::string text() const { return fmt::format("P={}, ORIGINS={}, ROWS={}", ports, origins, rows); }
};

// The smallest build with the topology's ports and nodes and `rows` rows (0: any);
// nullptr where none is.
template <class Driver>
const RoundRouterBuild<Driver>* smallest_round_build(const std::vector<RoundRouterBuild<Driver>>& builds,
                                                     const Topology& topology, int rows) {
  const RoundRouterBuild<Driver>* best = nullptr;
  for (const auto& b : builds)
    if (b.ports >= topology.num_ports() && b.origins >= topology.num_nodes() && b.rows >= rows &&
        (!best || int64_t{b.origins} * b.ports * b.rows < int64_t{best->origins} * best->ports * best->rows))
      best = &b;
  return best;
}

// Runs `images` on the smallest build of `router` ("fr_tree_router") that holds the network
// and `rounds` rows (InputError naming the builds where none does).
template <class Monitor, class Run, class Driver>
Run run_round_array(const std::vector<RoundRouterBuild<Driver>>& builds, const char* router, const Topology& topology,
                    int rounds, const std::vector<std::vector<uint32_t>>& images, const EngineOptions& options) {
  const RoundRouterBuild<Driver>* build = smallest_round_build(builds, topology, rounds);
  if (!build) {
    std::vector<std::string> built;
    for (const auto& b : builds) built.push_back(b.text());
    throw InputError(fmt::format("no verilated {} holds {} with {} rows ({} ports, {} nodes); built: {}", router,
                                 topology.spec(), rounds, topology.num_ports(), topology.num_nodes(), fmt::join(built, "; ")));
  }
  std::unique_ptr<Driver> rtl = build->make_array(topology);
  if (!options.vcd_path.empty()) rtl->open_vcd(options.vcd_path);
  Run run;
  run.hardware = fmt::format("{} array ({})", router, build->text());
  run.overhead_cycles = rtl_reset_and_load(*rtl, images);
  for (int i = 0; i < topology.num_nodes(); ++i)
    if (!rtl->table_ok(i)) {
      run.failure = fmt::format("router {} did not load its table: {}", i, rtl_table_error_name(rtl->table_error(i)));
      return run;
    }
  Monitor monitor(topology, rounds);
  while (!monitor.finished()) {
    rtl->tick();
    monitor.clock_edge(*rtl);
  }
  monitor.finish(run);
  return run;
}

}  // namespace fixroute
