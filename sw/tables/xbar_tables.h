// Crossbar tables: the per-step program of each circuit-switched router (docs/table-format.md,
// "Crossbar tables"). For every routing step, each of the five crossbar inputs (S, N, E, W,
// local) is connected to one output or to none; a step's settings come from the circuits
// that pass the router. Tables grow with the number of routing steps: they are the
// time-dependent counterpart of the port-rule tables.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "port_rule_tables.h"
#include "circuit.h"

namespace fixroute {

class Topology;

constexpr int kXbarTableVersion = 1;  // of the memory images (network.json: kManifestVersion)
constexpr const char* kCrossbarKind = "crossbar";
constexpr int kMaxXbarSteps = 4096;

using XbarSetting = std::array<int, kCrossbarPorts>;  // per input: its output, or kNoPort

struct XbarRouterTable {
  int node = 0;
  std::vector<XbarSetting> settings;  // settings[t - 1]: routing step t
  bool operator==(const XbarRouterTable& o) const { return node == o.node && settings == o.settings; }
};

// The crossbar router kind's tables (core/router_kind.h; registered in sw/kinds/).
struct XbarTables : Tables {
  const char* kind() const override { return kCrossbarKind; }
  int step_cycles = 0;              // clock cycles of one routing step
  std::vector<int> phase_starts;    // routing steps where a phase begins (from 1)
  std::vector<int> permutation;     // the demand: permutation's destinations, or empty
  std::vector<XbarRouterTable> routers;
  int steps() const { return routers.empty() ? 0 : static_cast<int>(routers.front().settings.size()); }
};

// Clock cycles per routing step of the crossbar routers (docs/circuit-switching.md): a
// circuit's message enters at the step's first cycle and moves one router per cycle, so
// the longest row-column path, (R-1) + (C-1) links through R+C-1 routers, delivers in
// the step's last cycle when a step lasts R + C cycles.
int xbar_step_cycles(const Topology& mesh);

// The settings that set up `schedule`'s circuits; throws std::logic_error when two of
// them need one crossbar input differently (a conflicting schedule).
XbarTables make_xbar_tables(const Topology& mesh, const CircuitSchedule& schedule);

// Refuses (InputError) settings a router cannot carry out: ports out of range, links off
// the mesh, U-turns, differing step counts. Two inputs claiming one output are accepted
// here: the routers detect and report that at run time.
void validate_xbar(const XbarTables& tables, const Topology& mesh, const std::string& what);

std::vector<uint32_t> encode_xbar_image(const XbarTables& tables, const XbarRouterTable& router);
XbarRouterTable decode_xbar_image(const std::vector<uint32_t>& words, int expected_node, const std::string& what);
// Bits of one router's memory image.
int64_t xbar_table_bits(const XbarTables& tables);

void write_xbar_tables(const XbarTables& tables, const std::string& dir, TableForm form = TableForm::Files);
XbarTables load_xbar_tables(const std::string& dir);  // validates everything, or throws

}  // namespace fixroute
