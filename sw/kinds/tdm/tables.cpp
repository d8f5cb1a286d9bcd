#include "sw/kinds/tdm/tables.h"

#include <fmt/format.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "sw/kinds/tdm/engine.h"
#include "sw/tables/table_files.h"
#include "sw/topology/topology.h"

namespace fixroute {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {
constexpr uint32_t kTdmMagic = 0x46525444;  // "FRTD"
constexpr size_t kTdmHeaderWords = 5;

// The image's words after the header: per slot a word per port, output q's select in bits
// 0-4; word 0 also holds the ejection's select (bits 5-9) and the chain injected plus one
// (bits 10-31) -- one RAM lane per port in the router (rtl/tdm/fr_tdm_router.v).
std::vector<uint32_t> router_words(const TdmTables& t, int node) {
  std::vector<uint32_t> w;
  w.reserve(static_cast<size_t>(t.period) * static_cast<size_t>(t.ports));
  for (int s = 0; s < t.period; ++s)
    for (int q = 0; q < t.ports; ++q) {
      uint32_t word = t.select[t.at(node, s, q)];
      if (q == 0)
        word |= static_cast<uint32_t>(t.select[t.at(node, s, t.eject_output())]) << 5 |
                static_cast<uint32_t>(t.inject[t.inject_at(node, s)] + 1) << 10;
      w.push_back(word);
    }
  return w;
}

void decode_image(const std::vector<uint32_t>& w, TdmTables& t, int node, const std::string& what) {
  if (w.size() < kTdmHeaderWords + 1) bad_table(what, "too short for a header");
  if (w[0] != kTdmMagic) bad_table(what, "not a TDM table image (magic)");
  if (w[1] != static_cast<uint32_t>(kTdmTableVersion))
    bad_table(what, fmt::format("unsupported version {} (this build reads {})", w[1], kTdmTableVersion));
  check_image_crc(w, what);
  if (w[2] != static_cast<uint32_t>(node)) bad_table(what, fmt::format("is for node {}, not {}", w[2], node));
  if (w[3] != static_cast<uint32_t>(t.ports) || w[4] != static_cast<uint32_t>(t.period))
    bad_table(what, "ports or period differ from network.json");
  const size_t ports = static_cast<size_t>(t.ports);
  if (w.size() != kTdmHeaderWords + static_cast<size_t>(t.period) * ports + 1)
    bad_table(what, "length does not match its period and ports");
  for (int s = 0; s < t.period; ++s) {
    const uint32_t* slot = &w[kTdmHeaderWords + static_cast<size_t>(s) * ports];
    for (int q = 0; q < t.ports; ++q) {
      if (q > 0 && slot[q] >> 5) bad_table(what, fmt::format("slot {} port {}: bits beyond the select", s, q));
      t.select[t.at(node, s, q)] = static_cast<uint8_t>(slot[q] & 31u);
    }
    t.select[t.at(node, s, t.eject_output())] = static_cast<uint8_t>((slot[0] >> 5) & 31u);
    t.inject[t.inject_at(node, s)] = static_cast<int32_t>(slot[0] >> 10) - 1;
  }
}

json output_name(const TdmTables& t, int output) { return output == t.eject_output() ? json("eject") : json(output); }
json input_name(const TdmTables& t, uint8_t code) { return code == t.local_code() ? json("local") : json(code - 1); }

int output_of(const TdmTables& t, const json& j, const std::string& what) {
  if (j.is_string() && j.get<std::string>() == "eject") return t.eject_output();
  const int port = j.get<int>();
  if (port < 0 || port >= t.ports) bad_table(what, fmt::format("output {} is not a port (0..{}) or \"eject\"", port, t.ports - 1));
  return port;
}
uint8_t input_code(const TdmTables& t, const json& j, const std::string& what) {
  if (j.is_string() && j.get<std::string>() == "local") return t.local_code();
  const int port = j.get<int>();
  if (port < 0 || port >= t.ports) bad_table(what, fmt::format("input {} is not a port (0..{}) or \"local\"", port, t.ports - 1));
  return static_cast<uint8_t>(port + 1);
}

}  // namespace

namespace {

// Asks the kernel to back [data, data + bytes) with huge pages where it can (Linux; a hint,
// before the pages are first touched).
void advise_huge_pages(void* data, size_t bytes) {
#ifdef __linux__
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1),
                  end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHuge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace

TdmTables empty_tdm_tables(const Topology& topology, int period) {
  TdmTables t;
  t.topology = topology.spec();
  t.nodes = topology.num_nodes();
  t.ports = topology.num_ports();
  t.period = period;
  const size_t entries = static_cast<size_t>(t.nodes) * static_cast<size_t>(period);
  // A slot of a run reads every router's table, each in its own pages: on large networks
  // in huge pages, or every read would miss the TLB (torus 64x64: 8192 pages a slot).
  t.select.reserve(entries * static_cast<size_t>(t.outputs()));
  t.inject.reserve(entries);
  advise_huge_pages(t.select.data(), t.select.capacity());
  advise_huge_pages(t.inject.data(), t.inject.capacity() * sizeof(int32_t));
  t.select.assign(entries * static_cast<size_t>(t.outputs()), kTdmNone);
  t.inject.assign(entries, -1);
  return t;
}

void validate_tdm(const TdmTables& t, const Topology& topology, const std::string& what) {
  if (t.nodes != topology.num_nodes()) bad_table(what, fmt::format("{} routers for {} nodes", t.nodes, topology.num_nodes()));
  if (t.ports != topology.num_ports() || t.ports > kMaxTdmPorts)
    bad_table(what, fmt::format("{} ports per router; {} has {} (at most {})", t.ports, topology.spec(),
                                topology.num_ports(), kMaxTdmPorts));
  if (t.period < 1 || t.period > kMaxTdmPeriod) bad_table(what, fmt::format("period {}; accepted: 1..{}", t.period, kMaxTdmPeriod));
  if (t.select.size() != static_cast<size_t>(t.nodes) * static_cast<size_t>(t.period) * static_cast<size_t>(t.outputs()) ||
      t.inject.size() != static_cast<size_t>(t.nodes) * static_cast<size_t>(t.period))
    bad_table(what, "the slot tables do not cover every router and slot");
  for (size_t f = 0; f < t.flows.size(); ++f) {
    const TdmFlow& flow = t.flows[f];
    if (flow.src < 0 || flow.src >= t.nodes || flow.dst < 0 || flow.dst >= t.nodes || flow.src == flow.dst ||
        flow.phits < 1)
      bad_table(what, fmt::format("flow {} ({} -> {}, {} phits) is not a flow of two distinct nodes", f, flow.src,
                                  flow.dst, flow.phits));
  }
  if (t.chains.size() >= kMaxTdmChains)
    bad_table(what, fmt::format("{} chains; an image numbers at most {}", t.chains.size(), kMaxTdmChains - 1));
  std::vector<int> chains_of_flow(t.flows.size(), 0);
  for (size_t c = 0; c < t.chains.size(); ++c) {
    const TdmChain& chain = t.chains[c];
    if (chain.flow < 0 || static_cast<size_t>(chain.flow) >= t.flows.size() || chain.inject_slot < 0 ||
        chain.inject_slot >= t.period || chain.hops < 1)
      bad_table(what, fmt::format("chain {} names flow {} slot {} hops {}: out of range", c, chain.flow,
                                  chain.inject_slot, chain.hops));
    ++chains_of_flow[static_cast<size_t>(chain.flow)];
  }
  for (size_t f = 0; f < t.flows.size(); ++f)
    if (chains_of_flow[f] != t.flows[f].phits)
      bad_table(what, fmt::format("flow {} needs {} phit(s) a period; the tables give it {}", f, t.flows[f].phits,
                                  chains_of_flow[f]));
  std::vector<int> injected(t.chains.size(), 0);
  for (int n = 0; n < t.nodes; ++n)
    for (int s = 0; s < t.period; ++s) {
      const int32_t c = t.inject[t.inject_at(n, s)];
      if (c >= 0) {
        if (static_cast<size_t>(c) >= t.chains.size())
          bad_table(what, fmt::format("router {} slot {}: injects chain {}, which does not exist", n, s, c));
        const TdmChain& chain = t.chains[static_cast<size_t>(c)];
        if (t.flows[static_cast<size_t>(chain.flow)].src != n || chain.inject_slot != s)
          bad_table(what, fmt::format("router {} slot {}: injects chain {}, which starts at node {} slot {}", n, s, c,
                                      t.flows[static_cast<size_t>(chain.flow)].src, chain.inject_slot));
        ++injected[static_cast<size_t>(c)];
      }
      uint32_t inputs_used = 0;
      for (int o = 0; o < t.outputs(); ++o) {
        const uint8_t code = t.select[t.at(n, s, o)];
        if (code == kTdmNone) continue;
        if (code > t.local_code())
          bad_table(what, fmt::format("router {} slot {} output {}: input code {} beyond its {} ports", n, s, o, code, t.ports));
        if (o < t.ports && topology.neighbour(n, o) < 0)
          bad_table(what, fmt::format("router {} slot {}: sends on port {}, which has no link", n, s, o));
        if (code != t.local_code() && topology.neighbour(n, code - 1) < 0)
          bad_table(what, fmt::format("router {} slot {}: takes port {}, which has no link", n, s, code - 1));
        if ((inputs_used >> code) & 1u)
          bad_table(what, fmt::format("router {} slot {}: input {} drives two outputs", n, s,
                                      input_name(t, code).dump()));
        inputs_used |= 1u << code;
      }
    }
  for (size_t c = 0; c < t.chains.size(); ++c)
    if (injected[c] != 1) bad_table(what, fmt::format("chain {} is injected {} times a period, not once", c, injected[c]));
}

void check_tdm_image_chains(const TdmTables& t) {
  if (t.chains.size() >= kMaxTdmChains)
    throw InputError(fmt::format("{} chains: a TDM memory image numbers at most {}; such tables run from memory "
                                 "(ref, systemc), not as images (table files, rtl)",
                                 t.chains.size(), kMaxTdmChains - 1));
}

std::vector<uint32_t> encode_tdm_image(const TdmTables& t, int node) {
  check_tdm_image_chains(t);
  std::vector<uint32_t> w = {kTdmMagic, static_cast<uint32_t>(kTdmTableVersion), static_cast<uint32_t>(node),
                             static_cast<uint32_t>(t.ports), static_cast<uint32_t>(t.period)};
  const std::vector<uint32_t> body = router_words(t, node);
  w.insert(w.end(), body.begin(), body.end());
  w.push_back(crc32(w.data(), w.size() * sizeof(uint32_t)));
  return w;
}

int64_t tdm_table_bits(const TdmTables& t) {
  return static_cast<int64_t>(kTdmHeaderWords + static_cast<size_t>(t.period) * static_cast<size_t>(t.ports) + 1) * 32;
}

void write_tdm_tables(const TdmTables& t, const std::string& dir, TableForm form) {
  check_tdm_image_chains(t);
  create_table_dir(dir);
  json j = common_manifest_fields(t);
  json flows = json::array(), chains = json::array();
  for (const TdmFlow& f : t.flows) flows.push_back({f.src, f.dst, f.phits});
  for (const TdmChain& c : t.chains) chains.push_back({c.flow, c.inject_slot, c.hops});
  j.update({{"nodes", t.nodes}, {"ports", t.ports}, {"period", t.period}, {"flows", std::move(flows)},
            {"chains", std::move(chains)}, {"exact_lower_bound", t.exact_lower_bound}});
  j["slot_table"] = "slots: [slot, output (a port or \"eject\"), input (a port or \"local\")] for each output in use; "
                    "inject: [slot, chain] for each slot the network interface injects; flows: [src, dst, phits "
                    "per period]; chains: [flow, injection slot, hops]";
  write_numbered_router_tables(
      dir, kTdmKind, std::move(j), t.nodes, form, "slot_table",
      [&](int n) {
        json slots = json::array(), inject = json::array();
        for (int s = 0; s < t.period; ++s) {
          for (int o = 0; o < t.outputs(); ++o)
            if (const uint8_t code = t.select[t.at(n, s, o)]; code != kTdmNone)
              slots.push_back({s, output_name(t, o), input_name(t, code)});
          if (const int32_t c = t.inject[t.inject_at(n, s)]; c >= 0) inject.push_back({s, c});
        }
        return json{{"slots", std::move(slots)}, {"inject", std::move(inject)}};
      },
      [&](int n) { return encode_tdm_image(t, n); });
}

TdmTables load_tdm_tables(const std::string& dir) {
  const fs::path root(dir);
  std::string what;
  json j = read_manifest(dir, kTdmKind, what);
  TdmTables t;
  try {
    const Topology topology = read_common_manifest_fields(j, t);
    t.nodes = j.at("nodes").get<int>();
    t.ports = j.at("ports").get<int>();
    t.period = j.at("period").get<int>();
    t.exact_lower_bound = j.value("exact_lower_bound", 0);
    if (t.exact_lower_bound < 0 || t.exact_lower_bound > t.period)
      bad_table(what, fmt::format("exact_lower_bound {} is not 0..period", t.exact_lower_bound));
    if (t.nodes != topology.num_nodes() || t.ports != topology.num_ports() || t.ports > kMaxTdmPorts || t.period < 1 ||
        t.period > kMaxTdmPeriod ||
        static_cast<int64_t>(t.nodes) * t.period * (t.ports + 1) > kMaxTdmTableEntries)
      bad_table(what, "nodes, ports or period out of range");
    for (const json& f : j.at("flows")) t.flows.push_back({f.at(0).get<int>(), f.at(1).get<int>(), f.at(2).get<int>()});
    for (const json& c : j.at("chains"))
      t.chains.push_back({c.at(0).get<int>(), c.at(1).get<int>(), c.at(2).get<int>()});
    const TdmTables blank = empty_tdm_tables(topology, t.period);
    t.select = blank.select;
    t.inject = blank.inject;
    if (manifest_form(j, what) == TableForm::Packed) {
      const PackedImages packed = PackedImages::read(dir, j.at("packed"), what, topology.num_nodes(), topology.spec());
      for_each_router(t.nodes, [&](int n) {
        decode_image(packed.image(static_cast<size_t>(n)), t, n, packed.image_name(static_cast<size_t>(n)));
      });
      validate_tdm(t, topology, what);
      t.rounds = static_cast<int>(tdm_run_slots(t));
      return t;
    }
    TdmTables listed = t;
    for_each_listed_router(j.at("routers"), t.nodes, root, what,
                           [&](int n, const json& r, const std::vector<uint32_t>& words, const std::string& hwhat) {
      const json& table = r.at("slot_table");
      for (const json& e : table.at("slots")) {
        const int s = e.at(0).get<int>();
        if (s < 0 || s >= t.period) bad_table(what, fmt::format("router {}: slot {} is not 0..{}", n, s, t.period - 1));
        listed.select[listed.at(n, s, output_of(t, e.at(1), what))] = input_code(t, e.at(2), what);
      }
      for (const json& e : table.at("inject")) {
        const int s = e.at(0).get<int>();
        if (s < 0 || s >= t.period) bad_table(what, fmt::format("router {}: slot {} is not 0..{}", n, s, t.period - 1));
        listed.inject[listed.inject_at(n, s)] = e.at(1).get<int32_t>();
      }
      decode_image(words, t, n, hwhat);
      if (router_words(t, n) != router_words(listed, n) &&
          !image_is_the_edit(hwhat, what, fmt::format("differs from the slot table in {}", what))) {
        for (int s = 0; s < t.period; ++s) {
          for (int o = 0; o < t.outputs(); ++o) t.select[t.at(n, s, o)] = listed.select[listed.at(n, s, o)];
          t.inject[t.inject_at(n, s)] = listed.inject[listed.inject_at(n, s)];
        }
      }
    });
    validate_tdm(t, topology, what);
    t.rounds = static_cast<int>(tdm_run_slots(t));
  } catch (const json::exception& e) {
    bad_table(what, fmt::format("missing or mistyped field ({})", e.what()));
  }
  return t;
}

}  // namespace fixroute
