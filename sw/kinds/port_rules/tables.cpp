#include "sw/kinds/port_rules/tables.h"

#include <fmt/format.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sw/core/errors.h"
#include "sw/topology/topology.h"

namespace fixroute {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr uint32_t kImageMagic = 0x46525442;        // "FRTB"
constexpr uint32_t kPackedImageMagic = 0x46525450;  // "FRTP": origin and dest in words of their own
constexpr int kHeaderWords = 5;                     // magic, version, node, ports, initial count
// An initial packet's words: origin|dest, seq|hops, port|release; in the packed form
// origin, dest, seq, hops, port|release.
int words_per_initial(TableForm form) { return form == TableForm::Packed ? 5 : 3; }
constexpr int kMaxHops = (1 << 24) - 1;
constexpr uint32_t kBroadcastField16 = 0xFFFFu;
constexpr uint32_t kBroadcastField32 = 0xFFFFFFFFu;
constexpr int kWordsPerPort = 3;              // rule; taps first|second; its switch list
constexpr int kMaxSwitchesPerPort = 0xFFFF;   // the count field of the switch-list word
constexpr int kMaxField16 = 0xFFFF;
constexpr int kMaxRelease = (1 << 24) - 1;
constexpr int kMaxPeriod = 15;

}  // namespace


namespace {

json parse_checked(const std::string& text, const std::string& what, const char* format) {
  return parse_checked_json(text, what, format, kTableVersion);
}

// A tap's in-port in the image: 8 bits, 0xFF for none.
uint32_t tap_field(int port) { return port < 0 ? 0xFFu : static_cast<uint32_t>(port); }
int tap_port(uint32_t field) { return field == 0xFFu ? -1 : static_cast<int>(field); }

json mask_to_ports(uint32_t mask) {
  json ports = json::array();
  for (int q = 0; q < kMaxPorts; ++q)
    if (mask & (1u << q)) ports.push_back(q);
  return ports;
}

uint32_t ports_to_mask(const json& list, const std::string& what) {
  uint32_t mask = 0;
  for (const json& q : list) {
    int port = q.get<int>();
    if (port < 0 || port >= kMaxPorts) bad_table(what, fmt::format("forward_to port {} out of range", port));
    mask |= 1u << port;
  }
  return mask;
}

json router_to_json(const RouterTable& r, const Topology& topo) {
  json ports = json::array();
  for (size_t p = 0; p < r.ports.size(); ++p) {
    const PortRule& rule = r.ports[p];
    ports.push_back({{"port", p},
                     {"name", topo.port_name(static_cast<int>(p))},
                     {"neighbour", topo.neighbour(r.node, static_cast<int>(p))},
                     {"forward_to", mask_to_ports(rule.forward_mask)},
                     {"queue", discipline_name(rule.discipline)},
                     {"send_period", rule.send_period},
                     {"send_phase", rule.send_phase},
                     {"tap_first", rule.tap_first},
                     {"tap_second", rule.tap_second},
                     {"switch_steps", rule.switch_steps}});
  }
  json initial = json::array();
  for (const InitialPacket& ip : r.initial)
    initial.push_back({{"port", ip.out_port},
                       {"origin", ip.packet.origin},
                       {"dest", ip.packet.dest},
                       {"seq", ip.packet.seq},
                       {"hops", ip.packet.hops},
                       {"release", ip.release}});
  json j = {{"format", "fixroute-router-table"}, {"version", kTableVersion}, {"node", r.node},
            {"ports", ports}, {"initial", initial}};
  j["checksum"] = hex32(json_checksum(j));
  return j;
}

Discipline parse_discipline(const std::string& s, const std::string& what) {
  if (s == "fifo") return Discipline::Fifo;
  if (s == "furthest-first") return Discipline::FurthestFirst;
  bad_table(what, fmt::format("queue '{}' is not fifo or furthest-first", s));
}

RouterTable router_from_json(const json& j, const std::string& what) {
  RouterTable r;
  try {
    r.node = j.at("node").get<int>();
    for (const json& p : j.at("ports")) {
      PortRule rule;
      rule.forward_mask = ports_to_mask(p.at("forward_to"), what);
      rule.tap_first = p.at("tap_first").get<int>();
      rule.tap_second = p.at("tap_second").get<int>();
      rule.switch_steps = p.at("switch_steps").get<std::vector<int>>();
      rule.discipline = parse_discipline(p.at("queue").get<std::string>(), what);
      rule.send_period = p.at("send_period").get<int>();
      rule.send_phase = p.at("send_phase").get<int>();
      r.ports.push_back(rule);
    }
    for (const json& ip : j.at("initial")) {
      InitialPacket x;
      x.out_port = ip.at("port").get<int>();
      x.packet.origin = ip.at("origin").get<int>();
      x.packet.dest = ip.at("dest").get<int>();
      x.packet.seq = ip.at("seq").get<int>();
      x.packet.hops = ip.at("hops").get<int>();
      x.release = ip.at("release").get<int>();
      r.initial.push_back(x);
    }
  } catch (const json::exception& e) {
    bad_table(what, fmt::format("missing or mistyped field ({})", e.what()));
  }
  return r;
}

void validate_router(const RouterTable& r, int node, const Topology& topo, const std::string& what) {
  const int P = topo.num_ports();
  if (r.node != node)
    bad_table(what, fmt::format("is for node {}, expected node {}", static_cast<uint32_t>(r.node), node));
  if (static_cast<int>(r.ports.size()) != P)
    bad_table(what, fmt::format("has {} ports, {} has {}", r.ports.size(), topo.spec(), P));
  for (int p = 0; p < P; ++p) {
    const PortRule& rule = r.ports[static_cast<size_t>(p)];
    if (rule.forward_mask >> P) bad_table(what, fmt::format("port {} forwards to a port >= {}", p, P));
    for (int q = 0; q < P; ++q)
      if ((rule.forward_mask & (1u << q)) && topo.neighbour(node, q) < 0)
        bad_table(what, fmt::format("port {} forwards to unconnected port {}", p, q));
    for (int source : {rule.tap_first, rule.tap_second}) {
      if (source == -1) continue;
      if (source < 0 || source >= P || source == p || topo.neighbour(node, source) < 0 || topo.neighbour(node, p) < 0)
        bad_table(what, fmt::format("port {} taps in-port {} (a tap joins two other connected ports, or is -1)", p, source));
      if (r.ports[static_cast<size_t>(source)].forward_mask & (1u << p))
        bad_table(what, fmt::format("port {} both forwards and taps arrivals from port {}", p, source));
    }
    if (static_cast<int>(rule.switch_steps.size()) > kMaxSwitchesPerPort)
      bad_table(what, fmt::format("port {} has {} switch steps (at most {})", p, rule.switch_steps.size(), kMaxSwitchesPerPort));
    for (size_t k = 0; k < rule.switch_steps.size(); ++k) {
      const int s = rule.switch_steps[k];
      if (s < 1 || s > kMaxRelease) bad_table(what, fmt::format("port {} switch step {} not in 1..{}", p, s, kMaxRelease));
      if (k > 0 && s <= rule.switch_steps[k - 1])
        bad_table(what, fmt::format("port {} switch steps are not strictly increasing ({} after {})", p, s,
                                    rule.switch_steps[k - 1]));
    }
    if (rule.send_period < 1 || rule.send_period > kMaxPeriod)
      bad_table(what, fmt::format("port {} send_period {} not in 1..{}", p, rule.send_period, kMaxPeriod));
    if (rule.send_phase < 0 || rule.send_phase >= rule.send_period)
      bad_table(what, fmt::format("port {} send_phase {} not in 0..{}", p, rule.send_phase, rule.send_period - 1));
  }
  size_t switches = 0;
  for (const PortRule& rule : r.ports) switches += rule.switch_steps.size();
  if (switches > static_cast<size_t>(kMaxSwitchesPerPort))
    bad_table(what, fmt::format("has {} switch steps in all (at most {})", switches, kMaxSwitchesPerPort));
  for (size_t i = 0; i < r.initial.size(); ++i) {
    const InitialPacket& ip = r.initial[i];
    auto fail = [&](const std::string& why) { bad_table(what, fmt::format("initial packet {}: {}", i, why)); };
    if (ip.out_port < 0 || ip.out_port >= P || topo.neighbour(node, ip.out_port) < 0)
      fail(fmt::format("port {} is not a connected port", ip.out_port));
    if (ip.packet.origin < 0 || ip.packet.origin >= topo.num_nodes()) fail("origin out of range");
    if (ip.packet.dest < kBroadcastDest || ip.packet.dest >= topo.num_nodes()) fail("dest out of range");
    if (ip.packet.seq < 0 || ip.packet.seq > kMaxField16) fail("seq out of range");
    if (ip.packet.hops < 0 || ip.packet.hops > kMaxHops) fail(fmt::format("hops {} not in 0..{}", ip.packet.hops, kMaxHops));
    if (ip.release < 1 || ip.release > kMaxRelease) fail(fmt::format("release {} not in 1..{}", ip.release, kMaxRelease));
    if (i > 0 && ip.release < r.initial[i - 1].release) fail("listed before a packet released earlier (initial packets are in release order)");
  }
}

}  // namespace

const char* discipline_name(Discipline d) { return d == Discipline::Fifo ? "fifo" : "furthest-first"; }


void validate(const NetworkTables& tables, const Topology& topology) {
  if (tables.topology != topology.spec())
    bad_table("set", fmt::format("is for '{}', not '{}'", tables.topology, topology.spec()));
  if (static_cast<int>(tables.routers.size()) != topology.num_nodes())
    bad_table("set", fmt::format("has {} routers, {} has {} nodes", tables.routers.size(), topology.spec(),
                                 topology.num_nodes()));
  for (int n = 0; n < topology.num_nodes(); ++n)
    validate_router(tables.routers[static_cast<size_t>(n)], n, topology, fmt::format("for router {}", n));
}

int64_t table_bits(const RouterTable& router, int num_ports) {
  int64_t switches = 0;
  for (const PortRule& p : router.ports) switches += static_cast<int64_t>(p.switch_steps.size());
  const int64_t words = kHeaderWords + int64_t{kWordsPerPort} * num_ports +
                        int64_t{words_per_initial(TableForm::Files)} * static_cast<int64_t>(router.initial.size()) +
                        switches + 1;  // encode_image's layout, the checksum last
  return words * 32;
}

// --- memory image ---------------------------------------------------------------------

std::vector<uint32_t> encode_image(const RouterTable& r, int num_ports, TableForm form) {
  std::vector<uint32_t> w;
  size_t switches = 0;
  for (const PortRule& p : r.ports) switches += p.switch_steps.size();
  w.reserve(kHeaderWords + kWordsPerPort * static_cast<size_t>(num_ports) +
            static_cast<size_t>(words_per_initial(form)) * r.initial.size() + switches + 1);
  w.push_back(form == TableForm::Packed ? kPackedImageMagic : kImageMagic);
  w.push_back(kTableVersion);
  w.push_back(static_cast<uint32_t>(r.node));
  w.push_back(static_cast<uint32_t>(num_ports));
  w.push_back(static_cast<uint32_t>(r.initial.size()));
  size_t first_switch = 0;  // each port's switch steps follow the initial packets, in port order
  for (const PortRule& p : r.ports) {
    w.push_back((p.forward_mask & 0xFFFFu) | (static_cast<uint32_t>(p.discipline) << 16) |
                (static_cast<uint32_t>(p.send_period) << 20) | (static_cast<uint32_t>(p.send_phase) << 24));
    w.push_back(tap_field(p.tap_first) | (tap_field(p.tap_second) << 8));
    w.push_back(static_cast<uint32_t>(first_switch) | (static_cast<uint32_t>(p.switch_steps.size()) << 16));
    first_switch += p.switch_steps.size();
  }
  for (const InitialPacket& ip : r.initial) {
    if (form == TableForm::Packed) {
      w.push_back(static_cast<uint32_t>(ip.packet.origin));
      w.push_back(ip.packet.dest == kBroadcastDest ? kBroadcastField32 : static_cast<uint32_t>(ip.packet.dest));
      w.push_back(static_cast<uint32_t>(ip.packet.seq));
      w.push_back(static_cast<uint32_t>(ip.packet.hops));
    } else {
      const uint32_t dest = ip.packet.dest == kBroadcastDest ? kBroadcastField16 : static_cast<uint32_t>(ip.packet.dest);
      w.push_back(static_cast<uint32_t>(ip.packet.origin) | (dest << 16));
      w.push_back(static_cast<uint32_t>(ip.packet.seq) | (static_cast<uint32_t>(ip.packet.hops) << 16));
    }
    w.push_back(static_cast<uint32_t>(ip.out_port) | (static_cast<uint32_t>(ip.release) << 8));
  }
  for (const PortRule& p : r.ports)
    for (int step : p.switch_steps) w.push_back(static_cast<uint32_t>(step));
  w.push_back(crc32(w.data(), w.size() * sizeof(uint32_t)));
  return w;
}

RouterTable decode_image(const std::vector<uint32_t>& w, int num_ports, int num_nodes, const std::string& what,
                         TableForm form) {
  if (w.size() < kHeaderWords + 1) bad_table(what, "too short");
  if (w[0] != (form == TableForm::Packed ? kPackedImageMagic : kImageMagic))
    bad_table(what, fmt::format("bad magic word (not a fixroute {} table image)", table_form_name(form)));
  if (w[1] != kTableVersion) bad_table(what, fmt::format("version {} (this build reads {})", w[1], kTableVersion));
  if (static_cast<int>(w[3]) != num_ports) bad_table(what, fmt::format("has {} ports, expected {}", w[3], num_ports));
  size_t switches = 0;  // announced by the ports' switch-list words
  for (int p = 0; p < num_ports && kHeaderWords + kWordsPerPort * static_cast<size_t>(p) + 2 < w.size(); ++p)
    switches += w[kHeaderWords + kWordsPerPort * static_cast<size_t>(p) + 2] >> 16;
  size_t expected = kHeaderWords + kWordsPerPort * static_cast<size_t>(num_ports) +
                    static_cast<size_t>(words_per_initial(form)) * static_cast<size_t>(w[4]) + switches + 1;
  if (w[4] > (1u << 26) || w.size() != expected)
    bad_table(what, fmt::format("has {} words, its header announces {}", w.size(), expected));
  check_image_crc(w, what);
  if (static_cast<int>(w[2]) >= num_nodes) bad_table(what, "node id out of range");
  RouterTable r;
  r.node = static_cast<int>(w[2]);
  size_t i = kHeaderWords;
  uint32_t switches_before = 0;
  for (int p = 0; p < num_ports; ++p, i += kWordsPerPort) {
    PortRule rule;
    rule.forward_mask = w[i] & 0xFFFFu;
    uint32_t disc = (w[i] >> 16) & 0xF;
    if (disc > 1) bad_table(what, fmt::format("port {} has unknown queue discipline {}", p, disc));
    rule.discipline = static_cast<Discipline>(disc);
    rule.send_period = static_cast<int>((w[i] >> 20) & 0xF);
    rule.send_phase = static_cast<int>((w[i] >> 24) & 0xF);
    rule.tap_first = tap_port(w[i + 1] & 0xFFu);
    rule.tap_second = tap_port((w[i + 1] >> 8) & 0xFFu);
    if ((w[i + 2] & 0xFFFFu) != switches_before)
      bad_table(what, fmt::format("port {} switch list starts at {}, not after the earlier ports' {}", p,
                                  w[i + 2] & 0xFFFFu, switches_before));
    rule.switch_steps.resize(w[i + 2] >> 16);
    switches_before += w[i + 2] >> 16;
    r.ports.push_back(rule);
  }
  for (uint32_t k = 0; k < w[4]; ++k) {
    InitialPacket ip;
    if (form == TableForm::Packed) {
      if (w[i] >= static_cast<uint32_t>(num_nodes) || (w[i + 1] != kBroadcastField32 && w[i + 1] >= static_cast<uint32_t>(num_nodes)))
        bad_table(what, fmt::format("initial packet {}: origin or dest out of range", k));
      ip.packet.origin = static_cast<int>(w[i]);
      ip.packet.dest = w[i + 1] == kBroadcastField32 ? kBroadcastDest : static_cast<int>(w[i + 1]);
      if (w[i + 2] > static_cast<uint32_t>(kMaxField16) || w[i + 3] > static_cast<uint32_t>(kMaxHops))
        bad_table(what, fmt::format("initial packet {}: seq or hops out of range", k));
      ip.packet.seq = static_cast<int>(w[i + 2]);
      ip.packet.hops = static_cast<int>(w[i + 3]);
      i += 4;
    } else {
      ip.packet.origin = static_cast<int>(w[i] & 0xFFFFu);
      const uint32_t dest = w[i] >> 16;
      ip.packet.dest = dest == kBroadcastField16 ? kBroadcastDest : static_cast<int>(dest);
      ip.packet.seq = static_cast<int>(w[i + 1] & 0xFFFFu);
      ip.packet.hops = static_cast<int>(w[i + 1] >> 16);
      i += 2;
    }
    ip.out_port = static_cast<int>(w[i] & 0xFFu);
    ip.release = static_cast<int>(w[i] >> 8);
    ++i;
    r.initial.push_back(ip);
  }
  for (PortRule& rule : r.ports)
    for (int& step : rule.switch_steps) step = static_cast<int>(w[i++]);
  return r;
}


// --- directory of files -----------------------------------------------------------------

namespace {
std::string router_stem(int node) { return fmt::format("router-{}", node); }
}  // namespace

void write_tables(const NetworkTables& tables, const Topology& topology, const std::string& dir, TableForm form) {
  validate(tables, topology);
  if (form == TableForm::Files && topology.num_nodes() > kMaxFilesFormNodes)
    throw InputError(fmt::format("per-router table files hold 16-bit node ids: at most {} nodes ({} has {}); write "
                                 "the packed form",
                                 kMaxFilesFormNodes, topology.spec(), topology.num_nodes()));
  if (form == TableForm::Files)
    for (const RouterTable& r : tables.routers)
      for (const InitialPacket& ip : r.initial)
        if (ip.packet.hops > kMaxField16)
          throw InputError(fmt::format("router {}: a packet of {} hops does not fit a memory image's 16-bit field; "
                                       "write the packed form", r.node, ip.packet.hops));
  create_table_dir(dir);
  json manifest = common_manifest_fields(tables);
  manifest.update({{"port_model", tables.port_model.ports_name()}, {"duplex", tables.port_model.duplex_name()},
                   {"nodes", topology.num_nodes()}, {"ports", topology.num_ports()}});
  if (form == TableForm::Packed)
    return write_packed_tables(dir, kPortRulesKind, std::move(manifest), tables.routers, [&](const RouterTable& r) {
      return encode_image(r, topology.num_ports(), TableForm::Packed);
    });
  json routers = json::array();
  for (const RouterTable& r : tables.routers) {
    std::string stem = router_stem(r.node);
    std::vector<uint32_t> image = encode_image(r, topology.num_ports());
    write_table_file(fs::path(dir) / (stem + ".json"), router_to_json(r, topology).dump(1) + "\n");
    write_table_file(fs::path(dir) / (stem + ".hex"), image_to_hex(image));
    routers.push_back({{"node", r.node}, {"json", stem + ".json"}, {"hex", stem + ".hex"}, {"image_crc32", hex32(image.back())},
                       {"bits", static_cast<int64_t>(image.size()) * 32}});
  }
  manifest["routers"] = std::move(routers);
  write_manifest(dir, kPortRulesKind, std::move(manifest));
}

NetworkTables load_tables(const std::string& dir) {
  const fs::path root(dir);
  std::string mwhat;
  json m = read_manifest(dir, kPortRulesKind, mwhat);
  NetworkTables t;
  try {
    const Topology topo = read_common_manifest_fields(m, t);
    t.port_model = PortModel::parse(m.at("port_model").get<std::string>(), m.at("duplex").get<std::string>());
    if (manifest_form(m, mwhat) == TableForm::Packed) {
      const PackedImages packed = PackedImages::read(dir, m.at("packed"), mwhat, topo.num_nodes(), topo.spec());
      t.routers.reserve(packed.routers());
      for_each_router(topo.num_nodes(), [&](int n) {
        const std::string what = packed.image_name(static_cast<size_t>(n));
        RouterTable r = decode_image(packed.image(static_cast<size_t>(n)), topo.num_ports(), topo.num_nodes(), what,
                                     TableForm::Packed);
        validate_router(r, n, topo, what);
        t.routers.push_back(std::move(r));
      });
      return t;
    }
    const json& routers = m.at("routers");
    if (static_cast<int>(routers.size()) != topo.num_nodes())
      bad_table(mwhat, fmt::format("lists {} routers, {} has {}", routers.size(), topo.spec(), topo.num_nodes()));
    for_each_router(topo.num_nodes(), [&](int n) {
      const json& entry = routers[static_cast<size_t>(n)];
      fs::path jpath = root / entry.at("json").get<std::string>();
      fs::path hpath = root / entry.at("hex").get<std::string>();
      std::string jwhat = fmt::format("'{}'", jpath.string());
      std::string hwhat = fmt::format("'{}'", hpath.string());
      RouterTable from_json =
          router_from_json(parse_checked(read_table_file(jpath, jwhat), jwhat, "fixroute-router-table"), jwhat);
      validate_router(from_json, n, topo, jwhat);
      std::vector<uint32_t> words = hex_to_image(read_table_file(hpath, hwhat), hwhat);
      RouterTable from_hex = decode_image(words, topo.num_ports(), topo.num_nodes(), hwhat);
      if (words.empty() || hex32(words.back()) != entry.at("image_crc32").get<std::string>())
        checksum_mismatch(hwhat, "checksum differs from the one network.json records");
      if (!(from_hex == from_json) && image_is_the_edit(hwhat, jwhat, fmt::format("differs from {}", jwhat))) {
        validate_router(from_hex, n, topo, hwhat);
        from_json = std::move(from_hex);
      }
      t.routers.push_back(std::move(from_json));
    });
  } catch (const json::exception& e) {
    bad_table(mwhat, fmt::format("missing or mistyped field ({})", e.what()));
  }
  return t;
}

std::string port_model_refusal(const Topology& topology, const PortModel& model) {
  if (model.is_default() || topology.kind() == TopologyKind::Line || topology.kind() == TopologyKind::Ring) return "";
  return fmt::format("port model {} is implemented for line and ring tables, not {}", model.label(), topology.kind_name());
}

void apply_port_model(NetworkTables& tables, const Topology& topology, const PortModel& model) {
  tables.port_model = model;
  if (model.is_default()) return;
  if (const std::string why = port_model_refusal(topology, model); !why.empty()) throw InputError(why);
  for (RouterTable& r : tables.routers) {
    for (size_t p = 0; p < r.ports.size(); ++p) {
      r.ports[p].send_period = 2;
      r.ports[p].send_phase = p == 0 ? 1 : 0;  // + direction in odd steps, - direction in even steps
    }
    for (InitialPacket& ip : r.initial) ip.release = ip.out_port == 0 ? 2 * ip.release - 1 : 2 * ip.release;
  }
}

}  // namespace fixroute
