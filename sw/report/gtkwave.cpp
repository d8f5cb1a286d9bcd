#include "sw/report/gtkwave.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <vector>

#include "sw/core/errors.h"

namespace fixroute {

namespace {

struct Signal {
  std::string name;  // scopes joined by '.', then the variable and its range
  int width = 1;
};

// GTKWave's trace flags (its savefile format): binary or hex, right-justified; a group's
// begin and end are blank rows, a closed group collapsed.
constexpr const char* kBinary = "@28";
constexpr const char* kHex = "@22";
constexpr const char* kGroupBegin = "@800200";
constexpr const char* kClosedGroupBegin = "@c00200";
constexpr const char* kGroupEnd = "@1000200";
constexpr const char* kClosedGroupEnd = "@1401200";

std::vector<Signal> declared_signals(const std::string& vcd_path) {
  std::ifstream in(vcd_path);
  if (!in) throw InputError(fmt::format("cannot read the waveform '{}'", vcd_path));
  std::vector<Signal> out;
  std::set<std::string> seen;
  std::vector<std::string> scopes;
  std::string word;
  while (in >> word && word != "$enddefinitions") {
    if (word == "$scope") {
      std::string kind, name;
      in >> kind >> name;
      scopes.push_back(name);
    } else if (word == "$upscope") {
      if (!scopes.empty()) scopes.pop_back();
    } else if (word == "$var") {
      std::string type, id, name, rest;
      int width = 1;
      in >> type >> width >> id >> name;
      while (in >> rest && rest != "$end") name += rest;  // a range: data [63:0]
      std::string full;
      for (const std::string& s : scopes) full += s + ".";
      full += name;
      if (seen.insert(full).second) out.push_back({full, width});
      continue;
    }
    if (word != "$var")
      while (word != "$end" && in >> word) {
      }
  }
  return out;
}

}  // namespace

std::string gtkwave_save_path(const std::string& vcd_path) {
  std::filesystem::path p(vcd_path);
  if (p.extension() == ".vcd" || p.extension() == ".fst") return p.replace_extension(".gtkw").string();
  return vcd_path + ".gtkw";
}

namespace {
// `path` as seen from the save file's directory: the pair can move together (GTKWave takes
// a relative [dumpfile] from the save file's place).
std::string relative_to_save_file(const std::string& path, const std::string& save_path) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::absolute(save_path).parent_path();
  return fs::absolute(path).lexically_relative(dir).string();
}
}  // namespace

std::string gtkwave_save_file(const std::string& read_from, const std::string& dump_path, const std::string& save_path) {
  const std::vector<Signal> signals = declared_signals(read_from);
  // Routers: the scopes routerN (the RTL router arrays, SystemC).
  static const std::regex router_scope(R"(^router(\d+)$)");
  static const std::regex port_part(R"(^(?:g_)?(?:in|out|port)\[?(\d+)\]?(?:_|$))");
  // router -> group ("control", "port N") -> signals; router -1: the network's own.
  std::map<int, std::map<std::pair<int, std::string>, std::vector<const Signal*>>> groups;
  for (const Signal& s : signals) {
    int router = -1;
    std::string group = "network";
    int order = 0;
    size_t from = 0;
    std::vector<std::string> parts;
    for (size_t dot; (dot = s.name.find('.', from)) != std::string::npos; from = dot + 1)
      parts.push_back(s.name.substr(from, dot - from));
    parts.push_back(s.name.substr(from));
    std::smatch m;
    for (size_t i = 0; i < parts.size(); ++i) {
      if (router < 0 && i + 1 < parts.size() && std::regex_match(parts[i], m, router_scope)) {
        router = std::stoi(m[1].str());
        group = "control";
      } else if (router >= 0 && std::regex_search(parts[i], m, port_part)) {
        order = 1 + std::stoi(m[1]);
        group = fmt::format("port {}", m[1].str());
        break;
      }
    }
    groups[router][{order, group}].push_back(&s);
  }
  std::string out = fmt::format("[dumpfile] \"{}\"\n[savefile] \"{}\"\n[timestart] 0\n[size] 1400 900\n"
                                "[sst_expanded] 1\n[signals_width] 320\n",
                                relative_to_save_file(dump_path, save_path), std::filesystem::path(save_path).filename().string());
  bool first_router = true;
  for (const auto& [router, router_groups] : groups) {
    const std::string name = router < 0 ? "network" : fmt::format("router{}", router);
    const bool closed = router >= 0 && !first_router;
    if (router >= 0) first_router = false;
    out += fmt::format("{}\n-{}\n", closed ? kClosedGroupBegin : kGroupBegin, name);
    for (const auto& [key, members] : router_groups) {
      const bool sub = router >= 0;
      if (sub) out += fmt::format("{}\n-{}\n", kGroupBegin, key.second);
      for (const Signal* s : members) out += fmt::format("{}\n{}\n", s->width == 1 ? kBinary : kHex, s->name);
      if (sub) out += fmt::format("{}\n-{}\n", kGroupEnd, key.second);
    }
    out += fmt::format("{}\n-{}\n", closed ? kClosedGroupEnd : kGroupEnd, name);
  }
  return out;
}

}  // namespace fixroute
