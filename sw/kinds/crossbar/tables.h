// Crossbar tables: the per-step program of each circuit-switched router (docs/table-format.md,
// "Crossbar tables"). For every routing step, each of the five crossbar inputs (S, N, E, W,
// local) is connected to one output or to none; a step's settings come from the circuits
// that pass the router. Tables grow with the number of routing steps: they are the
// time-dependent counterpart of the port-rule tables.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sw/kinds/port_rules/tables.h"
#include "sw/kinds/crossbar/circuit.h"

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
  // Every router's settings, stored router by router; empty where `circuits` stands for them.
  std::vector<XbarRouterTable> routers;
  // Large networks (make_xbar_tables): the circuits the settings set up, the same settings
  // expanded a routing step at a time (XbarStepSettings) instead of stored -- nodes x steps
  // settings would not fit (mesh:1024x1024 transpose: 2^30).
  std::shared_ptr<const CircuitSchedule> circuits;
  int steps() const {
    if (circuits) return static_cast<int>(circuits->steps.size());
    return routers.empty() ? 0 : static_cast<int>(routers.front().settings.size());
  }
};

// make_xbar_tables stores settings up to this many (routers x routing steps); beyond, it
// keeps the circuits and the engines expand each step's settings as they reach it.
constexpr int64_t kStoredXbarSettings = int64_t{1} << 22;

// Clock cycles per routing step of the crossbar routers (docs/circuit-switching.md): a
// circuit's message enters at the step's first cycle and moves one router per cycle, so
// the longest row-column path, (R-1) + (C-1) links through R+C-1 routers, delivers in
// the step's last cycle when a step lasts R + C cycles.
int xbar_step_cycles(const Topology& mesh);

// The settings that set up `schedule`'s circuits; throws std::logic_error when two of
// them need one crossbar input differently (a conflicting schedule). Stored when there are
// at most `stored_limit` of them, else kept as the circuits (XbarTables::circuits).
XbarTables make_xbar_tables(const Topology& mesh, const CircuitSchedule& schedule,
                            int64_t stored_limit = kStoredXbarSettings);
// `tables` with every router's settings stored: `tables` itself when it stores them, else
// `expanded`, filled from its circuits (the writers, the drawings and the hardware engines
// take stored settings).
const XbarTables& stored_xbar_tables(const Topology& mesh, const XbarTables& tables, XbarTables& expanded);

// One routing step's settings of every router, as an engine reads them: copied from the
// stored settings or expanded from the step's circuits. A setting is packed as 3 bits per
// input (input i's output at bits 3i..3i+2, kNoPort where not connected). Settings are
// laid out in bands of kBandRows rows, a column's routers side by side within a band, so a
// circuit's column run and its row run both stay within a few cache lines.
class XbarStepSettings {
 public:
  static constexpr uint16_t kIdle = 0x7FFF;  // every input kNoPort
  static constexpr int kBandRows = 8;
  XbarStepSettings(const Topology& mesh, const XbarTables& tables);
  void load(int step);  // routing step `step`, from 1
  size_t slot(int row, int col) const {
    return (static_cast<size_t>(row / kBandRows) * static_cast<size_t>(cols_) + static_cast<size_t>(col)) * kBandRows +
           static_cast<size_t>(row % kBandRows);
  }
  int node_at(size_t slot) const;
  uint16_t packed_at(size_t slot) const { return settings_[slot]; }
  uint16_t packed(int node) const { return settings_[slot(node / cols_, node % cols_)]; }
  static int output(uint16_t packed, int in) { return (packed >> (3 * in)) & 7; }
  // The slots of the routers with an input connected in this step.
  const std::vector<uint32_t>& connected() const { return connected_; }
  // The routers whose local input is connected (circuits start there), ascending.
  const std::vector<int>& sources() const { return sources_; }

 private:
  const XbarTables& tables_;
  const int cols_;
  std::vector<uint16_t> settings_;  // per slot
  std::vector<uint32_t> connected_;
  std::vector<int> sources_;
};

void validate_xbar(const XbarTables& tables, const Topology& mesh, const std::string& what);

std::vector<uint32_t> encode_xbar_image(const XbarTables& tables, const XbarRouterTable& router);
XbarRouterTable decode_xbar_image(const std::vector<uint32_t>& words, int expected_node, const std::string& what);
// Bits of one router's memory image.
int64_t xbar_table_bits(const XbarTables& tables);

void write_xbar_tables(const XbarTables& tables, const std::string& dir, TableForm form = TableForm::Files);
XbarTables load_xbar_tables(const std::string& dir);  // validates everything, or throws

}  // namespace fixroute
