#include "sw/kinds/combining/tables.h"

#include <fmt/format.h>

#include "sw/topology/topology.h"
#include "sw/tables/table_files.h"

namespace fixroute {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {
constexpr uint32_t kCombiningMagic = 0x46524342;  // "FRCB"
constexpr size_t kCombiningHeaderWords = 6;
}  // namespace

std::vector<uint16_t> CombiningTables::router_rows(int node) const {
  const auto first = send.begin() + static_cast<std::ptrdiff_t>(node) * rounds;
  return {first, first + rounds};
}

CombiningTables empty_combining_tables(const Topology& topology, int rounds) {
  CombiningTables t;
  t.topology = topology.spec();
  t.collective = "gossip";
  t.port_model.combining = true;
  t.nodes = topology.num_nodes();
  t.ports = topology.num_ports();
  t.rounds = rounds;
  t.send.assign(static_cast<size_t>(t.nodes) * static_cast<size_t>(rounds), 0);
  return t;
}

void validate_combining(const CombiningTables& t, const Topology& topology, const std::string& what) {
  if (t.nodes != topology.num_nodes()) bad_table(what, fmt::format("{} routers for {} nodes", t.nodes, topology.num_nodes()));
  if (t.ports != topology.num_ports() || t.ports > kMaxCombiningPorts)
    bad_table(what, fmt::format("{} ports per router; {} has {}", t.ports, topology.spec(), topology.num_ports()));
  if (t.rounds < 1 || t.rounds > kMaxCombiningRounds)
    bad_table(what, fmt::format("{} rows per router; accepted: 1..{}", t.rounds, kMaxCombiningRounds));
  if (t.send.size() != static_cast<size_t>(t.nodes) * static_cast<size_t>(t.rounds))
    bad_table(what, "the rows do not cover every router");
  if (!t.port_model.combining) bad_table(what, "combining tables not marked as combining");
  for (int n = 0; n < t.nodes; ++n)
    for (int r = 0; r < t.rounds; ++r) {
      const unsigned mask = t.send[static_cast<size_t>(n) * static_cast<size_t>(t.rounds) + static_cast<size_t>(r)];
      for (int p = 0; p < kMaxCombiningPorts; ++p)
        if ((mask >> p) & 1u) {
          if (p >= t.ports) bad_table(what, fmt::format("router {} row {}: port {} is not a port 0..{}", n, r, p, t.ports - 1));
          if (topology.neighbour(n, p) < 0)
            bad_table(what, fmt::format("router {} row {}: port {} has no link", n, r, p));
        }
    }
}

std::vector<uint32_t> encode_combining_image(const CombiningTables& t, int node) {
  std::vector<uint32_t> w = {kCombiningMagic,
                             static_cast<uint32_t>(kCombiningTableVersion),
                             static_cast<uint32_t>(node),
                             static_cast<uint32_t>(t.ports),
                             static_cast<uint32_t>(t.nodes),
                             static_cast<uint32_t>(t.rounds)};
  for (uint16_t mask : t.router_rows(node)) w.push_back(mask);
  w.push_back(crc32(w.data(), w.size() * sizeof(uint32_t)));
  return w;
}

std::vector<uint16_t> decode_combining_image(const std::vector<uint32_t>& w, const CombiningTables& t, int node,
                                             const std::string& what) {
  if (w.size() < kCombiningHeaderWords + 1) bad_table(what, "too short for a header");
  if (w[0] != kCombiningMagic) bad_table(what, "not a combining table image (magic)");
  if (w[1] != static_cast<uint32_t>(kCombiningTableVersion))
    bad_table(what, fmt::format("unsupported version {} (this build reads {})", w[1], kCombiningTableVersion));
  if (w.size() != kCombiningHeaderWords + static_cast<size_t>(w[5]) + 1) bad_table(what, "length does not match its row count");
  check_image_crc(w, what);
  if (w[2] != static_cast<uint32_t>(node)) bad_table(what, fmt::format("is for node {}, not {}", w[2], node));
  if (w[3] != static_cast<uint32_t>(t.ports) || w[4] != static_cast<uint32_t>(t.nodes) ||
      w[5] != static_cast<uint32_t>(t.rounds))
    bad_table(what, "ports, nodes or rows differ from network.json");
  std::vector<uint16_t> rows;
  for (size_t r = 0; r < w[5]; ++r) {
    const uint32_t mask = w[kCombiningHeaderWords + r];
    if (mask > 0xFFFFu) bad_table(what, fmt::format("row {}: a port mask wider than 16 bits", r));
    rows.push_back(static_cast<uint16_t>(mask));
  }
  return rows;
}

int64_t combining_table_bits(const CombiningTables& t) {
  return static_cast<int64_t>(kCombiningHeaderWords + static_cast<size_t>(t.rounds) + 1) * 32;
}

void write_combining_tables(const CombiningTables& t, const std::string& dir, TableForm form) {
  create_table_dir(dir);
  json j = common_manifest_fields(t);
  j.update({{"port_model", t.port_model.ports_name()}, {"duplex", t.port_model.duplex_name()}, {"nodes", t.nodes},
            {"ports", t.ports}, {"rounds", t.rounds},
            {"rows", "rows[r] lists the ports a router sends its whole set on in rounds r+1, r+1+rounds, ..."}});
  write_numbered_router_tables(
      dir, kCombiningKind, std::move(j), t.nodes, form, "rows",
      [&](int n) {
        json rows = json::array();
        for (uint16_t mask : t.router_rows(n)) {
          json ports = json::array();
          for (int p = 0; p < t.ports; ++p)
            if ((mask >> p) & 1u) ports.push_back(p);
          rows.push_back(ports);
        }
        return rows;
      },
      [&](int n) { return encode_combining_image(t, n); });
}

CombiningTables load_combining_tables(const std::string& dir) {
  const fs::path root(dir);
  std::string what;
  json j = read_manifest(dir, kCombiningKind, what);
  CombiningTables t;
  try {
    const Topology topology = read_common_manifest_fields(j, t);
    t.port_model = PortModel::parse(j.at("port_model").get<std::string>(), j.at("duplex").get<std::string>(), true);
    t.nodes = j.at("nodes").get<int>();
    t.ports = j.at("ports").get<int>();
    t.rounds = j.at("rounds").get<int>();
    if (t.nodes != topology.num_nodes() || t.rounds < 1 || t.rounds > kMaxCombiningRounds)
      bad_table(what, "nodes or rounds out of range");
    t.send.assign(static_cast<size_t>(t.nodes) * static_cast<size_t>(t.rounds), 0);
    auto place = [&](int n, const std::vector<uint16_t>& rows) {
      std::copy(rows.begin(), rows.end(), t.send.begin() + static_cast<std::ptrdiff_t>(n) * t.rounds);
    };
    if (manifest_form(j, what) == TableForm::Packed) {
      const PackedImages packed = PackedImages::read(dir, j.at("packed"), what, topology.num_nodes(), topology.spec());
      for_each_router(t.nodes, [&](int n) {
        place(n, decode_combining_image(packed.image(static_cast<size_t>(n)), t, n, packed.image_name(static_cast<size_t>(n))));
      });
      validate_combining(t, topology, what);
      return t;
    }
    for_each_listed_router(j.at("routers"), t.nodes, root, what,
                           [&](int n, const json& r, const std::vector<uint32_t>& words, const std::string& hwhat) {
      const json& rows = r.at("rows");
      if (rows.size() != static_cast<size_t>(t.rounds)) bad_table(what, fmt::format("router {} has {} rows, not {}", n, rows.size(), t.rounds));
      std::vector<uint16_t> masks;
      for (const json& row : rows) {
        uint32_t mask = 0;
        for (const json& p : row) {
          const int port = p.get<int>();
          if (port < 0 || port >= t.ports) bad_table(what, fmt::format("router {}: port {} is not a port 0..{}", n, port, t.ports - 1));
          mask |= 1u << port;
        }
        masks.push_back(static_cast<uint16_t>(mask));
      }
      const std::vector<uint16_t> from_hex = decode_combining_image(words, t, n, hwhat);
      place(n, from_hex != masks && image_is_the_edit(hwhat, what, fmt::format("differs from the rows in {}", what))
                   ? from_hex : masks);
    });
    validate_combining(t, topology, what);
  } catch (const json::exception& e) {
    bad_table(what, fmt::format("missing or mistyped field ({})", e.what()));
  }
  return t;
}

}  // namespace fixroute
