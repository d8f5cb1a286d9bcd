#include "sw/kinds/broadcast_trees/tables.h"

#include <fmt/format.h>

#include "sw/core/errors.h"
#include "sw/topology/topology.h"
#include "sw/tables/table_files.h"

namespace fixroute {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {
constexpr uint32_t kBroadcastTreeMagic = 0x46524254;  // "FRBT"
constexpr size_t kHeaderWords = 6;
constexpr uint32_t kSendBit = 0x80000000u;

int shift(const Topology& topology, int node, int by, int sign) {
  if (topology.kind() == TopologyKind::Hypercube) return node ^ by;
  if (!has_translations(topology))
    throw InputError(fmt::format("{} is not vertex-transitive by translation (rings, tori and hypercubes are)",
                                 topology.spec()));
  const std::vector<int>& dims = topology.dims();
  int result = 0, stride = 1;
  for (int k = static_cast<int>(dims.size()) - 1; k >= 0; --k) {
    const int size = dims[static_cast<size_t>(k)];
    const int a = (node / stride) % size, b = (by / stride) % size;
    result += (((a + sign * b) % size + size) % size) * stride;
    stride *= size;
  }
  return result;
}
}  // namespace

bool has_translations(const Topology& topology) {
  return topology.kind() == TopologyKind::Hypercube || topology.kind() == TopologyKind::Ring ||
         topology.kind() == TopologyKind::Torus;
}
int translate(const Topology& topology, int node, int by) { return shift(topology, node, by, +1); }
int translate_back(const Topology& topology, int node, int by) { return shift(topology, node, by, -1); }

std::vector<int32_t> BroadcastTreeTables::router_rows(int node) const {
  const size_t row = static_cast<size_t>(rounds) * static_cast<size_t>(ports);
  const auto first = send.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(node) * row);
  return {first, first + static_cast<std::ptrdiff_t>(row)};
}

BroadcastTreeTables empty_broadcast_tree_tables(const Topology& topology, int rounds) {
  BroadcastTreeTables t;
  t.topology = topology.spec();
  t.collective = "gossip";
  t.nodes = topology.num_nodes();
  t.ports = topology.num_ports();
  t.rounds = rounds;
  t.send.assign(static_cast<size_t>(t.nodes) * static_cast<size_t>(rounds) * static_cast<size_t>(t.ports), kNoSend);
  return t;
}

void fill_from_generic(BroadcastTreeTables& t, const Topology& topology, std::vector<GenericArc> arcs) {
  for (int u = 0; u < t.nodes; ++u)
    for (const GenericArc& a : arcs) t.at(u, a.level, a.port) = translate_back(topology, u, a.from);
  t.generic = std::move(arcs);
}

void validate_broadcast_trees(const BroadcastTreeTables& t, const Topology& topology, const std::string& what) {
  if (t.nodes != topology.num_nodes()) bad_table(what, fmt::format("{} routers for {} nodes", t.nodes, topology.num_nodes()));
  if (t.nodes > kMaxBroadcastTreeNodes)
    bad_table(what, fmt::format("{} nodes; a broadcast-tree router stores a packet per origin, at most {}", t.nodes,
                                kMaxBroadcastTreeNodes));
  if (t.ports != topology.num_ports())
    bad_table(what, fmt::format("{} ports per router; {} has {}", t.ports, topology.spec(), topology.num_ports()));
  if (t.rounds < 1 || t.rounds > kMaxBroadcastTreeRounds)
    bad_table(what, fmt::format("{} rows per router; accepted: 1..{}", t.rounds, kMaxBroadcastTreeRounds));
  if (t.send.size() != static_cast<size_t>(t.nodes) * static_cast<size_t>(t.rounds) * static_cast<size_t>(t.ports))
    bad_table(what, "the rows do not cover every router");
  if (t.port_model.combining) bad_table(what, "broadcast-tree routers do not combine");
  for (int n = 0; n < t.nodes; ++n)
    for (int r = 1; r <= t.rounds; ++r)
      for (int p = 0; p < t.ports; ++p) {
        const int32_t origin = t.at(n, r, p);
        if (origin == kNoSend) continue;
        if (origin < 0 || origin >= t.nodes)
          bad_table(what, fmt::format("router {} round {} port {}: origin {} is not a node", n, r, p, origin));
        if (topology.neighbour(n, p) < 0) bad_table(what, fmt::format("router {} round {}: port {} has no link", n, r, p));
      }
  if (t.generic.empty()) return;
  BroadcastTreeTables expanded = empty_broadcast_tree_tables(topology, t.rounds);
  for (const GenericArc& a : t.generic) {
    if (a.level < 1 || a.level > t.rounds || a.port < 0 || a.port >= t.ports || a.from < 0 || a.from >= t.nodes ||
        topology.neighbour(a.from, a.port) != a.to)
      bad_table(what, fmt::format("generic tree arc {} -> {} (round {}, port {}) is not an arc of {} within the rounds",
                                  a.from, a.to, a.level, a.port, topology.spec()));
  }
  fill_from_generic(expanded, topology, t.generic);
  if (expanded.send != t.send) bad_table(what, "the routers' rows are not the translations of the generic tree");
}

std::vector<uint32_t> encode_broadcast_tree_image(const BroadcastTreeTables& t, int node) {
  std::vector<uint32_t> w = {kBroadcastTreeMagic,
                             static_cast<uint32_t>(kBroadcastTreeTableVersion),
                             static_cast<uint32_t>(node),
                             static_cast<uint32_t>(t.ports),
                             static_cast<uint32_t>(t.nodes),
                             static_cast<uint32_t>(t.rounds)};
  for (int32_t origin : t.router_rows(node)) w.push_back(origin == kNoSend ? 0u : kSendBit | static_cast<uint32_t>(origin));
  w.push_back(crc32(w.data(), w.size() * sizeof(uint32_t)));
  return w;
}

std::vector<int32_t> decode_broadcast_tree_image(const std::vector<uint32_t>& w, const BroadcastTreeTables& t, int node,
                                                 const std::string& what) {
  if (w.size() < kHeaderWords + 1) bad_table(what, "too short for a header");
  if (w[0] != kBroadcastTreeMagic) bad_table(what, "not a broadcast-tree table image (magic)");
  if (w[1] != static_cast<uint32_t>(kBroadcastTreeTableVersion))
    bad_table(what, fmt::format("unsupported version {} (this build reads {})", w[1], kBroadcastTreeTableVersion));
  if (w.size() != kHeaderWords + static_cast<size_t>(w[3]) * w[5] + 1) bad_table(what, "length does not match its rows");
  check_image_crc(w, what);
  if (w[2] != static_cast<uint32_t>(node)) bad_table(what, fmt::format("is for node {}, not {}", w[2], node));
  if (w[3] != static_cast<uint32_t>(t.ports) || w[4] != static_cast<uint32_t>(t.nodes) ||
      w[5] != static_cast<uint32_t>(t.rounds))
    bad_table(what, "ports, nodes or rows differ from network.json");
  std::vector<int32_t> rows;
  for (size_t k = kHeaderWords; k + 1 < w.size(); ++k) {
    if (!(w[k] & kSendBit)) {
      if (w[k] != 0) bad_table(what, fmt::format("word {}: an origin without the send bit", k));
      rows.push_back(kNoSend);
      continue;
    }
    const uint32_t origin = w[k] & ~kSendBit;
    if (origin >= static_cast<uint32_t>(t.nodes)) bad_table(what, fmt::format("word {}: origin {} is not a node", k, origin));
    rows.push_back(static_cast<int32_t>(origin));
  }
  return rows;
}

int64_t broadcast_tree_table_bits(const BroadcastTreeTables& t) {
  return static_cast<int64_t>(kHeaderWords + static_cast<size_t>(t.rounds) * static_cast<size_t>(t.ports) + 1) * 32;
}

int64_t generic_table_bits(const BroadcastTreeTables& t) { return static_cast<int64_t>(t.generic.size()) * 32; }

void write_broadcast_tree_tables(const BroadcastTreeTables& t, const Topology& topology, const std::string& dir,
                                 TableForm form) {
  create_table_dir(dir);
  json j = common_manifest_fields(t);
  j.update({{"port_model", t.port_model.ports_name()}, {"duplex", t.port_model.duplex_name()}, {"nodes", t.nodes},
            {"ports", t.ports}, {"rounds", t.rounds},
            {"rows", "rows[r][p]: the origin whose packet the router sends on port p in round r+1, or null"}});
  if (t.exact_lower_bound > 0) j["exact_lower_bound"] = t.exact_lower_bound;
  if (!t.generic.empty()) {
    json arcs = json::array();
    for (const GenericArc& a : t.generic) arcs.push_back({a.level, a.port, a.from, a.to});
    j["generic_tree"] = {{"arcs", std::move(arcs)},
                         {"arc", "[round, port, from, to]: router u sends origin u - from on port in round"},
                         {"translation", topology.kind() == TopologyKind::Hypercube ? "xor" : "coordinate-wise modulo"}};
  }
  write_numbered_router_tables(
      dir, kBroadcastTreeKind, std::move(j), t.nodes, form, "rows",
      [&](int n) {
        json rows = json::array();
        for (int r = 1; r <= t.rounds; ++r) {
          json row = json::array();
          for (int p = 0; p < t.ports; ++p) row.push_back(t.at(n, r, p) == kNoSend ? json(nullptr) : json(t.at(n, r, p)));
          rows.push_back(std::move(row));
        }
        return rows;
      },
      [&](int n) { return encode_broadcast_tree_image(t, n); });
}

BroadcastTreeTables load_broadcast_tree_tables(const std::string& dir) {
  const fs::path root(dir);
  std::string what;
  json j = read_manifest(dir, kBroadcastTreeKind, what);
  BroadcastTreeTables t;
  try {
    const Topology topology = read_common_manifest_fields(j, t);
    t.port_model = PortModel::parse(j.at("port_model").get<std::string>(), j.at("duplex").get<std::string>());
    t.nodes = j.at("nodes").get<int>();
    t.ports = j.at("ports").get<int>();
    t.rounds = j.at("rounds").get<int>();
    if (t.nodes != topology.num_nodes() || t.nodes > kMaxBroadcastTreeNodes || t.ports != topology.num_ports() ||
        t.rounds < 1 || t.rounds > kMaxBroadcastTreeRounds)
      bad_table(what, "nodes, ports or rounds out of range");
    t.exact_lower_bound = j.value("exact_lower_bound", 0);
    if (t.exact_lower_bound < 0 || t.exact_lower_bound > t.rounds)
      bad_table(what, fmt::format("exact_lower_bound {} is not 0..rounds", t.exact_lower_bound));
    const size_t row = static_cast<size_t>(t.rounds) * static_cast<size_t>(t.ports);
    t.send.assign(static_cast<size_t>(t.nodes) * row, kNoSend);
    if (j.contains("generic_tree"))
      for (const json& a : j.at("generic_tree").at("arcs"))
        t.generic.push_back({a.at(0).get<int>(), a.at(1).get<int>(), a.at(2).get<int>(), a.at(3).get<int>()});
    auto place = [&](int n, const std::vector<int32_t>& rows) {
      std::copy(rows.begin(), rows.end(), t.send.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(n) * row));
    };
    if (manifest_form(j, what) == TableForm::Packed) {
      const PackedImages packed = PackedImages::read(dir, j.at("packed"), what, topology.num_nodes(), topology.spec());
      for_each_router(t.nodes, [&](int n) {
        place(n, decode_broadcast_tree_image(packed.image(static_cast<size_t>(n)), t, n,
                                             packed.image_name(static_cast<size_t>(n))));
      });
      validate_broadcast_trees(t, topology, what);
      return t;
    }
    for_each_listed_router(j.at("routers"), t.nodes, root, what,
                           [&](int n, const json& r, const std::vector<uint32_t>& words, const std::string& hwhat) {
      const json& rows = r.at("rows");
      if (rows.size() != static_cast<size_t>(t.rounds)) bad_table(what, fmt::format("router {} has {} rows, not {}", n, rows.size(), t.rounds));
      std::vector<int32_t> entries;
      for (const json& rw : rows) {
        if (rw.size() != static_cast<size_t>(t.ports)) bad_table(what, fmt::format("router {}: a row of {} ports, not {}", n, rw.size(), t.ports));
        for (const json& e : rw) entries.push_back(e.is_null() ? kNoSend : e.get<int32_t>());
      }
      const std::vector<int32_t> from_hex = decode_broadcast_tree_image(words, t, n, hwhat);
      place(n, from_hex != entries && image_is_the_edit(hwhat, what, fmt::format("differs from the rows in {}", what))
                   ? from_hex : entries);
    });
    validate_broadcast_trees(t, topology, what);
  } catch (const json::exception& e) {
    bad_table(what, fmt::format("missing or mistyped field ({})", e.what()));
  }
  return t;
}

}  // namespace fixroute
