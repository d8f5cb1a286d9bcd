#include "sw/kinds/combining_sum/tables.h"

#include <fmt/format.h>

#include "sw/topology/topology.h"
#include "sw/tables/table_files.h"

namespace fixroute {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {
constexpr uint32_t kSumMagic = 0x46524353;  // "FRCS"
constexpr size_t kSumHeaderWords = 7;

json register_list(RegisterMask mask) {
  json out = json::array();
  for (int r = 0; r < kMaxSumRegisters; ++r)
    if ((mask >> r) & 1u) out.push_back(r);
  return out;
}

RegisterMask register_mask(const json& list, const std::string& what) {
  uint32_t mask = 0;
  for (const json& r : list) {
    const int reg = r.get<int>();
    if (reg < 0 || reg >= kMaxSumRegisters) bad_table(what, fmt::format("register {} is not 0..{}", reg, kMaxSumRegisters - 1));
    mask |= 1u << reg;
  }
  return static_cast<RegisterMask>(mask);
}

// The image's words after the header, as the tables hold them.
std::vector<uint32_t> router_entries(const CombiningSumTables& t, int node) {
  const auto first = t.entries.begin() + static_cast<std::ptrdiff_t>(t.at(node, 1, 0));
  return {first, first + static_cast<std::ptrdiff_t>(t.rounds) * t.ports};
}

void decode_image(const std::vector<uint32_t>& w, CombiningSumTables& t, int node, const std::string& what) {
  const size_t body = static_cast<size_t>(t.rounds) * static_cast<size_t>(t.ports);
  if (w.size() < kSumHeaderWords + 1) bad_table(what, "too short for a header");
  if (w[0] != kSumMagic) bad_table(what, "not a combining-sum table image (magic)");
  if (w[1] != static_cast<uint32_t>(kCombiningSumTableVersion))
    bad_table(what, fmt::format("unsupported version {} (this build reads {})", w[1], kCombiningSumTableVersion));
  check_image_crc(w, what);
  if (w[2] != static_cast<uint32_t>(node)) bad_table(what, fmt::format("is for node {}, not {}", w[2], node));
  if (w[3] != static_cast<uint32_t>(t.ports) || w[4] != static_cast<uint32_t>(t.registers) ||
      w[5] != static_cast<uint32_t>(t.rounds))
    bad_table(what, "ports, registers or rounds differ from network.json");
  if (w.size() != kSumHeaderWords + body + 1) bad_table(what, "length does not match its rounds and ports");
  t.init[static_cast<size_t>(node)] = static_cast<RegisterMask>(w[6]);
  t.result[static_cast<size_t>(node)] = static_cast<RegisterMask>(w[6] >> 16);
  std::copy(w.begin() + kSumHeaderWords, w.end() - 1, t.entries.begin() + static_cast<std::ptrdiff_t>(t.at(node, 1, 0)));
}

}  // namespace

CombiningSumTables empty_combining_sum_tables(const Topology& topology, int registers, int rounds) {
  CombiningSumTables t;
  t.topology = topology.spec();
  t.nodes = topology.num_nodes();
  t.ports = topology.num_ports();
  t.registers = registers;
  t.rounds = rounds;
  t.init.assign(static_cast<size_t>(t.nodes), 1);
  t.result.assign(static_cast<size_t>(t.nodes), 1);
  t.entries.assign(static_cast<size_t>(t.nodes) * static_cast<size_t>(rounds) * static_cast<size_t>(t.ports), 0);
  return t;
}

void validate_combining_sum(const CombiningSumTables& t, const Topology& topology, const std::string& what) {
  if (t.nodes != topology.num_nodes() || t.nodes > kMaxSumNodes)
    bad_table(what, fmt::format("{} routers for {} nodes (at most {})", t.nodes, topology.num_nodes(), kMaxSumNodes));
  if (t.ports != topology.num_ports() || t.ports > kMaxSumPorts)
    bad_table(what, fmt::format("{} ports per router; {} has {} (at most {})", t.ports, topology.spec(),
                                topology.num_ports(), kMaxSumPorts));
  if (t.registers < 1 || t.registers > kMaxSumRegisters)
    bad_table(what, fmt::format("{} registers; accepted: 1..{}", t.registers, kMaxSumRegisters));
  if (t.rounds < 1 || t.rounds > kMaxSumRounds) bad_table(what, fmt::format("{} rounds; accepted: 1..{}", t.rounds, kMaxSumRounds));
  if (t.root < 0 || t.root >= t.nodes) bad_table(what, fmt::format("root {} is not a node", t.root));
  if (t.entries.size() != static_cast<size_t>(t.nodes) * static_cast<size_t>(t.rounds) * static_cast<size_t>(t.ports) ||
      t.init.size() != static_cast<size_t>(t.nodes) || t.result.size() != static_cast<size_t>(t.nodes))
    bad_table(what, "the programs do not cover every router");
  const uint32_t outside = ~((1u << t.registers) - 1u) & 0xFFFFu;
  for (int n = 0; n < t.nodes; ++n) {
    if ((t.init[static_cast<size_t>(n)] | t.result[static_cast<size_t>(n)]) & outside)
      bad_table(what, fmt::format("router {}: a register beyond its {}", n, t.registers));
    for (int r = 1; r <= t.rounds; ++r)
      for (int p = 0; p < t.ports; ++p) {
        const RegisterMask send = t.send(n, r, p), add = t.add(n, r, p);
        if ((send | add) & outside)
          bad_table(what, fmt::format("router {} round {} port {}: a register beyond its {}", n, r, p, t.registers));
        const int other = topology.neighbour(n, p);
        if ((send || add) && other < 0) bad_table(what, fmt::format("router {} round {}: port {} has no link", n, r, p));
        if (add && !t.send(other, r, topology.reverse_port(n, p)))
          bad_table(what, fmt::format("router {} round {}: adds what arrives on port {}, where node {} sends nothing",
                                      n, r, p, other));
      }
  }
}

std::vector<uint32_t> encode_combining_sum_image(const CombiningSumTables& t, int node) {
  std::vector<uint32_t> w = {kSumMagic,
                             static_cast<uint32_t>(kCombiningSumTableVersion),
                             static_cast<uint32_t>(node),
                             static_cast<uint32_t>(t.ports),
                             static_cast<uint32_t>(t.registers),
                             static_cast<uint32_t>(t.rounds),
                             static_cast<uint32_t>(t.init[static_cast<size_t>(node)]) |
                                 static_cast<uint32_t>(t.result[static_cast<size_t>(node)]) << 16};
  const std::vector<uint32_t> body = router_entries(t, node);
  w.insert(w.end(), body.begin(), body.end());
  w.push_back(crc32(w.data(), w.size() * sizeof(uint32_t)));
  return w;
}

int64_t combining_sum_table_bits(const CombiningSumTables& t) {
  return static_cast<int64_t>(kSumHeaderWords + static_cast<size_t>(t.rounds) * static_cast<size_t>(t.ports) + 1) * 32;
}

void write_combining_sum_tables(const CombiningSumTables& t, const std::string& dir, TableForm form) {
  create_table_dir(dir);
  json j = common_manifest_fields(t);
  j.update({{"nodes", t.nodes}, {"ports", t.ports}, {"registers", t.registers}, {"rounds", t.rounds}, {"root", t.root}});
  j["program"] = "init: registers starting as the router's value; result: registers summed for its answer; entries: "
                 "[round, port, send registers (summed into the packet sent on the port), add registers (what "
                 "arrives on the port is added into)]";
  write_numbered_router_tables(
      dir, kCombiningSumKind, std::move(j), t.nodes, form, "program",
      [&](int n) {
        json entries = json::array();
        for (int r = 1; r <= t.rounds; ++r)
          for (int p = 0; p < t.ports; ++p)
            if (t.entries[t.at(n, r, p)])
              entries.push_back({r, p, register_list(t.send(n, r, p)), register_list(t.add(n, r, p))});
        return json{{"init", register_list(t.init[static_cast<size_t>(n)])},
                    {"result", register_list(t.result[static_cast<size_t>(n)])},
                    {"entries", std::move(entries)}};
      },
      [&](int n) { return encode_combining_sum_image(t, n); });
}

CombiningSumTables load_combining_sum_tables(const std::string& dir) {
  const fs::path root(dir);
  std::string what;
  json j = read_manifest(dir, kCombiningSumKind, what);
  CombiningSumTables t;
  try {
    const Topology topology = read_common_manifest_fields(j, t);
    t.nodes = j.at("nodes").get<int>();
    t.ports = j.at("ports").get<int>();
    t.registers = j.at("registers").get<int>();
    t.rounds = j.at("rounds").get<int>();
    t.root = j.at("root").get<int>();
    if (t.nodes != topology.num_nodes() || t.nodes > kMaxSumNodes || t.ports != topology.num_ports() ||
        t.ports > kMaxSumPorts || t.rounds < 1 || t.rounds > kMaxSumRounds || t.registers < 1 ||
        t.registers > kMaxSumRegisters)
      bad_table(what, "nodes, ports, registers or rounds out of range");
    t.init.assign(static_cast<size_t>(t.nodes), 0);
    t.result.assign(static_cast<size_t>(t.nodes), 0);
    t.entries.assign(static_cast<size_t>(t.nodes) * static_cast<size_t>(t.rounds) * static_cast<size_t>(t.ports), 0);
    if (manifest_form(j, what) == TableForm::Packed) {
      const PackedImages packed = PackedImages::read(dir, j.at("packed"), what, topology.num_nodes(), topology.spec());
      for_each_router(t.nodes, [&](int n) {
        decode_image(packed.image(static_cast<size_t>(n)), t, n, packed.image_name(static_cast<size_t>(n)));
      });
      validate_combining_sum(t, topology, what);
      return t;
    }
    CombiningSumTables listed = t;
    for_each_listed_router(j.at("routers"), t.nodes, root, what,
                           [&](int n, const json& r, const std::vector<uint32_t>& words, const std::string& hwhat) {
      const json& program = r.at("program");
      listed.init[static_cast<size_t>(n)] = register_mask(program.at("init"), what);
      listed.result[static_cast<size_t>(n)] = register_mask(program.at("result"), what);
      for (const json& e : program.at("entries")) {
        const int round = e.at(0).get<int>(), port = e.at(1).get<int>();
        if (round < 1 || round > t.rounds || port < 0 || port >= t.ports)
          bad_table(what, fmt::format("router {}: round {} port {} out of range", n, round, port));
        listed.entries[listed.at(n, round, port)] =
            register_mask(e.at(2), what) | static_cast<uint32_t>(register_mask(e.at(3), what)) << 16;
      }
      decode_image(words, t, n, hwhat);
      const size_t i = static_cast<size_t>(n);
      if ((t.init[i] != listed.init[i] || t.result[i] != listed.result[i] ||
           router_entries(t, n) != router_entries(listed, n)) &&
          !image_is_the_edit(hwhat, what, fmt::format("differs from the program in {}", what))) {
        t.init[i] = listed.init[i];
        t.result[i] = listed.result[i];
        const auto first = static_cast<std::ptrdiff_t>(t.at(n, 1, 0));
        const auto count = static_cast<std::ptrdiff_t>(t.rounds) * t.ports;
        std::copy(listed.entries.begin() + first, listed.entries.begin() + first + count, t.entries.begin() + first);
      }
    });
    validate_combining_sum(t, topology, what);
  } catch (const json::exception& e) {
    bad_table(what, fmt::format("missing or mistyped field ({})", e.what()));
  }
  return t;
}

}  // namespace fixroute
