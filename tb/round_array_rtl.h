// What the rtl engine's runs of routers that take one round per clock share (combining and
// broadcast-tree router arrays): picking the smallest verilated build that holds a
// network, loading every table through its configuration port and checking it, then one
// clock per round handed to the kind's clock monitor until it says the run is over.
#pragma once
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "router_array.h"
#include "tb/rtl_config_port.h"
#include "sw/core/errors.h"
#include "sw/core/faults.h"
#include "sw/core/router_kind.h"
#include "sw/topology/topology.h"

namespace fixroute {

// An array of routers that run once every router's table is loaded: the network's one AND
// gate drives every router's `start`.
// Injected faults (docs/faults.md) are the wiring's: a kind's array cuts what a fault takes.
template <class Model, class Driver>
class RoundRouterArray : public RouterArray<Model, Driver> {
 public:
  RoundRouterArray(const Topology& topology, unsigned link_bits)
      : RouterArray<Model, Driver>(topology, link_bits), ports_(topology.num_ports()) {
    for (int i = 0; i < topology.num_nodes(); ++i)
      for (int q = 0; q < ports_; ++q) neighbour_.push_back(topology.neighbour(i, q));
  }

 protected:
  // The faults the wiring applies from the next clock on (none: nullptr).
  void set_faults(FaultInjector* faults) { faults_ = faults && faults->any() ? faults : nullptr; }
  void global_inputs() override {
    bool all = true;
    for (const auto& r : this->routers_) all = all && r->table_ok;
    for (auto& r : this->routers_) r->start = all;
  }
  int neighbour(int node, int port) const { return neighbour_[static_cast<size_t>(node * ports_ + port)]; }
  // Whether what `node` sends on `port` (its `round`-th round) reaches the neighbour: no fault takes it.
  bool reaches(int node, int port, int64_t round) const {
    return !faults_ || !faults_->loses(round, node, neighbour(node, port));
  }
  // What arrives of `node`'s port: a packet on it that no fault takes.
  bool arrives_from(int node, int port) const {
    const Model& r = this->router(node);
    return bits(r.out_valid, static_cast<unsigned>(port), 1) && reaches(node, port, static_cast<int64_t>(r.round));
  }
  // For kinds whose clock monitor records every round as sent (broadcast trees, sums): each
  // packet on a link, told to `record(router, node, port, to)`, which asks the injector (a
  // loss is then recorded as its packet is sent); the receiver's input is cut at the next edge.
  template <class Record>
  void record_sent(Record&& record) const {
    if (!faults_) return;
    const int nodes = static_cast<int>(this->routers_.size());
    for (int i = 0; i < nodes; ++i) {
      const Model& r = this->router(i);
      for (int q = 0; q < ports_; ++q)
        if (const int to = neighbour(i, q); to >= 0 && bits(r.out_valid, static_cast<unsigned>(q), 1)) record(r, i, q, to);
    }
  }
  // The sender's packet reaches its neighbour unless a fault takes it (kinds that record a
  // loss as it is sent: record_sent).
  bool arrives(const Model& sender, int from, unsigned port, int) override {
    return reaches(from, static_cast<int>(port), static_cast<int64_t>(sender.round));
  }

  const int ports_;
  FaultInjector* faults_ = nullptr;

 private:
  std::vector<int> neighbour_;  // per (node, port)
};

// One verilated build of a router: the most ports, nodes, table rows and registers (0: a
// kind without registers) it serves, and its Verilog parameters as text.
template <class Driver>
struct RoundRouterBuild {
  int ports, nodes, rows, registers;
  std::string parameters;
  std::function<std::unique_ptr<Driver>(const Topology&)> make_array;
};

// The smallest build with the topology's ports and nodes, `rows` rows and `registers`
// registers (0: any); nullptr where none is.
template <class Driver>
const RoundRouterBuild<Driver>* smallest_round_build(const std::vector<RoundRouterBuild<Driver>>& builds,
                                                     const Topology& topology, int rows, int registers = 0) {
  const RoundRouterBuild<Driver>* best = nullptr;
  auto cost = [](const RoundRouterBuild<Driver>& b) {
    return int64_t{b.nodes} * b.ports * b.rows * std::max(b.registers, 1);
  };
  for (const auto& b : builds)
    if (b.ports >= topology.num_ports() && b.nodes >= topology.num_nodes() && b.rows >= rows &&
        b.registers >= registers && (!best || cost(b) < cost(*best)))
      best = &b;
  return best;
}

// The array of the smallest build of `router` ("fr_tree_router") that holds the network,
// `rounds` rows and `registers` registers (InputError naming the builds where none does),
// its waveform opened where `vcd_path` names one, every image loaded through the
// configuration ports and checked. A router that refused its table: `run.failure` says
// which and why, and no array is returned. `run` also records the build and the load's cycles.
template <class Driver>
std::unique_ptr<Driver> load_round_array(const std::vector<RoundRouterBuild<Driver>>& builds, const char* router,
                                         const Topology& topology, int rounds,
                                         const std::vector<std::vector<uint32_t>>& images, const std::string& vcd_path,
                                         RunStats& run, int registers = 0, const WaveformLimits& limits = {}) {
  const RoundRouterBuild<Driver>* build = smallest_round_build(builds, topology, rounds, registers);
  if (!build) {
    std::vector<std::string> built;
    for (const auto& b : builds) built.push_back(b.parameters);
    const std::string regs = registers > 0 ? fmt::format(", {} registers", registers) : "";
    throw InputError(fmt::format("no verilated {} holds {} with {} rows{} ({} ports, {} nodes); built: {}", router,
                                 topology.spec(), rounds, regs, topology.num_ports(), topology.num_nodes(),
                                 fmt::join(built, "; ")));
  }
  std::unique_ptr<Driver> rtl = build->make_array(topology);
  if (!vcd_path.empty()) rtl->open_vcd(vcd_path, limits);
  run.hardware = fmt::format("{} array ({})", router, build->parameters);
  run.overhead_cycles = rtl_reset_and_load(*rtl, images);
  for (int i = 0; i < topology.num_nodes(); ++i)
    if (!rtl->table_ok(i)) {
      run.failure = fmt::format("router {} did not load its table: {}", i, rtl_table_error_name(rtl->table_error(i)));
      return nullptr;
    }
  return rtl;
}

// Runs `images` on the array load_round_array makes, one clock per round handed to the
// kind's Monitor until it says the run is over. `loaded` (where given) is told of the
// array once its tables are in, before the first round. EngineOptions::threads share each
// clock (RouterArray::set_threads).
template <class Monitor, class Run, class Driver>
Run run_round_array(const std::vector<RoundRouterBuild<Driver>>& builds, const char* router, const Topology& topology,
                    int rounds, const std::vector<std::vector<uint32_t>>& images, const EngineOptions& options,
                    int registers = 0, const std::function<void(Driver&)>& loaded = nullptr) {
  Run run;
  std::unique_ptr<Driver> rtl = load_round_array(builds, router, topology, rounds, images, options.vcd_path, run, registers,
                                                  options.waveform);
  if (!rtl) return run;
  if (loaded) loaded(*rtl);
  rtl->set_threads(array_threads(options));
  Monitor monitor = make_clock_monitor<Monitor>(topology, rounds, options);
  while (!monitor.finished()) {
    rtl->tick();
    monitor.clock_edge(*rtl);
  }
  monitor.finish(run);
  return run;
}

}  // namespace fixroute
