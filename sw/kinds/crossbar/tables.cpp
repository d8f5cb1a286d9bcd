#include "sw/kinds/crossbar/tables.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "sw/core/errors.h"
#include "sw/kinds/port_rules/tables.h"
#include "sw/tables/table_files.h"
#include "sw/topology/topology.h"

namespace fixroute {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {
constexpr uint32_t kXbarMagic = 0x46525842;  // "FRXB"
constexpr int kXbarHeaderWords = 6;          // magic, version, node, ports, steps, step cycles
constexpr uint32_t kPhaseBit = 1u << 15;
}  // namespace

int xbar_step_cycles(const Topology& mesh) { return mesh.dims()[0] + mesh.dims()[1]; }

XbarTables make_xbar_tables(const Topology& mesh, const CircuitSchedule& schedule, int64_t stored_limit) {
  XbarTables t;
  t.topology = mesh.spec();
  t.construction = schedule.construction;
  t.step_cycles = xbar_step_cycles(mesh);
  t.phase_starts = schedule.phase_starts;
  t.circuits = std::make_shared<const CircuitSchedule>(schedule);
  if (static_cast<int64_t>(mesh.num_nodes()) * static_cast<int64_t>(schedule.steps.size()) > stored_limit) return t;
  // Stored: each step's settings as the engines expand them, kept router by router.
  XbarSetting idle;
  idle.fill(kNoPort);
  std::vector<XbarRouterTable> routers;
  for (int n = 0; n < mesh.num_nodes(); ++n) routers.push_back({n, std::vector<XbarSetting>(schedule.steps.size(), idle)});
  XbarStepSettings settings(mesh, t);
  for (size_t s = 0; s < schedule.steps.size(); ++s) {
    settings.load(static_cast<int>(s) + 1);
    for (uint32_t at : settings.connected())
      for (int in = 0; in < kCrossbarPorts; ++in)
        routers[static_cast<size_t>(settings.node_at(at))].settings[s][static_cast<size_t>(in)] =
            XbarStepSettings::output(settings.packed_at(at), in);
  }
  t.routers = std::move(routers);
  t.circuits.reset();
  return t;
}

const XbarTables& stored_xbar_tables(const Topology& mesh, const XbarTables& tables, XbarTables& expanded) {
  if (!tables.circuits) return tables;
  expanded = tables;
  expanded.circuits.reset();
  XbarTables settings = make_xbar_tables(mesh, *tables.circuits, std::numeric_limits<int64_t>::max());
  expanded.routers = std::move(settings.routers);
  return expanded;
}

XbarStepSettings::XbarStepSettings(const Topology& mesh, const XbarTables& tables)
    : tables_(tables),
      cols_(mesh.dims()[1]),
      settings_(static_cast<size_t>((mesh.dims()[0] + kBandRows - 1) / kBandRows) * kBandRows * static_cast<size_t>(cols_), kIdle) {}

int XbarStepSettings::node_at(size_t slot) const {
  const size_t band = slot / (static_cast<size_t>(cols_) * kBandRows), in_band = slot % (static_cast<size_t>(cols_) * kBandRows);
  return static_cast<int>((band * kBandRows + in_band % kBandRows) * static_cast<size_t>(cols_) + in_band / kBandRows);
}

void XbarStepSettings::load(int step) {
  const size_t s = static_cast<size_t>(step - 1);
  for (uint32_t at : connected_) settings_[at] = kIdle;
  connected_.clear();
  sources_.clear();
  if (!tables_.circuits) {
    for (size_t n = 0; n < tables_.routers.size(); ++n) {
      const XbarSetting& set = tables_.routers[n].settings[s];
      uint16_t packed = 0;
      for (int in = 0; in < kCrossbarPorts; ++in) packed = static_cast<uint16_t>(packed | (set[static_cast<size_t>(in)] & 7) << (3 * in));
      if (packed == kIdle) continue;
      const size_t at = slot(static_cast<int>(n) / cols_, static_cast<int>(n) % cols_);
      settings_[at] = packed;
      connected_.push_back(static_cast<uint32_t>(at));
      if (output(packed, kLocalPort) != kNoPort) sources_.push_back(static_cast<int>(n));
    }
    return;
  }
  for (const Circuit& c : tables_.circuits->steps[s]) {
    sources_.push_back(c.source);
    for_each_hop(cols_, c.source, c.dest, [&](int row, int col, int in_port, int out_port) {
      const size_t at = slot(row, col);
      uint16_t& packed = settings_[at];
      if (output(packed, in_port) != kNoPort)
        throw std::logic_error(fmt::format("step {}: two circuits enter node {} on port {}", step, row * cols_ + col, in_port));
      if (packed == kIdle) connected_.push_back(static_cast<uint32_t>(at));
      packed = static_cast<uint16_t>((packed & ~(7u << (3 * in_port))) | (static_cast<unsigned>(out_port) << (3 * in_port)));
    });
  }
  std::sort(sources_.begin(), sources_.end());
}

void validate_xbar(const XbarTables& t, const Topology& mesh, const std::string& what) {
  if (mesh.kind() != TopologyKind::Mesh || mesh.dims().size() != 2) bad_table(what, "crossbar tables are for a mesh:RxC");
  if (static_cast<int>(t.routers.size()) != mesh.num_nodes())
    bad_table(what, fmt::format("has {} routers, {} has {}", t.routers.size(), mesh.spec(), mesh.num_nodes()));
  if (t.step_cycles < xbar_step_cycles(mesh))
    bad_table(what, fmt::format("step_cycles {} is under {} (the longest circuit of {} needs {})", t.step_cycles,
                                xbar_step_cycles(mesh), mesh.spec(), xbar_step_cycles(mesh)));
  if (t.steps() > kMaxXbarSteps) bad_table(what, fmt::format("more than {} routing steps", kMaxXbarSteps));
  for (int p : t.phase_starts)
    if (p < 1 || p > std::max(t.steps(), 1)) bad_table(what, fmt::format("phase start {} is not a routing step", p));
  for (size_t n = 0; n < t.routers.size(); ++n) {
    const XbarRouterTable& r = t.routers[n];
    if (r.node != static_cast<int>(n)) bad_table(what, fmt::format("router {} is listed as node {}", n, r.node));
    if (static_cast<int>(r.settings.size()) != t.steps())
      bad_table(what, fmt::format("router {} has {} steps, router 0 has {}", n, r.settings.size(), t.steps()));
    for (size_t s = 0; s < r.settings.size(); ++s)
      for (int in = 0; in < kCrossbarPorts; ++in) {
        const int out = r.settings[s][static_cast<size_t>(in)];
        const std::string where = fmt::format("router {} step {} input {}", n, s + 1, in);
        if (out == kNoPort) continue;
        if (out < 0 || out >= kCrossbarPorts) bad_table(what, fmt::format("{}: output {} is not a port 0..4", where, out));
        if (in != kLocalPort && mesh.neighbour(static_cast<int>(n), in) < 0)
          bad_table(what, fmt::format("{}: that input has no link on the border", where));
        if (out != kLocalPort && mesh.neighbour(static_cast<int>(n), out) < 0)
          bad_table(what, fmt::format("{}: output {} leads off the mesh", where, out));
        if (in != kLocalPort && out == in) bad_table(what, fmt::format("{}: a U-turn back where it came from", where));
      }
  }
  if (!t.permutation.empty()) {
    std::vector<bool> hit(t.permutation.size(), false);
    if (static_cast<int>(t.permutation.size()) != mesh.num_nodes()) bad_table(what, "the permutation has the wrong size");
    for (int d : t.permutation) {
      if (d < 0 || d >= mesh.num_nodes() || hit[static_cast<size_t>(d)]) bad_table(what, "the demand is not a permutation");
      hit[static_cast<size_t>(d)] = true;
    }
  }
  if (t.root < 0 || t.root >= mesh.num_nodes()) bad_table(what, fmt::format("root {} is not a node", t.root));
}

std::vector<uint32_t> encode_xbar_image(const XbarTables& t, const XbarRouterTable& r) {
  std::vector<uint32_t> w = {kXbarMagic, static_cast<uint32_t>(kXbarTableVersion), static_cast<uint32_t>(r.node),
                             static_cast<uint32_t>(kCrossbarPorts), static_cast<uint32_t>(r.settings.size()),
                             static_cast<uint32_t>(t.step_cycles)};
  for (size_t s = 0; s < r.settings.size(); ++s) {
    uint32_t word = 0;
    for (int in = 0; in < kCrossbarPorts; ++in)
      word |= static_cast<uint32_t>(r.settings[s][static_cast<size_t>(in)]) << (3 * in);
    for (int p : t.phase_starts)
      if (p == static_cast<int>(s) + 1) word |= kPhaseBit;
    w.push_back(word);
  }
  w.push_back(crc32(w.data(), w.size() * sizeof(uint32_t)));
  return w;
}

XbarRouterTable decode_xbar_image(const std::vector<uint32_t>& w, int expected_node, const std::string& what) {
  if (w.size() < kXbarHeaderWords + 1) bad_table(what, "too short for a header");
  if (w[0] != kXbarMagic) bad_table(what, "not a crossbar table image (magic)");
  if (w[1] != static_cast<uint32_t>(kXbarTableVersion))
    bad_table(what, fmt::format("unsupported version {} (this build reads {})", w[1], kXbarTableVersion));
  if (w[3] != static_cast<uint32_t>(kCrossbarPorts)) bad_table(what, "not a five-port crossbar");
  if (w.size() != kXbarHeaderWords + w[4] + 1) bad_table(what, "length does not match its step count");
  check_image_crc(w, what);
  if (w[2] != static_cast<uint32_t>(expected_node)) bad_table(what, fmt::format("is for node {}, not {}", w[2], expected_node));
  XbarRouterTable r{expected_node, {}};
  for (size_t s = 0; s < w[4]; ++s) {
    XbarSetting setting;
    for (int in = 0; in < kCrossbarPorts; ++in) setting[static_cast<size_t>(in)] = static_cast<int>((w[kXbarHeaderWords + s] >> (3 * in)) & 7u);
    r.settings.push_back(setting);
  }
  return r;
}

int64_t xbar_table_bits(const XbarTables& t) {
  if (t.routers.empty() && !t.circuits) return 0;
  return (kXbarHeaderWords + static_cast<int64_t>(t.steps()) + 1) * 32;  // encode_xbar_image: header, a word a step, CRC
}

namespace {
json setting_to_json(const XbarSetting& s) {
  json j = json::array();
  for (int out : s) j.push_back(out == kNoPort ? json(nullptr) : json(out));
  return j;
}
std::string hex_name(int node) { return fmt::format("router-{}.hex", node); }
// An image against the one the tables would encode, its checksum word aside (checked on its own).
bool same_header_and_phases(const std::vector<uint32_t>& image, const std::vector<uint32_t>& encoded) {
  return image.size() == encoded.size() && std::equal(image.begin(), image.end() - 1, encoded.begin());
}
}  // namespace

void write_xbar_tables(const XbarTables& tables, const std::string& dir, TableForm form) {
  XbarTables expanded;
  const XbarTables& t = stored_xbar_tables(Topology::parse(tables.topology), tables, expanded);
  create_table_dir(dir);
  json j = common_manifest_fields(t);
  j.update({{"step_cycles", t.step_cycles}, {"steps", t.steps()}, {"phase_starts", t.phase_starts},
            {"permutation", t.permutation}, {"root", t.root},
            {"ports", "settings[step][input] = output; ports 0 S, 1 N, 2 E, 3 W, 4 local; null = not connected"}});
  if (form == TableForm::Packed)
    return write_packed_tables(dir, kCrossbarKind, std::move(j), t.routers,
                               [&](const XbarRouterTable& r) { return encode_xbar_image(t, r); });
  json routers = json::array();
  for (const XbarRouterTable& r : t.routers) {
    json settings = json::array();
    for (const XbarSetting& s : r.settings) settings.push_back(setting_to_json(s));
    const std::vector<uint32_t> image = encode_xbar_image(t, r);
    write_table_file(fs::path(dir) / hex_name(r.node), image_to_hex(image));
    routers.push_back({{"node", r.node}, {"settings", settings}, {"hex", hex_name(r.node)}, {"image_crc32", hex32(image.back())}});
  }
  j["routers"] = std::move(routers);
  write_manifest(dir, kCrossbarKind, std::move(j));
}


XbarTables load_xbar_tables(const std::string& dir) {
  const fs::path root(dir);
  std::string what;
  json j = read_manifest(dir, kCrossbarKind, what);
  XbarTables t;
  try {
    const Topology mesh = read_common_manifest_fields(j, t);
    t.step_cycles = j.at("step_cycles").get<int>();
    t.phase_starts = j.at("phase_starts").get<std::vector<int>>();
    t.permutation = j.at("permutation").get<std::vector<int>>();
    t.root = j.at("root").get<int>();
    if (manifest_form(j, what) == TableForm::Packed) {
      const PackedImages packed = PackedImages::read(dir, j.at("packed"), what, mesh.num_nodes(), mesh.spec());
      t.routers.reserve(packed.routers());
      for_each_router(mesh.num_nodes(), [&](int n) {
        const std::vector<uint32_t> words = packed.image(static_cast<size_t>(n));
        const std::string rwhat = packed.image_name(static_cast<size_t>(n));
        XbarRouterTable r = decode_xbar_image(words, n, rwhat);
        if (!same_header_and_phases(words, encode_xbar_image(t, r)))
          bad_table(rwhat, fmt::format("header or phases differ from {}", what));
        t.routers.push_back(std::move(r));
      });
      validate_xbar(t, mesh, what);
      return t;
    }
    for (const json& r : j.at("routers")) {
      XbarRouterTable table{r.at("node").get<int>(), {}};
      for (const json& s : r.at("settings")) {
        XbarSetting setting;
        if (!s.is_array() || s.size() != kCrossbarPorts) bad_table(what, fmt::format("router {}: a step needs 5 entries", table.node));
        for (size_t in = 0; in < kCrossbarPorts; ++in) setting[in] = s[in].is_null() ? kNoPort : s[in].get<int>();
        table.settings.push_back(setting);
      }
      t.routers.push_back(std::move(table));
    }
    validate_xbar(t, mesh, what);
    for_each_router(static_cast<int>(t.routers.size()), [&](int i) {
      XbarRouterTable& r = t.routers[static_cast<size_t>(i)];
      const std::string hname = r.node < static_cast<int>(j.at("routers").size())
                                    ? j.at("routers")[static_cast<size_t>(r.node)].at("hex").get<std::string>() : "";
      const std::string hwhat = fmt::format("'{}'", (root / hname).string());
      const std::vector<uint32_t> words = hex_to_image(read_table_file(root / hname, hwhat), hwhat);
      XbarRouterTable from_hex = decode_xbar_image(words, r.node, hwhat);
      if (!same_header_and_phases(words, encode_xbar_image(t, from_hex)))
        bad_table(hwhat, fmt::format("header or phases differ from {}", what));
      if (!(from_hex == r) && image_is_the_edit(hwhat, what, fmt::format("differs from the settings in {}", what)))
        r = std::move(from_hex);
    });
    validate_xbar(t, mesh, what);
  } catch (const json::exception& e) {
    bad_table(what, fmt::format("missing or mistyped field ({})", e.what()));
  }
  return t;
}

}  // namespace fixroute
