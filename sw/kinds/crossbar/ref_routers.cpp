#include <fmt/format.h>

#include <algorithm>
#include "sw/core/errors.h"
#include "sw/core/faults.h"
#include "sw/kinds/crossbar/tables.h"
#include "sw/topology/topology.h"
#include "sw/kinds/crossbar/engine.h"

namespace fixroute {

std::string xbar_fault_text(XbarFault kind, int64_t step, int node, int port, int a, int b) {
  if (kind == XbarFault::Conflict)
    return fmt::format("step {}: router {}: inputs {} and {} both claim output {} (link conflict)", step, node, a, b, port);
  return fmt::format("step {}: router {}: a message arrived on input {}, which is not connected", step, node, port);
}

namespace {

// Per packed setting (XbarStepSettings): the lowest output two inputs claim and its two
// lowest claimants, as fr_xbar_router reports it; -1 where every output is claimed once.
struct Claimed {
  int8_t out = -1, a = 0, b = 0;
};
const std::vector<Claimed>& double_claims() {
  static const std::vector<Claimed> table = [] {
    std::vector<Claimed> t(size_t{1} << (3 * kCrossbarPorts));
    for (size_t packed = 0; packed < t.size(); ++packed)
      for (int out = 0; out < kCrossbarPorts && t[packed].out < 0; ++out) {
        std::vector<int> claimants;
        for (int in = 0; in < kCrossbarPorts; ++in)
          if (XbarStepSettings::output(static_cast<uint16_t>(packed), in) == out) claimants.push_back(in);
        if (claimants.size() >= 2)
          t[packed] = {static_cast<int8_t>(out), static_cast<int8_t>(claimants[0]), static_cast<int8_t>(claimants[1])};
      }
    return t;
  }();
  return table;
}

}  // namespace

void check_xbar_faults(const EngineOptions& options) {
  refuse_flips(options.faults, "crossbar routers", "their tables connect crossbar inputs to outputs per routing step");
}

XbarRun run_xbar_ref(const Topology& mesh, const XbarTables& tables, const EngineOptions& options) {
  check_xbar_faults(options);
  FaultInjector* faults = options.faults && options.faults->any() ? options.faults : nullptr;
  XbarRun run;
  const int nodes = mesh.num_nodes();
  // Like the hardware, each router reports its first fault only.
  std::vector<bool> faulted(static_cast<size_t>(nodes), false);
  auto fault = [&](int node, std::string text) {
    if (!faulted[static_cast<size_t>(node)]) run.faults.push_back(std::move(text));
    faulted[static_cast<size_t>(node)] = true;
  };
  const std::vector<Claimed>& claims = double_claims();
  const int rows = mesh.dims()[0], cols = mesh.dims()[1];
  static constexpr int kRowStep[8] = {1, -1, 0, 0, 0, 0, 0, 0}, kColStep[8] = {0, 0, 1, -1, 0, 0, 0, 0};
  XbarStepSettings settings(mesh, tables);
  struct Walk {  // a message on its way: where it is, the input it entered by
    int source, in, row, col, hops;
  };
  struct Stray {  // a message arriving on an input that is not connected
    int source, node, in;
    bool operator<(const Stray& o) const { return source < o.source; }
  };
  constexpr size_t kLanes = 16;
  std::vector<Walk> walks(kLanes);
  std::vector<Stray> strays;
  for (int s = 0; s < tables.steps(); ++s) {
    const int64_t step = s + 1;
    settings.load(s + 1);
    for (uint32_t at : settings.connected())  // claims: every output at most once; idle routers claim none
      if (const Claimed& c = claims[settings.packed_at(at)]; c.out >= 0) {
        const int n = settings.node_at(at);
        fault(n, xbar_fault_text(XbarFault::Conflict, step, n, c.out, c.a, c.b));
      }
    // Each circuit's message followed through the crossbars, kLanes messages at a time in
    // turn: a hop's setting is a load that depends on the hop before, so walking one
    // message waits on every cache miss of its column; several walks overlap them.
    const std::vector<int>& sources = settings.sources();
    size_t next_source = 0;
    int active = 0;
    strays.clear();
    auto start = [&](Walk& w) {
      while (next_source < sources.size()) {
        const int source = sources[next_source++];
        if (faults && faults->stuck(source, step)) continue;  // a stuck router injects nothing
        w = {source, kLocalPort, source / cols, source % cols, 0};
        return true;
      }
      return false;
    };
    for (Walk& w : walks)
      if (start(w)) ++active;
    while (active > 0) {
      for (int lane = 0; lane < active;) {
        Walk& w = walks[static_cast<size_t>(lane)];
        const int out = XbarStepSettings::output(settings.packed_at(settings.slot(w.row, w.col)), w.in);
        bool done = false;
        if (out == kNoPort) {
          if (w.in != kLocalPort) strays.push_back({w.source, w.row * cols + w.col, w.in});
          done = true;
        } else if (out == kLocalPort) {
          run.trace.push_back({step, w.source, w.row * cols + w.col});
          done = true;
        } else {
          // The mesh's wiring (topology.h): port 0 S, 1 N, 2 E, 3 W; the neighbour's
          // facing port is the opposite one. Settings off the mesh are refused when
          // tables load; a looped setting ends at the hop bound.
          w.row += kRowStep[out];
          w.col += kColStep[out];
          done = out > kLocalPort || w.row < 0 || w.row >= rows || w.col < 0 || w.col >= cols || ++w.hops > nodes;
          w.in = out ^ 1;
          // what a fault takes leaves the sender and reaches nothing (a stuck receiver included)
          if (faults && !done) {
            const int to = w.row * cols + w.col;
            done = !faults->arrives_message(step, to - kRowStep[out] * cols - kColStep[out], to, w.source);
          }
        }
        if (!done) {
          ++lane;
        } else if (!start(w)) {
          w = walks[static_cast<size_t>(--active)];  // the last active walk takes this lane
        } else {
          ++lane;
        }
      }
    }
    // A router reports its first fault: strays in the order of their circuits' sources.
    std::sort(strays.begin(), strays.end());
    for (const Stray& x : strays) fault(x.node, xbar_fault_text(XbarFault::Stray, step, x.node, x.in));
  }
  run.steps_simulated = tables.steps();
  std::sort(run.trace.begin(), run.trace.end());
  std::sort(run.faults.begin(), run.faults.end());
  return run;
}

}  // namespace fixroute
